"""The messages of the segmentation job's errors (plan, mask, tile cache, class writers): key -> English template.

Registered in the plugin's catalogue (:mod:`flair_qgis.core.messages`) when the package is imported;
raised as ``InputError.of(key, **params)``; the French is in ``flair_qgis/i18n/flair_qgis_fr.ts``.
"""

from __future__ import annotations

from ..messages import register

MESSAGES = register(
    {
        # cache_run.py
        "cache_off_grid": (
            "With a tile cache the output grid must lie on the layer's pixel grid at the model's resolution."
        ),
        # head_writers.py
        "predicted_index_out_of_range": (
            "Output '{name}' predicts class index {index} but the model declares {class_count} classes: fix "
            "its 'classes' metadata."
        ),
        "regression_channels": "Regression output '{name}' has {channels} channels per pixel; one is expected.",
        # mask.py
        "mask_without_polygon": "The mask has no polygon: choose or select the polygons that bound the run.",
        "mask_without_area": "The selected polygons have no area.",
        # plan.py
        "input_layer_count": "The model has {input_count} inputs ({names}) but {layer_count} layer(s) were given.",
        "input_error": "Input {index}, {title}: {error}",
        "mask_outside_extent": "The extent and the mask polygons do not overlap: choose polygons inside the extent.",
        # tile_pipeline.py
        "onnxruntime_failed_tile": "onnxruntime failed on a tile: {error}",
        # plan.py (no_confidence is worded for the dock and Processing in i18n/errors.py)
        "no_confidence": (
            "Output '{name}' gives no class scores: a confidence raster cannot be computed; "
            "leave OUTPUT_CONFIDENCE empty."
        ),
        "layer_per_input": "The model has {input_count} inputs ({titles}): choose a raster layer for each.",
    },
    words=(
        "confidence",
        "tile values",
    ),
)
