"""``flair:apply_review``: a corrected copy of the reference from the review's verdicts."""

from __future__ import annotations

import os
from typing import Any

from qgis.core import (
    QgsProcessingContext,
    QgsProcessingFeedback,
    QgsProcessingOutputNumber,
    QgsProcessingParameterFile,
    QgsProcessingParameterFileDestination,
    QgsProviderRegistry,
    QgsVectorLayer,
)

from ..adapters.reference_input import capture_reference
from ..core.review.apply import apply_review_polygons, apply_review_raster
from .base import FlairAlgorithm, tr
from .scoring_params import reference_layer_parameter, reference_parameters


def _file_of(layer) -> str | None:
    """The file behind a layer (to refuse writing over it), or None."""
    if layer is None:
        return None
    return QgsProviderRegistry.instance().decodeUri(layer.providerType(), layer.source()).get("path") or None


class ApplyReviewAlgorithm(FlairAlgorithm):
    """Write the reference with the reviewed classes applied; the original is never modified."""

    REFERENCE = "REFERENCE"
    REFERENCE_FIELD = "REFERENCE_FIELD"
    REVIEW = "REVIEW"
    OUTPUT = "OUTPUT"

    def name(self) -> str:
        return "apply_review"

    def displayName(self) -> str:
        return tr("Apply label review (corrected reference)")

    def shortHelpString(self) -> str:
        return tr(
            "Writes a corrected copy of the reference: each raster cell (or polygon) under an item reviewed "
            "'correct' or 'wrong' takes the item's true class where it differs. A raster reference gives a "
            "GeoTIFF; polygons give a GeoPackage keeping every field plus 'label_before'. Unsure items change "
            "nothing. The original reference and the review are never modified."
        )

    def initAlgorithm(self, config: dict[str, Any] | None = None) -> None:
        reference = reference_layer_parameter(tr("Reference (raster mask or polygons)"))
        for param in reference_parameters(reference, tr("Class field (polygons)")):
            self.addParameter(param)
        self.addParameter(QgsProcessingParameterFile(self.REVIEW, tr("Review GeoPackage"), extension="gpkg"))
        self.addParameter(
            QgsProcessingParameterFileDestination(
                self.OUTPUT, tr("Corrected reference (.tif for a raster, .gpkg for polygons)"),
                fileFilter="GeoTIFF (*.tif);;GeoPackage (*.gpkg)",
            )
        )  # fmt: skip
        self.addOutput(QgsProcessingOutputNumber("CHANGED", tr("Cells or polygons changed")))

    def capture(self, parameters: dict, context: QgsProcessingContext) -> None:
        self.field = self.parameterAsString(parameters, self.REFERENCE_FIELD, context)
        layer = self.parameterAsLayer(parameters, self.REFERENCE, context)
        # Every field of the layer travels to the corrected copy.
        others = (
            tuple(n for n in layer.fields().names() if n != self.field) if isinstance(layer, QgsVectorLayer) else ()
        )
        self.reference = capture_reference(layer, self.field, extra_fields=others)
        self.reference_file = _file_of(layer)
        self.review_path = self.parameterAsFile(parameters, self.REVIEW, context)
        output = self.parameterAsFileOutput(parameters, self.OUTPUT, context)
        wanted = ".tif" if self.reference.raster_path else ".gpkg"
        if os.path.splitext(output)[1].lower() not in (".tif", ".tiff", ".gpkg"):
            output += wanted
        self.output_path = output

    def processAlgorithm(
        self, parameters: dict, context: QgsProcessingContext, feedback: QgsProcessingFeedback
    ) -> dict:
        def work() -> dict:
            if self.reference.raster_path:
                return apply_review_raster(self.reference.raster_path, self.review_path, self.output_path)
            return apply_review_polygons(
                self.reference.polygons.read(), self.field, self.review_path, self.output_path,
                reference_path=self.reference_file,
            )  # fmt: skip

        result = self.run_core(feedback, work)
        feedback.pushInfo(
            tr("{changed} changed from {reviewed} decided items ({outside} outside the reference): {path}").format(
                changed=result["changed"], reviewed=result["reviewed"], outside=result["outside"], path=result["output"]
            )
        )
        return {self.OUTPUT: result["output"], "CHANGED": result["changed"]}
