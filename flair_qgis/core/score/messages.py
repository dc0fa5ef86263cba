"""The messages of the scoring job's errors (protocols, references, class alignment, metrics): key -> English template.

Registered in the plugin's catalogue (:mod:`flair_qgis.core.messages`) when the package is imported;
raised as ``InputError.of(key, **params)``; the French is in ``flair_qgis/i18n/flair_qgis_fr.ts``.
"""

from __future__ import annotations

from ..messages import register

MESSAGES = register(
    {
        # alignment.py
        "class_map_unknown_codes": (
            "CLASS_MAP maps to {codes}, which protocol {protocol} does not know (its codes: {classes})."
        ),
        # evaluate.py
        "prediction_without_band": "The prediction {path} has no band.",
        "no_reference": "No reference given: choose a raster mask or a polygon layer.",
        # job.py
        "suspicious_needs_polygon_layer": (
            "Suspicious labels are ranked for polygon references only: give a polygon layer."
        ),
        # labels.py
        "confidence_outside_prediction": "The confidence raster does not overlap the prediction.",
        # metrics.py
        "non_integer_classes": (
            "The {what} holds non-integer values: a class raster must hold whole class values (is it a "
            "probability or confidence raster?)."
        ),
        "not_class_values": "The {what} has data type {dtype}, not class values.",
        "window_shapes_differ": "Reference window {reference} and prediction window {prediction} differ.",
        "mask_shape_differs": "The validity mask does not match the window shape.",
        # polygons.py
        "field_not_classes": (
            "Field '{field}' holds values that are not class values ({values}{more}): give CROSSWALK, a CSV "
            "reference,class saying which class each value counts as, or choose the field that holds the "
            "integer class codes."
        ),
        # crosswalk.py
        "crosswalk_unreadable": "Cannot read the crosswalk {path} ({error}): give a UTF-8 CSV file.",
        "crosswalk_header": (
            "The crosswalk {name} starts with '{header}': its first line must be the header reference,class."
        ),
        "crosswalk_bad_line": (
            "Line {line} of the crosswalk {name} does not hold a reference value and a class: write value,class."
        ),
        "crosswalk_twice": "The crosswalk {name} gives two classes to the value '{value}': keep one line for it.",
        "crosswalk_unknown_class": (
            "The crosswalk {name} names the class '{target}', which is neither a class value nor a class name "
            "(the classes: {classes})."
        ),
        "reference_file_missing": "The reference file does not exist: {path}.",
        "unreadable_vector": "Cannot read {path} as a vector layer ({error}).",
        "reference_not_layer": "The reference is neither a raster nor a polygon layer.",
        "unknown_field": "The reference layer has no field '{field}'. Its fields are: {fields}.",
        "reference_not_polygons": (
            "The reference layer holds {kinds} geometries: give a polygon layer (or a raster mask) as reference."
        ),
        "local_crs_polygons": (
            "The reference polygons and the prediction are in different CRSs and one is a local CRS that "
            "cannot be reprojected: assign the right CRS to the layer."
        ),
        # protocols.py
        "unknown_protocol": "Unknown protocol '{name}': choose one of {choices}.",
        "unknown_absent_score": (
            "Unknown score for absent classes '{absent}': choose skip (left out of mIoU), one (1.0) or zero (0.0)."
        ),
        "evaluated_not_in_protocol": "Evaluated class(es) {classes} are not classes of protocol {protocol} ({codes}).",
        "bad_value_list": "{setting} must be integers or ranges separated by commas (e.g. 0,13-19), got {text!r}.",
        "bad_value_pairs": "{setting} entries are {form}, got {part!r}.",
        "bad_pair_target": "{setting} target must be an integer class value, got {target!r}.",
        # reference.py
        "local_crs_rasters": (
            "The prediction and the reference are in different CRSs and one of them is a local CRS that "
            "cannot be reprojected: assign the right CRS to the layer (e.g. EPSG:2154)."
        ),
        "raster_file_missing": "The {what} file does not exist: {path}.",
        "unreadable_raster": "The {what} {path} is not a raster GDAL can read ({error}).",
        # alignment.py, evaluate.py, metrics.py, polygons.py (worded for the dock and Processing in i18n/errors.py)
        "classes_not_aligned": (
            "The {what}'s classes ({declared}) are neither protocol {protocol}'s codes nor its class names "
            "({classes}). Give CLASS_MAP as value:code pairs (e.g. 0:1,1:2) to say which code each value is, "
            "or choose the protocol of this model."
        ),
        "no_common_pixel": (
            "No pixel has data in both the prediction and the reference over the area scored: check that they "
            "cover the same place (and the extent), and their nodata."
        ),
        "undeclared_values": (
            "Protocol {protocol} does not declare {values} (its classes are {classes}). Add them to "
            "IGNORE_CLASSES, regroup them with PROTOCOL=custom and REMAP{class_map}, or pick the protocol that "
            "matches these rasters."
        ),
        "no_class_field": "A polygon reference needs REFERENCE_FIELD: the field holding the class values.",
        "no_overlap": (
            "The prediction and the {what} do not overlap: choose layers (and an extent) covering the same area."
        ),
        "no_overlap_in_extent": (
            "The prediction and the {what} do not overlap within the extent: choose layers (and an extent) "
            "covering the same area."
        ),
    },
    words=(
        "reference",
        "reference polygons",
        "prediction",
        "class map",
        "confidence raster",
        "raster",
        "report",
        "CSV report",
        "confusion picture",
        "error map",
        "ranked labels",
        "model",
        "class values",
    ),
)
