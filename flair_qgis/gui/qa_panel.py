"""The QA tab: score the map view against a reference, look at errors, identify pixels."""

from __future__ import annotations

import math
import os
import tempfile

from qgis.core import (
    Qgis,
    QgsApplication,
    QgsCoordinateTransform,
    QgsMapLayer,
    QgsMapLayerProxyModel,
    QgsProject,
    QgsRasterLayer,
    QgsRectangle,
    QgsVectorLayer,
)
from qgis.gui import QgsFieldComboBox, QgsMapLayerComboBox
from qgis.PyQt.QtCore import QPointF, Qt
from qgis.PyQt.QtGui import QPixmap
from qgis.PyQt.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..adapters import settings
from ..adapters.charts import confusion_png
from ..adapters.layers import class_name, identify, palette_classes
from ..adapters.task import EvaluateTask, EvaluationOutcome, prepare_evaluation
from ..core.errors import FlairError
from ..core.evaluate import write_report
from ..core.nomenclature import ClassInfo, default_color
from ..core.protocols import PROTOCOLS, get_protocol
from .map_tools import IdentifyMapTool
from .messages import identify_text
from .widgets import ClassTable, tr


class QaPanel(QWidget):
    """Reference layer, protocol, per-view scores, error overlays and the identify tool.

    Args:
        iface: the QGIS interface.
        dock: the FLAIR dock (messages, error reporting).
    """

    def __init__(self, iface, dock) -> None:
        super().__init__()
        self.iface = iface
        self.dock = dock
        self.canvas = iface.mapCanvas()
        self.identify_tool = IdentifyMapTool(self.canvas)
        self.identify_tool.point_clicked.connect(self.identify_at)
        layout = QVBoxLayout(self)

        layers_box = QGroupBox(tr("Layers"))
        form = QFormLayout(layers_box)
        self.prediction_combo = QgsMapLayerComboBox()
        self.prediction_combo.setFilters(QgsMapLayerProxyModel.RasterLayer)
        form.addRow(tr("Class map"), self.prediction_combo)
        self.confidence_combo = QgsMapLayerComboBox()
        self.confidence_combo.setFilters(QgsMapLayerProxyModel.RasterLayer)
        self.confidence_combo.setAllowEmptyLayer(True)
        self.confidence_combo.setLayer(None)
        form.addRow(tr("Confidence"), self.confidence_combo)
        self.reference_combo = QgsMapLayerComboBox()
        self.reference_combo.setFilters(QgsMapLayerProxyModel.RasterLayer | QgsMapLayerProxyModel.PolygonLayer)
        self.reference_combo.setAllowEmptyLayer(True)
        self.reference_combo.setLayer(None)
        self.reference_combo.layerChanged.connect(self._on_reference_changed)
        form.addRow(tr("Reference"), self.reference_combo)
        self.field_combo = QgsFieldComboBox()
        self.field_label = QLabel(tr("Class field"))
        form.addRow(self.field_label, self.field_combo)
        self.protocol_combo = QComboBox()
        for name in PROTOCOLS:
            self.protocol_combo.addItem(name, name)
        self.protocol_combo.setCurrentIndex(
            max(0, self.protocol_combo.findData(settings.str_value("protocol", "flair1")))
        )
        self.protocol_combo.currentIndexChanged.connect(
            lambda: settings.set_value("protocol", self.protocol_combo.currentData())
        )
        form.addRow(tr("Protocol"), self.protocol_combo)
        layout.addWidget(layers_box)

        identify_box = QGroupBox(tr("Identify"))
        identify_layout = QVBoxLayout(identify_box)
        self.identify_button = QPushButton(tr("Identify pixel"))
        self.identify_button.setCheckable(True)
        self.identify_button.toggled.connect(self._toggle_identify)
        self.identify_label = QLabel(tr("Click the map to see the predicted and reference classes of a pixel."))
        self.identify_label.setWordWrap(True)
        identify_layout.addWidget(self.identify_button)
        identify_layout.addWidget(self.identify_label)
        layout.addWidget(identify_box)

        self._build_scoring(layout)
        layout.addStretch(1)
        self._on_reference_changed(self.reference_combo.currentLayer())

    def _build_scoring(self, layout: QVBoxLayout) -> None:
        self.task = None
        self.report: dict | None = None
        self.ranked = None
        self.overlays: dict[str, str] = {}
        box = QGroupBox(tr("Score"))
        form = QVBoxLayout(box)
        toggles = QHBoxLayout()
        self.error_check = QCheckBox(tr("Error map"))
        self.error_check.setChecked(settings.bool_value("error_map", True))
        self.suspicious_check = QCheckBox(tr("Suspicious labels"))
        self.suspicious_check.setToolTip(tr("Polygon references only: polygons ranked by disagreement with the model"))
        self.suspicious_check.setChecked(settings.bool_value("suspicious", True))
        toggles.addWidget(self.error_check)
        toggles.addWidget(self.suspicious_check)
        form.addLayout(toggles)
        buttons = QHBoxLayout()
        self.score_button = QPushButton(tr("Score this view"))
        self.score_button.clicked.connect(self.score_view)
        self.export_button = QPushButton(tr("Export report…"))
        self.export_button.clicked.connect(self._export_dialog)
        self.export_button.setEnabled(False)
        buttons.addWidget(self.score_button)
        buttons.addWidget(self.export_button)
        form.addLayout(buttons)
        self.summary_label = QLabel(tr("Pick a class map and a reference, then score the map view."))
        self.summary_label.setWordWrap(True)
        form.addWidget(self.summary_label)
        self.class_table = ClassTable([tr("IoU"), tr("Support")])
        form.addWidget(self.class_table)
        self.matrix_label = QLabel()
        self.matrix_label.setAlignment(Qt.AlignCenter)
        self.matrix_label.setToolTip(tr("Confusion matrix, rows = reference, columns = prediction, row shares"))
        form.addWidget(self.matrix_label)
        self.suspicious_table = QTableWidget(0, 5)
        self.suspicious_table.setHorizontalHeaderLabels(
            [tr("Rank"), tr("Label"), tr("Model"), tr("Agreement"), tr("Suspicion")]
        )
        self.suspicious_table.verticalHeader().setVisible(False)
        self.suspicious_table.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.suspicious_table.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.suspicious_table.cellClicked.connect(lambda row, _col: self.zoom_to_suspicious(row))
        self.suspicious_table.setVisible(False)
        form.addWidget(self.suspicious_table)
        layout.addWidget(box)

    # ----------------------------------------------------------------- scoring
    def score_view(self):
        """Score the current map extent in a background task; returns it (None when the input is unusable)."""
        if self.task is not None:
            return None
        settings.set_value("error_map", self.error_check.isChecked())
        settings.set_value("suspicious", self.suspicious_check.isChecked())
        try:
            prepared = prepare_evaluation(
                self.prediction_combo.currentLayer(),
                self.reference_combo.currentLayer(),
                self.field_combo.currentField(),
                self.protocol_combo.currentData(), self.canvas.extent(), self.canvas.mapSettings().destinationCrs(),
                error_map=self.error_check.isChecked(), suspicious=self.suspicious_check.isChecked(),
                confidence=self.confidence_combo.currentLayer(), folder=settings.output_folder(),
            )  # fmt: skip
        except FlairError as err:
            self.dock.push(str(err), Qgis.Warning)
            return None
        except Exception as err:
            self.dock.report_unexpected(err)
            return None
        self._remove_overlays()
        self.task = EvaluateTask(prepared, self._on_scored)
        self.score_button.setEnabled(False)
        self.summary_label.setText(tr("Scoring…"))
        QgsApplication.taskManager().addTask(self.task)
        return self.task

    def _remove_overlays(self) -> None:
        """Overlays of the previous score are replaced, not piled up."""
        project = QgsProject.instance()
        for layer_id in self.overlays.values():
            if project.mapLayer(layer_id) is not None:
                project.removeMapLayer(layer_id)
        self.overlays = {}

    def _on_scored(self, outcome: EvaluationOutcome) -> None:
        self.task = None
        self.score_button.setEnabled(True)
        if outcome.status != "ok" or outcome.report is None:
            if outcome.status == "canceled":
                self.summary_label.setText(tr("Canceled."))
            elif isinstance(outcome.error, FlairError):
                self.summary_label.setText(str(outcome.error))
                self.dock.push(str(outcome.error), Qgis.Warning)
            else:
                self.summary_label.setText(tr("Scoring failed (see the FLAIR log)."))
                self.dock.report_unexpected(outcome.error, outcome.traceback)
            return
        self.report = outcome.report
        self.ranked = outcome.ranked
        for layer in outcome.layers:
            self.overlays[layer.customProperty("flair_qgis/kind")] = layer.id()
        self.show_report(outcome.report)
        self.show_suspicious(outcome.ranked)
        self.export_button.setEnabled(True)

    def show_report(self, report: dict) -> None:
        """Fill the summary, the per-class table and the confusion heat map."""

        def pct(value: float | None) -> str:
            return "—" if value is None else f"{100.0 * value:.1f} %"

        self.summary_label.setText(
            tr("mIoU {miou} — OA {oa} — {n} pixels ({protocol})").format(
                miou=pct(report.get("miou")),
                oa=pct(report.get("oa")),
                n=f"{report.get('pixels_evaluated', 0):,}",
                protocol=_protocol_name(report),
            )
        )
        colours = {c.value: c.color for c in palette_classes(self.prediction_combo.currentLayer())}
        try:
            colours.update({c.value: c.color for c in self.protocol().classes})
        except FlairError:
            pass
        rows = report.get("classes", [])
        classes = [
            ClassInfo(int(r["value"]), str(r.get("name") or r["value"]), colours.get(int(r["value"]), default_color(i)))
            for i, r in enumerate(rows)
        ]
        self.class_table.set_rows(classes, [(pct(r.get("iou")), f"{int(r.get('support') or 0):,}") for r in rows])
        try:
            path = confusion_png(report, os.path.join(tempfile.gettempdir(), f"flair_confusion_{os.getpid()}.png"))
            pixmap = QPixmap(path)
            if pixmap.width() > 360:
                pixmap = pixmap.scaledToWidth(360, Qt.SmoothTransformation)
            self.matrix_label.setPixmap(pixmap)
        except FlairError as err:
            self.matrix_label.setText(str(err))

    def show_suspicious(self, ranked) -> None:
        """List the ranked polygons (most suspicious first)."""
        if ranked is None or len(ranked) == 0:
            self.suspicious_table.setRowCount(0)
            self.suspicious_table.setVisible(False)
            return
        shown = ranked.head(200)
        self.suspicious_table.setRowCount(len(shown))
        for row, (_, item) in enumerate(shown.iterrows()):
            agreement = item["agreement"]
            suspicion = item["suspicion"]
            cells = (
                str(int(item["rank"])),
                f"{item['label_name'] or ''} ({item['label']})",
                f"{item['predicted_name'] or ''} ({item['predicted']})" if item["predicted"] is not None else "—",
                "—" if math.isnan(agreement) else f"{100 * agreement:.0f} %",
                "—" if math.isnan(suspicion) else f"{suspicion:.2f}",
            )
            for col, text in enumerate(cells):
                self.suspicious_table.setItem(row, col, QTableWidgetItem(text))
        self.suspicious_table.resizeColumnsToContents()
        self.suspicious_table.setVisible(True)

    def zoom_to_suspicious(self, row: int) -> QgsRectangle | None:
        """Zoom the map to the polygon of a row of the suspicious-labels table; returns the new extent."""
        if self.ranked is None or row >= len(self.ranked):
            return None
        xmin, ymin, xmax, ymax = self.ranked.geometry.iloc[row].bounds
        rect = QgsRectangle(xmin, ymin, xmax, ymax)
        layer = QgsProject.instance().mapLayer(self.overlays.get("suspicious_labels", ""))
        source_crs = layer.crs() if layer is not None else self.prediction_combo.currentLayer().crs()
        target = self.canvas.mapSettings().destinationCrs()
        if source_crs.isValid() and target.isValid() and source_crs != target:
            rect = QgsCoordinateTransform(source_crs, target, QgsProject.instance()).transformBoundingBox(rect)
        rect.scale(1.5)
        self.canvas.setExtent(rect)
        self.canvas.refresh()
        return rect

    def _export_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self, tr("Export report"), "flair_report.json", tr("JSON report (*.json)")
        )
        if path:
            self.export_report(path)

    def export_report(self, json_path: str) -> str | None:
        """Write the last report as JSON plus a per-class CSV next to it; returns the JSON path."""
        if self.report is None:
            return None
        if not json_path.lower().endswith(".json"):
            json_path += ".json"
        try:
            write_report(self.report, json_path, os.path.splitext(json_path)[0] + ".csv")
        except FlairError as err:
            self.dock.push(str(err), Qgis.Warning)
            return None
        self.dock.push(tr("Report written to {path}").format(path=json_path), Qgis.Info)
        return json_path

    # ------------------------------------------------------------------ layers
    def use_prediction(self, layer: QgsRasterLayer, confidence: QgsRasterLayer | None = None) -> None:
        """Score and identify against this class map (and confidence) from now on."""
        self.prediction_combo.setLayer(layer)
        if confidence is not None:
            self.confidence_combo.setLayer(confidence)

    def _on_reference_changed(self, layer: QgsMapLayer | None) -> None:
        is_vector = isinstance(layer, QgsVectorLayer)
        self.field_combo.setLayer(layer if is_vector else None)
        self.field_combo.setVisible(is_vector)
        self.field_label.setVisible(is_vector)

    # ---------------------------------------------------------------- identify
    def _toggle_identify(self, checked: bool) -> None:
        if checked:
            self.canvas.setMapTool(self.identify_tool)
        elif self.canvas.mapTool() is self.identify_tool:
            self.canvas.unsetMapTool(self.identify_tool)

    def identify_at(self, point) -> str:
        """Show the predicted class, confidence and reference class at a map point (canvas CRS)."""
        if isinstance(point, QPointF):
            point = self.canvas.getCoordinateTransform().toMapCoordinates(int(point.x()), int(point.y()))
        prediction = self.prediction_combo.currentLayer()
        crs = self.canvas.mapSettings().destinationCrs()
        report = identify(
            point,
            crs,
            prediction,
            confidence=self.confidence_combo.currentLayer(),
            reference=self.reference_combo.currentLayer(),
            reference_field=self.field_combo.currentField(),
        )
        classes = palette_classes(prediction)
        text = identify_text(
            class_name(classes, report.predicted),
            self._reference_name(report.reference, classes),
            report.confidence,
            has_confidence=self.confidence_combo.currentLayer() is not None,
        )
        self.identify_label.setText(text)
        return text

    def protocol(self):
        """The chosen scoring protocol (core :class:`~flair_qgis.core.protocols.Protocol`)."""
        return get_protocol(self.protocol_combo.currentData() or "custom")

    def _reference_name(self, value: float | None, prediction_classes: tuple) -> str:
        """A reference value named by the protocol's classes (after its regrouping), else the prediction's."""
        if value is None:
            return class_name((), None)
        try:
            protocol = self.protocol()
        except FlairError:
            return class_name(prediction_classes, value)
        raw = int(value)
        regrouped = protocol.class_value(raw)
        for cls in protocol.classes or prediction_classes:
            if cls.value == regrouped:
                return f"{cls.name} ({raw})"
        return class_name(prediction_classes, value)

    def map_tools(self) -> list:
        """The map tools this panel may have set on the canvas."""
        return [self.identify_tool]

    def shutdown(self) -> None:
        """Release what the panel holds in the project (overlay layers stay the user's)."""
        if self.canvas.mapTool() is self.identify_tool:
            self.canvas.unsetMapTool(self.identify_tool)
        if self.task is not None:
            self.task.cancel()


def _protocol_name(report: dict) -> str:
    """The protocol's name in a report (a name, or a dict with one)."""
    protocol = report.get("protocol", "")
    return str(protocol.get("name", "")) if isinstance(protocol, dict) else str(protocol)
