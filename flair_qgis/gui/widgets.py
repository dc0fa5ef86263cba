"""Small widgets of the dock: the model card, the dependency banner, the class table, an input picker."""

from __future__ import annotations

import html
from collections.abc import Sequence

from qgis.core import QgsMapLayerProxyModel, QgsRasterLayer
from qgis.gui import QgsMapLayerComboBox
from qgis.PyQt.QtCore import QObject, Qt, pyqtSignal
from qgis.PyQt.QtGui import QColor, QIcon, QPixmap
from qgis.PyQt.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..adapters.raster_input import layer_band_labels
from ..core.engine import (
    GUESSED_CLASSES,
    GUESSED_NORMALISATION,
    TASK_SEGMENTATION,
    InputSpec,
    ModelInfo,
    OutputSpec,
    channel_labels,
    propose_bands,
)
from ..core.nomenclature import ClassInfo
from ..core.quantize import int8_capability, int8_origin
from ..i18n import class_label, int8_cpu_note, metres, tr
from ..i18n.model_texts import int8_card_speed, model_text


def swatch(color: str, size: int = 14) -> QIcon:
    """A square icon filled with ``color``."""
    pixmap = QPixmap(size, size)
    pixmap.fill(QColor(color))
    return QIcon(pixmap)


class ClassTable(QTableWidget):
    """Classes with a colour swatch: value, name and optional extra columns."""

    def __init__(self, extra_headers: Sequence[str] = (), parent: QWidget | None = None) -> None:
        super().__init__(parent)
        headers = [tr("Value"), tr("Class"), *extra_headers]
        self.setColumnCount(len(headers))
        self.setHorizontalHeaderLabels(headers)
        self.verticalHeader().setVisible(False)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.setMinimumHeight(90)

    def set_rows(self, classes: Sequence[ClassInfo], extra: Sequence[Sequence[str]] = ()) -> None:
        """One row per class; ``extra[i]`` fills the extra columns of row ``i``."""
        self.setRowCount(len(classes))
        for row, cls in enumerate(classes):
            value = QTableWidgetItem(swatch(cls.color), str(cls.value))
            value.setData(Qt.ItemDataRole.UserRole, cls.value)
            self.setItem(row, 0, value)
            self.setItem(row, 1, QTableWidgetItem(class_label(cls.name)))
            for col, text in enumerate(extra[row] if row < len(extra) else (), start=2):
                item = QTableWidgetItem(text)
                item.setTextAlignment(int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter))
                self.setItem(row, col, item)
        self.resizeColumnToContents(0)


class ModelCard(QWidget):
    """What a model eats and returns: bands, resolution, tile size, provider, classes."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.classes = ClassTable()
        layout.addWidget(self.summary)
        layout.addWidget(self.classes)
        self.show_model(None)

    def show_model(self, model: ModelInfo | None, provider: str = "", error: str = "") -> None:
        """Fill the card from a model (None clears it; ``error`` explains why it is empty)."""
        if model is None:
            self.summary.setText(error or tr("No model chosen."))
            self.classes.set_rows(())
            self.classes.setVisible(False)
            return
        spec = model.input
        heads = model.segmentation_outputs()
        classes = heads[0].classes if heads else ()
        resolution = metres(spec.resolution_m) if spec.resolution_m else tr("not declared (layer's own)")
        fixed = tr(" (fixed)") if spec.tile_size_px else ""
        if len(model.inputs) > 1:
            inputs = [_bold_row(tr("Inputs"), "")] + [
                f"&nbsp;&nbsp;{input_label(s)}: {', '.join(channel_labels(s))}, "
                + (metres(s.resolution_m) if s.resolution_m else tr("layer's resolution"))
                for s in model.inputs
            ]
        else:
            inputs = [
                _bold_row(tr("Input bands"), ", ".join(spec.band_names)),
                _bold_row(tr("Resolution"), resolution),
            ]
        tiling = tr("{size} px{fixed}, overlap {overlap} px").format(
            size=model.tile_size_px, fixed=fixed, overlap=model.overlap_px
        )
        lines = [
            *inputs,
            _bold_row(tr("Tile size"), tiling),
            _bold_row(tr("Classes"), str(len(classes))),
            _bold_row(tr("Runs on"), provider),
        ]
        if len(model.outputs) > 1:
            lines.insert(-1, _bold_row(tr("Outputs"), ", ".join(output_label(o) for o in model.outputs)))
        lines[-1:-1] = _int8_lines(model)
        lines += _guessed_lines(model, classes)
        if model.description:
            lines.insert(0, f"<i>{html.escape(model_text(model.description))}</i>")
        self.summary.setText("<br>".join(lines))
        self.classes.set_rows(classes)
        self.classes.setVisible(bool(classes))


def _int8_lines(model: ModelInfo) -> list[str]:
    """The card's precision line for an INT8 model made by flair:quantize, and what this CPU means for it."""
    origin = int8_origin(model.metadata)
    if origin is None:
        return []
    lines = [_bold_row(tr("Precision"), tr("INT8 (from {name})").format(name=html.escape(origin)))]
    speed = int8_card_speed(model.metadata)
    lines += [f"<i>{html.escape(speed)}</i>"] if speed else []
    note = int8_cpu_note(int8_capability())
    if note:
        lines.append(f"<i>{html.escape(note)}</i>")
    return lines


def _guessed_lines(model: ModelInfo, classes: Sequence[ClassInfo]) -> list[str]:
    """The card's warning for a model whose metadata does not say its normalisation or classes."""
    guessed = []
    if GUESSED_NORMALISATION in model.guessed:
        guessed.append(tr("normalisation (pixels / 255)"))
    if GUESSED_CLASSES in model.guessed and classes:
        guessed.append(tr("classes ({first}..{last})").format(first=classes[0].value, last=classes[-1].value))
    if not guessed:
        return []
    text = tr("Guessed, the model does not declare them: {what}. Describe this model to set them.")
    return [f"<span style='color:#b35900'>{html.escape(text.format(what=', '.join(guessed)))}</span>"]


def _bold_row(label: str, value: str) -> str:
    """A model-card line: the label in bold, then the value."""
    # French puts a (non-breaking) space before the colon: the colon goes through tr() too.
    return f"<b>{tr('{label}:').format(label=label)}</b> {value}".rstrip()


class DependencyBanner(QFrame):
    """Shown when onnxruntime does not import: the exact command and a one-click install.

    Signals:
        install_requested(): the user clicked the install button (the dock asks to confirm).
    """

    install_requested = pyqtSignal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setStyleSheet("DependencyBanner { background: #fff4d6; }")
        layout = QVBoxLayout(self)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.command = QLineEdit()
        self.command.setReadOnly(True)
        row = QHBoxLayout()
        self.install_button = QPushButton(tr("Install onnxruntime"))
        self.install_button.clicked.connect(self.install_requested.emit)
        row.addStretch(1)
        row.addWidget(self.install_button)
        layout.addWidget(self.message)
        layout.addWidget(QLabel(tr("Or run this command, then restart QGIS:")))
        layout.addWidget(self.command)
        layout.addLayout(row)

    def show_missing(self, package: str, command: str, reason: str) -> None:
        """Explain that ``package`` (one or more space-separated requirements) is missing and how to get it."""
        shown = package
        package = " + ".join(package.split())
        self.message.setText(
            tr(
                "The FLAIR plugin needs <b>{package}</b> to run models; it is not available in this QGIS ({reason})."
            ).format(package=package, reason=reason)
        )
        self.install_button.setText(tr("Install {package}").format(package=package))
        self.install_button.setProperty("package", shown)
        self.command.setText(command)
        self.command.setCursorPosition(0)
        self.setVisible(True)


def input_label(spec: InputSpec) -> str:
    """A model input as the dock names it: modality (or ONNX name) and channel count."""
    if spec.channels == 1:
        return tr("{name} (1 band)").format(name=spec.modality or spec.name)
    return tr("{name} ({n} bands)").format(name=spec.modality or spec.name, n=spec.channels)


def output_label(output: OutputSpec) -> str:
    """A model output as the model card lists it: name, what it gives, per pixel or per image."""
    if output.task == TASK_SEGMENTATION or output.classes:
        what = tr("{n} classes").format(n=len(output.classes))
    else:
        what = output.unit or tr("value")
    where = tr("per pixel") if output.is_per_pixel else tr("per image")
    return f"{output.name} ({output.task}, {what}, {where})"


class InputPicker(QObject):
    """The raster layer and band mapping of one model input.

    Its widgets are rows of the dock's input form: a layer combo, then one band combo per channel.

    Args:
        allow_empty: the layer combo offers "no layer" (further inputs start without one).
        parent: owner of the widgets.

    Signals:
        changed(): the layer or a band changed.
    """

    changed = pyqtSignal()

    def __init__(self, allow_empty: bool = False, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.spec: InputSpec | None = None
        self.label = QLabel(tr("Raster layer"))
        self.layer_combo = QgsMapLayerComboBox()
        self.layer_combo.setFilters(QgsMapLayerProxyModel.Filter.RasterLayer)
        if allow_empty:
            self.layer_combo.setAllowEmptyLayer(True)
            self.layer_combo.setLayer(None)
        self.layer_combo.layerChanged.connect(self._on_layer_changed)
        self.bands_label = QLabel(tr("Bands"))
        self.bands_form = QFormLayout()
        self.bands_form.setContentsMargins(0, 0, 0, 0)
        self.bands_holder = QWidget()
        self.bands_holder.setLayout(self.bands_form)
        self.band_combos: list[QComboBox] = []

    def add_rows(self, form: QFormLayout) -> None:
        """Append the picker's rows (layer, bands) to ``form``."""
        form.addRow(self.label, self.layer_combo)
        form.addRow(self.bands_label, self.bands_holder)

    def remove_rows(self, form: QFormLayout) -> None:
        """Remove the picker's rows from ``form`` (their widgets are deleted)."""
        form.removeRow(self.bands_holder)
        form.removeRow(self.layer_combo)

    def set_spec(self, spec: InputSpec | None, named: bool) -> None:
        """Show the band mapping for ``spec``; ``named`` labels the layer row with the input's name."""
        self.spec = spec
        self.label.setText(input_label(spec) if named and spec is not None else tr("Raster layer"))
        self.rebuild_bands()

    def _on_layer_changed(self, _layer: object = None) -> None:
        self.rebuild_bands()
        self.changed.emit()

    def rebuild_bands(self) -> None:
        """One combo per channel of the input, set to the band the model declares or the name matches."""
        while self.bands_form.rowCount():
            self.bands_form.removeRow(0)
        self.band_combos = []
        layer = self.layer_combo.currentLayer()
        if self.spec is None or not isinstance(layer, QgsRasterLayer):
            return
        labels = layer_band_labels(layer)
        defaults = propose_bands(self.spec, labels).bands
        names = channel_labels(self.spec)
        for name, default in zip(names, defaults):
            combo = compact(QComboBox())
            combo.addItem("—", 0)
            for band, label in enumerate(labels, start=1):
                # An unnamed band reads as QGIS says it ("Bande 1" in French), a named one "4: NIR".
                text = tr("Band {n}").format(n=band) if label == f"Band {band}" else f"{band}: {label}"
                combo.addItem(text, band)
            combo.setCurrentIndex(max(0, combo.findData(default)))
            combo.currentIndexChanged.connect(self.changed.emit)
            self.bands_form.addRow(name, combo)
            self.band_combos.append(combo)

    def raw_bands(self) -> tuple[int, ...]:
        """The layer band per channel, 0 where none is chosen; () without a layer."""
        return tuple(int(c.currentData() or 0) for c in self.band_combos)

    def bands(self) -> tuple[int, ...]:
        """The layer band per channel; () while a channel has none."""
        bands = self.raw_bands()
        return () if 0 in bands else bands


def compact(combo: QComboBox) -> QComboBox:
    """Let a combo box shrink with the dock instead of growing to its longest item."""
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(8)
    # An explicit minimum overrides the size hint, which non-editable combos take from their
    # longest item whatever the adjust policy.
    combo.setMinimumWidth(80)
    return combo
