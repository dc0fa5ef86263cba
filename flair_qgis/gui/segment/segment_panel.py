"""The dock's "Segment" tab: model, input, extent, run and result sections, and the run itself.

The sections only gather choices; :meth:`SegmentPanel.build_request` freezes them into a
:class:`~flair_qgis.adapters.segment_request.SegmentChoices`,
:func:`~flair_qgis.adapters.segment_request.prepare_segment` captures and plans the run on the main
thread and :class:`~flair_qgis.adapters.segment_task.SegmentTask` runs it in the QGIS task manager. A model
described in the dialog (:mod:`.describe_dialog`) is written by a
:class:`~flair_qgis.adapters.describe_task.DescribeTask` there too.
"""

from __future__ import annotations

import os
from typing import cast

from qgis.core import Qgis, QgsApplication, QgsProject
from qgis.PyQt.QtWidgets import QVBoxLayout, QWidget

from ...adapters import deps, settings
from ...adapters.describe_task import DescribeOutcome, DescribeTask
from ...adapters.segment_request import SegmentChoices, prepare_segment, ready_reason
from ...adapters.segment_task import RunOutcome, SegmentTask
from ...core import vocabulary
from ...core.describe import guessed_note
from ...core.engine import DeviceDecision, ModelInfo, cuda_available, decide_device
from ...core.errors import FlairError
from ...core.paths import same_path
from ...core.segment import SegmentResult
from ...i18n import tr
from ...i18n.errors import error_text, note_text
from ...i18n.removed import canceled_text, with_removed
from ..messages import run_log_line
from .describe_dialog import DescribeDialog
from .extent_section import ExtentSection
from .inputs_section import InputsSection
from .model_section import ModelSection
from .result_section import ResultSection, result_lines
from .run_section import RunSection


class SegmentPanel(QWidget):
    """Pick a model and a layer, choose an extent, run, look at the result.

    Args:
        dock: the dock (message bar, onnxruntime status, the scoring tab).
    """

    def __init__(self, dock) -> None:
        super().__init__(dock)
        self.dock = dock
        self.model: ModelInfo | None = None
        self.task: SegmentTask | None = None
        self.describe_task: DescribeTask | None = None
        layout = QVBoxLayout(self)
        self.model_section = ModelSection()
        self.inputs_section = InputsSection()
        self.extent_section = ExtentSection(dock.canvas)
        self.run_section = RunSection()
        self.result_section = ResultSection()
        for section in (self.model_section, self.inputs_section, self.extent_section):
            layout.addWidget(section)
        layout.addWidget(self.run_section)
        layout.addWidget(self.result_section)
        layout.addStretch(1)
        self.model_section.model_chosen.connect(self.set_model)
        self.model_section.describe_requested.connect(self.describe_model)
        self.model_section.describe_canceled.connect(self.cancel_describe)
        self.inputs_section.changed.connect(self.update_ready)
        self.run_section.device_combo.currentIndexChanged.connect(self._on_device_changed)
        self.run_section.reset_button.clicked.connect(lambda: self.run_section.reset_tiling(self.model))
        self.run_section.run_button.clicked.connect(self.run)
        self.run_section.cancel_button.clicked.connect(self.cancel)
        QgsProject.instance().layersWillBeRemoved.connect(self._on_layers_removed)

    # ------------------------------------------------------------------ model
    def set_model(self, path: str | None) -> bool:
        """Read a model, show its card and remember it; False (and the reason on the card) on failure."""
        self.model = None
        self.model_section.describe_button.setVisible(False)
        card = self.model_section.model_card
        if not path or not self.dock.onnxruntime_ok:
            card.show_model(None, error="" if not path else tr("Install onnxruntime to read models (see above)."))
            self.update_ready()
            return False
        try:
            from ...core.engine import read_model_info

            self.model = read_model_info(path)
        except FlairError as err:
            card.show_model(None, error=error_text(err))
            self.model_section.fill_recent()
            self.update_ready()
            return False
        settings.remember_model(path)
        settings.set_value("last_model_dir", os.path.dirname(os.path.abspath(path)))
        self.model_section.fill_recent(path)
        self._on_device_changed()  # the model card's provider, and whether the GPU is left unused
        self.run_section.reset_tiling(self.model)
        self.inputs_section.sync(self.model)
        self.model_section.describe_button.setVisible(bool(self.model.guessed))
        self.update_ready()
        return True

    def device_decision(self) -> DeviceDecision | None:
        """The engine's decision for the chosen device and precision (None without onnxruntime)."""
        if not self.dock.onnxruntime_ok:
            return None
        run = self.run_section
        return decide_device(run.device_combo.currentData(), run.precision_combo.currentData(), cuda=cuda_available())

    def provider_label(self) -> str:
        """The execution provider a run with the chosen device will use (the engine's decision)."""
        decision = self.device_decision()
        return decision.provider if decision is not None else "—"

    def describe_model(self, dialog: DescribeDialog | None = None) -> DescribeTask | None:
        """Describe the model (dialog): a task writes the copy beside it and the dock opens the copy
        when it ends. Returns the task, or None (no model, the dialog closed, a description under way)."""
        if self.model is None or self.describe_task is not None:
            return None
        missing = deps.onnx_dependency_error(tr("Describing a model"))
        if missing:
            self.dock.push(missing, Qgis.MessageLevel.Warning)
            return None
        dialog = dialog or DescribeDialog(self.model, self)
        if dialog.request is None and not dialog.exec():
            return None
        if dialog.request is None:  # closed without a description
            return None
        self.describe_task = DescribeTask(dialog.request, self._on_described)
        self.describe_task.progressChanged.connect(self.model_section.show_describe_progress)
        self.model_section.set_describing(True)
        QgsApplication.taskManager().addTask(self.describe_task)
        return self.describe_task

    def cancel_describe(self) -> None:
        """Cancel the description under way (the job removes the copy)."""
        if self.describe_task is not None:
            self.describe_task.cancel()

    def _on_described(self, outcome: DescribeOutcome) -> None:
        self.describe_task = None
        self.model_section.set_describing(False)
        request, result = outcome.request, outcome.result
        if outcome.status == "ok" and result is not None:
            name = os.path.basename(request.model_path)
            self.dock.push(
                tr("Described copy written to {path}; {name} is unchanged.").format(path=result.output_path, name=name)
            )
            # The copy replaces the model it describes, not one the user picked meanwhile.
            if self.model is not None and same_path(self.model.path, request.model_path):
                self.set_model(result.output_path)
        elif outcome.status == "canceled":
            self.dock.push(canceled_text(outcome.removed), Qgis.MessageLevel.Info)
        elif isinstance(outcome.error, FlairError):
            self.dock.push(with_removed(error_text(outcome.error), outcome.error), Qgis.MessageLevel.Warning)
        else:
            self.dock.report_unexpected(outcome.error, outcome.traceback)

    def _on_device_changed(self) -> None:
        settings.set_device(self.run_section.device_combo.currentData())
        decision = self.device_decision()
        warning = ""
        if decision is not None and decision.cuda_missing:
            warning = tr("CUDA is not available in this onnxruntime: the run will use the CPU.")
        if decision is not None and decision.gpu_unused and deps.gpu_present():
            hint = tr("This machine has an NVIDIA GPU: install {package} to use it.")
            hint = hint.format(package=deps.GPU_DISTRIBUTION)
            warning = f"{warning} {hint}".strip()
        self.run_section.device_warning.setText(warning)
        self.run_section.device_warning.setVisible(bool(warning))
        if self.model is not None:
            self.model_section.model_card.show_model(self.model, self.provider_label())

    # -------------------------------------------------------------------- run
    def update_ready(self, *_args: object) -> None:
        """Enable Run, or say why a run cannot start."""
        if not getattr(self.dock, "onnxruntime_ok", False):
            reason = tr("onnxruntime is not installed (see above).")
        elif self.task is not None:
            reason = ""
        else:
            reason = ready_reason(self.model, self.inputs_section.layers_and_bands())
        self.run_section.show_reason(reason, running=self.task is not None)

    def build_request(self) -> SegmentChoices:
        """The dock's frozen choices (:func:`prepare_segment` makes the run's request of them)."""
        first, *more = self.inputs_section.choices()
        return SegmentChoices(
            model_path=self.model.path if self.model else "",
            layer_id=first.layer_id,
            bands=first.bands,
            more_inputs=tuple(more),
            output_folder=settings.output_folder(),
            opacity=self.result_section.opacity(),
            **self.extent_section.request_fields(),
            **self.run_section.request_fields(),
        )

    def run(self) -> SegmentTask | None:
        """Start a run from the widgets; returns the task, or None when the input is not usable."""
        if self.task is not None or self.model is None:
            return None
        request = self.build_request()
        settings.set_value("batch_size", request.batch_size)
        settings.set_value("confidence", request.confidence)
        self.run_section.remember_polygons()
        prepared = self.dock.attempt(lambda: prepare_segment(request, self.model))
        if prepared is None:
            return None
        decision = self.device_decision()
        if decision is not None and decision.cuda_missing:
            self.dock.push(tr("CUDA is not available: running on the CPU."), Qgis.MessageLevel.Warning)
        note = guessed_note(self.model)
        if note is not None:  # a model described by nobody: the run log says what it guesses
            self.dock.log(note_text(note), Qgis.MessageLevel.Warning)
        self.task = SegmentTask(prepared, self._on_finished)
        task = self.task
        self.task.progressChanged.connect(lambda p: self.run_section.show_progress(p, task.speed_text()))
        self.run_section.set_running(True)
        grid = prepared.plan.grid
        self.result_section.result_label.setText(
            tr("Running on {w} × {h} px ({km2:.3f} km²)…").format(w=grid.width, h=grid.height, km2=grid.area_km2)
        )
        QgsApplication.taskManager().addTask(self.task)
        return self.task

    def cancel(self) -> None:
        """Cancel the running task (its partial outputs are deleted)."""
        if self.task is not None:
            self.task.cancel()

    def _on_layers_removed(self, layer_ids: list[str]) -> None:
        if self.task is not None:
            prepared = self.task.prepared
            removed = [name for lid, name in zip(prepared.layer_ids, prepared.layer_names) if lid in layer_ids]
            if removed and not self.task.abandon_reason:
                self.task.abandon(
                    tr("The layer '{name}' was removed from the project: the run was stopped.").format(name=removed[0])
                )
        if self.result_section.result_layer_id in layer_ids:
            self.result_section.set_layer(None)

    def _on_finished(self, outcome: RunOutcome) -> None:
        task, self.task = self.task, None
        self.run_section.set_running(False)
        label = self.result_section.result_label
        if outcome.status == "ok" and outcome.result is not None:
            self._show_result(outcome)
        elif outcome.status == "abandoned":
            reason = task.abandon_reason if task else tr("The run was stopped.")
            reason += " " + canceled_text(outcome.removed)  # what the job removed, or that it wrote nothing
            label.setText(reason)
            self.dock.push(reason, Qgis.MessageLevel.Warning)
        elif outcome.status == "canceled":
            label.setText(canceled_text(outcome.removed))
            self.dock.push(canceled_text(outcome.removed), Qgis.MessageLevel.Info)
        elif isinstance(outcome.error, FlairError):
            label.setText(with_removed(error_text(outcome.error), outcome.error))
            self.dock.push(with_removed(error_text(outcome.error), outcome.error), Qgis.MessageLevel.Warning)
        else:
            label.setText(tr("The run failed (see the FLAIR log)."))
            self.dock.report_unexpected(outcome.error, outcome.traceback)
        self.update_ready()

    def _show_result(self, outcome: RunOutcome) -> None:
        """The run's messages, the opacity slider on its class map, the class map handed to scoring."""
        result, layer = cast(SegmentResult, outcome.result), outcome.layers[0]  # shown only for a run that returned
        self.result_section.set_layer(layer.id())
        log_line = run_log_line(result.session.provider, result.tiles, result.seconds, result.km2_per_hour)
        self.dock.log(log_line)
        lines = result_lines(result)
        if outcome.polygons is not None:
            written = outcome.polygons
            lines.append(tr("{n} polygon(s) written to {path}").format(n=written.polygons, path=written.path))
        self.result_section.result_label.setText("\n".join(lines))
        for line in lines:
            self.dock.push(line, Qgis.MessageLevel.Info)
        for warning in result.warnings:
            self.dock.push(note_text(warning), Qgis.MessageLevel.Warning)
        if layer.customProperty(vocabulary.KIND_PROPERTY) == vocabulary.KIND_CLASS_MAP:
            kinds = {lyr.customProperty(vocabulary.KIND_PROPERTY): lyr for lyr in outcome.layers}
            self.dock.qa.use_prediction(layer, kinds.get(vocabulary.KIND_CONFIDENCE))

    def shutdown(self) -> None:
        """Stop the run and release signals and the rectangle tool (the plugin is unloading)."""
        if self.task is not None:
            self.task.abandon(tr("The plugin was unloaded."))
        self.cancel_describe()
        try:
            QgsProject.instance().layersWillBeRemoved.disconnect(self._on_layers_removed)
        except TypeError:
            pass
        self.extent_section.release()
