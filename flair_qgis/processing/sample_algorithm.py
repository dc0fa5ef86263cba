"""``flair:sample``: draw the items of a label review into a review GeoPackage."""

from __future__ import annotations

from typing import Any

from qgis.core import (
    QgsProcessingContext,
    QgsProcessingException,
    QgsProcessingFeedback,
    QgsProcessingOutputNumber,
    QgsProcessingParameterEnum,
    QgsProcessingParameterExtent,
    QgsProcessingParameterField,
    QgsProcessingParameterFileDestination,
    QgsProcessingParameterMapLayer,
    QgsProcessingParameterNumber,
    QgsProcessingParameterRasterLayer,
)

from ..adapters.reference_input import capture_reference, raster_file
from ..core.errors import FlairError, InputError
from ..core.paths import check_outputs_not_inputs
from ..core.review_create import SampleRequest, create_review
from ..core.sampling import DESIGNS
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
            "polygons most contradicted by the model first). Review the items in the FLAIR dock's Review tab."
        )

    def initAlgorithm(self, config: dict[str, Any] | None = None) -> None:
        self.addParameter(QgsProcessingParameterRasterLayer(self.PREDICTION, tr("Prediction (class map)")))
        self.addParameter(
            QgsProcessingParameterMapLayer(
                self.REFERENCE, tr("Labels under review (raster mask or polygons)"), optional=True
            )
        )
        self.addParameter(
            QgsProcessingParameterField(
                self.REFERENCE_FIELD, tr("Class field (polygons)"), parentLayerParameterName=self.REFERENCE,
                optional=True,
            )
        )  # fmt: skip
        self.addParameter(QgsProcessingParameterRasterLayer(self.CONFIDENCE, tr("Confidence raster"), optional=True))
        self.addParameter(QgsProcessingParameterExtent(self.EXTENT, tr("Only this area"), optional=True))
        self.addParameter(
            QgsProcessingParameterEnum(
                self.DESIGN, tr("Sampling design"), options=list(DESIGNS), defaultValue="stratified",
                usesStaticStrings=True,
            )
        )  # fmt: skip
        self.addParameter(
            QgsProcessingParameterNumber(self.SAMPLES, tr("Items (total)"), QgsProcessingParameterNumber.Integer, 200)
        )
        self.addParameter(
            QgsProcessingParameterNumber(
                self.MIN_PER_CLASS, tr("Minimum items per class (stratified)"), QgsProcessingParameterNumber.Integer,
                20, minValue=0,
            )
        )  # fmt: skip
        self.addParameter(
            QgsProcessingParameterNumber(self.SEED, tr("Random seed"), QgsProcessingParameterNumber.Integer, 0)
        )
        self.addParameter(
            QgsProcessingParameterFileDestination(
                self.OUTPUT, tr("Review GeoPackage"), fileFilter="GeoPackage (*.gpkg)"
            )
        )
        self.addOutput(QgsProcessingOutputNumber("ITEMS", tr("Items to review")))

    def prepareAlgorithm(
        self, parameters: dict, context: QgsProcessingContext, feedback: QgsProcessingFeedback
    ) -> bool:
        # Main thread: capture layers; processAlgorithm touches no layer.
        try:
            prediction = self.parameterAsRasterLayer(parameters, self.PREDICTION, context)
            prediction_path = raster_file(prediction, "prediction")
            samples = self.parameterAsInt(parameters, self.SAMPLES, context)
            if samples <= 0:
                raise InputError(f"SAMPLES must be at least 1 (got {samples}): give the number of items to review.")
            field = self.parameterAsString(parameters, self.REFERENCE_FIELD, context)
            layer = self.parameterAsLayer(parameters, self.REFERENCE, context)
            reference = capture_reference(layer, field) if layer is not None else None
            confidence = self.parameterAsRasterLayer(parameters, self.CONFIDENCE, context)
            extent = None
            if parameters.get(self.EXTENT) not in (None, ""):
                rect = self.parameterAsExtent(parameters, self.EXTENT, context, prediction.crs())
                if rect.isNull() or rect.isEmpty():
                    raise InputError(tr("The extent is empty: choose an area with a width and a height."))
                extent = (rect.xMinimum(), rect.yMinimum(), rect.xMaximum(), rect.yMaximum())
            output = self.parameterAsFileOutput(parameters, self.OUTPUT, context)
            sources = {"REFERENCE": layer.source() if layer is not None else None}
            check_outputs_not_inputs(
                {"OUTPUT": output if output.lower().endswith(".gpkg") else output + ".gpkg"}, sources
            )
            self.request = SampleRequest(
                prediction_path=prediction_path,
                output_path=output if output.lower().endswith(".gpkg") else output + ".gpkg",
                design=self.parameterAsString(parameters, self.DESIGN, context) or "stratified",
                samples=samples,
                min_per_class=self.parameterAsInt(parameters, self.MIN_PER_CLASS, context),
                seed=self.parameterAsInt(parameters, self.SEED, context),
                reference_raster=reference.raster_path if reference else None,
                reference_polygons=reference.polygons if reference else None,
                reference_field=field,
                reference_name=reference.name if reference else "",
                confidence_path=raster_file(confidence, "confidence raster") if confidence is not None else None,
                extent=extent,
            )
        except FlairError as err:
            raise QgsProcessingException(str(err)) from err
        return True

    def processAlgorithm(
        self, parameters: dict, context: QgsProcessingContext, feedback: QgsProcessingFeedback
    ) -> dict:
        is_canceled, on_progress = self.hooks(feedback)
        summary = self.run_core(
            feedback, lambda: create_review(self.request, is_canceled=is_canceled, on_progress=on_progress)
        )
        strata = ", ".join(f"{value}: {pixels} px" for value, pixels in sorted(summary["strata"].items()))
        feedback.pushInfo(
            tr("{n} items ({design}) written to {path}. Strata: {strata}.").format(
                n=summary["items"], design=summary["design"], path=summary["path"], strata=strata
            )
        )
        return {self.OUTPUT: summary["path"], "ITEMS": summary["items"]}
