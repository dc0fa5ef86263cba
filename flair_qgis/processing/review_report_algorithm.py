"""``flair:review_report``: label-error rates and map accuracy with confidence intervals."""

from __future__ import annotations

from typing import Any

from qgis.core import (
    QgsProcessingContext,
    QgsProcessingFeedback,
    QgsProcessingOutputFile,
    QgsProcessingOutputNumber,
    QgsProcessingParameterFile,
    QgsProcessingParameterFileDestination,
)

from ..adapters.deps_check import review_dependency_error
from ..core.review import ReviewReport, ReviewStore, review_report, write_review_report
from . import scoring_params
from .base import FlairAlgorithm, tr


class ReviewReportAlgorithm(FlairAlgorithm):
    """Turn the verdicts of a review into figures."""

    REVIEW = "REVIEW"
    OUTPUT_REPORT = "OUTPUT_REPORT"

    def name(self) -> str:
        return "review_report"

    def displayName(self) -> str:
        return tr("Label review report")

    def shortHelpString(self) -> str:
        return tr(
            "Reads a review GeoPackage (flair:sample, verdicts from the Review tab) and writes a JSON report and "
            "a per-class CSV beside it: label-error rate (overall and per label class) and map accuracy (overall, "
            "user's and producer's accuracy, area proportions, area in ha) with 95 % intervals that follow the "
            "sampling design: stratified estimators (Olofsson et al. 2014, Stehman 2014) for the stratified "
            "design, Wilson intervals for random and grid samples, counts only for the suspicious design (not a "
            "probability sample). Items marked unsure are left out and counted. With CROSSWALK (default: the "
            "crosswalk the review was drawn with) the report adds the verdicts per reference code."
        )

    def initAlgorithm(self, config: dict[str, Any] | None = None) -> None:
        self.addParameter(QgsProcessingParameterFile(self.REVIEW, tr("Review GeoPackage"), extension="gpkg"))
        self.addParameter(
            QgsProcessingParameterFileDestination(self.OUTPUT_REPORT, tr("Report (JSON)"), fileFilter="JSON (*.json)")
        )
        self.addParameter(scoring_params.crosswalk_parameter())
        self.addOutput(QgsProcessingOutputFile("OUTPUT_CSV", tr("Per-class CSV")))
        self.addOutput(QgsProcessingOutputNumber("REVIEWED", tr("Items reviewed")))
        self.addOutput(QgsProcessingOutputNumber("LABEL_ERROR_RATE", tr("Label-error rate")))

    def processAlgorithm(
        self, parameters: dict, context: QgsProcessingContext, feedback: QgsProcessingFeedback
    ) -> dict:
        review_path = self.parameterAsFile(parameters, self.REVIEW, context)
        report_path = self.parameterAsFileOutput(parameters, self.OUTPUT_REPORT, context)
        if not report_path.lower().endswith(".json"):
            report_path += ".json"
        crosswalk = self.run_core(feedback, lambda: scoring_params.crosswalk_of(self, parameters, context))

        def work() -> tuple[ReviewReport, str]:
            with ReviewStore.open(review_path) as store:
                report = review_report(store, crosswalk=crosswalk)
            return report, write_review_report(report, report_path, review_path)

        report, csv_path = self.run_core(feedback, work)
        errors = report.label_errors
        if not errors.probability_sample:
            rate = tr("{wrong} of {n} reviewed items wrong (not a probability sample)").format(
                wrong=errors.wrong, n=errors.reviewed
            )
        elif errors.rate is None:
            rate = "-"
        else:
            ci = errors.ci95
            rate = f"{100 * errors.rate:.1f} %" + (f" [{100 * ci[0]:.1f}-{100 * ci[1]:.1f} %]" if ci else "")
        feedback.pushInfo(
            tr("{reviewed} of {items} items reviewed ({unsure} unsure); label errors: {rate}.").format(
                reviewed=report.reviewed, items=report.items, unsure=report.unsure, rate=rate
            )
        )
        feedback.pushInfo(tr("Estimator: {name}").format(name=errors.estimator))
        if report.response.warning:
            feedback.pushWarning(report.response.warning)
        missing = review_dependency_error()
        if missing:  # the estimates are written; their intervals are null with a note
            feedback.pushWarning(missing)
        agreement = report.agreement
        if agreement.items:
            feedback.pushInfo(
                tr(
                    "Two interpreters on {n} items: raw agreement {raw:.2f}, kappa {kappa}, AC1 {ac1}; "
                    "{d} disagreements ({a} adjudicated)."
                ).format(
                    n=agreement.items,
                    raw=agreement.raw,
                    d=len(report.disagreements),
                    a=agreement.adjudicated,
                    kappa="-" if agreement.kappa is None else f"{agreement.kappa:.2f}",
                    ac1="-" if agreement.ac1 is None else f"{agreement.ac1:.2f}",
                )
            )
        return {
            self.OUTPUT_REPORT: report_path,
            "OUTPUT_CSV": csv_path,
            "REVIEWED": report.reviewed,
            "LABEL_ERROR_RATE": errors.rate,
        }
