"""The QGIS plugin shell: Processing provider, a toolbar/menu action and the FLAIR dock.

Nothing heavy happens at import or at QGIS start: onnxruntime is looked for when the dock
first opens, and the plugin's own dependency folder is put on ``sys.path`` in :meth:`initGui`.
:meth:`unload` removes everything it added (provider, actions, toolbar, dock, map tools).
"""

from __future__ import annotations

import sys

from qgis.core import Qgis, QgsApplication
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtGui import QIcon
from qgis.PyQt.QtWidgets import QMessageBox

try:  # Qt6 (QGIS 4) has QAction in QtGui
    from qgis.PyQt.QtGui import QAction
except ImportError:  # Qt5 (QGIS 3) has it in QtWidgets
    from qgis.PyQt.QtWidgets import QAction  # type: ignore[attr-defined,no-redef]

from .i18n import install_translator, remove_translator, tr
from .processing.provider import PROVIDER_ID, FlairProvider
from .resource_paths import resources_path

MENU = "&FLAIR"


class FlairPlugin:
    """Entry point object QGIS creates through :func:`flair_qgis.classFactory`."""

    def __init__(self, iface) -> None:
        self.iface = iface
        self.provider: FlairProvider | None = None
        self.action: QAction | None = None
        self.dock = None
        self.missing: list[str] = []
        self.install_task = None
        self.crs_offer = None
        self.warm_up = None
        # Before any tr(): the Processing provider may be created before initGui.
        install_translator()

    def initProcessing(self) -> None:
        # QGIS calls this for plugins with hasProcessingProvider=yes, and initGui calls it too.
        # A registry that already holds a `flair` provider keeps it; unload then leaves it alone.
        from .adapters.deps import activate_deps_dir, missing_modules

        activate_deps_dir()
        self.missing = missing_modules()
        if self.missing:
            return  # the algorithms import rasterio/geopandas: nothing to offer until they are installed
        registry = QgsApplication.processingRegistry()
        if self.provider is None and registry.providerById(PROVIDER_ID) is None:
            provider = FlairProvider()
            if registry.addProvider(provider):
                self.provider = provider

    def initGui(self) -> None:
        self.initProcessing()
        self.action = QAction(QIcon(resources_path("icon.svg")), tr("FLAIR segmentation"), self.iface.mainWindow())
        self.action.setObjectName("FlairShowDock")
        self.action.setCheckable(True)
        self.action.setToolTip(tr("Segment imagery with an ONNX model and score it (FLAIR)"))
        self.action.toggled.connect(self.show_dock)
        self.iface.addToolBarIcon(self.action)
        self.iface.addPluginToRasterMenu(MENU, self.action)
        from .gui.crs_offer import CrsOffer

        self.crs_offer = CrsOffer(self.iface)
        from .adapters.warm_up import WarmUp

        self.warm_up = WarmUp()  # the first score then finds pandas imported (see the module)
        if self.missing:
            from .adapters.deps import install_command_text, platform_advice

            # Windows: QGIS's installer, never pip, for the geospatial packages (see offer_dependencies).
            windows = sys.platform.startswith("win")
            command = platform_advice(self.missing) if windows else install_command_text(" ".join(self.missing))
            self.iface.messageBar().pushMessage(
                "FLAIR",
                tr(
                    "needs the Python package(s) {names}, which this QGIS does not have: click the FLAIR button to "
                    "install them, or run: {command}"
                ).format(names=", ".join(self.missing), command=command),
                Qgis.MessageLevel.Warning,
            )

    def show_dock(self, visible: bool = True) -> None:
        """Show (creating it the first time) or hide the FLAIR dock."""
        if visible and self.missing:
            self._sync_action(False)
            self.offer_dependencies()
            return
        if self.dock is None and not visible:
            return
        if self.dock is None:
            from .gui.dock import FlairDock

            self.dock = FlairDock(self.iface, self.iface.mainWindow())
            self.iface.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.dock)
            self.dock.visibilityChanged.connect(self._sync_action)
        self.dock.setVisible(visible)
        if visible:
            self.dock.raise_()
        self._sync_action(visible)

    def offer_dependencies(self, ask: bool = True) -> None:
        """Say what is missing and how it is installed here; offer pip only for what pip should install.

        On Windows rasterio, geopandas, shapely and pyproj come from QGIS's own installer (their pip
        wheels bring a second GDAL): the dialog gives its command and offers nothing to click.
        """
        from .adapters.deps import (
            InstallTask,
            deps_dir,
            find_qgis_python,
            machine_plan,
            machine_plan_text,
            platform_advice,
        )

        plan = machine_plan(self.missing, runtime=False)
        names = " ".join(plan.pip)
        if ask:
            intro = tr("FLAIR needs the Python package(s) {names}, which this QGIS does not have.").format(
                names=", ".join(self.missing)
            )
            parts = [intro, platform_advice(self.missing), machine_plan_text(plan, deps_dir())]
            text = "\n\n".join(part for part in parts if part)
            if not plan.pip or find_qgis_python() is None:
                QMessageBox.information(self.iface.mainWindow(), tr("FLAIR segmentation"), text)
                return
            if QMessageBox.question(self.iface.mainWindow(), tr("FLAIR segmentation"), text) != (
                QMessageBox.StandardButton.Yes
            ):
                return
        if not plan.pip:
            return
        self.install_task = InstallTask(names, deps_dir(), self._installed)
        QgsApplication.taskManager().addTask(self.install_task)

    def _installed(self, ok: bool, detail: str) -> None:
        self.install_task = None
        if ok:
            self.iface.messageBar().pushMessage(
                "FLAIR",
                tr("Installed {names}: restart QGIS to use FLAIR.").format(names=", ".join(self.missing)),
                Qgis.MessageLevel.Success,
            )
        else:
            self.iface.messageBar().pushMessage("FLAIR", detail, Qgis.MessageLevel.Critical)

    def _sync_action(self, visible: bool) -> None:
        if self.action is not None and self.action.isChecked() != visible:
            self.action.blockSignals(True)
            self.action.setChecked(visible)
            self.action.blockSignals(False)

    def unload(self) -> None:
        if self.warm_up is not None:
            self.warm_up.stop()
        if self.crs_offer is not None:
            self.crs_offer.shutdown()
            self.crs_offer = None
        if self.install_task is not None:
            self.install_task.cancel()
            self.install_task = None
        if self.dock is not None:
            self.dock.shutdown()
            self.iface.removeDockWidget(self.dock)
            self.dock.setParent(None)
            self.dock.deleteLater()
            self.dock = None
        if self.action is not None:
            self.iface.removePluginRasterMenu(MENU, self.action)
            self.iface.removeToolBarIcon(self.action)
            self.action.setParent(None)
            self.action.deleteLater()
            self.action = None
        if self.provider is not None:
            QgsApplication.processingRegistry().removeProvider(self.provider)
            self.provider = None
        remove_translator()
