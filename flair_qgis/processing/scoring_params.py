"""Parameters shared by the algorithms that read class maps and references.

evaluate, rank_labels, sample and apply_review take the same groups of parameters (class map,
reference and its class field, confidence, protocol, extent, CLASS_MAP); each group is built
here once, with the names, types and defaults listed in DESIGN.md, and the labels each algorithm
shows passed in.
"""

from __future__ import annotations

from collections.abc import Sequence

from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsProcessingContext,
    QgsProcessingFeedback,
    QgsProcessingParameterDefinition,
    QgsProcessingParameterEnum,
    QgsProcessingParameterExtent,
    QgsProcessingParameterField,
    QgsProcessingParameterFile,
    QgsProcessingParameterMapLayer,
    QgsProcessingParameterRasterLayer,
    QgsProcessingParameterString,
    QgsRasterLayer,
)

from ..adapters.score_capture import prediction_file
from ..core.errors import InputError
from ..core.score import PROTOCOLS, Crosswalk, parse_class_map, read_crosswalk
from .base import tr

PREDICTION = "PREDICTION"
REFERENCE = "REFERENCE"
REFERENCE_FIELD = "REFERENCE_FIELD"
CONFIDENCE = "CONFIDENCE"
PROTOCOL = "PROTOCOL"
EXTENT = "EXTENT"
CLASS_MAP = "CLASS_MAP"
CROSSWALK = "CROSSWALK"


def reference_layer_parameter(label: str, optional: bool = False) -> QgsProcessingParameterMapLayer:
    """``REFERENCE``: a raster mask or a polygon layer.

    Args:
        label: the (translated) text the dialog shows.
        optional: whether the algorithm runs without it.

    Returns:
        The parameter.
    """
    return QgsProcessingParameterMapLayer(REFERENCE, label, optional=optional)


def class_map_inputs(
    reference: QgsProcessingParameterDefinition, field_label: str, field_optional: bool = True, confidence: bool = False
) -> list[QgsProcessingParameterDefinition]:
    """``PREDICTION`` (the class map), ``REFERENCE``, its ``REFERENCE_FIELD`` and, optionally, ``CONFIDENCE``.

    Args:
        reference: the ``REFERENCE`` parameter (raster or polygons, as the algorithm reads it).
        field_label: the (translated) text of the class field.
        field_optional: False when the reference is polygons only (the field is needed).
        confidence: whether the algorithm reads a confidence raster.

    Returns:
        The parameters, in the order the dialog shows them.
    """
    params = [QgsProcessingParameterRasterLayer(PREDICTION, tr("Prediction (class map)"))]
    params += reference_parameters(reference, field_label, field_optional)
    if confidence:
        params.append(QgsProcessingParameterRasterLayer(CONFIDENCE, tr("Confidence raster"), optional=True))
    return params


def reference_parameters(
    reference: QgsProcessingParameterDefinition, field_label: str, field_optional: bool = True
) -> list[QgsProcessingParameterDefinition]:
    """``REFERENCE`` and its class field ``REFERENCE_FIELD`` (used by polygon references).

    Args:
        reference: the ``REFERENCE`` parameter.
        field_label: the (translated) text of the class field.
        field_optional: False when the reference is polygons only.

    Returns:
        The two parameters.
    """
    field = QgsProcessingParameterField(
        REFERENCE_FIELD, field_label, parentLayerParameterName=REFERENCE, optional=field_optional
    )
    return [reference, field]


def choice_parameter(name: str, label: str, options: Sequence[str], default: str) -> QgsProcessingParameterEnum:
    """An enum parameter of static strings: scripts pass the option's text, not its index.

    Args:
        name: the parameter name.
        label: the (translated) text the dialog shows.
        options: the choices.
        default: the choice used when none is given.

    Returns:
        The parameter.
    """
    return QgsProcessingParameterEnum(name, label, options=list(options), defaultValue=default, usesStaticStrings=True)


def protocol_parameter(label: str, default: str, options: Sequence[str] = PROTOCOLS) -> QgsProcessingParameterEnum:
    """``PROTOCOL``: a protocol name.

    Args:
        label: the (translated) text the dialog shows.
        default: the protocol used when none is given.
        options: the protocols offered.

    Returns:
        The parameter.
    """
    return choice_parameter(PROTOCOL, label, options, default)


def extent_parameter(label: str) -> QgsProcessingParameterExtent:
    """The optional ``EXTENT``: only this area is read.

    Args:
        label: the (translated) text the dialog shows.

    Returns:
        The parameter.
    """
    return QgsProcessingParameterExtent(EXTENT, label, optional=True)


def prediction_of(algorithm, parameters: dict, context: QgsProcessingContext) -> tuple[QgsRasterLayer, str]:
    """The ``PREDICTION`` layer and its file.

    Raises:
        InputError: not a valid raster layer, or not a file (a web or database layer).
    """
    prediction = algorithm.parameterAsRasterLayer(parameters, PREDICTION, context)
    return prediction, prediction_file(prediction, "prediction")


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


def crosswalk_parameter() -> QgsProcessingParameterFile:
    """The optional ``CROSSWALK``: a CSV ``reference,class`` saying which class each reference value is."""
    return QgsProcessingParameterFile(
        CROSSWALK,
        tr("Crosswalk CSV (reference,class): the class each reference value counts as (text codes)"),
        extension="csv",
        optional=True,
    )


def crosswalk_of(algorithm, parameters: dict, context: QgsProcessingContext) -> Crosswalk | None:
    """The ``CROSSWALK`` file read; None when not given.

    Raises:
        InputError: unreadable or malformed CSV.
    """
    path = algorithm.parameterAsFile(parameters, CROSSWALK, context) if CROSSWALK in parameters else ""
    return read_crosswalk(path) if path else None


def log_crosswalk(entry: dict | None, feedback: QgsProcessingFeedback) -> None:
    """Say which crosswalk was applied and which reference values it left out (not scored)."""
    if not entry:
        return
    feedback.pushInfo(tr("Crosswalk {file} (sha256 {sha}).").format(file=entry["file"], sha=entry["sha256"][:12]))
    for row in entry.get("unmapped", []):
        feedback.pushWarning(
            tr(
                "Reference value '{value}' is not in the crosswalk: {pixels} px ({share} of the extent) not scored."
            ).format(value=row["value"], pixels=row["pixels"], share=f"{100 * row['share']:.2f} %")
        )


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


def log_notes(notes: Sequence[str], feedback: QgsProcessingFeedback) -> None:
    """Say in the log what a score job noted (:attr:`flair_qgis.core.score.ScoreResult.notes`): how
    the model's classes were aligned with the protocol's, when they were, and which local CRS was
    taken for which EPSG CRS."""
    for note in notes:
        feedback.pushInfo(note)
