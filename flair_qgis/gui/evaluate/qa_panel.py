"""The QA tab: score the map view against a reference, look at errors, identify pixels.

Built from section widgets: :class:`~.qa_layers.LayersSection` (what is scored),
:class:`~.qa_identify.IdentifySection`, :class:`~.qa_scores.ScoresSection` (toggles, buttons,
scores) and :class:`~.qa_suspicious.SuspiciousTable`. The panel wires them: it captures the score
job's request (:func:`flair_qgis.adapters.evaluate_task.prepare_evaluation`), runs the
:class:`~flair_qgis.adapters.evaluate_task.EvaluateTask` and shows the typed report that comes back.
"Follow the view" asks the panel for the request of each view (:meth:`QaPanel.view_request`).

A score's result reaches the screen in two events: the task's ``finished`` adds the overlays, the
next event shows the scores and the suspicious labels. QGIS paints and handles input between the
two (in the real desktop each half blocks its main thread 20-50 ms, the whole 60-120 ms).
"""

from __future__ import annotations

from qgis.core import (
    Qgis,
    QgsApplication,
    QgsCoordinateTransform,
    QgsCsException,
    QgsProject,
    QgsRasterLayer,
)
from qgis.PyQt.QtCore import QTimer, pyqtSignal
from qgis.PyQt.QtWidgets import QFileDialog, QVBoxLayout, QWidget

from ...adapters import settings
from ...adapters.charts import draw_confusion
from ...adapters.crosswalk_project import keep_in_project
from ...adapters.evaluate_task import EvaluateTask, EvaluationOutcome, PreparedEvaluation, prepare_evaluation
from ...adapters.layer_tree import group_of, run_confidence
from ...adapters.layers import palette_classes
from ...core import vocabulary
from ...core.errors import FlairError
from ...core.score import ScoreReport, publish_report, report_paths
from ...i18n.errors import crosswalk_offer, error_text
from ...i18n.removed import canceled_text, with_removed
from ..widgets import tr
from .crosswalk_dialog import CrosswalkDialog
from .qa_identify import IdentifySection
from .qa_layers import LayersSection
from .qa_scores import ScoresSection
from .qa_suspicious import SuspiciousTable


class QaPanel(QWidget):
    """Reference layer, protocol, per-view scores, error overlays and the identify tool.

    Args:
        iface: the QGIS interface.
        dock: the FLAIR dock (messages, error reporting).

    Attributes:
        task: the score in flight, from the click until its result is on screen; None when idle.

    Signals:
        scoring_ended(): a score ended and its result is on screen (or it failed or was cancelled).
    """

    scoring_ended = pyqtSignal()

    def __init__(self, iface, dock) -> None:
        super().__init__()
        self.iface = iface
        self.dock = dock
        self.canvas = iface.mapCanvas()
        self.task = None
        self._shown_next: EvaluationOutcome | None = None  # the result to show in the next event
        self.scored: ScoreReport | None = None
        self.ranked = None
        self.overlays: dict[str, str] = {}
        self.layers = LayersSection()
        self.identify = IdentifySection(self.canvas, self.layers)
        self.scores = ScoresSection()
        self.suspicious_table = SuspiciousTable(self.canvas)
        self.scores.layout().addWidget(self.suspicious_table)
        self.scores.layout().addWidget(self.suspicious_table.details_button)
        self.scores.score_button.clicked.connect(self.score_view)
        self.scores.export_button.clicked.connect(self._export_dialog)
        self.scores.suspicious_check.toggled.connect(self._on_suspicious_toggled)
        self.layers.crosswalk_button.clicked.connect(lambda: self.open_crosswalk().open())
        self.crosswalk_dialog: CrosswalkDialog | None = None
        layout = QVBoxLayout(self)
        for section in (self.layers, self.identify, self.scores):
            layout.addWidget(section)
        layout.addStretch(1)
        # The widgets tests and the dock reach through the panel.
        for name in ("prediction_combo", "confidence_combo", "reference_combo", "field_combo", "protocol_combo"):
            setattr(self, name, getattr(self.layers, name))
        for name in (
            "error_check",
            "suspicious_check",
            "score_button",
            "export_button",
            "summary_label",
            "class_table",
            "matrix_label",
        ):
            setattr(self, name, getattr(self.scores, name))

    @property
    def report(self) -> dict | None:
        """The report JSON of the last score (what "Export report" writes), or None."""
        return self.scored.to_report() if self.scored is not None else None

    # ----------------------------------------------------------------- scoring
    def score_view(self):
        """Score the current map extent in a background task; returns it (None when the input is unusable)."""
        if self.task is not None:
            return None
        prepared = self._prepare()
        return self.run(prepared) if prepared is not None else None

    def view_request(self, prediction: QgsRasterLayer) -> PreparedEvaluation | None:
        """The score job's request for the current view with ``prediction`` as the class map, which
        this tab then shows; None when no reference is chosen (nothing to score) or the inputs are
        unusable (the message bar says why)."""
        if self.reference_combo.currentLayer() is None:
            return None
        self.use_prediction(prediction)
        return self._prepare()

    def _prepare(self) -> PreparedEvaluation | None:
        """Capture the request from the widgets; None (and a message) when the input is unusable."""
        wrong_field = self.layers.check_field()
        if wrong_field:
            self.dock.push(wrong_field, Qgis.MessageLevel.Warning)
            return None
        self.scores.remember_toggles()
        self._confidence_for_ranking()
        return self.dock.attempt(
            lambda: prepare_evaluation(
                self.prediction_combo.currentLayer(),
                self.reference_combo.currentLayer(),
                self.field_combo.currentField(),
                self.protocol_combo.currentData(),
                self.canvas.extent(),
                self.canvas.mapSettings().destinationCrs(),
                error_map=self.error_check.isChecked(),
                suspicious=self.suspicious_check.isChecked(),
                confidence=self.confidence_combo.currentLayer(),
                folder=settings.output_folder(),
                crosswalk=self.layers.crosswalk(),
            )
        )

    def open_crosswalk(self) -> CrosswalkDialog:
        """The "Crosswalk…" dialog for the chosen reference and class field (not yet shown); its values
        are read in the map view, and "OK" keeps the crosswalk with the project."""
        layer = self.reference_combo.currentLayer()
        field = self.field_combo.currentField()
        view = self.canvas.extent()
        transform = QgsCoordinateTransform(
            self.canvas.mapSettings().destinationCrs(), layer.crs(), QgsProject.instance()
        )
        try:
            view = transform.transformBoundingBox(view)
        except QgsCsException:
            view = None  # no way to place the view in the layer: every feature is counted
        self.crosswalk_dialog = CrosswalkDialog(
            layer, field, self._model_classes(), view, self.layers.crosswalk(), self
        )
        self.crosswalk_dialog.accepted.connect(lambda: self._keep_crosswalk(layer, field))
        return self.crosswalk_dialog

    def _keep_crosswalk(self, layer, field: str) -> None:
        if self.crosswalk_dialog is not None:
            keep_in_project(layer, field, self.crosswalk_dialog.crosswalk())
        self.layers.check_field()

    def _model_classes(self) -> tuple:
        """The classes a crosswalk may name: the protocol's raw codes (FLAIR #1's 19), its classes, or
        the class map's."""
        try:
            protocol = self.layers.protocol()
        except FlairError:
            protocol = None
        if protocol is not None and (protocol.raw_classes or protocol.classes):
            return tuple(protocol.raw_classes or protocol.classes)
        return tuple(palette_classes(self.prediction_combo.currentLayer()))

    def run(self, prepared: PreparedEvaluation):
        """Run a prepared score in a background task, replacing the previous overlays; returns the task."""
        self._remove_overlays()
        self.task = EvaluateTask(prepared, self._on_scored)
        self.score_button.setEnabled(False)
        self.summary_label.setText(tr("Scoring…"))
        QgsApplication.taskManager().addTask(self.task)
        return self.task

    def _confidence_for_ranking(self) -> None:
        """The suspicion ranking weighs disagreement by the model's confidence: find it, or say how to get it.

        With no confidence layer chosen, the run's own (in the class map's layer-tree group) is taken;
        without one, suspicions rank by disagreement only, and the message bar says how to do better.
        """
        if not self.suspicious_check.isChecked() or self.confidence_combo.currentLayer() is not None:
            return
        found = run_confidence(self.prediction_combo.currentLayer())
        if found is not None:
            self.confidence_combo.setLayer(found)
            return
        self.dock.push(
            tr(
                "Without the model's confidence, suspicious labels rank by disagreement only (ties by the area in "
                "disagreement): tick 'Confidence layer' on the Segment tab and run again to weigh them by confidence."
            ),
            Qgis.MessageLevel.Info,
        )

    def _on_suspicious_toggled(self, checked: bool) -> None:
        """Asking for suspicious labels turns the Segment tab's confidence on: the ranking needs it."""
        confidence = getattr(self.dock, "confidence_check", None)
        if checked and confidence is not None and confidence.isEnabled():
            confidence.setChecked(True)

    def _remove_overlays(self) -> None:
        """Overlays of the previous score are replaced, not piled up; a group they leave empty goes too."""
        project = QgsProject.instance()
        groups = {id(g): g for g in (group_of(layer_id) for layer_id in self.overlays.values()) if g is not None}
        for layer_id in self.overlays.values():
            if project.mapLayer(layer_id) is not None:
                project.removeMapLayer(layer_id)
        self.overlays = {}
        for group in groups.values():
            if not group.children() and group.parent() is not None:
                group.parent().removeChildNode(group)

    def cancel_score(self) -> None:
        """Cancel the score in flight; one whose result is already arriving finishes showing it."""
        if self.task is not None and self._shown_next is None:
            self.task.cancel()

    def _on_scored(self, outcome: EvaluationOutcome) -> None:
        if outcome.status != "ok" or outcome.report is None:
            if outcome.status == "canceled":
                self.summary_label.setText(canceled_text(outcome.removed))
            elif isinstance(outcome.error, FlairError):
                text = with_removed(self._offer_crosswalk(outcome) or error_text(outcome.error), outcome.error)
                self.summary_label.setText(text)
                self.dock.push(text, Qgis.MessageLevel.Warning)
            else:
                self.summary_label.setText(tr("Scoring failed (see the FLAIR log)."))
                self.dock.report_unexpected(outcome.error, outcome.traceback)
            self._end_scoring()
            return
        for layer in outcome.layers:
            self.overlays[layer.customProperty(vocabulary.KIND_PROPERTY)] = layer.id()
        self._shown_next = outcome
        QTimer.singleShot(0, self._show_outcome)  # a method of this widget: dropped if the dock goes first

    def _offer_crosswalk(self, outcome: EvaluationOutcome) -> str | None:
        """A polygon reference's class values refused (text, or numbers that are not the model's
        classes): show "Crosswalk…" for its field and return the message pointing to it; else None."""
        prepared = outcome.prepared
        text = crosswalk_offer(outcome.error) if prepared.reference_id else None
        if text:
            self.layers.offer_crosswalk(prepared.reference_id, prepared.reference_field)
        return text

    def _show_outcome(self) -> None:
        """The second half of a score's result: the scores, the heat map and the suspicious labels."""
        outcome, self._shown_next = self._shown_next, None
        if outcome is None:
            return
        self.scored = outcome.report
        self.ranked = outcome.ranked
        self.show_report(outcome.report)
        suspicious = QgsProject.instance().mapLayer(self.overlays.get(vocabulary.KIND_SUSPICIOUS_LABELS, ""))
        prediction = self.prediction_combo.currentLayer()
        crs = suspicious.crs() if suspicious is not None else prediction.crs()
        self.suspicious_table.show_ranked(outcome.ranked, crs)
        self.export_button.setEnabled(True)
        self._end_scoring()

    def _end_scoring(self) -> None:
        self.task = None
        self.score_button.setEnabled(True)
        self.scoring_ended.emit()

    def show_report(self, report: ScoreReport) -> None:
        """Fill the summary, the per-class table and the confusion heat map."""
        colours = {c.value: c.color for c in palette_classes(self.prediction_combo.currentLayer())}
        try:
            colours.update({c.value: c.color for c in self.layers.protocol().classes})
        except FlairError:
            pass
        self.scores.show_report(report, colours)

    def _export_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self, tr("Export report"), "flair_report.json", tr("JSON report (*.json)")
        )
        if path:
            self.export_report(path)

    def export_report(self, json_path: str) -> str | None:
        """Write the last report as JSON, a per-class CSV and the confusion PNG next to it; returns the JSON path."""
        if self.scored is None:
            return None
        json_path, csv_path, chart_path = report_paths(json_path)
        inputs = {
            tr("the class map"): self.scored.prediction,
            tr("the reference"): self._reference_source(),
        }
        try:
            publish_report(
                self.scored,
                json_path,
                csv_path=csv_path,
                chart_path=chart_path,
                chart=draw_confusion,
                inputs=inputs,
                name=tr("The report"),
            )
        except FlairError as err:
            self.dock.push(error_text(err), Qgis.MessageLevel.Warning)
            return None
        self.dock.push(tr("Report written to {path}").format(path=json_path), Qgis.MessageLevel.Info)
        return json_path

    def _reference_source(self) -> str | None:
        layer = self.reference_combo.currentLayer()
        return layer.source() if layer is not None else None

    # ------------------------------------------------------------------ layers
    def use_prediction(self, layer: QgsRasterLayer, confidence: QgsRasterLayer | None = None) -> None:
        """Score and identify against this class map (and confidence) from now on."""
        self.prediction_combo.setLayer(layer)
        if confidence is not None:
            self.confidence_combo.setLayer(confidence)

    def identify_at(self, point) -> str:
        """Show the predicted class, confidence and reference class at a map point (canvas CRS)."""
        return self.identify.identify_at(point)

    def protocol(self):
        """The chosen scoring protocol (core :class:`~flair_qgis.core.score.protocols.Protocol`)."""
        return self.layers.protocol()

    def map_tools(self) -> list:
        """The map tools this panel may have set on the canvas."""
        return [self.identify.tool]

    def shutdown(self) -> None:
        """Release what the panel holds in the project (overlay layers stay the user's)."""
        self.identify.release()
        self.suspicious_table.release()
        self.cancel_score()
