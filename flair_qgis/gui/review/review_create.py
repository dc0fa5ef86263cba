"""The Review tab's "New review" box: the sampling parameters, run by the sampling job in a QGIS task
(:mod:`flair_qgis.adapters.review_sample`: the same capture and job as ``flair:sample``)."""

from __future__ import annotations

import os

from qgis.core import QgsApplication, QgsMapLayerProxyModel, QgsVectorLayer
from qgis.gui import QgsCollapsibleGroupBox, QgsFieldComboBox, QgsFileWidget, QgsMapLayerComboBox
from qgis.PyQt.QtCore import pyqtSignal
from qgis.PyQt.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QPushButton,
    QSpinBox,
)

from ...adapters.layer_choice import class_field, class_map_layer, confidence_layer, is_class_map
from ...adapters.layers import extent_in_crs
from ...adapters.review_files import default_review_path, is_temporary, temporary_path_message
from ...adapters.review_sample import SampleDesign, SampleOutcome, SampleTask, capture_sample
from ...core.errors import FlairError, InputError
from ...core.review import DEFAULT_SAMPLES, MIN_PAIRS, check_design
from ...core.vocabulary import DESIGNS
from ...i18n.errors import DOCK, PROCESSING, error_text
from ...i18n.removed import canceled_text, with_removed
from ..widgets import compact, tr


def design_label(design: str) -> str:
    """A sampling design as the dock names it (the Processing value stays in the item's data)."""
    labels = {
        "stratified": tr("stratified by class"),
        "random": tr("simple random"),
        "grid": tr("systematic grid"),
        "suspicious": tr("suspicious labels first"),
        "stratified_confidence": tr("stratified by confidence"),
        "stratified_label": tr("stratified by class and label"),
    }
    return labels.get(design, design)


class ReviewCreateBox(QgsCollapsibleGroupBox):
    """Sample parameters; :meth:`start` runs the sampling job and emits ``created(path)``, ``failed(text)``
    (bad input, or canceled) or ``crashed(error, traceback)`` (an error that is not the user's)."""

    created = pyqtSignal(str)
    failed = pyqtSignal(str)
    crashed = pyqtSignal(object, str)

    def __init__(self, canvas, parent=None) -> None:
        super().__init__(tr("New review (sample)"), parent)
        self.canvas = canvas
        form = QFormLayout(self)
        for label, widget in (*self._layer_rows(), *self._design_rows(), *self._output_rows()):
            if label is None:
                form.addRow(widget)  # a sentence: the whole width
            else:
                form.addRow(label, widget)
        form.addRow(self.path_label)
        form.addRow(self.create_button)
        self.form = form
        self._on_reference(None)
        self._on_design()
        self.prediction_combo.layerChanged.connect(lambda _layer: self._show_output_path())
        self.preselect()
        self.collapsedStateChanged.connect(lambda collapsed: collapsed or self._on_open())
        self.task: SampleTask | None = None

    def _layer_rows(self) -> tuple:
        """Class map, labels, class field, confidence and extent: ``(label, widget)`` rows."""
        self.prediction_combo = QgsMapLayerComboBox()
        self.prediction_combo.setFilters(QgsMapLayerProxyModel.Filter.RasterLayer)
        self.reference_combo = QgsMapLayerComboBox()
        self.reference_combo.setFilters(
            QgsMapLayerProxyModel.Filter.RasterLayer | QgsMapLayerProxyModel.Filter.PolygonLayer
        )
        self.reference_combo.setAllowEmptyLayer(True)
        self.reference_combo.setLayer(None)
        self.field_combo = QgsFieldComboBox()
        self.reference_combo.layerChanged.connect(self._on_reference)
        self.confidence_combo = QgsMapLayerComboBox()
        self.confidence_combo.setFilters(QgsMapLayerProxyModel.Filter.RasterLayer)
        self.confidence_combo.setAllowEmptyLayer(True)
        self.confidence_combo.setLayer(None)
        self.confidence_combo.layerChanged.connect(lambda _layer: self._on_design())
        for combo in (self.prediction_combo, self.reference_combo, self.field_combo, self.confidence_combo):
            compact(combo)
        self.view_check = QCheckBox(tr("Only the map view"))
        return (
            (tr("Class map"), self.prediction_combo),
            (tr("Labels"), self.reference_combo),
            (tr("Class field"), self.field_combo),
            (tr("Confidence"), self.confidence_combo),
            (tr("Extent"), self.view_check),
        )

    def _design_rows(self) -> tuple:
        """Design, its confidence split (shown for "stratified by confidence" only), sizes, second
        interpreter and seed: ``(label, widget)`` rows."""
        self.design_combo = QComboBox()
        for design in DESIGNS:
            self.design_combo.addItem(design_label(design), design)
        compact(self.design_combo)
        self.design_combo.currentIndexChanged.connect(lambda _index: self._on_design())
        self.confidence_hint = QLabel(confidence_needed())
        self.confidence_hint.setWordWrap(True)
        self.threshold_spin = QDoubleSpinBox()
        self.threshold_spin.setRange(0.01, 1.0)
        self.threshold_spin.setDecimals(2)
        self.threshold_spin.setSingleStep(0.05)
        self.threshold_spin.setValue(0.7)
        self.threshold_spin.setToolTip(
            tr("Each class is split in two strata: confidence below this value, and at or above it.")
        )
        self.low_share_spin = _percent(50, tr("Share of the items drawn where the confidence is below the threshold."))
        self.double_spin = _percent(
            0, tr("Share of the items a second interpreter reviews blind, spread over the strata.")
        )
        self.samples_spin = _spin(1, 100_000, DEFAULT_SAMPLES)
        self.min_spin = _spin(0, 10_000, 20)
        self.seed_spin = _spin(0, 2**31 - 1, 0)
        self.confidence_rows = (self.threshold_spin, self.low_share_spin)
        self.pairs_hint = QLabel()
        self.pairs_hint.setWordWrap(True)
        for spin in (self.samples_spin, self.double_spin):
            spin.valueChanged.connect(lambda _value: self._show_pairs_hint())
        self._show_pairs_hint()
        return (
            (tr("Design"), self.design_combo),
            (None, self.confidence_hint),
            (tr("Items"), self.samples_spin),
            (tr("Min. per class"), self.min_spin),
            (tr("Confidence threshold"), self.threshold_spin),
            (tr("Items below it"), self.low_share_spin),
            (tr("Second interpreter"), self.double_spin),
            (None, self.pairs_hint),
            (tr("Seed"), self.seed_spin),
        )

    def _show_pairs_hint(self) -> None:
        """A warning when a second interpreter reviews fewer than 50 items: kappa and AC1 get no interval."""
        pairs = round(self.samples_spin.value() * self.double_spin.value() / 100)
        self.pairs_hint.setText(pairs_warning(pairs))
        self.pairs_hint.setVisible(bool(self.pairs_hint.text()))

    def _output_rows(self) -> tuple:
        """The review file row; the path shown and the create button are made here too."""
        self.output_widget = QgsFileWidget()
        self.output_widget.setStorageMode(QgsFileWidget.StorageMode.SaveFile)
        self.output_widget.setFilter("GeoPackage (*.gpkg)")
        self.output_widget.fileChanged.connect(lambda _path: self._show_output_path())
        self.path_label = QLabel()
        self.path_label.setWordWrap(True)
        # A path is one long word: without this its width would widen the dock; Qt breaks it anywhere.
        self.path_label.setMinimumWidth(80)
        self.create_button = QPushButton(tr("Create and review"))
        self.create_button.clicked.connect(self.start)
        return ((tr("Review file"), self.output_widget),)

    def _on_design(self) -> None:
        """The confidence split only for "stratified by confidence", and a word when its confidence
        layer is missing."""
        by_confidence = self.design_combo.currentData() == "stratified_confidence"
        found = confidence_layer() if by_confidence and self.confidence_combo.currentLayer() is None else None
        if found is not None:
            self.confidence_combo.setLayer(found)  # comes back here through layerChanged
            return
        for widget in self.confidence_rows:
            widget.setEnabled(by_confidence)
            widget.setVisible(by_confidence)
            self.form.labelForField(widget).setVisible(by_confidence)
        self.confidence_hint.setVisible(by_confidence and self.confidence_combo.currentLayer() is None)

    def _on_open(self) -> None:
        """The box is opened: the group box has shown every row again, so the design decides which
        rows are there, and the few-pairs warning only when it has something to say; the newest class
        map is pre-selected."""
        self._on_design()
        self._show_pairs_hint()
        self.preselect()

    def preselect(self) -> None:
        """Pre-select the newest class map of this plugin, or a single-band paletted raster; never
        multi-band imagery (the box is opened when the person wants a new review)."""
        if not is_class_map(self.prediction_combo.currentLayer()):
            self.prediction_combo.setLayer(class_map_layer())
        self._show_output_path()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.preselect()

    def _on_reference(self, layer) -> None:
        polygons = isinstance(layer, QgsVectorLayer)
        self.field_combo.setLayer(layer if polygons else None)
        self.field_combo.setEnabled(polygons)
        if polygons:
            self.field_combo.setField(class_field(layer))

    def output_path(self) -> str:
        """The review file: the one chosen, else a new file beside the project (in the plugin's data
        folder while the project is unsaved); never beside a class map in a temporary folder."""
        chosen = self.output_widget.filePath().strip()
        if chosen:
            return chosen if chosen.lower().endswith(".gpkg") else chosen + ".gpkg"
        layer = self.prediction_combo.currentLayer()
        return default_review_path(layer.name()) if layer is not None else ""

    def _show_output_path(self) -> None:
        path = self.output_path()
        self.path_label.setText(tr("Saved to: {path}").format(path=path) if path else "")

    def design(self) -> SampleDesign:
        """The sampling parameters the widgets describe."""
        return SampleDesign(
            design=self.design_combo.currentData(),
            samples=self.samples_spin.value(),
            min_per_class=self.min_spin.value(),
            seed=self.seed_spin.value(),
            confidence_threshold=self.threshold_spin.value(),
            low_confidence_share=self.low_share_spin.value() / 100,
            double_review=self.double_spin.value() / 100,
        )

    def _refusal(self, output: str) -> str:
        """Why the sampling cannot start ("" when it can): no class map, a design's missing layer,
        a minimum per class below 2, a temporary or existing review file."""
        if self.prediction_combo.currentLayer() is None:
            return tr("Choose the class map to review.")
        refusal = self._design_refusal()
        if refusal:
            return refusal
        if is_temporary(output):
            return temporary_path_message(output)
        if os.path.exists(output):
            return tr("{path} exists: open it to resume, or choose another review file.").format(path=output)
        return ""

    def _design_refusal(self) -> str:
        """What the chosen design lacks ("" when nothing): the core's rule, worded for the dock."""
        design = self.design()
        try:
            check_design(
                design.design,
                samples=design.samples,
                min_per_class=design.min_per_class,
                double_review=design.double_review,
                confidence_threshold=design.confidence_threshold,
                low_confidence_share=design.low_confidence_share,
                has_reference=self.reference_combo.currentLayer() is not None,
                has_confidence=self.confidence_combo.currentLayer() is not None,
            )
        except FlairError as err:
            return error_text(err, DOCK)
        return ""

    def _extent(self) -> tuple[float, float, float, float] | None:
        """The map view in the class map's CRS when "Only the map view" is ticked, else None."""
        if not self.view_check.isChecked():
            return None
        crs = self.prediction_combo.currentLayer().crs()
        return extent_in_crs(self.canvas.extent(), self.canvas.mapSettings().destinationCrs(), crs)

    def start(self) -> SampleTask | None:
        """Capture the sampling and run it in the task manager (refuses to replace an existing review)."""
        output = self.output_path()
        refusal = self._refusal(output)
        if refusal:
            self.failed.emit(refusal)
            return None
        try:
            captured = capture_sample(
                self.prediction_combo.currentLayer(),
                self.reference_combo.currentLayer(),
                self.field_combo.currentField() or "",
                self.confidence_combo.currentLayer(),
                self._extent(),
                output,
                self.design(),
            )
        except FlairError as err:
            self.failed.emit(error_text(err, PROCESSING))  # the wording flair:sample has always shown here
            return None
        task = SampleTask(captured, self._done)
        self.task = task
        self.create_button.setEnabled(False)
        QgsApplication.taskManager().addTask(task)
        return task

    def _done(self, outcome: SampleOutcome) -> None:
        self.task = None
        self.create_button.setEnabled(True)
        if outcome.status == "ok" and outcome.result is not None:
            self.created.emit(outcome.result.path)
        elif outcome.status == "canceled":
            self.failed.emit(canceled_text(outcome.removed))
        elif isinstance(outcome.error, FlairError):
            self.failed.emit(with_removed(error_text(outcome.error, PROCESSING), outcome.error))
        else:
            self.crashed.emit(outcome.error, outcome.traceback)


def confidence_needed() -> str:
    """Why "stratified by confidence" cannot start yet, in the person's language."""
    return error_text(InputError.of("confidence_design_needs_raster"), DOCK)


def pairs_warning(pairs: int) -> str:
    """The New review box's warning for ``pairs`` double-reviewed items ("" from 50 on, or with none)."""
    if not 0 < pairs < MIN_PAIRS:
        return ""
    return tr(
        "{n} items for the second interpreter: kappa and AC1 get no interval below {minimum}. Raise the share "
        "or the items."
    ).format(n=pairs, minimum=MIN_PAIRS)


def _percent(value: int, tip: str) -> QSpinBox:
    """A share of the items, 0..100 %."""
    spin = _spin(0, 100, value)
    spin.setSuffix(" %")
    spin.setToolTip(tip)
    return spin


def _spin(low: int, high: int, value: int) -> QSpinBox:
    spin = QSpinBox()
    spin.setRange(low, high)
    spin.setValue(value)
    return spin
