"""The Review tab's "New review" box: the ``flair:sample`` parameters, run as a QGIS task."""

from __future__ import annotations

import os

from qgis.core import (
    QgsApplication,
    QgsMapLayerProxyModel,
    QgsProcessingAlgRunnerTask,
    QgsProcessingContext,
    QgsProcessingFeedback,
    QgsProject,
    QgsReferencedRectangle,
    QgsVectorLayer,
)
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
from ...adapters.review_files import default_review_path, is_temporary, temporary_path_message
from ...core.vocabulary import DESIGNS
from ..widgets import compact, tr


def design_label(design: str) -> str:
    """A sampling design as the dock names it (the Processing value stays in the item's data)."""
    labels = {
        "stratified": tr("stratified by class"),
        "random": tr("simple random"),
        "grid": tr("systematic grid"),
        "suspicious": tr("suspicious labels first"),
        "stratified_confidence": tr("stratified by confidence"),
    }
    return labels.get(design, design)


class _Feedback(QgsProcessingFeedback):
    """Keeps the errors the algorithm reports, to show the user the reason of a failure."""

    def __init__(self) -> None:
        super().__init__()
        self.errors: list[str] = []

    def reportError(self, error: str, fatalError: bool = False) -> None:
        self.errors.append(error)
        super().reportError(error, fatalError)


class ReviewCreateBox(QgsCollapsibleGroupBox):
    """Sample parameters; :meth:`start` runs ``flair:sample`` and emits ``created(path)`` or ``failed(text)``."""

    created = pyqtSignal(str)
    failed = pyqtSignal(str)

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
        self.task: QgsProcessingAlgRunnerTask | None = None
        self._keep: tuple = ()

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
            (tr("Class map"), self.prediction_combo), (tr("Labels"), self.reference_combo),
            (tr("Class field"), self.field_combo), (tr("Confidence"), self.confidence_combo),
            (tr("Extent"), self.view_check),
        )  # fmt: skip

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
        self.samples_spin = _spin(1, 100_000, 200)
        self.min_spin = _spin(0, 10_000, 20)
        self.seed_spin = _spin(0, 2**31 - 1, 0)
        self.confidence_rows = (self.threshold_spin, self.low_share_spin)
        return (
            (tr("Design"), self.design_combo), (None, self.confidence_hint),
            (tr("Items"), self.samples_spin), (tr("Min. per class"), self.min_spin),
            (tr("Confidence threshold"), self.threshold_spin), (tr("Items below it"), self.low_share_spin),
            (tr("Second interpreter"), self.double_spin), (tr("Seed"), self.seed_spin),
        )  # fmt: skip

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
        rows are there; the newest class map is pre-selected."""
        self._on_design()
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

    def parameters(self) -> dict:
        """The ``flair:sample`` parameters the widgets describe."""
        return {
            "PREDICTION": self.prediction_combo.currentLayer(),
            "REFERENCE": self.reference_combo.currentLayer(),
            "REFERENCE_FIELD": self.field_combo.currentField() or None,
            "CONFIDENCE": self.confidence_combo.currentLayer(),
            "EXTENT": QgsReferencedRectangle(self.canvas.extent(), self.canvas.mapSettings().destinationCrs())
            if self.view_check.isChecked()
            else None,
            "DESIGN": self.design_combo.currentData(),
            "SAMPLES": self.samples_spin.value(),
            "MIN_PER_CLASS": self.min_spin.value(),
            "SEED": self.seed_spin.value(),
            "CONFIDENCE_THRESHOLD": self.threshold_spin.value(),
            "LOW_CONFIDENCE_SHARE": self.low_share_spin.value() / 100,
            "DOUBLE_REVIEW": self.double_spin.value() / 100,
            "OUTPUT": self.output_path(),
        }

    def start(self) -> QgsProcessingAlgRunnerTask | None:
        """Run ``flair:sample`` in the task manager (refuses to replace an existing review)."""
        params = self.parameters()
        if params["PREDICTION"] is None:
            self.failed.emit(tr("Choose the class map to review."))
            return None
        if params["DESIGN"] == "stratified_confidence" and params["CONFIDENCE"] is None:
            self.failed.emit(confidence_needed())
            return None
        if is_temporary(params["OUTPUT"]):
            self.failed.emit(temporary_path_message(params["OUTPUT"]))
            return None
        if os.path.exists(params["OUTPUT"]):
            self.failed.emit(
                tr("{path} exists: open it to resume, or choose another review file.").format(path=params["OUTPUT"])
            )
            return None
        algorithm = QgsApplication.processingRegistry().createAlgorithmById("flair:sample")
        if algorithm is None:
            self.failed.emit(tr("The FLAIR Processing provider is not loaded (see the dock's banner)."))
            return None
        context = QgsProcessingContext()
        context.setProject(QgsProject.instance())
        feedback = _Feedback()
        task = QgsProcessingAlgRunnerTask(algorithm, params, context, feedback)
        task.executed.connect(lambda ok, results: self._done(ok, results, feedback))
        self._keep = (algorithm, context, feedback)
        self.task = task
        self.create_button.setEnabled(False)
        QgsApplication.taskManager().addTask(task)
        return task

    def _done(self, ok: bool, results: dict, feedback: _Feedback) -> None:
        self.task = None
        self.create_button.setEnabled(True)
        if ok:
            self.created.emit(results["OUTPUT"])
        else:
            self.failed.emit(" ".join(feedback.errors) or tr("Sampling failed; see the Processing log."))


def confidence_needed() -> str:
    """Why "stratified by confidence" cannot start yet, in the person's language."""
    return tr(
        "Stratified by confidence needs the model's confidence layer: pick it under Confidence (a run with "
        "'Confidence layer' ticked writes it)."
    )


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
