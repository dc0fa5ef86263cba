"""The messages of the vectorisation job's errors (inputs, polygon file): key -> English template.

Registered in the plugin's catalogue (:mod:`flair_qgis.core.messages`) when the package is imported;
raised as ``InputError.of(key, **params)``; the French is in ``flair_qgis/i18n/flair_qgis_fr.ts``.
"""

from __future__ import annotations

from ..messages import register

MESSAGES = register(
    {
        # inputs.py
        "bad_class_list": "CLASSES must list class values separated by commas, e.g. 1,3; got '{text}'.",
        "output_is_input_raster": "OUTPUT is the {setting} raster itself: choose another output file.",
        "negative_setting": "{setting} must be 0 or more, got {value}.",
        "continuous_prediction": (
            "PREDICTION {file} holds continuous values ({dtype}), not classes: give a class map of integer "
            "values (e.g. the OUTPUT of flair:segment)."
        ),
        "confidence_off_grid": (
            "CONFIDENCE {file} is not on the class map's grid: give the confidence raster written with that class map."
        ),
        "vector_output_is_folder": "OUTPUT {path} is a folder: give a file name such as predictions.gpkg.",
        "raster_not_found": "{setting} raster not found: {path}. Choose an existing raster file.",
        "raster_unreadable": "{setting} {file} cannot be read as a raster: {error}",
        # job.py
        "too_many_values": (
            "PREDICTION has more than {limit:,} distinct values: it is not a class map. Give a raster of "
            "class values (e.g. the OUTPUT of flair:segment), or classify it first."
        ),
        # writer.py
        "bad_vector_extension": "Cannot write polygons to '{file}': give a file ending in {extensions}.",
        # segment_output.py (worded for the dock and Processing in i18n/errors.py)
        "value_map_polygons": "Output '{name}' is a value map, not classes: it has no polygons.",
    },
)
