"""Segment: the segmentation job, an ONNX model run over a raster extent into class, confidence and head maps.

Entry point: :mod:`.job` (``flair:segment``, the dock and ``scripts/flair segment`` call it) with
the run's one request, :class:`~.request.SegmentRequest` (plain data: it crosses to Dask workers as
JSON). :func:`~.job.plan_job` decides everything before a pixel is read (:func:`.plan.plan_segment`),
:func:`~.job.run_job` runs it (:func:`.run.run_plan`) and, when asked, writes the polygons.
What every job shares (the grid, pixel sources, GeoTIFF writer, model description, sessions and the
wrapped graph) lives one layer down, in :mod:`flair_qgis.core.engine`.
Callers outside this package import the names below, never its inner modules.
"""

from . import messages  # noqa: F401 - registers the package's message templates before any of its errors
from .job import (
    POLYGON_PROGRESS_START,
    PolygonStep,
    SegmentJob,
    SegmentJobResult,
    WrittenPolygons,
    plan_job,
    run_job,
    segment_job,
)
from .names import class_map_path, confidence_path_for, live_output_path, run_output_path
from .plan import (
    SegmentPlan,
    check_confidence,
    input_name,
    input_title,
    output_name,
    plan_run,
    plan_segment,
)
from .request import PIXEL_OPTIONS, RUN_FIELDS, SegmentRequest
from .run import SegmentResult, run_plan, run_session

__all__ = [
    "PIXEL_OPTIONS",
    "POLYGON_PROGRESS_START",
    "RUN_FIELDS",
    "PolygonStep",
    "SegmentJob",
    "SegmentJobResult",
    "SegmentPlan",
    "SegmentRequest",
    "SegmentResult",
    "WrittenPolygons",
    "check_confidence",
    "class_map_path",
    "confidence_path_for",
    "input_name",
    "input_title",
    "live_output_path",
    "output_name",
    "plan_job",
    "plan_run",
    "plan_segment",
    "run_job",
    "run_output_path",
    "run_plan",
    "run_session",
    "segment_job",
]
