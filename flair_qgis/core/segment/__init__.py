"""Segment: run an ONNX model over a raster extent, tile by tile, into class, confidence and head maps.

Entry point: :mod:`.job` (``flair:segment``, the dock and ``scripts/flair segment`` call it):
:func:`~.job.plan_job` decides everything before a pixel is read (:func:`.plan.plan_segment`),
:func:`~.job.run_job` runs it (:func:`.run.run_plan`) and, when asked, writes the polygons.
Callers outside this package import the names below, never its inner modules.
"""

from .bands import band_label, channel_labels, check_band_numbers, choose_bands, parse_band_list, propose_bands
from .engine import CPU, CUDA, DEVICES, SessionInfo, create_session, cuda_available
from .grid import Grid, Tile, tile_layout
from .heads import HeadPlan, check_supported, plan_heads
from .job import (
    POLYGON_PROGRESS_START,
    PolygonStep,
    SegmentJob,
    SegmentJobRequest,
    SegmentJobResult,
    WrittenPolygons,
    plan_job,
    run_job,
    segment_job,
)
from .model import TASK_SEGMENTATION, InputSpec, ModelInfo, OutputSpec, read_model_info
from .plan import (
    CapturedRaster,
    SegmentPlan,
    SegmentRequest,
    SourceFactory,
    check_confidence,
    file_source,
    input_name,
    input_title,
    output_name,
    plan_run,
    plan_segment,
)
from .precision import PRECISIONS
from .run import SegmentResult, run_plan, run_session
from .source_files import describe_source_files, is_remote
from .sources import PixelSource, RasterFile, RasterioSource, WindowReader, capture_file
from .writer import qml_style

__all__ = [
    "CPU",
    "CUDA",
    "DEVICES",
    "POLYGON_PROGRESS_START",
    "PRECISIONS",
    "TASK_SEGMENTATION",
    "CapturedRaster",
    "Grid",
    "HeadPlan",
    "InputSpec",
    "ModelInfo",
    "OutputSpec",
    "PixelSource",
    "PolygonStep",
    "RasterFile",
    "RasterioSource",
    "SegmentJob",
    "SegmentJobRequest",
    "SegmentJobResult",
    "SegmentPlan",
    "SegmentRequest",
    "SegmentResult",
    "SessionInfo",
    "SourceFactory",
    "Tile",
    "WindowReader",
    "WrittenPolygons",
    "band_label",
    "capture_file",
    "channel_labels",
    "check_band_numbers",
    "check_confidence",
    "check_supported",
    "choose_bands",
    "create_session",
    "cuda_available",
    "describe_source_files",
    "file_source",
    "input_name",
    "input_title",
    "is_remote",
    "output_name",
    "parse_band_list",
    "plan_heads",
    "plan_job",
    "plan_run",
    "plan_segment",
    "propose_bands",
    "qml_style",
    "read_model_info",
    "run_job",
    "run_plan",
    "run_session",
    "segment_job",
    "tile_layout",
]
