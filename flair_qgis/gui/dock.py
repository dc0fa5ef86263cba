"""The FLAIR dock: pick a model and a layer, choose an extent, run, look at the result, score it.

A model with several inputs (an aerial image and a DEM at their own resolutions...) gets one layer
picker, with its band mapping, per input; the extent and the output grid come from the first.

The widgets only gather choices into a frozen :class:`~flair_qgis.adapters.segment_request.RunRequest`;
:func:`~flair_qgis.adapters.segment_request.prepare_segment` captures the run on the main thread and
:class:`~flair_qgis.adapters.segment_task.SegmentTask` runs it in the QGIS task manager.
"""

from __future__ import annotations

import os
import traceback

from qgis.core import (
    Qgis,
    QgsApplication,
    QgsMapLayer,
    QgsMapLayerProxyModel,
    QgsMessageLog,
    QgsProject,
    QgsRasterLayer,
    QgsRectangle,
)
from qgis.gui import QgsCollapsibleGroupBox, QgsFileWidget, QgsMapLayerComboBox
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDockWidget,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSlider,
    QSpinBox,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from .. import resources_path
from ..adapters import deps, settings
from ..adapters.layers import set_opacity
from ..adapters.segment_request import (
    EXTENT_CANVAS,
    EXTENT_DRAWN,
    EXTENT_LAYER,
    EXTENT_POLYGONS,
    InputChoice,
    RunRequest,
    prepare_segment,
    ready_reason,
)
from ..adapters.segment_task import RunOutcome, SegmentTask
from ..core.errors import FlairError
from ..core.model import ModelInfo
from .follow_view import FollowView
from .map_tools import RectangleMapTool
from .messages import run_log_line, run_summary
from .model_list import model_entries, start_model
from .widgets import DependencyBanner, InputPicker, ModelCard, compact, tr

LOG_TAG = "FLAIR"
MESSAGE_TITLE = "FLAIR"
MESSAGE_SECONDS = 8


class FlairDock(QDockWidget):
    """The plugin's dock widget.

    Args:
        iface: the QGIS interface (message bar, map canvas).
        parent: parent widget (QGIS's main window).
    """

    def __init__(self, iface, parent: QWidget | None = None) -> None:
        super().__init__(tr("FLAIR segmentation"), parent)
        self.setObjectName("FlairDock")
        self.iface = iface
        self.canvas = iface.mapCanvas()
        self.model: ModelInfo | None = None
        self.task: SegmentTask | None = None
        self.result_layer_id: str | None = None
        self.drawn_extent: QgsRectangle | None = None
        self.drawn_crs = ""
        self.inputs: list[InputPicker] = []
        self.rectangle_tool = RectangleMapTool(self.canvas)
        self.rectangle_tool.rectangle_drawn.connect(self._on_rectangle_drawn)
        self._build()
        QgsProject.instance().layersWillBeRemoved.connect(self._on_layers_removed)
        self.refresh_dependencies()
        self.set_model(start_model(settings.recent_models()))
        self._update_ready()

    # ----------------------------------------------------------------- building
    def _build(self) -> None:
        body = QWidget()
        outer = QVBoxLayout(body)
        self.banner = DependencyBanner()
        self.banner.install_requested.connect(self.install_dependencies)
        self.banner.setVisible(False)
        outer.addWidget(self.banner)
        self.tabs = QTabWidget()
        outer.addWidget(self.tabs)
        self.tabs.addTab(self._scrolled(self._build_segment_tab()), tr("Segment"))
        from .qa_panel import QaPanel

        self.qa = QaPanel(self.iface, self)
        self.tabs.addTab(self._scrolled(self.qa), tr("Evaluate"))
        from .review_panel import ReviewPanel  # the Review tab cleans up after itself (destroyed with the dock)

        self.tabs.addTab(self._scrolled(ReviewPanel(self.iface, self)), tr("Review"))
        self.setWidget(body)
        for combo in self.findChildren(QComboBox):
            compact(combo)

    @staticmethod
    def _scrolled(widget: QWidget) -> QScrollArea:
        area = QScrollArea()
        area.setWidgetResizable(True)
        area.setWidget(widget)
        return area

    def _build_segment_tab(self) -> QWidget:
        tab = QWidget()
        layout = QVBoxLayout(tab)

        model_box = QGroupBox(tr("Model"))
        model_layout = QVBoxLayout(model_box)
        row = QHBoxLayout()
        self.model_combo = QComboBox()
        self.model_combo.setToolTip(tr("Recently used models"))
        self.model_combo.activated.connect(lambda i: self.set_model(self.model_combo.itemData(i)))
        browse = QToolButton()
        browse.setText("…")
        browse.setToolTip(tr("Choose an ONNX model file"))
        browse.clicked.connect(self._browse_model)
        row.addWidget(self.model_combo, 1)
        row.addWidget(browse)
        model_layout.addLayout(row)
        self.model_card = ModelCard()
        model_layout.addWidget(self.model_card)
        layout.addWidget(model_box)

        input_box = QGroupBox(tr("Input"))
        self.input_form = QFormLayout(input_box)
        first = InputPicker(parent=self)
        first.changed.connect(self._update_ready)
        first.add_rows(self.input_form)
        self.inputs = [first]
        self.layer_combo = first.layer_combo
        self.bands_form = first.bands_form
        layout.addWidget(input_box)

        extent_box = QGroupBox(tr("Extent"))
        extent_form = QFormLayout(extent_box)
        self.extent_combo = QComboBox()
        for label, mode in (
            (tr("Current map view"), EXTENT_CANVAS),
            (tr("Layer extent"), EXTENT_LAYER),
            (tr("Selected polygons (masked outside)"), EXTENT_POLYGONS),
            (tr("Rectangle drawn on the map"), EXTENT_DRAWN),
        ):
            self.extent_combo.addItem(label, mode)
        self.extent_combo.setCurrentIndex(
            max(0, self.extent_combo.findData(settings.value("extent_mode", EXTENT_CANVAS)))
        )
        self.extent_combo.currentIndexChanged.connect(self._on_extent_mode)
        extent_form.addRow(tr("Area"), self.extent_combo)
        self.polygon_combo = QgsMapLayerComboBox()
        self.polygon_combo.setFilters(QgsMapLayerProxyModel.PolygonLayer)
        self.polygon_label = QLabel(tr("Polygons"))
        extent_form.addRow(self.polygon_label, self.polygon_combo)
        self.draw_button = QPushButton(tr("Draw rectangle"))
        self.draw_button.setCheckable(True)
        self.draw_button.toggled.connect(self._toggle_draw)
        self.drawn_label = QLabel(tr("No rectangle drawn yet."))
        extent_form.addRow(self.draw_button, self.drawn_label)
        layout.addWidget(extent_box)

        run_box = QGroupBox(tr("Run"))
        run_form = QFormLayout(run_box)
        self.device_combo = QComboBox()
        for label, value in ((tr("Auto (CUDA when available)"), "auto"), ("CUDA", "cuda"), ("CPU", "cpu")):
            self.device_combo.addItem(label, value)
        self.device_combo.setCurrentIndex(max(0, self.device_combo.findData(settings.device())))
        self.device_combo.currentIndexChanged.connect(self._on_device_changed)
        run_form.addRow(tr("Device"), self.device_combo)
        self.device_warning = QLabel()
        self.device_warning.setWordWrap(True)
        self.device_warning.setStyleSheet("color: #a15c00;")
        self.device_warning.setVisible(False)
        run_form.addRow(self.device_warning)
        self.output_widget = QgsFileWidget()
        self.output_widget.setStorageMode(QgsFileWidget.SaveFile)
        self.output_widget.setFilter("GeoTIFF (*.tif *.tiff)")
        self.output_widget.lineEdit().setPlaceholderText(tr("[new file in a temporary folder]"))
        run_form.addRow(tr("Class map"), self.output_widget)
        self.confidence_check = QCheckBox(tr("Also write a confidence layer"))
        self.confidence_check.setChecked(settings.bool_value("confidence", False))
        run_form.addRow(self.confidence_check)

        self.advanced = QgsCollapsibleGroupBox(tr("Advanced"))
        self.advanced.setCollapsed(True)
        adv = QFormLayout(self.advanced)
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
        adv.addRow(tr("Tile size"), self.tile_spin)
        adv.addRow(tr("Overlap"), self.overlap_spin)
        adv.addRow(tr("Tiles per batch"), self.batch_spin)
        reset = QPushButton(tr("Model defaults"))
        reset.clicked.connect(self._reset_tiling)
        adv.addRow(reset)
        run_form.addRow(self.advanced)

        buttons = QHBoxLayout()
        self.run_button = QPushButton(tr("Run"))
        self.run_button.clicked.connect(self.run)
        self.cancel_button = QPushButton(tr("Cancel"))
        self.cancel_button.clicked.connect(self.cancel)
        self.cancel_button.setEnabled(False)
        buttons.addWidget(self.run_button)
        buttons.addWidget(self.cancel_button)
        run_form.addRow(buttons)
        self.reason_label = QLabel()
        self.reason_label.setWordWrap(True)
        self.reason_label.setStyleSheet("color: #b00020;")
        run_form.addRow(self.reason_label)
        self.progress = QProgressBar()
        self.progress.setRange(0, 100)
        self.progress.setVisible(False)
        run_form.addRow(self.progress)
        self.follow = FollowView(self)  # "Follow the view": each settled view segmented and scored
        run_form.addRow(self.follow.widget)
        layout.addWidget(run_box)

        result_box = QGroupBox(tr("Result"))
        result_form = QFormLayout(result_box)
        self.opacity_slider = QSlider(Qt.Horizontal)
        self.opacity_slider.setRange(0, 100)
        self.opacity_slider.setValue(settings.int_value("opacity", 70))
        self.opacity_slider.valueChanged.connect(self._on_opacity)
        self.opacity_slider.setEnabled(False)
        result_form.addRow(tr("Opacity"), self.opacity_slider)
        self.result_label = QLabel()
        self.result_label.setWordWrap(True)
        result_form.addRow(self.result_label)
        layout.addWidget(result_box)
        layout.addStretch(1)
        self._on_extent_mode()
        return tab

    # ------------------------------------------------------------ dependencies
    def refresh_dependencies(self) -> bool:
        """Show or hide the onnxruntime banner; returns whether onnxruntime imports."""
        ok, detail = deps.onnxruntime_status()
        if ok:
            self.banner.setVisible(False)
        else:
            package = deps.onnxruntime_package()
            self.banner.show_missing(package, deps.install_command_text(package), detail)
        self.onnxruntime_ok = ok
        return ok

    def install_dependencies(self) -> None:
        """Ask the user, then pip-install onnxruntime into the plugin's folder in a task."""
        package = self.banner.install_button.property("package") or deps.onnxruntime_package()
        target = deps.deps_dir()
        answer = QMessageBox.question(
            self,
            tr("Install {package}").format(package=package),
            tr("Install {package} with pip into\n{target}\n(used only by this plugin)?").format(
                package=package, target=target
            ),
        )
        if answer != QMessageBox.Yes:
            return
        self.banner.install_button.setEnabled(False)
        self.install_task = deps.InstallTask(package, target, self._on_installed)
        QgsApplication.taskManager().addTask(self.install_task)

    def _on_installed(self, ok: bool, message: str) -> None:
        self.banner.install_button.setEnabled(True)
        if ok and self.refresh_dependencies():
            self.push(tr("onnxruntime {version} installed: the plugin is ready.").format(version=message), Qgis.Success)
            if self.model is None and self.model_combo.count():
                self.set_model(self.model_combo.itemData(0))
        else:
            self.push(message, Qgis.Critical)
        self._update_ready()

    # ------------------------------------------------------------------ model
    def _browse_model(self) -> None:
        start = os.path.dirname(self.model.path) if self.model else settings.str_value("last_model_dir", "")
        path, _ = QFileDialog.getOpenFileName(self, tr("Choose an ONNX model"), start, tr("ONNX models (*.onnx)"))
        if path:
            self.set_model(path)

    def _fill_recent(self, current: str = "") -> None:
        self.model_combo.blockSignals(True)
        self.model_combo.clear()
        for label, path in model_entries(settings.recent_models()):
            self.model_combo.addItem(label, path)
            self.model_combo.setItemData(self.model_combo.count() - 1, path, Qt.ToolTipRole)
        index = self.model_combo.findData(os.path.abspath(current)) if current else -1
        self.model_combo.setCurrentIndex(index)
        self.model_combo.blockSignals(False)

    def set_model(self, path: str | None) -> bool:
        """Read a model, show its card and remember it; False (and the reason on the card) on failure."""
        self.model = None
        if not path:
            self.model_card.show_model(None)
            self._update_ready()
            return False
        if not self.onnxruntime_ok:
            self.model_card.show_model(None, error=tr("Install onnxruntime to read models (see above)."))
            self._update_ready()
            return False
        try:
            from ..core.model import read_model_info

            self.model = read_model_info(path)
        except FlairError as err:
            self.model_card.show_model(None, error=str(err))
            self._fill_recent()
            self._update_ready()
            return False
        settings.remember_model(path)
        settings.set_value("last_model_dir", os.path.dirname(os.path.abspath(path)))
        self._fill_recent(path)
        self.model_card.show_model(self.model, self.provider_label())
        self._reset_tiling()
        self._sync_inputs()
        self._update_ready()
        return True

    def provider_label(self) -> str:
        """The execution provider a run with the chosen device will use."""
        device = self.device_combo.currentData()
        if not self.onnxruntime_ok:
            return "—"
        from ..core.engine import CPU, CUDA, cuda_available

        if device in ("auto", "cuda") and cuda_available():
            return CUDA
        return CPU

    def _reset_tiling(self) -> None:
        if self.model is None:
            return
        self.tile_spin.setValue(self.model.tile_size_px)
        self.tile_spin.setEnabled(self.model.input.tile_size_px is None)
        self.overlap_spin.setValue(self.model.overlap_px)

    def _on_device_changed(self) -> None:
        device = self.device_combo.currentData()
        settings.set_device(device)
        provider = self.provider_label()
        warning = ""
        if device == "cuda" and provider != "CUDAExecutionProvider" and self.onnxruntime_ok:
            warning = tr("CUDA is not available in this onnxruntime: the run will use the CPU.")
        self.device_warning.setText(warning)
        self.device_warning.setVisible(bool(warning))
        if self.model is not None:
            self.model_card.show_model(self.model, provider)

    # ------------------------------------------------------------------ input
    def _sync_inputs(self) -> None:
        """One picker per model input: the first always, further ones for multi-input models."""
        specs = list(self.model.inputs) if self.model is not None else [None]
        while len(self.inputs) > len(specs):
            picker = self.inputs.pop()
            picker.remove_rows(self.input_form)
            picker.deleteLater()
        while len(self.inputs) < len(specs):
            picker = InputPicker(allow_empty=True, parent=self)
            picker.changed.connect(self._update_ready)
            picker.add_rows(self.input_form)
            self.inputs.append(picker)
        for picker, spec in zip(self.inputs, specs):
            picker.set_spec(spec, named=len(specs) > 1)

    @property
    def band_combos(self) -> list[QComboBox]:
        """The band combos of the first input, one per model channel."""
        return self.inputs[0].band_combos

    def bands(self) -> tuple[int, ...]:
        """The layer band chosen for each channel of the first input; () while a channel has none."""
        return self.inputs[0].bands()

    def input_layer(self, index: int) -> QgsMapLayer | None:
        """The layer chosen for model input ``index`` (0-based)."""
        return self.inputs[index].layer_combo.currentLayer()

    def set_input_layer(self, index: int, layer: QgsMapLayer | None) -> None:
        """Choose the layer of model input ``index`` (0-based); its bands follow the model's defaults."""
        self.inputs[index].layer_combo.setLayer(layer)

    def input_bands(self, index: int) -> tuple[int, ...]:
        """The layer band per channel of model input ``index``, 0 where none is chosen."""
        return self.inputs[index].raw_bands()

    # ----------------------------------------------------------------- extent
    def _on_extent_mode(self) -> None:
        mode = self.extent_combo.currentData()
        settings.set_value("extent_mode", mode)
        for widget in (self.polygon_combo, self.polygon_label):
            widget.setVisible(mode == EXTENT_POLYGONS)
        for widget in (self.draw_button, self.drawn_label):
            widget.setVisible(mode == EXTENT_DRAWN)
        if mode != EXTENT_DRAWN and self.draw_button.isChecked():
            self.draw_button.setChecked(False)
        self.rectangle_tool.show_rectangle(self.drawn_extent if mode == EXTENT_DRAWN else None)

    def set_extent_mode(self, mode: str) -> None:
        """Choose how the extent is given (one of the ``EXTENT_*`` modes)."""
        self.extent_combo.setCurrentIndex(self.extent_combo.findData(mode))

    def _toggle_draw(self, checked: bool) -> None:
        if checked:
            self.canvas.setMapTool(self.rectangle_tool)
        elif self.canvas.mapTool() is self.rectangle_tool:
            self.canvas.unsetMapTool(self.rectangle_tool)

    def _on_rectangle_drawn(self, rect: QgsRectangle) -> None:
        self.set_drawn_extent(rect, self.canvas.mapSettings().destinationCrs().authid())
        self.draw_button.setChecked(False)

    def set_drawn_extent(self, rect: QgsRectangle, crs: str) -> None:
        """Use a rectangle (in ``crs``) as the drawn extent."""
        self.drawn_extent = QgsRectangle(rect)
        self.drawn_crs = crs
        self.drawn_label.setText(tr("{w:.0f} × {h:.0f} map units").format(w=rect.width(), h=rect.height()))
        self.rectangle_tool.show_rectangle(rect)

    # -------------------------------------------------------------------- run
    def _update_ready(self, *_args: object) -> None:
        if not getattr(self, "onnxruntime_ok", False):
            reason = tr("onnxruntime is not installed (see above).")
        elif self.task is not None:
            reason = ""
        else:
            reason = ready_reason(self.model, [(p.layer_combo.currentLayer(), p.raw_bands()) for p in self.inputs])
        self.reason_label.setText(reason)
        self.reason_label.setVisible(bool(reason))
        self.run_button.setEnabled(not reason and self.task is None)

    def build_request(self) -> RunRequest:
        """The frozen request the widgets describe."""
        mode = self.extent_combo.currentData()
        extent, crs = None, ""
        if mode == EXTENT_CANVAS:
            rect = self.canvas.extent()
            extent = (rect.xMinimum(), rect.yMinimum(), rect.xMaximum(), rect.yMaximum())
            crs = (
                self.canvas.mapSettings().destinationCrs().authid()
                or self.canvas.mapSettings().destinationCrs().toWkt()
            )
        elif mode == EXTENT_DRAWN and self.drawn_extent is not None:
            rect = self.drawn_extent
            extent = (rect.xMinimum(), rect.yMinimum(), rect.xMaximum(), rect.yMaximum())
            crs = self.drawn_crs
        layer = self.layer_combo.currentLayer()
        polygons = self.polygon_combo.currentLayer()
        more = []
        for picker in self.inputs[1:]:
            other = picker.layer_combo.currentLayer()
            more.append(InputChoice(other.id() if other else "", picker.raw_bands()))
        return RunRequest(
            model_path=self.model.path if self.model else "",
            layer_id=layer.id() if layer else "",
            bands=self.inputs[0].raw_bands(),
            more_inputs=tuple(more),
            extent_mode=mode,
            extent=extent,
            extent_crs=crs,
            mask_layer_id=polygons.id() if polygons is not None else None,
            device=self.device_combo.currentData(),
            tile_size_px=self.tile_spin.value(),
            overlap_px=self.overlap_spin.value(),
            batch_size=self.batch_spin.value(),
            output_path=self.output_widget.filePath().strip(),
            output_folder=settings.output_folder(),
            confidence=self.confidence_check.isChecked(),
            opacity=self.opacity_slider.value() / 100.0,
        )

    def run(self) -> SegmentTask | None:
        """Start a run from the widgets; returns the task, or None when the input is not usable."""
        if self.task is not None or self.model is None:
            return None
        request = self.build_request()
        settings.set_value("batch_size", request.batch_size)
        settings.set_value("confidence", request.confidence)
        try:
            prepared = prepare_segment(request, self.model)
        except FlairError as err:
            self.push(str(err), Qgis.Warning)
            return None
        except Exception as err:
            self.report_unexpected(err)
            return None
        if request.device == "cuda" and self.provider_label() != "CUDAExecutionProvider":
            self.push(tr("CUDA is not available: running on the CPU."), Qgis.Warning)
        self.task = SegmentTask(prepared, self._on_finished)
        self.task.progressChanged.connect(lambda p: self.progress.setValue(int(p)))
        self.progress.setValue(0)
        self.progress.setVisible(True)
        self.cancel_button.setEnabled(True)
        self.run_button.setEnabled(False)
        self.result_label.setText(
            tr("Running on {w} × {h} px ({km2:.3f} km²)…").format(
                w=prepared.plan.grid.width, h=prepared.plan.grid.height, km2=prepared.plan.grid.area_km2
            )
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
                    tr(
                        "The layer '{name}' was removed from the project: the run was stopped and nothing was written."
                    ).format(name=removed[0])
                )
        if self.result_layer_id in layer_ids:
            self.result_layer_id = None
            self.opacity_slider.setEnabled(False)

    def _on_finished(self, outcome: RunOutcome) -> None:
        task, self.task = self.task, None
        self.progress.setVisible(False)
        self.cancel_button.setEnabled(False)
        if outcome.status == "ok" and outcome.result is not None:
            result = outcome.result
            layer = outcome.layers[0]
            self.result_layer_id = layer.id()
            self.opacity_slider.setEnabled(True)
            text = run_summary(result.session.provider, result.grid.area_km2, result.seconds)
            log_line = run_log_line(result.session.provider, result.tiles, result.seconds, result.km2_per_hour)
            QgsMessageLog.logMessage(log_line, LOG_TAG, Qgis.Info)
            summaries = self._tile_value_summaries(result)
            self.result_label.setText("\n".join([text, *summaries]))
            self.push(text, Qgis.Info)
            for summary in summaries:
                self.push(summary, Qgis.Info)
            for warning in result.warnings:
                self.push(warning, Qgis.Warning)
            if layer.customProperty("flair_qgis/kind") == "class_map":
                confidence = next(
                    (lyr for lyr in outcome.layers if lyr.customProperty("flair_qgis/kind") == "confidence"), None
                )
                self.qa.use_prediction(layer, confidence)
        elif outcome.status == "abandoned":
            self.result_label.setText(task.abandon_reason if task else "")
            self.push(task.abandon_reason if task else tr("The run was stopped."), Qgis.Warning)
        elif outcome.status == "canceled":
            self.result_label.setText(tr("Canceled: nothing was written."))
            self.push(tr("Canceled: nothing was written."), Qgis.Info)
        elif isinstance(outcome.error, FlairError):
            self.result_label.setText(str(outcome.error))
            self.push(str(outcome.error), Qgis.Warning)
        else:
            self.result_label.setText(tr("The run failed (see the FLAIR log)."))
            self.report_unexpected(outcome.error, outcome.traceback)
        self._update_ready()

    @staticmethod
    def _tile_value_summaries(result) -> list[str]:
        """A line per per-image head: its values over the tiles (mean, min, max) and the CSV."""
        return [
            tr(
                "Per-image output '{name}' over {n} tiles: mean {mean:.4g}, min {lo:.4g}, max {hi:.4g} ({path})."
            ).format(name=name, n=n, mean=mean, lo=lo, hi=hi, path=result.tile_values_path)
            for name, n, mean, lo, hi in result.tile_value_stats()
        ]

    def _on_opacity(self, value: int) -> None:
        settings.set_value("opacity", value)
        layer = QgsProject.instance().mapLayer(self.result_layer_id) if self.result_layer_id else None
        if isinstance(layer, QgsRasterLayer):
            set_opacity(layer, value / 100.0)

    # --------------------------------------------------------------- messages
    def push(self, text: str, level: int = Qgis.Info) -> None:
        """Show a message in QGIS's message bar."""
        duration = 0 if level in (Qgis.Warning, Qgis.Critical) else MESSAGE_SECONDS
        self.iface.messageBar().pushMessage(MESSAGE_TITLE, text, level=level, duration=duration)

    def report_unexpected(self, error: BaseException | None, trace: str = "") -> None:
        """Critical message for an error that is not the user's; traceback in the FLAIR log."""
        if not trace and error is not None:
            trace = "".join(traceback.format_exception(type(error), error, error.__traceback__))
        QgsMessageLog.logMessage(trace or repr(error), LOG_TAG, Qgis.Critical)
        self.push(
            tr("Unexpected error: {error}. Details are in the log (View ▸ Panels ▸ Log Messages, tab FLAIR).").format(
                error=error
            ),
            Qgis.Critical,
        )

    # ---------------------------------------------------------------- cleanup
    def shutdown(self) -> None:
        """Cancel work, release map tools and signals (the plugin is unloading)."""
        if self.task is not None:
            self.task.abandon(tr("The plugin was unloaded."))
        try:
            QgsProject.instance().layersWillBeRemoved.disconnect(self._on_layers_removed)
        except TypeError:
            pass
        self.rectangle_tool.clear()
        for tool in (self.rectangle_tool, *self.qa.map_tools()):
            if self.canvas.mapTool() is tool:
                self.canvas.unsetMapTool(tool)
        self.qa.shutdown()
        self.follow.shutdown()


def icon_path(name: str) -> str:
    """Path of an icon shipped under resources/icons (falls back to the plugin icon)."""
    path = resources_path("icons", name)
    return path if os.path.exists(path) else resources_path("icon.svg")
