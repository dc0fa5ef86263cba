"""The ``flair`` Processing provider."""

from __future__ import annotations

from qgis.core import QgsProcessingProvider
from qgis.PyQt.QtGui import QIcon

from ..resource_paths import resources_path

PROVIDER_ID = "flair"


def _algorithms() -> list:
    """One instance of every algorithm, listed by name: a missing or broken module is an ImportError."""
    # Imported here, not at module level: the algorithms import rasterio and geopandas, which the
    # plugin checks for (and offers to install) before it registers the provider.
    from .apply_review_algorithm import ApplyReviewAlgorithm
    from .benchmark_algorithm import BenchmarkAlgorithm
    from .describe_algorithm import DescribeModelAlgorithm
    from .evaluate_algorithm import EvaluateAlgorithm
    from .quantize_algorithm import QuantizeAlgorithm
    from .rank_labels_algorithm import RankLabelsAlgorithm
    from .review_report_algorithm import ReviewReportAlgorithm
    from .sample_algorithm import SampleAlgorithm
    from .segment_algorithm import SegmentAlgorithm
    from .vectorize_algorithm import VectorizeAlgorithm

    return [
        SegmentAlgorithm(),
        EvaluateAlgorithm(),
        RankLabelsAlgorithm(),
        BenchmarkAlgorithm(),
        SampleAlgorithm(),
        ReviewReportAlgorithm(),
        ApplyReviewAlgorithm(),
        QuantizeAlgorithm(),
        VectorizeAlgorithm(),
        DescribeModelAlgorithm(),
    ]


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
