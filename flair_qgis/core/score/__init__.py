"""Score: compare a class map with a reference (raster or polygons) under a published protocol.

Entry point: :func:`job.run_score` resolves the reference, scores (:func:`evaluate.score`: figures,
error map), ranks suspicious labels (:func:`labels.rank_labels`) and publishes the report
(:func:`report.publish_report`), or deletes what it wrote. The dock, ``flair:evaluate`` and
``flair:rank_labels`` build a :class:`job.ScoreRequest` and read the typed :class:`job.ScoreResult`
(:class:`result.ScoreReport`, whose ``to_report()`` is the report JSON).

The names below are the package's public surface: callers outside ``core`` import them from here.
"""

from . import messages  # noqa: F401 - registers the package's message templates before any of its errors
from .alignment import ClassAlignment, align_classes
from .crosswalk import Crosswalk, CrosswalkCodes, UnlistedTally, parse_crosswalk, read_crosswalk, reference_key
from .errormap import CORRECT, ERROR_WORDS, NOT_EVALUATED
from .evaluate import Reference, prediction_grid, reference_source, score, windows
from .job import ReferenceInput, ScoreRequest, ScoreResult, run_score
from .labels import rank_labels
from .metrics import ConfusionMatrix, build_scores
from .outputs import check_score_outputs, score_output_paths
from .polygons import CRS_WKT_ATTR, BoxIndex, PolygonSource, polygons_crs_wkt, without_own_crs
from .protocols import (
    ABSENT_SCORES,
    PROTOCOLS,
    Protocol,
    get_protocol,
    parse_class_map,
    protocol_from_parameters,
)
from .reference import ClassRasterSource, bounds_overlap, grid_bounds_in, raster_info
from .report import SIDECAR_SUFFIXES, Published, publish_report, report_paths
from .result import ClassScore, ScoreReport, Scores

__all__ = [
    "ABSENT_SCORES",
    "CORRECT",
    "CRS_WKT_ATTR",
    "ERROR_WORDS",
    "NOT_EVALUATED",
    "PROTOCOLS",
    "SIDECAR_SUFFIXES",
    "BoxIndex",
    "ClassAlignment",
    "ClassRasterSource",
    "ClassScore",
    "ConfusionMatrix",
    "Crosswalk",
    "CrosswalkCodes",
    "PolygonSource",
    "Protocol",
    "Published",
    "Reference",
    "ReferenceInput",
    "ScoreReport",
    "ScoreRequest",
    "ScoreResult",
    "Scores",
    "UnlistedTally",
    "align_classes",
    "bounds_overlap",
    "build_scores",
    "check_score_outputs",
    "get_protocol",
    "grid_bounds_in",
    "parse_class_map",
    "parse_crosswalk",
    "polygons_crs_wkt",
    "prediction_grid",
    "protocol_from_parameters",
    "publish_report",
    "rank_labels",
    "raster_info",
    "read_crosswalk",
    "reference_key",
    "reference_source",
    "report_paths",
    "run_score",
    "score",
    "score_output_paths",
    "windows",
    "without_own_crs",
]
