"""Review: sample items for photo-interpreters, store their verdicts, estimate label errors and map accuracy.

Entry points: :func:`job.create_review` (the sampling job: a :class:`SampleRequest` in, a
:class:`SampleResult` out), :class:`store.ReviewStore`, :class:`session.ReviewSession`,
:func:`report.review_report` (a typed :class:`ReviewReport`), :func:`apply.apply_review_raster`,
:func:`polygon_apply.apply_review_polygons`. The names below are what ``gui/`` and ``processing/`` use.
"""

from . import messages  # noqa: F401 - registers the package's message templates before any of its errors
from .agreement import MIN_PAIRS
from .apply import ApplyResult, Conflict, apply_review_raster
from .code_writeback import CODE_NOT_CLASS, CODES_DISAGREE, NO_CODE, SEVERAL_CODES
from .identity import file_identity
from .job import SampleRequest, SampleResult, create_review
from .polygon_apply import (
    DISAGREE,
    MISSING_FID,
    OUTSIDE_FID,
    Feature,
    FieldSpec,
    PolygonFeatures,
    apply_review_polygons,
)
from .report import review_report, write_review_report
from .report_types import (
    Agreement,
    ClassAccuracy,
    ClassLabelErrors,
    LabelErrors,
    MapAccuracy,
    Response,
    ReviewReport,
    Seconds,
)
from .request import DEFAULT_SAMPLES, MIN_PER_CLASS_LOWEST, check_design
from .schema import ReviewItem
from .session import ItemNotSeenError, ReviewSession
from .store import ReviewStore

__all__ = [
    "CODES_DISAGREE",
    "CODE_NOT_CLASS",
    "DEFAULT_SAMPLES",
    "DISAGREE",
    "MIN_PAIRS",
    "MIN_PER_CLASS_LOWEST",
    "MISSING_FID",
    "NO_CODE",
    "OUTSIDE_FID",
    "SEVERAL_CODES",
    "Agreement",
    "ApplyResult",
    "ClassAccuracy",
    "ClassLabelErrors",
    "Conflict",
    "Feature",
    "FieldSpec",
    "ItemNotSeenError",
    "LabelErrors",
    "MapAccuracy",
    "PolygonFeatures",
    "Response",
    "ReviewItem",
    "ReviewReport",
    "ReviewSession",
    "ReviewStore",
    "SampleRequest",
    "SampleResult",
    "Seconds",
    "apply_review_polygons",
    "apply_review_raster",
    "check_design",
    "create_review",
    "file_identity",
    "review_report",
    "write_review_report",
]
