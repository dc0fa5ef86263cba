"""Quantize: turn an FP32 ONNX model into an INT8 one calibrated on the user's own imagery.

Entry point: :func:`job.quantize` draws calibration and held-out validation tiles
(:mod:`.tiles`, read exactly as ``flair:segment`` reads them), quantises (:mod:`.int8`), then
compares the INT8 class maps with the FP32 ones on the held-out tiles (:mod:`.validation`).
:mod:`.cpu` says whether this CPU has a fast INT8 path. ``onnx`` and
``onnxruntime.quantization`` are imported only inside the functions that quantise: the plugin
loads and segments without them. Callers outside this package import the names below.
"""

from . import messages  # noqa: F401 - registers the package's message templates before any of its errors
from .cpu import CpuIdentity, Int8Capability, cpu_identity, int8_capability
from .int8 import CALIBRATORS, METHODS, check_quantizable, int8_origin, quantization_record
from .job import (
    DEFAULT_CALIBRATION_TILES,
    DEFAULT_VALIDATION_TILES,
    NOT_TIMED,
    NOT_VALIDATED,
    QuantizeRequest,
    QuantizeResult,
    quantize,
)
from .speed import WORTH_IT, SpeedUp
from .validation import AGREEMENT_WARNING, LOW_AGREEMENT, Agreement, ClassAgreement

__all__ = [
    "AGREEMENT_WARNING",
    "CALIBRATORS",
    "DEFAULT_CALIBRATION_TILES",
    "DEFAULT_VALIDATION_TILES",
    "LOW_AGREEMENT",
    "METHODS",
    "NOT_TIMED",
    "NOT_VALIDATED",
    "WORTH_IT",
    "Agreement",
    "ClassAgreement",
    "CpuIdentity",
    "Int8Capability",
    "QuantizeRequest",
    "QuantizeResult",
    "SpeedUp",
    "check_quantizable",
    "cpu_identity",
    "int8_capability",
    "int8_origin",
    "quantization_record",
    "quantize",
]
