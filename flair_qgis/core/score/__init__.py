"""Score: compare a class map with a reference (raster or polygons) under a published protocol.

Entry point: :func:`job.run_score` resolves the reference, scores (:func:`evaluate.score`: figures,
error map), ranks suspicious labels (:func:`labels.rank_labels`) and publishes the report
(:func:`report.publish_report`), or deletes what it wrote. The dock, ``flair:evaluate`` and
``flair:rank_labels`` build a :class:`job.ScoreRequest` and read the typed :class:`job.ScoreResult`
(:class:`result.ScoreReport`, whose ``to_report()`` is the report JSON).

The names below are the package's public surface: callers outside ``core`` import them from here.
"""

from .evaluate import Reference, score
from .job import ReferenceInput, ScoreRequest, ScoreResult, run_score
from .protocols import (
    ABSENT_SCORES,
    PROTOCOLS,
    Protocol,
    get_protocol,
    parse_class_map,
    protocol_from_parameters,
)
from .report import SIDECAR_SUFFIXES, Published, publish_report, report_paths
from .result import ClassScore, ScoreReport, Scores

__all__ = [
    "ABSENT_SCORES",
    "PROTOCOLS",
    "SIDECAR_SUFFIXES",
    "ClassScore",
    "Protocol",
    "Published",
    "Reference",
    "ReferenceInput",
    "ScoreReport",
    "ScoreRequest",
    "ScoreResult",
    "Scores",
    "get_protocol",
    "parse_class_map",
    "protocol_from_parameters",
    "publish_report",
    "report_paths",
    "run_score",
    "score",
]
