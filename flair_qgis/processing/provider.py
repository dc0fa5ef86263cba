"""The ``flair`` Processing provider."""

from __future__ import annotations

import os

from qgis.core import QgsProcessingProvider
from qgis.PyQt.QtGui import QIcon

from ..resource_paths import resources_path

PROVIDER_ID = "flair"


def _algorithms() -> list:
    """One instance of every algorithm; each module is imported here so a broken one is loud."""
    from .segment_algorithm import SegmentAlgorithm

    algorithms = [SegmentAlgorithm()]
    for module, name in (
        ("evaluate_algorithm", "EvaluateAlgorithm"),
        ("rank_labels_algorithm", "RankLabelsAlgorithm"),
        ("benchmark_algorithm", "BenchmarkAlgorithm"),
        ("sample_algorithm", "SampleAlgorithm"),
        ("review_report_algorithm", "ReviewReportAlgorithm"),
        ("apply_review_algorithm", "ApplyReviewAlgorithm"),
        ("quantize_algorithm", "QuantizeAlgorithm"),
        ("vectorize_algorithm", "VectorizeAlgorithm"),
    ):
        path = os.path.join(os.path.dirname(__file__), module + ".py")
        if os.path.exists(path):
            imported = __import__(f"{__package__}.{module}", fromlist=[name])
            algorithms.append(getattr(imported, name)())
    return algorithms


class FlairProvider(QgsProcessingProvider):
    """Segmentation, evaluation and benchmark algorithms for ONNX models."""

    def id(self) -> str:
        return PROVIDER_ID

    def name(self) -> str:
        return "FLAIR segmentation"

    def longName(self) -> str:
        return "FLAIR: ONNX semantic segmentation and scoring"

    def icon(self) -> QIcon:
        return QIcon(resources_path("icon.svg"))

    def loadAlgorithms(self) -> None:
        for algorithm in _algorithms():
            self.addAlgorithm(algorithm)
