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

from ..adapters.score_capture import confidence_file, polygon_reference
from ..core.score import ScoreRequest, protocol_from_parameters, run_score
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
            "mapping explicitly. CROSSWALK (CSV reference,class) says which class each value of a text "
            "field counts as; the output then keeps the reference's own code in reference_code."
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
        self.addParameter(scoring_params.crosswalk_parameter())
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
        self.reference = polygon_reference(layer, self.field)
        self.confidence_path = confidence_file(self.parameterAsRasterLayer(parameters, self.CONFIDENCE, context))
        self.protocol = protocol_from_parameters(
            self.parameterAsString(parameters, self.PROTOCOL, context) or "custom",
            ignore=self.parameterAsString(parameters, self.IGNORE_CLASSES, context),
            remap=self.parameterAsString(parameters, self.REMAP, context),
        )
        self.class_map = scoring_params.class_map_of(self, parameters, context)
        self.crosswalk = scoring_params.crosswalk_of(self, parameters, context)
        self.extent = scoring_params.extent_of(self, parameters, self.EXTENT, context, prediction.crs())
        self.output_path = self.parameterAsFileOutput(parameters, self.OUTPUT, context)
        if not self.output_path.lower().endswith(".gpkg"):
            self.output_path += ".gpkg"
        self.reference_source = layer.source()  # the job refuses outputs onto it

    def processAlgorithm(
        self, parameters: dict, context: QgsProcessingContext, feedback: QgsProcessingFeedback
    ) -> dict:
        is_canceled, on_progress = self.hooks(feedback)
        request = ScoreRequest(
            self.prediction_path,
            self.reference,
            self.protocol,
            self.extent,
            self.class_map,
            crosswalk=self.crosswalk,
            metrics=False,
            ranked_path=self.output_path,
            confidence_path=self.confidence_path,
            reference_source=self.reference_source,
        )
        result = self.run_core(feedback, lambda: run_score(request, is_canceled, on_progress))
        scoring_params.log_notes(result.notes, feedback)
        ranked = result.ranked
        disagreeing = int(((ranked["predicted"].notna()) & (ranked["predicted"] != ranked["label"])).sum())
        feedback.pushInfo(
            tr("{n} polygons ranked; the model's majority class differs from the label on {d}.").format(
                n=len(ranked), d=disagreeing
            )
        )
        return {self.OUTPUT: self.output_path, "POLYGONS": len(ranked), "DISAGREEING": disagreeing}
