"""The dock's "Describe this model…" dialog: a preset (only those that fit the model) and editable
values; it freezes them into a :class:`~flair_qgis.core.describe.DescribeRequest` for a copy beside
the model. The panel runs the job (:func:`flair_qgis.core.describe.describe`) in a
:class:`~flair_qgis.adapters.describe_task.DescribeTask` and opens the copy when it ends."""

from __future__ import annotations

import os
from dataclasses import replace

from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ...core.describe import NO_PRESET, DescribeRequest, description, parse_bands, parse_classes, parse_numbers
from ...core.engine import ModelInfo
from ...core.errors import FlairError
from ...core.model_presets import presets_for
from ...i18n import tr
from ...i18n.errors import error_text

MAX_WIDTH_PX = 420
"""The dialog opens no wider than this (its wrapped intro would make it wider)."""


def described_path(model_path: str) -> str:
    """Where the described copy goes: beside the model, ``<name>_described.onnx`` (then ``_2``, ``_3``...),
    never an existing file."""
    stem = os.path.splitext(model_path)[0] + "_described"
    path, number = stem + ".onnx", 2
    while os.path.exists(path):
        path, number = f"{stem}_{number}.onnx", number + 1
    return path


def _numbers(values) -> str:
    return ",".join(f"{v:g}" for v in values)


class DescribeDialog(QDialog):
    """Presets that fit ``model`` and the values they set, editable.

    Args:
        model: the model to describe (its input band count and output channel count filter the presets).
        parent: the dialog's parent.
    """

    def __init__(self, model: ModelInfo, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("Describe this model"))
        self.model = model
        self.output_path = described_path(model.path)
        heads = model.segmentation_outputs()
        self.presets = presets_for(heads[0].channels if heads else None, model.input.channels)
        layout = QVBoxLayout(self)
        text = tr(
            "{name} declares no normalisation or classes. Pick a preset or type them; a copy is written beside it."
        )
        intro = QLabel(text.format(name=model.display_name))
        intro.setWordWrap(True)
        layout.addWidget(intro)
        layout.addLayout(self._form())
        self.target = QLabel(tr("Writes {file}").format(file=os.path.basename(self.output_path)))
        self.target.setWordWrap(True)
        self.target.setToolTip(self.output_path)
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #b30000")
        self.error.setVisible(False)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(tr("Write the described copy"))
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        for widget in (self.target, self.error, buttons):
            layout.addWidget(widget)
        self.request: DescribeRequest | None = None
        # As narrow as the dock's default width allows: wrapped texts, not a wide window.
        self.resize(min(self.sizeHint().width(), MAX_WIDTH_PX), self.sizeHint().height())
        if len(self.presets) == 1:
            self.preset_combo.setCurrentIndex(1)

    def _form(self) -> QFormLayout:
        """The preset picker and the editable values (a preset fills them)."""
        form = QFormLayout()
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.preset_combo = QComboBox()
        self.preset_combo.addItem(tr("none (typed values)"), NO_PRESET)
        for preset in self.presets:
            self.preset_combo.addItem(preset.key, preset.key)
            self.preset_combo.setItemData(
                self.preset_combo.count() - 1, preset.description, Qt.ItemDataRole.ToolTipRole
            )
        self.preset_combo.currentIndexChanged.connect(self._fill_from_preset)
        self.bands_edit, self.mean_edit, self.std_edit, self.scale_edit = (QLineEdit() for _ in range(4))
        self.bands_edit.setPlaceholderText("R,G,B,NIR,ELEV")
        self.mean_edit.setPlaceholderText("105.08,110.87,101.82,106.38,53.26")
        self.scale_edit.setPlaceholderText("255")
        self.classes_edit = QPlainTextEdit()
        self.classes_edit.setPlaceholderText("1:building:#db0e9a\n2:pervious surface:#938e7b")
        self.resolution_spin = QDoubleSpinBox()
        self.resolution_spin.setRange(0.0, 100000.0)
        self.resolution_spin.setSpecialValueText(tr("not declared"))
        self.tile_spin = QSpinBox()
        self.tile_spin.setRange(0, 8192)
        self.tile_spin.setSpecialValueText(tr("not declared"))
        for label, widget in (
            (tr("Preset"), self.preset_combo),
            (tr("Bands"), self.bands_edit),
            (tr("Mean (pixel units)"), self.mean_edit),
            (tr("Std (pixel units)"), self.std_edit),
            (tr("Or divide by"), self.scale_edit),
            (tr("Classes (value:name:#colour)"), self.classes_edit),
            (tr("Resolution (cm)"), self.resolution_spin),
            (tr("Tile size (px)"), self.tile_spin),
        ):
            form.addRow(label, widget)
        return form

    def _fill_from_preset(self, index: int) -> None:
        """A preset fills the fields (still editable); "none" leaves them as they are."""
        key = self.preset_combo.itemData(index)
        preset = next((p for p in self.presets if p.key == key), None)
        if preset is None:
            return
        self.bands_edit.setText(",".join(str(b) for b in preset.bands))
        self.mean_edit.setText(_numbers(preset.mean))
        self.std_edit.setText(_numbers(preset.std))
        self.scale_edit.clear()
        self.classes_edit.setPlainText("\n".join(f"{c.value}:{c.name}:{c.color}" for c in preset.classes))
        self.resolution_spin.setValue(preset.resolution_cm)

    def build_request(self) -> DescribeRequest:
        """The request of the fields as they are.

        Raises:
            InputError: a field that does not parse, or nothing to describe.
        """
        key = self.preset_combo.currentData() or NO_PRESET
        bands = parse_bands(self.bands_edit.text())
        scale = parse_numbers(self.scale_edit.text(), tr("Or divide by"))
        described = description(
            NO_PRESET,
            bands=bands,
            mean=parse_numbers(self.mean_edit.text(), tr("Mean (pixel units)")),
            std=parse_numbers(self.std_edit.text(), tr("Std (pixel units)")),
            scale=scale[0] if scale else None,
            classes=parse_classes(self.classes_edit.toPlainText()),
            resolution_cm=self.resolution_spin.value() or None,
            tile_size_px=self.tile_spin.value() or None,
        )
        preset = next((p for p in self.presets if p.key == key), None)
        if preset is not None:
            # The preset's modality (FLAIR-HUB band numbers) and card text hold while its bands are kept.
            kept = tuple(str(b) for b in bands) == tuple(str(b) for b in preset.bands)
            described = replace(
                described,
                preset=key,
                modality=(preset.modality or "") if kept else "",
                description=preset.description if kept else "",
            )
        return DescribeRequest(self.model.path, self.output_path, described)

    def _accept(self) -> None:
        try:
            self.request = self.build_request()
        except FlairError as err:
            self.error.setText(error_text(err))
            self.error.setVisible(True)
            return
        self.accept()
