"""Parameters shared by the scoring algorithms (evaluate, rank_labels, benchmark)."""

from __future__ import annotations

from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsProcessingContext,
    QgsProcessingFeedback,
    QgsProcessingParameterString,
)

from ..core.errors import InputError
from ..core.protocols import parse_class_map
from .base import tr

CLASS_MAP = "CLASS_MAP"


def class_map_parameter() -> QgsProcessingParameterString:
    """The advanced ``CLASS_MAP`` parameter: which protocol code each model value is."""
    param = QgsProcessingParameterString(
        CLASS_MAP,
        tr("Model value -> protocol code, when class names cannot align them (e.g. 0:1,1:2,12:13)"),
        optional=True,
    )
    param.setFlags(param.flags() | param.FlagAdvanced)
    return param


def class_map_of(algorithm, parameters: dict, context: QgsProcessingContext) -> dict[int, int] | None:
    """The ``CLASS_MAP`` parameter parsed; None when empty.

    Raises:
        InputError: malformed text.
    """
    text = algorithm.parameterAsString(parameters, CLASS_MAP, context) if CLASS_MAP in parameters else ""
    return parse_class_map(text) or None


def extent_of(
    algorithm, parameters: dict, name: str, context: QgsProcessingContext, crs: QgsCoordinateReferenceSystem
) -> tuple[float, float, float, float] | None:
    """An optional extent parameter in ``crs``; None when not given.

    Raises:
        InputError: the extent is empty.
    """
    if parameters.get(name) in (None, ""):
        return None
    rect = algorithm.parameterAsExtent(parameters, name, context, crs)
    if rect.isNull() or rect.isEmpty():
        raise InputError(tr("The extent is empty: choose an area with a width and a height."))
    return (rect.xMinimum(), rect.yMinimum(), rect.xMaximum(), rect.yMaximum())


def log_alignment(report: dict, feedback: QgsProcessingFeedback) -> None:
    """Say in the log how the model's classes were aligned with the protocol's, when they were."""
    message = (report.get("class_alignment") or {}).get("message")
    if message:
        feedback.pushInfo(message)
