"""``flair:sample``: draw the items of a label review into a review GeoPackage."""

from __future__ import annotations

from typing import Any

from qgis.core import (
    QgsProcessingContext,
    QgsProcessingFeedback,
    QgsProcessingOutputNumber,
    QgsProcessingParameterFileDestination,
    QgsProcessingParameterNumber,
)

from ..adapters.review_sample import SampleDesign, capture_sample
from ..core.review import DEFAULT_SAMPLES, SampleResult, create_review
from ..core.vocabulary import DESIGNS
from . import scoring_params
from .base import FlairAlgorithm, tr


class SampleAlgorithm(FlairAlgorithm):
    """Sample a class map (and its reference) for review by a photo-interpreter."""

    PREDICTION = "PREDICTION"
    REFERENCE = "REFERENCE"
    REFERENCE_FIELD = "REFERENCE_FIELD"
    CONFIDENCE = "CONFIDENCE"
    EXTENT = "EXTENT"
    DESIGN = "DESIGN"
    SAMPLES = "SAMPLES"
    MIN_PER_CLASS = "MIN_PER_CLASS"
    SEED = "SEED"
    CONFIDENCE_THRESHOLD = "CONFIDENCE_THRESHOLD"
    LOW_CONFIDENCE_SHARE = "LOW_CONFIDENCE_SHARE"
    DOUBLE_REVIEW = "DOUBLE_REVIEW"
    OUTPUT = "OUTPUT"

    def name(self) -> str:
        return "sample"

    def displayName(self) -> str:
        return tr("Sample items for label review")

    def shortHelpString(self) -> str:
        return tr(
            "Writes a review GeoPackage: layer 'review' (one item per sampled pixel centre, or per reference "
            "polygon for 'suspicious', with map class, label class, confidence, suspicion and empty verdict "
            "fields), table 'review_strata' (pixels per stratum), table 'review_design' and, with a reference, table "
            "'review_label_cells' (pixels per stratum x label class).\n\n"
            "DESIGN: stratified (strata = predicted classes, Olofsson et al. 2014; MIN_PER_CLASS per stratum, "
            "the rest in proportion to area), random, grid (systematic, random offset), suspicious (reference "
            "polygons most contradicted by the model first), stratified_confidence (strata = predicted class x "
            "confidence below / at or above CONFIDENCE_THRESHOLD; LOW_CONFIDENCE_SHARE of the items go to the "
            "low-confidence strata; needs CONFIDENCE; estimates after Stehman 2014), stratified_label (strata = "
            "predicted class x label class, for reviews whose aim is the labels; needs REFERENCE). MIN_PER_CLASS "
            "is at least 2 in the stratified designs. DOUBLE_REVIEW: share of the items, spread over the strata, "
            "that a second interpreter reviews blind (field 'double'); kappa and AC1 get an interval from 50 "
            "double-reviewed items on. Review the items in the FLAIR dock's Review tab."
        )

    def initAlgorithm(self, config: dict[str, Any] | None = None) -> None:
        reference = scoring_params.reference_layer_parameter(
            tr("Labels under review (raster mask or polygons)"), optional=True
        )
        for param in scoring_params.class_map_inputs(reference, tr("Class field (polygons)"), confidence=True):
            self.addParameter(param)
        self.addParameter(scoring_params.extent_parameter(tr("Only this area")))
        self.addParameter(scoring_params.choice_parameter(self.DESIGN, tr("Sampling design"), DESIGNS, "stratified"))
        self.addParameter(
            QgsProcessingParameterNumber(
                self.SAMPLES, tr("Items (total)"), QgsProcessingParameterNumber.Type.Integer, DEFAULT_SAMPLES
            )
        )
        self.addParameter(
            QgsProcessingParameterNumber(
                self.MIN_PER_CLASS,
                tr("Minimum items per class (stratified)"),
                QgsProcessingParameterNumber.Type.Integer,
                20,
                minValue=0,
            )
        )
        self.addParameter(
            QgsProcessingParameterNumber(self.SEED, tr("Random seed"), QgsProcessingParameterNumber.Type.Integer, 0)
        )
        for name, label, default in (
            (self.CONFIDENCE_THRESHOLD, tr("Confidence threshold (stratified_confidence)"), 0.7),
            (self.LOW_CONFIDENCE_SHARE, tr("Share of items below the threshold (stratified_confidence)"), 0.5),
            (self.DOUBLE_REVIEW, tr("Share of items for a second interpreter"), 0.0),
        ):
            self.addParameter(
                QgsProcessingParameterNumber(
                    name, label, QgsProcessingParameterNumber.Type.Double, default, minValue=0.0, maxValue=1.0
                )
            )
        self.addParameter(
            QgsProcessingParameterFileDestination(
                self.OUTPUT, tr("Review GeoPackage"), fileFilter="GeoPackage (*.gpkg)"
            )
        )
        self.addParameter(scoring_params.crosswalk_parameter())
        self.addOutput(QgsProcessingOutputNumber("ITEMS", tr("Items to review")))

    def capture(self, parameters: dict, context: QgsProcessingContext) -> None:
        prediction, _path = scoring_params.prediction_of(self, parameters, context)
        self.captured = capture_sample(
            prediction,
            self.parameterAsLayer(parameters, self.REFERENCE, context),
            self.parameterAsString(parameters, self.REFERENCE_FIELD, context),
            self.parameterAsRasterLayer(parameters, self.CONFIDENCE, context),
            scoring_params.extent_of(self, parameters, self.EXTENT, context, prediction.crs()),
            self.parameterAsFileOutput(parameters, self.OUTPUT, context),
            SampleDesign(
                design=self.parameterAsString(parameters, self.DESIGN, context) or "stratified",
                samples=self.parameterAsInt(parameters, self.SAMPLES, context),
                min_per_class=self.parameterAsInt(parameters, self.MIN_PER_CLASS, context),
                seed=self.parameterAsInt(parameters, self.SEED, context),
                confidence_threshold=self.parameterAsDouble(parameters, self.CONFIDENCE_THRESHOLD, context),
                low_confidence_share=self.parameterAsDouble(parameters, self.LOW_CONFIDENCE_SHARE, context),
                double_review=self.parameterAsDouble(parameters, self.DOUBLE_REVIEW, context),
            ),
            crosswalk=scoring_params.crosswalk_of(self, parameters, context),
        )

    def processAlgorithm(
        self, parameters: dict, context: QgsProcessingContext, feedback: QgsProcessingFeedback
    ) -> dict:
        is_canceled, on_progress = self.hooks(feedback)

        def work() -> SampleResult:
            request = self.captured.resolved(is_canceled)
            return create_review(request, is_canceled=is_canceled, on_progress=on_progress)

        summary = self.run_core(feedback, work)
        strata = ", ".join(f"{value}: {pixels} px" for value, pixels in sorted(summary.strata.items()))
        feedback.pushInfo(
            tr("{n} items ({design}) written to {path}. Strata: {strata}.").format(
                n=summary.items, design=summary.design, path=summary.path, strata=strata
            )
        )
        return {self.OUTPUT: summary.path, "ITEMS": summary.items}
