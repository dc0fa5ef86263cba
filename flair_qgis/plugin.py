"""The QGIS plugin shell: Processing provider, a toolbar/menu action and the FLAIR dock.

Nothing heavy happens at import or at QGIS start: onnxruntime is looked for when the dock
first opens, and the plugin's own dependency folder is put on ``sys.path`` in :meth:`initGui`.
:meth:`unload` removes everything it added (provider, actions, toolbar, dock, map tools).
"""

from __future__ import annotations

from qgis.core import QgsApplication
from qgis.PyQt.QtCore import QCoreApplication, Qt
from qgis.PyQt.QtGui import QIcon
from qgis.PyQt.QtWidgets import QAction

from . import resources_path
from .processing.provider import PROVIDER_ID, FlairProvider

MENU = "&FLAIR"


def tr(text: str) -> str:
    """Translate a user-visible string of the plugin shell."""
    return QCoreApplication.translate("FlairPlugin", text)


class FlairPlugin:
    """Entry point object QGIS creates through :func:`flair_qgis.classFactory`."""

    def __init__(self, iface) -> None:
        self.iface = iface
        self.provider: FlairProvider | None = None
        self.action: QAction | None = None
        self.dock = None

    def initProcessing(self) -> None:
        # QGIS calls this for plugins with hasProcessingProvider=yes, and initGui calls it too.
        # A registry that already holds a `flair` provider keeps it; unload then leaves it alone.
        registry = QgsApplication.processingRegistry()
        if self.provider is None and registry.providerById(PROVIDER_ID) is None:
            provider = FlairProvider()
            if registry.addProvider(provider):
                self.provider = provider

    def initGui(self) -> None:
        from .adapters.deps import activate_deps_dir

        activate_deps_dir()
        self.initProcessing()
        self.action = QAction(QIcon(resources_path("icon.svg")), tr("FLAIR segmentation"), self.iface.mainWindow())
        self.action.setObjectName("FlairShowDock")
        self.action.setCheckable(True)
        self.action.setToolTip(tr("Segment imagery with an ONNX model and score it (FLAIR)"))
        self.action.toggled.connect(self.show_dock)
        self.iface.addToolBarIcon(self.action)
        self.iface.addPluginToRasterMenu(MENU, self.action)

    def show_dock(self, visible: bool = True) -> None:
        """Show (creating it the first time) or hide the FLAIR dock."""
        if self.dock is None and not visible:
            return
        if self.dock is None:
            from .gui.dock import FlairDock

            self.dock = FlairDock(self.iface, self.iface.mainWindow())
            self.iface.addDockWidget(Qt.RightDockWidgetArea, self.dock)
            self.dock.visibilityChanged.connect(self._sync_action)
        self.dock.setVisible(visible)
        if visible:
            self.dock.raise_()
        self._sync_action(visible)

    def _sync_action(self, visible: bool) -> None:
        if self.action is not None and self.action.isChecked() != visible:
            self.action.blockSignals(True)
            self.action.setChecked(visible)
            self.action.blockSignals(False)

    def unload(self) -> None:
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
