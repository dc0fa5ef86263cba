"""``flair:sample``: draw the items of a label review into a review GeoPackage."""

from __future__ import annotations

import dataclasses
from typing import Any

from qgis.core import (
    QgsDataSourceUri,
    QgsProcessingContext,
    QgsProcessingFeedback,
    QgsProcessingOutputNumber,
    QgsProcessingParameterFileDestination,
    QgsProcessingParameterNumber,
)

from ..adapters.polygon_stream import reference_identity
from ..adapters.reference_input import capture_reference, raster_file
from ..core.errors import InputError
from ..core.paths import check_outputs_not_inputs
from ..core.review import SampleRequest, SampleResult, create_review
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
            "fields), table 'review_strata' (pixels per predicted class) and table 'review_design'.\n\n"
            "DESIGN: stratified (strata = predicted classes, Olofsson et al. 2014; MIN_PER_CLASS per stratum, "
            "the rest in proportion to area), random, grid (systematic, random offset), suspicious (reference "
            "polygons most contradicted by the model first), stratified_confidence (strata = predicted class x "
            "confidence below / at or above CONFIDENCE_THRESHOLD; LOW_CONFIDENCE_SHARE of the items go to the "
            "low-confidence strata; needs CONFIDENCE; estimates after Stehman 2014). DOUBLE_REVIEW: share of the "
            "items, spread over the strata, that a second interpreter reviews blind (field 'double'). Review the "
            "items in the FLAIR dock's Review tab."
        )

    def initAlgorithm(self, config: dict[str, Any] | None = None) -> None:
        reference = scoring_params.reference_layer_parameter(
            tr("Labels under review (raster mask or polygons)"), optional=True
        )
        for param in scoring_params.class_map_inputs(reference, tr("Class field (polygons)"), confidence=True):
            self.addParameter(param)
        self.addParameter(scoring_params.extent_parameter(tr("Only this area")))
        self.addParameter(
            scoring_params.choice_parameter(self.DESIGN, tr("Sampling design"), DESIGNS, "stratified")
        )  # fmt: skip
        self.addParameter(
            QgsProcessingParameterNumber(
                self.SAMPLES, tr("Items (total)"), QgsProcessingParameterNumber.Type.Integer, 200
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
        )  # fmt: skip
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
        self.addOutput(QgsProcessingOutputNumber("ITEMS", tr("Items to review")))

    def capture(self, parameters: dict, context: QgsProcessingContext) -> None:
        prediction, prediction_path = scoring_params.prediction_of(self, parameters, context)
        samples = self.parameterAsInt(parameters, self.SAMPLES, context)
        if samples <= 0:
            raise InputError(f"SAMPLES must be at least 1 (got {samples}): give the number of items to review.")
        field = self.parameterAsString(parameters, self.REFERENCE_FIELD, context)
        layer = self.parameterAsLayer(parameters, self.REFERENCE, context)
        reference = capture_reference(layer, field) if layer is not None else None
        confidence = self.parameterAsRasterLayer(parameters, self.CONFIDENCE, context)
        extent = scoring_params.extent_of(self, parameters, self.EXTENT, context, prediction.crs())
        output = self.parameterAsFileOutput(parameters, self.OUTPUT, context)
        sources = {"REFERENCE": layer.source() if layer is not None else None}
        check_outputs_not_inputs({"OUTPUT": output if output.lower().endswith(".gpkg") else output + ".gpkg"}, sources)
        self.request = SampleRequest(
            prediction_path=prediction_path,
            output_path=output if output.lower().endswith(".gpkg") else output + ".gpkg",
            design=self.parameterAsString(parameters, self.DESIGN, context) or "stratified",
            samples=samples,
            min_per_class=self.parameterAsInt(parameters, self.MIN_PER_CLASS, context),
            seed=self.parameterAsInt(parameters, self.SEED, context),
            reference_raster=reference.raster_path if reference else None,
            reference_polygons=None,  # read in processAlgorithm, over the sampled extent only
            reference_field=field,
            reference_name=reference.name if reference else "",
            reference_identity=reference_identity(layer) if layer is not None else None,
            reference_source=_source_without_password(layer),
            reference_provider=layer.providerType() if layer is not None else "",
            confidence_path=raster_file(confidence, "confidence raster") if confidence is not None else None,
            extent=extent,
            confidence_threshold=self.parameterAsDouble(parameters, self.CONFIDENCE_THRESHOLD, context),
            low_confidence_share=self.parameterAsDouble(parameters, self.LOW_CONFIDENCE_SHARE, context),
            double_review=self.parameterAsDouble(parameters, self.DOUBLE_REVIEW, context),
        )
        self.reference = reference

    def processAlgorithm(
        self, parameters: dict, context: QgsProcessingContext, feedback: QgsProcessingFeedback
    ) -> dict:
        is_canceled, on_progress = self.hooks(feedback)

        def work() -> SampleResult:
            request = self.request
            if self.reference is not None and self.reference.polygons is not None:
                reference = self.reference.resolve(request.prediction_path, request.extent, is_canceled=is_canceled)
                request = dataclasses.replace(request, reference_polygons=reference.polygons)
            return create_review(request, is_canceled=is_canceled, on_progress=on_progress)

        summary = self.run_core(feedback, work)
        strata = ", ".join(f"{value}: {pixels} px" for value, pixels in sorted(summary.strata.items()))
        feedback.pushInfo(
            tr("{n} items ({design}) written to {path}. Strata: {strata}.").format(
                n=summary.items, design=summary.design, path=summary.path, strata=strata
            )
        )
        return {self.OUTPUT: summary.path, "ITEMS": summary.items}


def _source_without_password(layer) -> str:
    """The layer's data source as recorded in the review (a database password is left out)."""
    if layer is None:
        return ""
    source = layer.source()
    if layer.providerType() in ("postgres", "spatialite", "oracle", "mssql"):
        uri = QgsDataSourceUri(source)
        uri.setPassword("")
        return uri.uri(False)
    return source
