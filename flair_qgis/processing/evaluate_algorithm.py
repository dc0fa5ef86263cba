"""``flair:evaluate``: score a class map against a reference raster or polygon layer."""

from __future__ import annotations

from typing import Any

from qgis.core import (
    QgsProcessingContext,
    QgsProcessingFeedback,
    QgsProcessingOutputFile,
    QgsProcessingOutputNumber,
    QgsProcessingParameterBoolean,
    QgsProcessingParameterFileDestination,
    QgsProcessingParameterRasterDestination,
    QgsProcessingParameterString,
)

from ..adapters.score_capture import reference_of
from ..core.score import ScoreReport, ScoreRequest, protocol_from_parameters, report_paths, run_score
from . import scoring_params
from .base import FlairAlgorithm, tr

ABSENT_OPTIONS = ("protocol", "skip", "one", "zero")


class EvaluateAlgorithm(FlairAlgorithm):
    """IoU, mIoU, OA and a confusion matrix of a class map against a reference layer."""

    PREDICTION = "PREDICTION"
    REFERENCE = "REFERENCE"
    REFERENCE_FIELD = "REFERENCE_FIELD"
    PROTOCOL = "PROTOCOL"
    IGNORE_CLASSES = "IGNORE_CLASSES"
    REMAP = "REMAP"
    EVALUATED_CLASSES = "EVALUATED_CLASSES"
    CLASSES = "CLASSES"
    ABSENT_CLASS_SCORE = "ABSENT_CLASS_SCORE"
    DROP_EXCLUDED = "DROP_EXCLUDED"
    EXTENT = "EXTENT"
    OUTPUT_REPORT = "OUTPUT_REPORT"
    OUTPUT_ERROR_MAP = "OUTPUT_ERROR_MAP"

    def name(self) -> str:
        return "evaluate"

    def displayName(self) -> str:
        return tr("Evaluate class map against reference")

    def shortHelpString(self) -> str:
        return tr(
            "Scores a class-map raster against a reference: a raster mask (any CRS or resolution, "
            "aligned with nearest neighbour) or polygons with a class field (rasterised at pixel "
            "centres). Writes a JSON report (mIoU, OA, per-class IoU/precision/recall/F1/support, "
            "confusion matrix), a CSV of per-class figures and a PNG of the row-normalised confusion "
            "matrix next to it, and optionally an error map.\n\n"
            "PROTOCOL: flair1 (codes 13..19 regrouped to 'other', mIoU over 1..12, absent classes "
            "skipped), flairhub-landcover (15 classes, 15..18 dropped, absent = 0), flairhub-croptype "
            "(5 and 9 dropped, absent = 0), weedsense (17 classes, 255 ignored, absent = 1.0), custom "
            "(REMAP e.g. 13-19:13, CLASSES, EVALUATED_CLASSES). IGNORE_CLASSES: values never counted. "
            "ABSENT_CLASS_SCORE overrides what a class absent from both sides counts as.\n\n"
            "Nodata on either side is not counted. Values the protocol does not declare stop the run "
            "with their list.\n\n"
            "CROSSWALK: a CSV with the header reference,class, one line per value of the reference "
            "(text such as OCS GE's CS2.1.1.1, or numbers) and the class it counts as (value or name). "
            "Values it does not list are not scored; the report names them under 'crosswalk'."
        )

    def initAlgorithm(self, config: dict[str, Any] | None = None) -> None:
        reference = scoring_params.reference_layer_parameter(tr("Reference (raster mask or polygons)"))
        for param in scoring_params.class_map_inputs(reference, tr("Class field (polygon reference)")):
            self.addParameter(param)
        self.addParameter(scoring_params.protocol_parameter(tr("Protocol"), "flair1"))
        self.addParameter(
            QgsProcessingParameterString(self.IGNORE_CLASSES, tr("Values never counted (e.g. 0,255)"), optional=True)
        )
        self.addParameter(scoring_params.extent_parameter(tr("Score only this area")))
        self.addParameter(
            QgsProcessingParameterFileDestination(self.OUTPUT_REPORT, tr("Report (JSON)"), fileFilter="JSON (*.json)")
        )
        self.addParameter(
            QgsProcessingParameterRasterDestination(
                self.OUTPUT_ERROR_MAP, tr("Error map"), optional=True, createByDefault=False
            )
        )
        advanced = [
            QgsProcessingParameterString(
                self.REMAP, tr("Regroup values, custom protocol (e.g. 13-19:13)"), optional=True
            ),
            QgsProcessingParameterString(
                self.EVALUATED_CLASSES, tr("Classes averaged into mIoU (e.g. 1-12; empty = all)"), optional=True
            ),
            QgsProcessingParameterString(
                self.CLASSES, tr("Classes of a custom protocol (empty = the values found)"), optional=True
            ),
            scoring_params.choice_parameter(
                self.ABSENT_CLASS_SCORE, tr("A class absent from both sides counts as"), ABSENT_OPTIONS, "protocol"
            ),
            QgsProcessingParameterBoolean(
                self.DROP_EXCLUDED, tr("Drop pixels of non-evaluated classes (custom protocol)"), defaultValue=True
            ),
            scoring_params.class_map_parameter(),
        ]
        self.addParameter(scoring_params.crosswalk_parameter())
        for param in advanced:
            param.setFlags(param.flags() | param.FlagAdvanced)
            self.addParameter(param)
        self.addOutput(QgsProcessingOutputNumber("MIOU", tr("mIoU (0..1)")))
        self.addOutput(QgsProcessingOutputNumber("OA", tr("Overall accuracy (0..1)")))
        self.addOutput(QgsProcessingOutputNumber("PIXELS", tr("Pixels evaluated")))
        self.addOutput(QgsProcessingOutputFile("OUTPUT_CSV", tr("Per-class CSV")))
        self.addOutput(QgsProcessingOutputFile("OUTPUT_CHART", tr("Confusion matrix PNG")))

    def capture(self, parameters: dict, context: QgsProcessingContext) -> None:
        prediction, self.prediction_path = scoring_params.prediction_of(self, parameters, context)
        field = self.parameterAsString(parameters, self.REFERENCE_FIELD, context)
        reference_layer = self.parameterAsLayer(parameters, self.REFERENCE, context)
        self.reference = reference_of(reference_layer, field)
        self.protocol = self._protocol(parameters, context)
        self.class_map = scoring_params.class_map_of(self, parameters, context)
        self.crosswalk = scoring_params.crosswalk_of(self, parameters, context)
        self.extent = scoring_params.extent_of(self, parameters, self.EXTENT, context, prediction.crs())
        self.report_path, self.csv_path, self.chart_path = report_paths(
            self.parameterAsFileOutput(parameters, self.OUTPUT_REPORT, context)
        )
        self.error_map_path = self.parameterAsOutputLayer(parameters, self.OUTPUT_ERROR_MAP, context) or None
        self.reference_source = reference_layer.source()  # the job refuses outputs onto it

    def _protocol(self, parameters: dict, context: QgsProcessingContext):
        name = self.parameterAsString(parameters, self.PROTOCOL, context) or "flair1"
        custom_drop = parameters.get(self.DROP_EXCLUDED)
        drop = None
        if custom_drop not in (None, "") and name == "custom":
            drop = self.parameterAsBool(parameters, self.DROP_EXCLUDED, context)
        return protocol_from_parameters(
            name,
            self.parameterAsString(parameters, self.IGNORE_CLASSES, context),
            self.parameterAsString(parameters, self.REMAP, context),
            self.parameterAsString(parameters, self.EVALUATED_CLASSES, context),
            self.parameterAsString(parameters, self.CLASSES, context),
            self.parameterAsString(parameters, self.ABSENT_CLASS_SCORE, context) or "protocol",
            drop,
        )

    def processAlgorithm(
        self, parameters: dict, context: QgsProcessingContext, feedback: QgsProcessingFeedback
    ) -> dict:
        from ..adapters.charts import draw_confusion

        is_canceled, on_progress = self.hooks(feedback)
        request = ScoreRequest(
            self.prediction_path,
            self.reference,
            self.protocol,
            self.extent,
            self.class_map,
            crosswalk=self.crosswalk,
            error_map_path=self.error_map_path,
            report_path=self.report_path,
            csv_path=self.csv_path,
            chart_path=self.chart_path,
            chart=draw_confusion,
            reference_source=self.reference_source,
        )
        result = self.run_core(feedback, lambda: run_score(request, is_canceled, on_progress))
        report = result.report
        scoring_params.log_notes(result.notes, feedback)
        _log_scores(report, feedback)
        scoring_params.log_crosswalk(report.crosswalk, feedback)
        miou, oa = report.scores.miou, report.scores.oa
        return {
            "MIOU": float("nan") if miou is None else miou,
            "OA": float("nan") if oa is None else oa,
            "PIXELS": report.scores.pixels_evaluated,
            self.OUTPUT_REPORT: self.report_path,
            self.OUTPUT_ERROR_MAP: report.error_map,
            "OUTPUT_CSV": self.csv_path,
            "OUTPUT_CHART": self.chart_path,
        }


def _log_scores(report: ScoreReport, feedback: QgsProcessingFeedback) -> None:
    """The headline figures and one line per class."""
    scores = report.scores
    miou, oa = scores.miou, scores.oa
    feedback.pushInfo(
        tr("{protocol}: mIoU {miou} OA {oa} over {px} px (absent classes: {absent}).").format(
            protocol=scores.protocol,
            miou="-" if miou is None else f"{100 * miou:.2f} %",
            oa="-" if oa is None else f"{100 * oa:.2f} %",
            px=scores.pixels_evaluated,
            absent=scores.absent_class_score,
        )
    )
    for row in scores.classes:
        iou = "-" if row.iou is None else f"{100 * row.iou:.2f}"
        feedback.pushInfo(f"  {row.value:>4} {row.name:<28} IoU {iou:>6}  support {row.support}")
    if miou is None:
        feedback.pushWarning(tr("No evaluated class is present on either side: mIoU is undefined."))
