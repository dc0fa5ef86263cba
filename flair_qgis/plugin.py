"""The QGIS plugin shell: registers the Processing provider (the dock comes in flair_qgis.gui)."""

from __future__ import annotations

from qgis.core import QgsApplication

from .processing.provider import FlairProvider


class FlairPlugin:
    """Entry point object QGIS creates through :func:`flair_qgis.classFactory`."""

    def __init__(self, iface) -> None:  # noqa: ANN001 - QgisInterface
        self.iface = iface
        self.provider: FlairProvider | None = None

    def initProcessing(self) -> None:  # noqa: N802 - QGIS API
        self.provider = FlairProvider()
        QgsApplication.processingRegistry().addProvider(self.provider)

    def initGui(self) -> None:  # noqa: N802 - QGIS API
        self.initProcessing()

    def unload(self) -> None:
        if self.provider is not None:
            QgsApplication.processingRegistry().removeProvider(self.provider)
            self.provider = None
