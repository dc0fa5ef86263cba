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
    QgsVectorLayer,
)

from ..adapters.layer_source import layer_source
from ..adapters.polygon_stream import LayerFeatures, reference_identity
from ..adapters.reference_input import capture_reference
from ..core.review import (
    CODE_NOT_CLASS,
    CODES_DISAGREE,
    DISAGREE,
    MISSING_FID,
    NO_CODE,
    OUTSIDE_FID,
    SEVERAL_CODES,
    ApplyResult,
    Conflict,
    apply_review_polygons,
    apply_review_raster,
)
from . import scoring_params
from .base import FlairAlgorithm, tr
from .scoring_params import reference_layer_parameter, reference_parameters


def _file_of(layer) -> str | None:
    """The file behind a layer (to refuse writing over it), or None."""
    if layer is None:
        return None
    return layer_source(layer).path or None


def _reason(reason: str) -> str:
    """A conflict's reason in the user's language."""
    return {
        DISAGREE: tr("its items disagree"),
        OUTSIDE_FID: tr("the item's point is outside its source_fid polygon"),
        MISSING_FID: tr("the layer has no feature with the item's source_fid"),
        SEVERAL_CODES: tr("several reference codes count as the class decided and no verdict names one"),
        CODES_DISAGREE: tr("its items name different reference codes"),
        CODE_NOT_CLASS: tr("the reference code named does not count as the class decided"),
        NO_CODE: tr("no reference code counts as the class decided"),
    }.get(reason, reason)


def _conflict_line(row: Conflict) -> str:
    """A polygon or raster cell left unchanged, for the log."""
    values = {"label": row.label, "items": row.item_ids, "classes": row.true_classes, "reason": _reason(row.reason)}
    if row.cell is not None:
        return tr(
            "Cell at row {row}, column {col} (code {label}) left unchanged: items {items} (true classes {classes}): "
            "{reason}."
        ).format(row=row.cell[0], col=row.cell[1], **values)
    return tr("Polygon {fid} (class {label}) left unchanged: items {items} (true classes {classes}): {reason}.").format(
        fid=row.polygon_fid, **values
    )


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
            "Writes a corrected copy of the reference: each raster cell under an item reviewed 'correct' or "
            "'wrong' takes the item's true class where it differs. A polygon takes a new class only when the "
            "items in it agree; items that disagree are listed in the log and in table 'conflicts' and the "
            "polygon is left unchanged. An item whose point is outside its source_fid polygon is refused. "
            "A raster reference gives a GeoTIFF; polygons give a GeoPackage keeping every field plus "
            "'label_before' and 'review_items'. Unsure items change nothing. REFERENCE must be the layer the "
            "review was sampled from. The original reference and the review are never modified.\n\n"
            "A reference coded in its own nomenclature is written back in its own codes, through CROSSWALK "
            "(default: the crosswalk the review was drawn with). Where several codes count as the class "
            "decided, the code the verdict names is written (the adjudicated one where there is one); a "
            "verdict naming none leaves the polygon or cell unchanged and listed."
        )

    def initAlgorithm(self, config: dict[str, Any] | None = None) -> None:
        reference = reference_layer_parameter(tr("Reference (raster mask or polygons)"))
        for param in reference_parameters(reference, tr("Class field (polygons)")):
            self.addParameter(param)
        self.addParameter(QgsProcessingParameterFile(self.REVIEW, tr("Review GeoPackage"), extension="gpkg"))
        self.addParameter(
            QgsProcessingParameterFileDestination(
                self.OUTPUT,
                tr("Corrected reference (.tif for a raster, .gpkg for polygons)"),
                fileFilter="GeoTIFF (*.tif);;GeoPackage (*.gpkg)",
            )
        )
        self.addParameter(scoring_params.crosswalk_parameter())
        self.addOutput(QgsProcessingOutputNumber("CHANGED", tr("Cells or polygons changed")))

    def capture(self, parameters: dict, context: QgsProcessingContext) -> None:
        self.field = self.parameterAsString(parameters, self.REFERENCE_FIELD, context)
        layer = self.parameterAsLayer(parameters, self.REFERENCE, context)
        self.reference = capture_reference(layer, self.field)
        # Streamed feature by feature in the worker, every field kept.
        self.features = LayerFeatures.of(layer, self.field) if isinstance(layer, QgsVectorLayer) else None
        self.identity = reference_identity(layer)
        self.reference_file = _file_of(layer)
        self.review_path = self.parameterAsFile(parameters, self.REVIEW, context)
        self.crosswalk = scoring_params.crosswalk_of(self, parameters, context)
        output = self.parameterAsFileOutput(parameters, self.OUTPUT, context)
        wanted = ".tif" if self.reference.raster_path else ".gpkg"
        if os.path.splitext(output)[1].lower() not in (".tif", ".tiff", ".gpkg"):
            output += wanted
        self.output_path = output

    def processAlgorithm(
        self, parameters: dict, context: QgsProcessingContext, feedback: QgsProcessingFeedback
    ) -> dict:
        is_canceled, on_progress = self.hooks(feedback)

        def work() -> ApplyResult:
            if self.reference.raster_path:
                return apply_review_raster(
                    self.reference.raster_path, self.review_path, self.output_path, crosswalk=self.crosswalk
                )
            return apply_review_polygons(
                self.features,
                self.field,
                self.review_path,
                self.output_path,
                reference_path=self.reference_file,
                identity=self.identity,
                crosswalk=self.crosswalk,
                is_canceled=is_canceled,
                on_progress=on_progress,
            )

        result = self.run_core(feedback, work)
        for warning in result.warnings:
            feedback.pushWarning(warning)
        for row in result.conflicts:
            feedback.pushWarning(_conflict_line(row))
        if result.single_item:
            feedback.pushInfo(
                tr("{n} of the changed polygons rest on a single reviewed item (field 'review_items').").format(
                    n=result.single_item
                )
            )
        feedback.pushInfo(
            tr("{changed} changed from {reviewed} decided items ({outside} outside the reference): {path}").format(
                changed=result.changed, reviewed=result.reviewed, outside=result.outside, path=result.output
            )
        )
        return {self.OUTPUT: result.output, "CHANGED": result.changed}
