"""``PRECISION=fp16``: the model converted to half precision at load time, checked against FP32.

The conversion keeps the model's inputs and outputs in float32 (onnxruntime's
``convert_float_to_float16`` with ``keep_io_types``), so the engine and the wrapped graph
(:mod:`.wrapped_graph`) feed and read it as before. It is refused where the CPU provider would run
(:func:`.sessions.decide_device`: x86 onnxruntime has few half-precision kernels, it would run
slower, not faster), and when its class maps agree with FP32's on fewer than
:data:`MIN_AGREEMENT` of the pixels of the run's first tiles.
INT8 is compared with FP32 too, but only warned about (below
:data:`flair_qgis.core.quantize.validation.AGREEMENT_WARNING`; the model is written either way).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..errors import InputError, ModelError

PRECISIONS = ("fp32", "fp16")
MIN_AGREEMENT = 0.995
#: Tiles of the run on which FP16 is compared with FP32 before the run starts.
VALIDATION_TILES = 4


def fp16_cpu_error() -> InputError:
    """The refusal of fp16 on the CPU provider (key ``fp16_cpu``), to raise or to show."""
    return InputError.of("fp16_cpu")


def refuse_fp16_on_cpu() -> None:
    """Raise the refusal of fp16 on the CPU provider (key ``fp16_cpu``)."""
    raise fp16_cpu_error()


def fp16_model_bytes(path: str) -> bytes:
    """The model at ``path`` in half precision, inputs and outputs kept float32.

    Raises:
        ModelError: the converter is not installed or fails on this model.
    """
    try:
        import onnx
        from onnxruntime.transformers.float16 import convert_float_to_float16
    except ImportError as err:
        raise ModelError.of("fp16_needs_onnx", error=str(err)) from err
    try:
        converted = convert_float_to_float16(onnx.load(path), keep_io_types=True)
    except Exception as err:  # the converter raises untyped errors
        raise ModelError.of("fp16_conversion_failed", error=str(err).splitlines()[0][:200]) from err
    return converted.SerializeToString()


def check_agreement(classes_fp16: np.ndarray, classes_fp32: np.ndarray, valid: np.ndarray) -> float:
    """Share of valid pixels where FP16 and FP32 give the same class; refuses below MIN_AGREEMENT.

    Args:
        classes_fp16, classes_fp32: ``(tiles, rows, cols)`` class indices.
        valid: boolean ``(tiles, rows, cols)``; pixels where it is False are not counted.

    Raises:
        InputError: agreement below :data:`MIN_AGREEMENT` (key ``fp16_agreement``, with the figure).
    """
    pixels = int(valid.sum())
    agreement = float((classes_fp16 == classes_fp32)[valid].sum() / pixels) if pixels else 1.0
    if agreement < MIN_AGREEMENT:
        raise InputError.of("fp16_agreement", agreement=agreement, required=MIN_AGREEMENT)
    return agreement


def primary_classes(outputs: dict, head_name: str, decide: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """``(tiles, rows, cols)`` class indices of the primary head from a batch's unpacked outputs.

    ``decide`` turns one tile's raw scores into indices (the host post-processing), for heads the
    graph does not reduce.
    """
    scores = outputs[head_name]
    index = getattr(scores, "index", None)
    if index is not None:
        return np.asarray(index)
    return np.stack([decide(scores[i]) for i in range(len(scores))])
