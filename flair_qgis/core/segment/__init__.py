"""Segment: the segmentation job, an ONNX model run over a raster extent into class, confidence and head maps.

Entry point: :mod:`.job` (``flair:segment``, the dock and ``scripts/flair segment`` call it):
:func:`~.job.plan_job` decides everything before a pixel is read (:func:`.plan.plan_segment`),
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
    SegmentJobRequest,
    SegmentJobResult,
    WrittenPolygons,
    plan_job,
    run_job,
    segment_job,
)
from .plan import (
    SegmentPlan,
    SegmentRequest,
    check_confidence,
    input_name,
    input_title,
    output_name,
    plan_run,
    plan_segment,
)
from .run import SegmentResult, run_plan, run_session

__all__ = [
    "POLYGON_PROGRESS_START",
    "PolygonStep",
    "SegmentJob",
    "SegmentJobRequest",
    "SegmentJobResult",
    "SegmentPlan",
    "SegmentRequest",
    "SegmentResult",
    "WrittenPolygons",
    "check_confidence",
    "input_name",
    "input_title",
    "output_name",
    "plan_job",
    "plan_run",
    "plan_segment",
    "run_job",
    "run_plan",
    "run_session",
    "segment_job",
]
