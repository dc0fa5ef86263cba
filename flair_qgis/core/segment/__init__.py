"""Segment: run an ONNX model over a raster extent, tile by tile, into class, confidence and head maps.

Entry points: :func:`plan.plan_segment` decides everything before a pixel is read; :func:`run.run_plan` runs it.
"""

# TEMP re-exports (the shell branch's gui imports need them before the merge; the integrator
# keeps the segment engineer's __all__ instead).
from .bands import band_label, channel_labels, check_band_numbers, choose_bands, parse_band_list, propose_bands
from .engine import CPU, CUDA, DEVICES, cuda_available
from .heads import check_supported
from .model import TASK_SEGMENTATION, InputSpec, ModelInfo, OutputSpec, read_model_info
from .run import SegmentResult

__all__ = [
    "CPU",
    "CUDA",
    "DEVICES",
    "TASK_SEGMENTATION",
    "InputSpec",
    "ModelInfo",
    "OutputSpec",
    "SegmentResult",
    "band_label",
    "channel_labels",
    "check_band_numbers",
    "check_supported",
    "choose_bands",
    "cuda_available",
    "parse_band_list",
    "propose_bands",
    "read_model_info",
]
