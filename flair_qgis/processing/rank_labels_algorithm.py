"""``flair:rank_labels``: reference polygons ordered from most to least suspicious."""

from __future__ import annotations

from typing import Any

from qgis.core import (
    QgsProcessing,
    QgsProcessingContext,
    QgsProcessingException,
    QgsProcessingFeedback,
    QgsProcessingOutputNumber,
    QgsProcessingParameterFileDestination,
    QgsProcessingParameterString,
    QgsProcessingParameterVectorLayer,
)

from ..adapters.reference_input import CapturedReference, PolygonLayerCapture, raster_file
from ..core.paths import check_outputs_not_inputs
from ..core.score.labels import rank_labels
from ..core.score.protocols import protocol_from_parameters
from . import scoring_params
from .base import FlairAlgorithm, tr


class RankLabelsAlgorithm(FlairAlgorithm):
    """Rank label polygons by how much the model disagrees with them."""

    PREDICTION = "PREDICTION"
    REFERENCE = "REFERENCE"
    REFERENCE_FIELD = "REFERENCE_FIELD"
    CONFIDENCE = "CONFIDENCE"
    PROTOCOL = "PROTOCOL"
    IGNORE_CLASSES = "IGNORE_CLASSES"
    REMAP = "REMAP"
    EXTENT = "EXTENT"
    OUTPUT = "OUTPUT"

    def name(self) -> str:
        return "rank_labels"

    def displayName(self) -> str:
        return tr("Rank suspicious labels")

    def shortHelpString(self) -> str:
        return tr(
            "Writes the reference polygons to a GeoPackage ordered from most to least suspicious, "
            "each with its label, the model's majority class, the share of its pixels where model and "
            "label agree (agreement), the pixels scored and, with a CONFIDENCE raster, the model's mean "
            "confidence. suspicion = (1 - agreement) x mean confidence (x 1 without confidence).\n\n"
            "Equal suspicions are ordered by the area in disagreement (disagreeing_px).\n\n"
            "PROTOCOL regroups values before comparing (flair1: 13..19 -> 13); custom uses REMAP. A class "
            "map whose values are not the protocol's codes is aligned by class name; CLASS_MAP gives the "
            "mapping explicitly."
        )

    def initAlgorithm(self, config: dict[str, Any] | None = None) -> None:
        reference = QgsProcessingParameterVectorLayer(
            self.REFERENCE, tr("Reference polygons"), [QgsProcessing.SourceType.TypeVectorPolygon]
        )
        for param in scoring_params.class_map_inputs(
            reference, tr("Class field"), field_optional=False, confidence=True
        ):
            self.addParameter(param)
        self.addParameter(scoring_params.protocol_parameter(tr("Protocol (value regrouping)"), "custom"))
        self.addParameter(QgsProcessingParameterString(self.IGNORE_CLASSES, tr("Values never counted"), optional=True))
        self.addParameter(QgsProcessingParameterString(self.REMAP, tr("Regroup values (e.g. 13-19:13)"), optional=True))
        self.addParameter(scoring_params.extent_parameter(tr("Only this area")))
        self.addParameter(
            QgsProcessingParameterFileDestination(self.OUTPUT, tr("Ranked labels"), fileFilter="GeoPackage (*.gpkg)")
        )
        self.addParameter(scoring_params.class_map_parameter())
        self.addOutput(QgsProcessingOutputNumber("POLYGONS", tr("Polygons ranked")))
        self.addOutput(
            QgsProcessingOutputNumber("DISAGREEING", tr("Polygons whose majority class differs from the label"))
        )

    def capture(self, parameters: dict, context: QgsProcessingContext) -> None:
        prediction, self.prediction_path = scoring_params.prediction_of(self, parameters, context)
        self.field = self.parameterAsString(parameters, self.REFERENCE_FIELD, context)
        layer = self.parameterAsVectorLayer(parameters, self.REFERENCE, context)
        if layer is None or not layer.isValid():
            raise QgsProcessingException(tr("REFERENCE is not a polygon layer QGIS can open."))
        self.reference = CapturedReference(layer.name(), self.field, polygons=PolygonLayerCapture.of(layer, self.field))
        confidence = self.parameterAsRasterLayer(parameters, self.CONFIDENCE, context)
        self.confidence_path = raster_file(confidence, "confidence raster") if confidence is not None else None
        self.protocol = protocol_from_parameters(
            self.parameterAsString(parameters, self.PROTOCOL, context) or "custom",
            ignore=self.parameterAsString(parameters, self.IGNORE_CLASSES, context),
            remap=self.parameterAsString(parameters, self.REMAP, context),
        )
        self.class_map = scoring_params.class_map_of(self, parameters, context)
        self.extent = scoring_params.extent_of(self, parameters, self.EXTENT, context, prediction.crs())
        self.output_path = self.parameterAsFileOutput(parameters, self.OUTPUT, context)
        if not self.output_path.lower().endswith(".gpkg"):
            self.output_path += ".gpkg"
        inputs = {
            self.PREDICTION: self.prediction_path,
            self.REFERENCE: layer.source(),
            self.CONFIDENCE: self.confidence_path,
        }
        check_outputs_not_inputs({self.OUTPUT: self.output_path}, inputs)

    def processAlgorithm(
        self, parameters: dict, context: QgsProcessingContext, feedback: QgsProcessingFeedback
    ) -> dict:
        is_canceled, on_progress = self.hooks(feedback)
        ranked = self.run_core(
            feedback,
            lambda: rank_labels(
                self.prediction_path,
                self.reference.resolve(self.prediction_path, self.extent, is_canceled=is_canceled).polygons,
                self.field,
                self.output_path,
                confidence_path=self.confidence_path,
                protocol=self.protocol,
                extent=self.extent,
                class_map=self.class_map,
                is_canceled=is_canceled,
                on_progress=on_progress,
            ),
        )
        scoring_params.log_alignment(ranked.attrs, feedback)
        disagreeing = int(((ranked["predicted"].notna()) & (ranked["predicted"] != ranked["label"])).sum())
        feedback.pushInfo(
            tr("{n} polygons ranked; the model's majority class differs from the label on {d}.").format(
                n=len(ranked), d=disagreeing
            )
        )
        return {self.OUTPUT: self.output_path, "POLYGONS": len(ranked), "DISAGREEING": disagreeing}
