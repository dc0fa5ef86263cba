"""``flair:benchmark``: score a model on a benchmark folder with a published protocol."""

from __future__ import annotations

from typing import Any

from qgis.core import (
    QgsProcessingContext,
    QgsProcessingFeedback,
    QgsProcessingOutputFile,
    QgsProcessingOutputFolder,
    QgsProcessingOutputNumber,
    QgsProcessingOutputString,
    QgsProcessingParameterFile,
    QgsProcessingParameterFileDestination,
    QgsProcessingParameterFolderDestination,
    QgsProcessingParameterNumber,
    QgsProcessingParameterString,
)

from ..core.benchmark import (
    LAYOUTS,
    ON_UNPAIRED,
    BenchmarkReport,
    BenchmarkRequest,
    default_samples_csv,
    plan_benchmark,
    run_benchmark,
)
from ..core.engine import cuda_available, decide_device
from ..core.score import ABSENT_SCORES, PROTOCOLS
from .base import FlairAlgorithm, tr
from .scoring_params import choice_parameter, class_map_of, class_map_parameter, protocol_parameter

BENCHMARK_PROTOCOLS = tuple(p for p in PROTOCOLS if p != "custom")
LAYOUT_CHOICES = ("auto", *LAYOUTS)
ABSENT_CHOICES = ("protocol", *ABSENT_SCORES)


class BenchmarkAlgorithm(FlairAlgorithm):
    """Run a model on every sample of a FLAIR #1, FLAIR-HUB or WeedSense folder and score it."""

    DATASET = "DATASET"
    MODEL = "MODEL"
    PROTOCOL = "PROTOCOL"
    LAYOUT = "LAYOUT"
    ON_UNPAIRED = "ON_UNPAIRED"
    ABSENT = "ABSENT"
    BATCH_SIZE = "BATCH_SIZE"
    DEVICE = "DEVICE"
    OUTPUT_REPORT = "OUTPUT_REPORT"
    OUTPUT_SAMPLES = "OUTPUT_SAMPLES"
    OUTPUT_PREDICTIONS = "OUTPUT_PREDICTIONS"

    def name(self) -> str:
        return "benchmark"

    def displayName(self) -> str:
        return tr("Benchmark model on a dataset folder")

    def shortHelpString(self) -> str:
        return tr(
            "Runs an ONNX model on every sample of a benchmark folder and scores it with the published "
            "protocol, streaming (memory does not grow with the dataset).\n\n"
            "Layouts: FLAIR #1 (IGN's D0xx_YYYY/Zn_XX/img/IMG_<id>.tif with msk/MSK_<id>.tif, or any folder "
            "where IMG_<id>.tif and MSK_<id>.tif pair by id); FLAIR-HUB (per-modality files named as in IGN's "
            "index, e.g. D012-2019_AERIAL_RGBI_AF-S1-27_5-10.tif with ..._AERIAL_LABEL-COSIA_... or "
            "..._ALL_LABEL-LPIS_...); WeedSense (images/, masks/, labels.csv).\n\n"
            "Multi-input models (metadata 'inputs' with a 'modality' per input) read each modality's file; "
            "band selection and normalisation come from the model metadata. Multi-task models (metadata "
            "'outputs') are scored per head: WeedSense height (MAE, RMSE, R², within 1/2/5 cm) and growth "
            "stage (accuracy, F1).\n\n"
            "Writes the report JSON (mIoU, OA, per-class IoU, confusion matrix, protocol metrics), a per-sample "
            "CSV (worst samples first to open in QGIS: sort by miou) and, with OUTPUT_PREDICTIONS, one "
            "PRED_<id>.tif per sample (FLAIR #1: IGN's submission format, uint8 class index 0..12). "
            "ON_UNPAIRED decides whether images without masks (and masks without images) are skipped "
            "(listed in the log and the report) or stop the run."
        )

    def initAlgorithm(self, config: dict[str, Any] | None = None) -> None:
        self.addParameter(
            QgsProcessingParameterFile(self.DATASET, tr("Dataset folder"), QgsProcessingParameterFile.Behavior.Folder)
        )
        self.addParameter(QgsProcessingParameterFile(self.MODEL, tr("ONNX model"), extension="onnx"))
        self.addParameter(protocol_parameter(tr("Protocol"), "flair1", BENCHMARK_PROTOCOLS))
        self.addParameter(
            QgsProcessingParameterFileDestination(
                self.OUTPUT_REPORT, tr("Report (JSON)"), fileFilter="JSON files (*.json)"
            )
        )
        self.addParameter(
            QgsProcessingParameterFolderDestination(
                self.OUTPUT_PREDICTIONS, tr("Prediction rasters (PRED_<id>.tif)"), optional=True, createByDefault=False
            )
        )
        self.addParameter(
            QgsProcessingParameterString(self.DEVICE, tr("Device: auto, cuda or cpu"), defaultValue="auto")
        )
        self.addParameter(
            QgsProcessingParameterNumber(
                self.BATCH_SIZE, tr("Samples per batch"), QgsProcessingParameterNumber.Type.Integer, 4, minValue=1
            )
        )
        self.addParameter(
            choice_parameter(self.ON_UNPAIRED, tr("Images without masks / masks without images"), ON_UNPAIRED, "skip")
        )
        for param in self._advanced_parameters():
            param.setFlags(param.flags() | param.FlagAdvanced)
            self.addParameter(param)
        self._add_outputs()

    def _advanced_parameters(self) -> list:
        return [
            choice_parameter(self.LAYOUT, tr("Dataset layout"), LAYOUT_CHOICES, "auto"),
            choice_parameter(
                self.ABSENT,
                tr("Score of a class absent from both sides (protocol = the protocol's own)"),
                ABSENT_CHOICES,
                "protocol",
            ),
            QgsProcessingParameterFileDestination(
                self.OUTPUT_SAMPLES,
                tr("Per-sample CSV (default: next to the report)"),
                fileFilter="CSV files (*.csv)",
                optional=True,
                createByDefault=False,
            ),
            class_map_parameter(),
        ]

    def _add_outputs(self) -> None:
        self.addOutput(QgsProcessingOutputNumber("MIOU", tr("mIoU (0..1)")))
        self.addOutput(QgsProcessingOutputNumber("OA", tr("Overall accuracy (0..1)")))
        self.addOutput(QgsProcessingOutputNumber("SAMPLES", tr("Samples scored")))
        self.addOutput(QgsProcessingOutputNumber("FAILED", tr("Samples that could not be read")))
        self.addOutput(QgsProcessingOutputNumber("SAMPLES_PER_SECOND", tr("Samples per second")))
        self.addOutput(QgsProcessingOutputString("PROVIDER", tr("Execution provider that ran")))
        self.addOutput(QgsProcessingOutputFile("SAMPLES_CSV", tr("Per-sample CSV")))
        self.addOutput(QgsProcessingOutputFolder("PREDICTIONS", tr("Prediction folder")))

    def _choice(self, parameters: dict, key: str, choices: tuple[str, ...], context: QgsProcessingContext) -> str:
        """An enum parameter as its text; accepts the option text or its index (qgis_process)."""
        raw = parameters.get(key)
        if isinstance(raw, str) and raw.strip().lower() in choices:
            return raw.strip().lower()
        value = self.parameterAsEnumString(parameters, key, context)
        if value:
            return value
        index = self.parameterAsEnum(parameters, key, context)
        return choices[index]

    def capture(self, parameters: dict, context: QgsProcessingContext) -> None:
        device = self.parameterAsString(parameters, self.DEVICE, context)
        decision = decide_device(device, cuda=cuda_available()).checked()
        report = self.parameterAsFileOutput(parameters, self.OUTPUT_REPORT, context)
        samples = self.parameterAsFileOutput(parameters, self.OUTPUT_SAMPLES, context) or None
        predictions = None
        if parameters.get(self.OUTPUT_PREDICTIONS) not in (None, ""):
            predictions = self.parameterAsString(parameters, self.OUTPUT_PREDICTIONS, context) or None
        absent = self._choice(parameters, self.ABSENT, ABSENT_CHOICES, context)
        class_map = class_map_of(self, parameters, context)
        self.request = BenchmarkRequest(
            dataset=self.parameterAsFile(parameters, self.DATASET, context),
            model_path=self.parameterAsFile(parameters, self.MODEL, context),
            protocol=self._choice(parameters, self.PROTOCOL, BENCHMARK_PROTOCOLS, context),
            report_path=report,
            samples_csv_path=samples or default_samples_csv(report),
            predictions_dir=predictions,
            layout=self._choice(parameters, self.LAYOUT, LAYOUT_CHOICES, context),
            on_unpaired=self._choice(parameters, self.ON_UNPAIRED, ON_UNPAIRED, context),
            batch_size=self.parameterAsInt(parameters, self.BATCH_SIZE, context),
            device=decision.device,
            absent=None if absent == "protocol" else absent,
            class_map=class_map,
        )
        # Dataset discovery and model checks before the run, so bad input fails early.
        self.plan = plan_benchmark(self.request)

    def processAlgorithm(
        self, parameters: dict, context: QgsProcessingContext, feedback: QgsProcessingFeedback
    ) -> dict:
        is_canceled, on_progress = self.hooks(feedback)
        result = self.run_core(
            feedback,
            lambda: run_benchmark(
                self.request,
                is_canceled=is_canceled,
                on_progress=on_progress,
                on_info=feedback.pushInfo,
                plan=self.plan,
            ),
        )
        for warning in result.warnings:
            feedback.pushWarning(warning)
        report = result.report
        for failed in report.run.failed[:50]:
            feedback.reportError(
                tr("Sample {id} failed: {path}: {error}").format(
                    id=failed.sample_id, path=failed.path, error=failed.error
                ),
                fatalError=False,
            )
        feedback.pushInfo(
            tr("{provider} scored {n} sample(s) ({failed} failed) in {s:.1f} s ({rate:.2f} samples/s).").format(
                provider=result.session.provider,
                n=result.samples,
                failed=result.failed,
                s=result.seconds,
                rate=report.run.samples_per_second or 0.0,
            )
        )
        feedback.pushInfo(_summary(report))
        return {
            self.OUTPUT_REPORT: result.report_path,
            "MIOU": report.scores.miou,
            "OA": report.scores.oa,
            "SAMPLES": result.samples,
            "FAILED": result.failed,
            "SAMPLES_PER_SECOND": report.run.samples_per_second,
            "PROVIDER": result.session.provider,
            "SAMPLES_CSV": result.samples_csv_path,
            "PREDICTIONS": result.predictions_dir,
            self.OUTPUT_PREDICTIONS: result.predictions_dir,
        }


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100.0 * value:.2f} %"


def _summary(report: BenchmarkReport) -> str:
    """A plain-text table of the scores for the log."""
    scores, targets = report.scores, report.targets
    lines = [f"protocol {scores.protocol}: mIoU {_pct(scores.miou)}, OA {_pct(scores.oa)}"]
    if targets is not None:
        for value, label in ((targets.mae_cm, "height MAE"), (targets.rmse_cm, "height RMSE")):
            if value is not None:
                lines.append(f"{label} {value:.3f} cm")
        if targets.accuracy is not None:
            lines.append(f"growth stage accuracy {_pct(targets.accuracy)}, F1 {_pct(targets.f1)}")
    lines.append(f"{'class':<28} {'IoU':>8} {'F1':>8} {'support':>12}")
    for row in scores.classes:
        lines.append(f"{row.value:>3} {row.name:<24} {_pct(row.iou):>8} {_pct(row.f1):>8} {row.support:>12}")
    return "\n".join(lines)
