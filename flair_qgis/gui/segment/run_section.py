"""The dock's "Run" section: device, output file, confidence, tiling, Run and Cancel, progress."""

from __future__ import annotations

from qgis.gui import QgsCollapsibleGroupBox, QgsFileWidget
from qgis.PyQt.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QWidget,
)

from ...adapters import deps, settings
from ...core.engine import ModelInfo
from ...core.vectorize import PolygonOutput
from ...i18n import tr
from ..widgets import compact


class RunSection(QGroupBox):
    """Where and how a run goes, the buttons that start and stop it, and why it cannot start."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(tr("Run"), parent)
        form = QFormLayout(self)
        self.device_combo = QComboBox()
        for label, value in ((tr("Auto (CUDA when available)"), "auto"), (deps.cuda_label(), "cuda"), ("CPU", "cpu")):
            self.device_combo.addItem(label, value)
        self.device_combo.setCurrentIndex(max(0, self.device_combo.findData(settings.device())))
        form.addRow(tr("Device"), compact(self.device_combo))
        self.precision_combo = QComboBox()
        self.precision_combo.addItem(tr("fp32 (full precision)"), "fp32")
        self.precision_combo.addItem(tr("fp16 (CUDA only, checked against fp32)"), "fp16")
        form.addRow(tr("Precision"), compact(self.precision_combo))
        self.device_warning = _label("color: #a15c00;")
        self.device_warning.setVisible(False)
        form.addRow(self.device_warning)
        self.output_widget = QgsFileWidget()
        self.output_widget.setStorageMode(QgsFileWidget.StorageMode.SaveFile)
        self.output_widget.setFilter("GeoTIFF (*.tif *.tiff)")
        self.output_widget.lineEdit().setPlaceholderText(tr("[new file in flair_outputs]"))
        self.output_widget.setToolTip(
            tr(
                "Empty: a new file in flair_outputs beside the saved project, or in the plugin's folder "
                "of the QGIS profile while the project is unsaved (never in a temporary folder QGIS deletes)"
            )
        )
        form.addRow(tr("Class map"), self.output_widget)
        self.confidence_check = QCheckBox(tr("Confidence layer"))
        self.confidence_check.setToolTip(
            tr("Also write the probability of the winning class (0..1); the suspicious-label ranking uses it")
        )
        self.confidence_check.setChecked(settings.bool_value("confidence", False))
        form.addRow(self.confidence_check)
        form.addRow(self._build_polygons())
        form.addRow(self._build_advanced())
        buttons = QHBoxLayout()
        self.run_button = QPushButton(tr("Run"))
        self.cancel_button = QPushButton(tr("Cancel"))
        self.cancel_button.setEnabled(False)
        buttons.addWidget(self.run_button)
        buttons.addWidget(self.cancel_button)
        form.addRow(buttons)
        self.reason_label = _label("color: #b00020;")
        form.addRow(self.reason_label)
        self.progress = QProgressBar()
        self.progress.setRange(0, 100)
        self.progress.setVisible(False)
        form.addRow(self.progress)

    def _build_polygons(self) -> QWidget:
        """The "Also as polygons" toggle and, while it is ticked, the cleaning (as OUTPUT_VECTOR's)."""
        box = QWidget()
        layout = QFormLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        self.polygons_check = QCheckBox(tr("Also as polygons"))
        self.polygons_check.setToolTip(
            tr(
                "Also write the class map as polygons (a GeoPackage beside it), one per connected region, "
                "with class, name, area and mean confidence; added to the run's group over the class map"
            )
        )
        layout.addRow(self.polygons_check)
        self.polygon_options = QWidget()
        options = QFormLayout(self.polygon_options)
        options.setContentsMargins(16, 0, 0, 0)
        # At the dock's default width a long label goes above its field rather than widen the dock.
        options.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.min_area_spin = _decimal_spin(" m²", 0, tr("Regions smaller than this merge into their longest neighbour"))
        self.simplify_spin = _decimal_spin(" m", 1, tr("Simplify shared boundaries once, keeping one coverage"))
        self.fill_holes_spin = _decimal_spin(" m²", 0, tr("Enclosed regions smaller than this are filled"))
        options.addRow(tr("Merge under"), self.min_area_spin)
        options.addRow(tr("Simplify by"), self.simplify_spin)
        options.addRow(tr("Fill holes under"), self.fill_holes_spin)
        layout.addRow(self.polygon_options)
        for spin, key in self._polygon_settings():
            spin.setValue(settings.float_value(key, 0.0))
        self.polygons_check.toggled.connect(self.polygon_options.setVisible)
        self.polygons_check.setChecked(settings.bool_value("polygons", False))
        self.polygon_options.setVisible(self.polygons_check.isChecked())
        return box

    def _polygon_settings(self) -> list[tuple[QDoubleSpinBox, str]]:
        return [
            (self.min_area_spin, "polygon_min_area_m2"),
            (self.simplify_spin, "polygon_simplify_m"),
            (self.fill_holes_spin, "polygon_fill_holes_m2"),
        ]

    def remember_polygons(self) -> None:
        """Keep the polygon choices for the next session (called when a run starts)."""
        settings.set_value("polygons", self.polygons_check.isChecked())
        for spin, key in self._polygon_settings():
            settings.set_value(key, spin.value())

    def polygons(self) -> PolygonOutput | None:
        """The polygons asked for (beside the class map), or None."""
        if not self.polygons_check.isChecked():
            return None
        return PolygonOutput("", self.min_area_spin.value(), self.simplify_spin.value(), self.fill_holes_spin.value())

    def _build_advanced(self) -> QgsCollapsibleGroupBox:
        self.advanced = QgsCollapsibleGroupBox(tr("Advanced"))
        self.advanced.setCollapsed(True)
        form = QFormLayout(self.advanced)
        self.tile_spin = QSpinBox()
        self.tile_spin.setRange(32, 8192)
        self.tile_spin.setSingleStep(32)
        self.tile_spin.setSuffix(" px")
        self.overlap_spin = QSpinBox()
        self.overlap_spin.setRange(0, 4096)
        self.overlap_spin.setSuffix(" px")
        self.batch_spin = QSpinBox()
        self.batch_spin.setRange(1, 256)
        self.batch_spin.setValue(settings.int_value("batch_size", 4))
        form.addRow(tr("Tile size"), self.tile_spin)
        form.addRow(tr("Overlap"), self.overlap_spin)
        form.addRow(tr("Tiles per batch"), self.batch_spin)
        self.reset_button = QPushButton(tr("Model defaults"))
        form.addRow(self.reset_button)
        return self.advanced

    def reset_tiling(self, model: ModelInfo | None) -> None:
        """Tile size and overlap back to the model's (a fixed input size cannot be changed)."""
        if model is None:
            return
        self.tile_spin.setValue(model.tile_size_px)
        self.tile_spin.setEnabled(model.input.tile_size_px is None)
        self.overlap_spin.setValue(model.overlap_px)

    def show_reason(self, reason: str, running: bool) -> None:
        """Say why a run cannot start; Run is enabled when there is no reason and nothing runs."""
        self.reason_label.setText(reason)
        self.reason_label.setVisible(bool(reason))
        self.run_button.setEnabled(not reason and not running)

    def show_progress(self, percent: float, speed: str) -> None:
        """The progress bar at ``percent``, with the run's speed and provider when known."""
        self.progress.setValue(int(percent))
        self.progress.setFormat(f"%p% — {speed}" if speed else "%p%")

    def set_running(self, running: bool) -> None:
        """Buttons and progress bar of a run that starts (True) or ended (False)."""
        self.progress.setValue(0)
        self.progress.setFormat("%p%")
        self.progress.setVisible(running)
        self.cancel_button.setEnabled(running)
        if running:
            self.run_button.setEnabled(False)

    def request_fields(self) -> dict:
        """The run fields of a :class:`~flair_qgis.adapters.segment_request.SegmentChoices`."""
        return {
            "device": self.device_combo.currentData(),
            "precision": self.precision_combo.currentData(),
            "tile_size_px": self.tile_spin.value(),
            "overlap_px": self.overlap_spin.value(),
            "batch_size": self.batch_spin.value(),
            "output_path": self.output_widget.filePath().strip(),
            "confidence": self.confidence_check.isChecked(),
            "polygons": self.polygons(),
        }


def _decimal_spin(suffix: str, decimals: int, tip: str) -> QDoubleSpinBox:
    """A spin box for a cleaning value in metres or square metres, 0 (off) by default."""
    spin = QDoubleSpinBox()
    spin.setRange(0.0, 100_000.0)  # a hectare is 10,000 m²; a wider range widens the box
    spin.setDecimals(decimals)
    spin.setSingleStep(1.0 if decimals == 0 else 0.1)
    spin.setSuffix(suffix)
    spin.setSpecialValueText(tr("off"))
    spin.setToolTip(tip)
    return spin


def _label(style: str) -> QLabel:
    label = QLabel()
    label.setWordWrap(True)
    label.setStyleSheet(style)
    return label
