"""The messages of the review job's errors (request, sampling, review file, verdicts): key -> English template.

Registered in the plugin's catalogue (:mod:`flair_qgis.core.messages`) when the package is imported;
raised as ``InputError.of(key, **params)``; the French is in ``flair_qgis/i18n/flair_qgis_fr.ts``.
"""

from __future__ import annotations

from ..messages import register

MESSAGES = register(
    {
        # apply.py
        "class_outside_dtype": "Class {value} does not fit the reference's {dtype} cells.",
        "code_not_for_raster": (
            "Reference code '{code}' of the crosswalk cannot be written to the reference raster's {dtype} cells: "
            "give a CROSSWALK whose reference values are the raster's own numeric values."
        ),
        # create.py
        "layer_outside_prediction": "The {what} does not overlap the prediction: choose layers covering the same area.",
        "suspicious_needs_polygons": (
            "The suspicious design ranks reference polygons: give REFERENCE as a polygon layer."
        ),
        "no_scored_polygon": "No reference polygon has a scored pixel in the extent: nothing to review.",
        # identity.py
        "review_of_another_reference": (
            "The review was drawn from the reference {recorded}, not from {current} ({differ} differ). Give "
            "REFERENCE as the layer the review was sampled from, or sample a new review on this layer."
        ),
        # interpreters.py
        "not_double_reviewed": "Item {item_id} is not marked for a second review (field 'double').",
        "same_interpreter": (
            "{reviewer} gave the first verdict on item {item_id}: the second review must be another person's."
        ),
        # job.py
        "empty_sample": "The sample is empty: no valid pixel fell on the grid. Raise SAMPLES or widen the extent.",
        # label_strata.py
        "label_values_too_high": "DESIGN=stratified_label needs label values below {limit}: choose another design.",
        # polygon_apply.py
        "missing_class_field": "The reference layer has no field '{field}': give the class field (REFERENCE_FIELD).",
        # request.py
        "unknown_design": "Unknown DESIGN '{design}': use one of {choices}.",
        # sampling.py
        "too_few_samples": "SAMPLES must be at least 1 (got {samples}): give the number of items to review.",
        # request.py
        "min_per_class_too_low": (
            "MIN_PER_CLASS must be at least 2 (got {value}): a stratum with no item leaves the review "
            "incomplete for ever, and one with a single item has no variance, so its figures get no interval."
        ),
        "bad_double_review": "DOUBLE_REVIEW is a share of the items from 0 to 1 (got {value}).",
        "label_design_needs_reference": (
            "DESIGN=stratified_label splits each class by the labels under review: give REFERENCE (the labels)."
        ),
        "confidence_design_needs_raster": (
            "DESIGN=stratified_confidence splits each class by the model's confidence: give CONFIDENCE (the "
            "confidence raster flair:segment writes with OUTPUT_CONFIDENCE)."
        ),
        "bad_confidence_threshold": "CONFIDENCE_THRESHOLD must be in (0, 1] (got {value}).",
        "bad_low_confidence_share": "LOW_CONFIDENCE_SHARE must be in [0, 1] (got {value}).",
        # sampling.py
        "prediction_all_nodata": (
            "The prediction has no valid pixel in the extent (all nodata): there is no class to sample. "
            "Choose another extent or the class map itself."
        ),
        "unknown_pixel_design": "Unknown pixel design '{design}': use {choices}.",
        "confidence_design_needs_confidence": (
            "DESIGN=stratified_confidence splits each class by the model's confidence: give CONFIDENCE."
        ),
        "label_design_needs_labels": "DESIGN=stratified_label splits each class by the labels: give REFERENCE.",
        # schema.py
        "unknown_verdict": "Unknown verdict '{verdict}': use one of {choices}.",
        # session.py
        "item_not_seen": (
            "No class map or labels on the map: load one (Prediction [M] or Labels [R]) and look at the item "
            "before giving a verdict."
        ),
        # store.py
        "review_file_missing": "The review file does not exist: {path}. Create one with flair:sample.",
        "not_a_geopackage": (
            "{path} is not a GeoPackage ({error}). Open a review GeoPackage made by flair:sample (or create one "
            "in the Review tab)."
        ),
        "not_a_review": (
            "{path} is not a review GeoPackage: it has no {tables} table. "
            "Open a review GeoPackage made by flair:sample (or create one in the Review tab)."
        ),
        "review_lacks_fields": (
            "{path} is a GeoPackage of another schema: its layer 'review' lacks the fields {fields}. "
            "Open a review GeoPackage made by flair:sample (or create one in the Review tab)."
        ),
        "review_lacks_geometry": (
            "{path} is a GeoPackage of another schema: its layer 'review' lacks the geometry. "
            "Open a review GeoPackage made by flair:sample (or create one in the Review tab)."
        ),
        "unknown_item": "The review has no item {item_id}.",
        # sql.py
        "review_sql_name": (
            "The review GeoPackage names a table or field '{name}', which the plugin does not read: use "
            "letters, digits and _ only, or open a review GeoPackage made by flair:sample."
        ),
        "review_locked": (
            "The review file {path} stayed locked by another program for {seconds:g} s ({error}); the "
            "verdict was not saved: try again."
        ),
    },
    words=(
        "reference",
        "confidence raster",
        "review GeoPackage",
        "report",
    ),
)
