"""``flair:describe_model``: a copy of an ONNX model that declares its bands, normalisation, classes,
resolution and tile size, from a preset or typed values; the original is never changed."""

from __future__ import annotations

from typing import Any

from qgis.core import (
    QgsProcessingContext,
    QgsProcessingException,
    QgsProcessingFeedback,
    QgsProcessingOutputString,
    QgsProcessingParameterEnum,
    QgsProcessingParameterFile,
    QgsProcessingParameterFileDestination,
    QgsProcessingParameterNumber,
    QgsProcessingParameterString,
)

from ..adapters.deps import onnx_dependency_error
from ..core.describe import (
    NO_PRESET,
    DescribeRequest,
    check_output,
    describe,
    description,
    guessed_note,
    parse_bands,
    parse_classes,
    parse_numbers,
)
from ..core.model_presets import PRESETS
from ..i18n.errors import PROCESSING, note_text
from .base import FlairAlgorithm, tr

PRESET_CHOICES = [NO_PRESET, *PRESETS]
"""``none`` (typed values only), then every preset by key."""


class DescribeModelAlgorithm(FlairAlgorithm):
    """Describe a model without metadata once: write a copy that carries it."""

    MODEL = "MODEL"
    PRESET = "PRESET"
    BANDS = "BANDS"
    MEAN = "MEAN"
    STD = "STD"
    SCALE = "SCALE"
    CLASSES = "CLASSES"
    RESOLUTION_CM = "RESOLUTION_CM"
    TILE_SIZE = "TILE_SIZE"
    OUTPUT = "OUTPUT"

    def name(self) -> str:
        return "describe_model"

    def displayName(self) -> str:
        return tr("Describe ONNX model (bands, normalisation, classes)")

    def shortHelpString(self) -> str:
        presets = "\n".join(f"- {p.key}: {p.description}" for p in PRESETS.values())
        return tr(
            "Writes a copy of an ONNX model that declares what flair:segment needs to know: its bands, "
            "normalisation, classes, resolution and tile size. A model without them runs on a guess (pixels / 255, "
            "classes 0..C-1). The original file is never changed.\n\n"
            "PRESET fills everything for a FLAIR model family; the typed values replace the preset's:\n{presets}\n\n"
            "BANDS: band names (R,G,B,NIR,ELEV) or numbers (4,1,2), one per model band. MEAN and STD: per band, in "
            "the layer's pixel units (0..255 for 8-bit imagery); or SCALE alone: pixels are divided by it. "
            "CLASSES: value:name:#rrggbb entries separated by commas (1:building:#db0e9a,2:water:#1553ae), or a CSV "
            "file with the columns value, name and color. RESOLUTION_CM: the training resolution. TILE_SIZE: the "
            "tile edge in pixels (0: not declared).\n\n"
            "The counts are checked against the model: one value per input band, one class per output channel."
        ).format(presets=presets)

    def initAlgorithm(self, config: dict[str, Any] | None = None) -> None:
        self.addParameter(QgsProcessingParameterFile(self.MODEL, tr("ONNX model"), extension="onnx"))
        self.addParameter(
            QgsProcessingParameterEnum(
                self.PRESET, tr("Preset"), options=PRESET_CHOICES, defaultValue=NO_PRESET, usesStaticStrings=True
            )
        )
        for key, label in (
            (self.BANDS, tr("Bands, one per model band (e.g. R,G,B,NIR,ELEV or 4,1,2)")),
            (self.MEAN, tr("Mean per band, layer pixel units (e.g. 105.08,110.87,101.82)")),
            (self.STD, tr("Standard deviation per band, layer pixel units")),
            (self.SCALE, tr("Or scale: pixels are divided by it (e.g. 255)")),
            (self.CLASSES, tr("Classes: value:name:#rrggbb,... or a CSV file (value,name,color)")),
        ):
            self.addParameter(QgsProcessingParameterString(key, label, optional=True, multiLine=key == self.CLASSES))
        number = QgsProcessingParameterNumber
        self.addParameter(
            number(self.RESOLUTION_CM, tr("Resolution (cm per pixel)"), number.Type.Double, None, True, 0.0)
        )
        self.addParameter(
            number(self.TILE_SIZE, tr("Tile size (px, 0: not declared)"), number.Type.Integer, 0, True, 0)
        )
        self.addParameter(
            QgsProcessingParameterFileDestination(
                self.OUTPUT, tr("Described copy of the model"), "ONNX models (*.onnx)"
            )
        )
        self.addOutput(QgsProcessingOutputString("SHA256", tr("SHA-256 of the described copy")))

    def capture(self, parameters: dict[str, Any], context: QgsProcessingContext) -> None:
        missing = onnx_dependency_error("flair:describe_model")
        if missing:
            raise QgsProcessingException(missing)
        model_path = self.parameterAsFile(parameters, self.MODEL, context)
        text = {key: self.parameterAsString(parameters, key, context) for key in (self.BANDS, self.MEAN, self.STD)}
        scale = parse_numbers(self.parameterAsString(parameters, self.SCALE, context), "SCALE")
        resolution = parameters.get(self.RESOLUTION_CM)
        described = description(
            self.parameterAsEnumString(parameters, self.PRESET, context) or NO_PRESET,
            bands=parse_bands(text[self.BANDS]),
            mean=parse_numbers(text[self.MEAN], "MEAN"),
            std=parse_numbers(text[self.STD], "STD"),
            scale=scale[0] if scale else None,
            classes=parse_classes(self.parameterAsString(parameters, self.CLASSES, context)),
            resolution_cm=self.parameterAsDouble(parameters, self.RESOLUTION_CM, context) if resolution else None,
            tile_size_px=self.parameterAsInt(parameters, self.TILE_SIZE, context) or None,
        )
        output = self.parameterAsFileOutput(parameters, self.OUTPUT, context)
        check_output(model_path, output)  # refused before anything is read
        self.request = DescribeRequest(model_path, output, described)

    def processAlgorithm(
        self, parameters: dict[str, Any], context: QgsProcessingContext, feedback: QgsProcessingFeedback
    ) -> dict[str, Any]:
        result = self.run_core(feedback, lambda: describe(self.request, feedback.isCanceled, feedback.setProgress))
        model = result.model  # type: ignore[attr-defined]
        feedback.pushInfo(
            tr(
                "Described copy written to {path}: {bands} band(s), {classes} class(es); {original} is unchanged."
            ).format(
                path=result.output_path,  # type: ignore[attr-defined]
                bands=model.input.channels,
                classes=len(model.segmentation_outputs()[0].classes) if model.segmentation_outputs() else 0,
                original=self.request.model_path,
            )
        )
        note = guessed_note(model)
        if note is not None:
            feedback.pushWarning(note_text(note, PROCESSING))
        return {self.OUTPUT: result.output_path, "SHA256": result.sha256}  # type: ignore[attr-defined]
