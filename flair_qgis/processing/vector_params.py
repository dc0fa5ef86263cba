"""The cleaning parameters ``flair:vectorize`` and ``flair:segment`` (``OUTPUT_VECTOR``) share,
and the post-processor that styles the polygons Processing loads."""

from __future__ import annotations

from typing import Any

from qgis.core import (
    QgsProcessingAlgorithm,
    QgsProcessingContext,
    QgsProcessingLayerPostProcessorInterface,
    QgsProcessingParameterNumber,
    QgsVectorLayer,
)

from ..adapters.polygon_layer import style_polygons
from ..core.nomenclature import ClassInfo
from .base import tr

MIN_AREA_M2 = "MIN_AREA_M2"
SIMPLIFY_M = "SIMPLIFY_M"
FILL_HOLES_M2 = "FILL_HOLES_M2"


def add_cleaning_parameters(algorithm: QgsProcessingAlgorithm) -> None:
    """MIN_AREA_M2, SIMPLIFY_M and FILL_HOLES_M2, all 0 (off) by default."""
    for key, label in (
        (MIN_AREA_M2, tr("Merge regions smaller than (m², 0 = keep all)")),
        (SIMPLIFY_M, tr("Simplify boundaries by (m, 0 = exact pixel edges)")),
        (FILL_HOLES_M2, tr("Fill enclosed regions smaller than (m², 0 = none)")),
    ):
        algorithm.addParameter(
            QgsProcessingParameterNumber(
                key, label, QgsProcessingParameterNumber.Type.Double, 0.0, optional=True, minValue=0.0
            )
        )


def cleaning(algorithm: QgsProcessingAlgorithm, parameters: dict[str, Any], context: QgsProcessingContext) -> dict:
    """The cleaning options as :class:`~flair_qgis.core.vectorize.inputs.VectorizeRequest` fields."""

    def number(key: str) -> float:
        value = parameters.get(key)
        return 0.0 if value in (None, "") else algorithm.parameterAsDouble(parameters, key, context)

    return {
        "min_area_m2": number(MIN_AREA_M2),
        "simplify_m": number(SIMPLIFY_M),
        "fill_holes_m2": number(FILL_HOLES_M2),
    }


class PolygonStyler(QgsProcessingLayerPostProcessorInterface):
    """Styles the polygon layer Processing loads: the class palette and names in the legend."""

    def __init__(self, classes: tuple[ClassInfo, ...]) -> None:
        super().__init__()
        self.classes = classes

    def postProcessLayer(self, layer, context, feedback) -> None:
        if isinstance(layer, QgsVectorLayer):
            style_polygons(layer, self.classes)


# Processing loads layers after the algorithm instance is gone: the stylers must outlive it.
_STYLERS: dict[str, PolygonStyler] = {}


def style_on_load(context: QgsProcessingContext, path: str, classes: tuple[ClassInfo, ...]) -> PolygonStyler | None:
    """Attach a :class:`PolygonStyler` to ``path`` if Processing will load it (one kept per path)."""
    if not context.willLoadLayerOnCompletion(path):
        return None
    styler = PolygonStyler(classes)
    _STYLERS[path] = styler
    context.layerToLoadOnCompletionDetails(path).setPostProcessor(styler)
    return styler
