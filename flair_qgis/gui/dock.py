"""The FLAIR dock: an onnxruntime banner over tabs (Segment, Evaluate...).

Each tab is a widget of its own (:class:`~flair_qgis.gui.segment.segment_panel.SegmentPanel`,
:class:`~flair_qgis.gui.evaluate.qa_panel.QaPanel`); adding one is one :meth:`FlairDock.add_tab` line in
:meth:`FlairDock._build`. The dock owns what the tabs share: the message bar, the log, the
onnxruntime status and the unload.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from typing import TypeVar

from qgis.core import Qgis, QgsApplication, QgsMessageLog
from qgis.PyQt.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDockWidget,
    QFormLayout,
    QMessageBox,
    QScrollArea,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ..adapters import deps, settings
from ..adapters.segment_request import SegmentChoices
from ..core.engine import ModelInfo
from ..core.errors import FlairError
from ..i18n import tr
from ..i18n.errors import error_text
from .evaluate.follow_view import FollowView
from .segment.model_list import start_model
from .segment.segment_panel import SegmentPanel
from .widgets import DependencyBanner, compact

LOG_TAG = "FLAIR"
MESSAGE_TITLE = "FLAIR"
MESSAGE_SECONDS = 8
Prepared = TypeVar("Prepared")


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
        self.onnxruntime_ok = False
        self._build()
        self.refresh_dependencies()
        self.set_model(start_model(settings.recent_models()))
        self.segment.update_ready()

    def _build(self) -> None:
        body = QWidget()
        outer = QVBoxLayout(body)
        self.banner = DependencyBanner()
        self.banner.install_requested.connect(self.install_dependencies)
        self.banner.setVisible(False)
        outer.addWidget(self.banner)
        self.tabs = QTabWidget()
        self.scroll_areas: list[QScrollArea] = []  # the scrolled part of each tab, by tab index
        outer.addWidget(self.tabs)
        from .evaluate.qa_panel import QaPanel

        self.segment = SegmentPanel(self)
        self.qa = QaPanel(self.iface, self)
        self.follow = FollowView(self)  # "Follow the view": each settled view segmented and scored
        # Its toggle and status line stay in sight under the scrolled tab, whatever the dock's height.
        self.add_tab(self.segment, tr("Segment"), footer=self.follow.widget)
        self.add_tab(self.qa, tr("Evaluate"))
        from .review.review_panel import ReviewPanel  # the Review tab cleans up after itself (destroyed with the dock)

        self.add_tab(ReviewPanel(self.iface, self), tr("Review"))
        self.setWidget(body)
        for combo in self.findChildren(QComboBox):
            compact(combo)
        # A narrow dock (300 px) puts a form's field under its label rather than scrolling sideways.
        for form in self.findChildren(QFormLayout):
            form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)

    def add_tab(self, widget: QWidget, title: str, footer: QWidget | None = None) -> int:
        """Add a tab (scrolled, so that the dock can stay narrow); returns its index.

        A ``footer`` goes under the scrolled part, outside it: always in sight, at any dock height.
        """
        area = QScrollArea()
        area.setWidgetResizable(True)
        area.setWidget(widget)
        self.scroll_areas.append(area)
        if footer is None:
            return self.tabs.addTab(area, title)
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(area, 1)
        layout.addWidget(footer)
        return self.tabs.addTab(page, title)

    # ------------------------------------------------ the Segment tab, as other tabs and scripts use it
    # Widgets are reached through their tab and section (``dock.segment.run_section.run_button``);
    # these few are named on the dock because other tabs (Evaluate's "Follow the view" and its
    # suspicious-label ranking) and most tests and scripts use them.
    @property
    def model(self) -> ModelInfo | None:
        """The model chosen on the Segment tab (None until one reads)."""
        return self.segment.model

    def set_model(self, path: str | None) -> bool:
        """Choose the Segment tab's model (see :meth:`SegmentPanel.set_model`)."""
        return self.segment.set_model(path)

    def build_request(self) -> SegmentChoices:
        """The Segment tab's frozen choices."""
        return self.segment.build_request()

    @property
    def confidence_check(self) -> QCheckBox:
        """The Segment tab's "Confidence layer" box (asking for suspicious labels ticks it)."""
        return self.segment.run_section.confidence_check

    # ------------------------------------------------------------ inputs
    @property
    def layer_combo(self):
        """The layer combo of the first model input."""
        return self.segment.inputs_section.inputs[0].layer_combo

    @property
    def band_combos(self) -> list[QComboBox]:
        """The band combos of the first input, one per model channel."""
        return self.segment.inputs_section.inputs[0].band_combos

    def bands(self) -> tuple[int, ...]:
        """The layer band chosen for each channel of the first input; () while a channel has none."""
        return self.segment.inputs_section.inputs[0].bands()

    def input_layer(self, index: int):
        """The layer chosen for model input ``index`` (0-based)."""
        return self.segment.inputs_section.inputs[index].layer_combo.currentLayer()

    def set_input_layer(self, index: int, layer) -> None:
        """Choose the layer of model input ``index`` (0-based); its bands follow the model's defaults."""
        self.segment.inputs_section.inputs[index].layer_combo.setLayer(layer)

    def input_bands(self, index: int) -> tuple[int, ...]:
        """The layer band per channel of model input ``index``, 0 where none is chosen."""
        return self.segment.inputs_section.inputs[index].raw_bands()

    def set_extent_mode(self, mode: str) -> None:
        """Choose how the extent is given (one of the ``EXTENT_*`` modes)."""
        self.segment.extent_section.set_mode(mode)

    # ------------------------------------------------------------ dependencies
    def refresh_dependencies(self) -> bool:
        """Show or hide the onnxruntime banner; returns whether onnxruntime imports."""
        ok, detail = deps.onnxruntime_status()
        if ok:
            self.banner.setVisible(False)
        else:
            package = deps.runtime_packages()
            self.banner.show_missing(package, deps.install_command_text(package), detail)
        self.onnxruntime_ok = ok
        return ok

    def install_dependencies(self) -> None:
        """Say what pip will install, from where and how many MB, ask, then install in a task."""
        target = deps.deps_dir()
        plan = deps.machine_plan()
        text = deps.machine_plan_text(plan, target)
        package = " ".join(plan.pip)
        title = tr("Install {package}").format(package=" + ".join(plan.pip))
        if deps.find_qgis_python() is None:
            QMessageBox.information(self, title, text)
            return
        if QMessageBox.question(self, title, text) != QMessageBox.StandardButton.Yes:
            return
        self.banner.install_button.setEnabled(False)
        self.install_task = deps.InstallTask(package, target, self._on_installed)
        QgsApplication.taskManager().addTask(self.install_task)

    def _on_installed(self, ok: bool, message: str) -> None:
        self.banner.install_button.setEnabled(True)
        if ok and self.refresh_dependencies():
            self.push(
                tr("onnxruntime {version} installed: the plugin is ready.").format(version=message),
                Qgis.MessageLevel.Success,
            )
            combo = self.segment.model_section.model_combo
            if self.segment.model is None and combo.count():
                self.set_model(combo.itemData(0))
        else:
            self.push(message, Qgis.MessageLevel.Critical)
        self.segment.update_ready()

    # --------------------------------------------------------------- messages
    def push(self, text: str, level: int = Qgis.MessageLevel.Info) -> None:
        """Show a message in QGIS's message bar."""
        duration = 0 if level in (Qgis.MessageLevel.Warning, Qgis.MessageLevel.Critical) else MESSAGE_SECONDS
        self.iface.messageBar().pushMessage(MESSAGE_TITLE, text, level=level, duration=duration)

    def log(self, text: str, level: int = Qgis.MessageLevel.Info) -> None:
        """Write a line to the FLAIR tab of the QGIS log (technical detail the message bar leaves out)."""
        QgsMessageLog.logMessage(text, LOG_TAG, level)

    def report_unexpected(self, error: BaseException | None, trace: str = "") -> None:
        """Critical message for an error that is not the user's; traceback in the FLAIR log."""
        if not trace and error is not None:
            trace = "".join(traceback.format_exception(type(error), error, error.__traceback__))
        QgsMessageLog.logMessage(trace or repr(error), LOG_TAG, Qgis.MessageLevel.Critical)
        self.push(
            tr("Unexpected error: {error}. Details are in the log (View ▸ Panels ▸ Log Messages, tab FLAIR).").format(
                error=error
            ),
            Qgis.MessageLevel.Critical,
        )

    def attempt(self, work: Callable[[], Prepared]) -> Prepared | None:
        """Run a tab's main-thread preparation of a run, saying why when it cannot start.

        Args:
            work: the preparation (captures layers and checks the request).

        Returns:
            What ``work`` returns, or None after a warning (bad input: a ``FlairError``, whose
            text says what to do) or a critical message (any other error, traceback in the log).
        """
        try:
            return work()
        except FlairError as err:
            self.push(error_text(err), Qgis.MessageLevel.Warning)
        except Exception as err:
            self.report_unexpected(err)
        return None

    # ---------------------------------------------------------------- cleanup
    def shutdown(self) -> None:
        """Cancel work, release map tools and signals (the plugin is unloading)."""
        self.segment.shutdown()
        for tool in self.qa.map_tools():
            if self.canvas.mapTool() is tool:
                self.canvas.unsetMapTool(tool)
        self.qa.shutdown()
        self.follow.shutdown()
