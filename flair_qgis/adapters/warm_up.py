"""Import the plugin's heavy libraries once, in a background task, soon after QGIS starts.

The first "Score this view" of a session imports pandas (through geopandas) inside its task. Pandas'
C extensions initialise while holding Python's GIL, and the main thread, which runs Python too
(the plugin's slots, QGIS's own Python), waits: the event loop stalled 160-280 ms on the first
score (tests/main_thread_probe.py), against 25-65 ms on later ones. :class:`WarmUp` queues a
:class:`WarmUpTask` a few seconds after the plugin loads, when QGIS is idle, so that a user's
first click finds the modules imported. Nothing here reads data; a failed import is left for the
task that needs the module to report (the plugin's dependency check names missing packages).
"""

from __future__ import annotations

import importlib

from qgis.core import QgsApplication, QgsTask
from qgis.PyQt.QtCore import QTimer

from ..i18n import tr
from .proj_threads import keep_proj_context

WARM_MODULES = ("pandas", "geopandas", "shapely.geometry", "rasterio.features")
"""What the scoring, review and polygon paths import lazily, heaviest first."""

DELAY_MS = 5000
"""After the plugin loads: QGIS has drawn its window and opened the project by then."""


class WarmUpTask(QgsTask):
    """Imports :data:`WARM_MODULES` on a worker thread; cannot be cancelled (it has nothing to stop)."""

    def __init__(self, modules: tuple[str, ...] = WARM_MODULES) -> None:
        super().__init__(tr("FLAIR: loading libraries"), QgsTask.Flag(0))
        self.modules = modules
        self.imported: list[str] = []

    def run(self) -> bool:
        keep_proj_context()  # geopandas imports pyproj on this pooled thread
        for name in self.modules:
            try:
                importlib.import_module(name)
            except ImportError:
                continue  # reported by the dependency check and by the task that needs it
            self.imported.append(name)
        return True


class WarmUp:
    """The timer and, once queued, the task (Python must keep a QgsTask subclass alive while QGIS
    runs it). :meth:`stop` is for the plugin's unload."""

    def __init__(self, delay_ms: int = DELAY_MS) -> None:
        self.task: WarmUpTask | None = None
        self.timer = QTimer()
        self.timer.setSingleShot(True)
        self.timer.timeout.connect(self._queue)
        self.timer.start(delay_ms)

    def _queue(self) -> None:
        self.task = WarmUpTask()
        QgsApplication.taskManager().addTask(self.task)

    def stop(self) -> None:
        """Stop the timer if it has not fired; a running import is left to finish."""
        self.timer.stop()
