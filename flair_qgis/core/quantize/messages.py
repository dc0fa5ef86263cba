"""The messages of the INT8 quantisation job's errors: key -> English template.

Registered in the plugin's catalogue (:mod:`flair_qgis.core.messages`) when the package is imported;
raised as ``InputError.of(key, **params)``; the French is in ``flair_qgis/i18n/flair_qgis_fr.ts``.
"""

from __future__ import annotations

from ..messages import register

MESSAGES = register(
    {
        # int8.py
        "int8_model_unreadable": "{file} is not a readable ONNX model: {error}",
        "no_int8_output": "Choose an OUTPUT file for the INT8 model.",
        "int8_output_is_model": "OUTPUT is the FP32 MODEL itself: choose another file for the INT8 model.",
        "already_quantised": "{name} is already quantised ({evidence}): choose its FP32 model.",
        "unquantisable_operators": (
            "{name} holds operators the INT8 quantiser cannot handle: {operators}. Export the model with "
            "standard ONNX operators and no control flow."
        ),
        "nothing_to_quantise": "{name} has no Conv, MatMul or Gemm operator: there is nothing to quantise.",
        "unnamed_conv_nodes": "The model's Conv nodes have no names: they cannot be kept in FP32.",
        "no_calibration_tiles": "Static quantisation needs calibration tiles.",
        "quantise_preprocessing_failed": "onnxruntime's pre-processing for quantisation failed: {error_type}: {error}",
        "bad_quantize_method": "METHOD must be one of {choices}, got {method!r}.",
        "bad_calibrator": "The calibrator must be one of {choices}, got {calibrator!r}.",
        "quantiser_failed": "onnxruntime's quantiser failed: {error_type}: {error}",
        # tiles.py
        "quantise_multi_input": (
            "The model has {input_count} inputs: quantising is supported for single-input models only."
        ),
        "no_calibration_layer": "Choose at least one calibration raster layer.",
        "bad_tile_counts": "CALIBRATION_TILES must be at least 1 and VALIDATION_TILES at least 0.",
        "calibration_without_tiles": "The calibration layers hold no tile.",
    },
    words=(
        "quantization metadata",
        "INT8 model",
    ),
)
