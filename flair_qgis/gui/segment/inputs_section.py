"""The dock's "Input" section: one layer picker, with its band mapping, per model input."""

from __future__ import annotations

from qgis.core import QgsMapLayer
from qgis.PyQt.QtCore import pyqtSignal
from qgis.PyQt.QtWidgets import QFormLayout, QGroupBox, QWidget

from ...adapters.segment_request import InputChoice
from ...core.engine import ModelInfo
from ...i18n import tr
from ..widgets import InputPicker


class InputsSection(QGroupBox):
    """The first input always; further pickers for multi-input models (an aerial image and a DEM...).

    Signals:
        changed(): a layer or a band changed.
    """

    changed = pyqtSignal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(tr("Input"), parent)
        self.input_form = QFormLayout(self)
        first = InputPicker(parent=self)
        first.changed.connect(self.changed.emit)
        first.add_rows(self.input_form)
        self.inputs: list[InputPicker] = [first]

    def sync(self, model: ModelInfo | None) -> None:
        """One picker per model input, each showing its input's band mapping."""
        specs = list(model.inputs) if model is not None else [None]
        while len(self.inputs) > len(specs):
            picker = self.inputs.pop()
            picker.remove_rows(self.input_form)
            picker.deleteLater()
        while len(self.inputs) < len(specs):
            picker = InputPicker(allow_empty=True, parent=self)
            picker.changed.connect(self.changed.emit)
            picker.add_rows(self.input_form)
            self.inputs.append(picker)
        for picker, spec in zip(self.inputs, specs):
            picker.set_spec(spec, named=len(specs) > 1)

    def layers_and_bands(self) -> list[tuple[QgsMapLayer | None, tuple[int, ...]]]:
        """``(layer, bands)`` per picker, bands with 0 where a channel has none."""
        return [(p.layer_combo.currentLayer(), p.raw_bands()) for p in self.inputs]

    def choices(self) -> tuple[InputChoice, ...]:
        """Layer id and bands per model input, in the model's input order."""
        return tuple(InputChoice(layer.id() if layer else "", bands) for layer, bands in self.layers_and_bands())
