"""``flair:quantize``: an FP32 ONNX model to INT8, calibrated on raster layers, checked on held-out tiles
and timed against FP32 on this CPU."""

from __future__ import annotations

from typing import Any

from qgis.core import (
    QgsProcessing,
    QgsProcessingContext,
    QgsProcessingException,
    QgsProcessingFeedback,
    QgsProcessingOutputNumber,
    QgsProcessingOutputString,
    QgsProcessingParameterBoolean,
    QgsProcessingParameterDefinition,
    QgsProcessingParameterEnum,
    QgsProcessingParameterFile,
    QgsProcessingParameterFileDestination,
    QgsProcessingParameterMultipleLayers,
    QgsProcessingParameterNumber,
)

from ..adapters.deps import quantize_dependency_error
from ..adapters.raster_input import capture_raster, make_source
from ..core.engine import read_model_info
from ..core.errors import InputError
from ..core.quantize import (
    AGREEMENT_WARNING,
    CALIBRATORS,
    DEFAULT_CALIBRATION_TILES,
    DEFAULT_VALIDATION_TILES,
    LOW_AGREEMENT,
    METHODS,
    NOT_TIMED,
    NOT_VALIDATED,
    WORTH_IT,
    Agreement,
    CpuIdentity,
    QuantizeRequest,
    SpeedUp,
    check_quantizable,
    quantize,
)
from ..i18n import counted, decimal, int8_cpu_note
from .base import FlairAlgorithm, tr


class QuantizeAlgorithm(FlairAlgorithm):
    """Quantise a model to INT8 (onnxruntime), report its agreement with FP32."""

    MODEL = "MODEL"
    CALIBRATION = "CALIBRATION"
    CALIBRATION_TILES = "CALIBRATION_TILES"
    SEED = "SEED"
    METHOD = "METHOD"
    VALIDATION_TILES = "VALIDATION_TILES"
    CALIBRATOR = "CALIBRATOR"
    FP32_ENDS = "FP32_ENDS"
    THREADS = "THREADS"
    OUTPUT = "OUTPUT"

    def name(self) -> str:
        return "quantize"

    def displayName(self) -> str:
        return tr("Quantise ONNX model to INT8")

    def shortHelpString(self) -> str:
        return tr(
            "Writes an INT8 copy of an FP32 ONNX model with onnxruntime's quantiser, for faster runs on CPUs "
            "(about twice on CPUs with VNNI).\n\n"
            "CALIBRATION: raster layers like the ones the model will segment, read with the model's bands "
            "and normalisation. CALIBRATION_TILES tiles are drawn from them at random with SEED and "
            "VALIDATION_TILES other tiles are held out: the log gives the share of "
            "their pixels where INT8 and FP32 agree and the IoU of each class (FP32 as reference), and warns "
            "below 0.98.\n\n"
            "METHOD static (calibrated, the default) or dynamic. The model is first prepared with onnxruntime's "
            "quant_pre_process (shape inference, constant folding, Conv+BatchNorm fusion).\n\n"
            "Before the file is written, INT8 is timed against FP32 on the held-out tiles with THREADS threads "
            "(0: every core, as flair:segment uses): the log gives the speed-up and warns when INT8 is not at "
            "least 1.1 times as fast on this CPU.\n\n"
            "The output keeps the model's metadata and adds 'quantization' (method, calibration, onnxruntime "
            "version, the FP32 model's SHA-256, the speed-up, threads and CPU it was measured on). The same seed "
            "gives the same graph. Needs the onnx package."
        )

    def initAlgorithm(self, config: dict[str, Any] | None = None) -> None:
        self.addParameter(QgsProcessingParameterFile(self.MODEL, tr("FP32 ONNX model"), extension="onnx"))
        self.addParameter(
            QgsProcessingParameterMultipleLayers(
                self.CALIBRATION, tr("Calibration raster layers"), QgsProcessing.SourceType.TypeRaster
            )
        )
        integer = QgsProcessingParameterNumber.Type.Integer
        for key, label, default, minimum in (
            (self.CALIBRATION_TILES, tr("Calibration tiles"), DEFAULT_CALIBRATION_TILES, 1),
            (self.SEED, tr("Random seed"), 0, 0),
            (self.VALIDATION_TILES, tr("Held-out validation tiles"), DEFAULT_VALIDATION_TILES, 0),
        ):
            self.addParameter(QgsProcessingParameterNumber(key, label, integer, default, minValue=minimum))
        self.addParameter(
            QgsProcessingParameterEnum(
                self.METHOD, tr("Method"), options=list(METHODS), defaultValue="static", usesStaticStrings=True
            )
        )
        advanced = [
            QgsProcessingParameterEnum(
                self.CALIBRATOR,
                tr("Calibrator"),
                options=list(CALIBRATORS),
                defaultValue="minmax",
                usesStaticStrings=True,
            ),
            QgsProcessingParameterBoolean(self.FP32_ENDS, tr("Keep the first and last convolutions in FP32"), False),
            QgsProcessingParameterNumber(
                self.THREADS,
                tr("CPU threads to time INT8 against FP32 with (0: all cores, as flair:segment)"),
                QgsProcessingParameterNumber.Type.Integer,
                0,
                minValue=0,
            ),
        ]
        for param in advanced:
            param.setFlags(param.flags() | QgsProcessingParameterDefinition.Flag.FlagAdvanced)
            self.addParameter(param)
        self.addParameter(
            QgsProcessingParameterFileDestination(self.OUTPUT, tr("INT8 ONNX model"), "ONNX models (*.onnx)")
        )
        self.addOutput(QgsProcessingOutputNumber("AGREEMENT", tr("Pixel agreement of INT8 with FP32")))
        self.addOutput(QgsProcessingOutputNumber("CALIBRATION_TILES_USED", tr("Calibration tiles used")))
        self.addOutput(QgsProcessingOutputNumber("VALIDATION_TILES_USED", tr("Validation tiles used")))
        self.addOutput(QgsProcessingOutputString("SHA256", tr("SHA-256 of the INT8 model")))
        self.addOutput(QgsProcessingOutputNumber("SPEEDUP", tr("INT8 speed-up over FP32 on this CPU")))

    def capture(self, parameters: dict[str, Any], context: QgsProcessingContext) -> None:
        missing = quantize_dependency_error()
        if missing:
            raise QgsProcessingException(missing)
        model_path = self.parameterAsFile(parameters, self.MODEL, context)
        self.request = QuantizeRequest(
            model_path=model_path,
            output_path=self.parameterAsFileOutput(parameters, self.OUTPUT, context),
            calibration_tiles=self.parameterAsInt(parameters, self.CALIBRATION_TILES, context),
            validation_tiles=self.parameterAsInt(parameters, self.VALIDATION_TILES, context),
            seed=self.parameterAsInt(parameters, self.SEED, context),
            method=self.parameterAsEnumString(parameters, self.METHOD, context) or "static",
            calibrator=self.parameterAsEnumString(parameters, self.CALIBRATOR, context) or "minmax",
            keep_ends_fp32=self.parameterAsBool(parameters, self.FP32_ENDS, context),
            threads=self.parameterAsInt(parameters, self.THREADS, context) or None,
        )
        # Refusals come before any layer is read.
        check_quantizable(self.request.model_path, self.request.output_path)
        spec = read_model_info(model_path).inputs[0]
        layers = self.parameterAsLayerList(parameters, self.CALIBRATION, context)
        if not layers:
            raise InputError.of("no_calibration_layer")  # the core's refusal, shown by prepareAlgorithm
        self.rasters = [
            capture_raster(layer, spec.resolution_m if not layer.crs().isGeographic() else None) for layer in layers
        ]

    def processAlgorithm(
        self, parameters: dict[str, Any], context: QgsProcessingContext, feedback: QgsProcessingFeedback
    ) -> dict[str, Any]:
        is_canceled, on_progress = self.hooks(feedback)
        result = self.run_core(
            feedback,
            lambda: quantize(self.request, self.rasters, make_source, is_canceled=is_canceled, on_progress=on_progress),
        )
        for warning in result.warnings:
            feedback.pushWarning(warning_text(warning, result.speed))
        feedback.pushInfo(
            tr("INT8 model written to {path} ({method}, {n} calibration tile(s) from {sources}) in {s:.1f} s.").format(
                path=result.output_path,
                method=self.request.method,
                n=len(result.draw.calibration),
                sources=", ".join(result.sources),
                s=result.seconds,
            )
        )
        note = int8_cpu_note(result.capability)
        if note and result.capability.little_gain:
            feedback.pushWarning(note)
        elif note:
            feedback.pushInfo(note)
        agreement = self._report(result.validation, feedback)
        self._report_speed(result.speed, result.cpu, feedback)
        return {
            self.OUTPUT: result.output_path,
            "AGREEMENT": agreement,
            "CALIBRATION_TILES_USED": len(result.draw.calibration),
            "VALIDATION_TILES_USED": len(result.draw.validation),
            "SHA256": result.sha256,
            "SPEEDUP": result.speed.speedup if result.speed else None,
        }

    @staticmethod
    def _report_speed(speed: SpeedUp | None, cpu: CpuIdentity | None, feedback: QgsProcessingFeedback) -> None:
        """The speed-up measured here in the log (the job's warnings say when INT8 is not worth it)."""
        if speed is None:
            return
        threads = counted(speed.threads, tr("{n} thread"), tr("{n} threads"))
        feedback.pushInfo(
            tr(
                "INT8 runs at {ratio}× FP32 on this CPU ({cpu}; {flags}) with {threads}: {fp32} s against {int8} s "
                "per tile, median of {rounds} alternated runs over {tiles} tile(s)."
            ).format(
                ratio=decimal(speed.speedup, 2),
                cpu=cpu.name if cpu and cpu.name else "?",
                flags=" ".join(cpu.flags) if cpu and cpu.flags else "?",
                threads=threads,
                rounds=speed.rounds,
                fp32=decimal(speed.fp32_s / speed.tiles, 3),
                int8=decimal(speed.int8_s / speed.tiles, 3),
                tiles=speed.tiles,
            )
        )

    @staticmethod
    def _report(validation: Agreement | None, feedback: QgsProcessingFeedback) -> float | None:
        """Agreement and per-class IoU in the log; the agreement, or None without validation tiles."""
        if validation is None:
            return None
        feedback.pushInfo(
            tr("INT8 agrees with FP32 on {pct:.2f} % of {px} pixels ({tiles} held-out tile(s)).").format(
                pct=100 * validation.agreement, px=validation.pixels, tiles=validation.tiles
            )
        )
        for item in validation.classes:
            if item.iou is not None:
                feedback.pushInfo(
                    tr("  {value} {name}: IoU {iou:.4f} (FP32 {fp32} px, INT8 {int8} px)").format(
                        value=item.value, name=item.name, iou=item.iou, fp32=item.fp32_pixels, int8=item.int8_pixels
                    )
                )
        return validation.agreement


def warning_text(warning: str, speed: SpeedUp | None) -> str:
    """A warning of the quantisation job as the job words it, in the user's language where the plugin
    has it translated (each literal below is the job's English, word for word), else as it is."""
    if speed is not None and warning == speed.warning:
        return tr(
            "INT8 is slower than FP32 on this CPU with {threads}: keep the FP32 model (INT8 ran at {speedup:.2f}x "
            "FP32 on {tiles} tile(s), less than the {worth:g}x that makes it worth it)."
        ).format(
            threads=counted(speed.threads, tr("{n} thread"), tr("{n} threads")),
            speedup=speed.speedup,
            tiles=speed.tiles,
            worth=WORTH_IT,
        )
    translated = {
        NOT_TIMED: tr("INT8 was not timed against FP32: no validation or calibration tile to time it on."),
        NOT_VALIDATED: tr("No validation tile: INT8 was not compared with FP32."),
        LOW_AGREEMENT: tr(
            "INT8 agrees with FP32 on less than {pct:g} % of pixels: compare its class maps before using it, "
            "or calibrate on more tiles."
        ).format(pct=100 * AGREEMENT_WARNING),
    }
    return translated.get(warning, tr(warning))
