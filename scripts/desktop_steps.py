"""What the scripts run inside the QGIS desktop (``qgis --code``) share: steps chained on the
event loop that write their traceback beside the output and quit on failure, and the opening a
user makes (the plugin started, the image added and framed, the dock shown with the demo model).

scripts/desktop-screenshot and scripts/desktop-heartbeat put this folder on ``PYTHONPATH``.
"""

import os
import traceback
from collections.abc import Callable

from qgis.core import QgsApplication, QgsProject, QgsRasterLayer
from qgis.PyQt.QtCore import QTimer
from qgis.utils import iface, loadPlugin, plugins, startPlugin


def fail(output: str) -> None:
    """Write the current traceback to ``OUTPUT.error.txt`` and quit QGIS with an error."""
    with open(output + ".error.txt", "w") as handle:
        handle.write(traceback.format_exc())
    QgsApplication.exit(1)


def later(seconds: float, step: Callable[[], None], output: str) -> None:
    """Run ``step`` on the event loop after a delay; an error in it is written out and quits QGIS."""

    def guarded() -> None:
        try:
            step()
        except Exception:
            fail(output)

    QTimer.singleShot(int(seconds * 1000), guarded)


def open_dock(image: str, model: str, name: str = ""):
    """Start the plugin, add ``image`` framed in a 1600 x 1000 window, show the dock with ``model``
    and the confidence layer asked for (the suspicion ranking weighs by confidence).

    Returns:
        ``(plugin, layer)``.
    """
    loadPlugin("flair_qgis")
    startPlugin("flair_qgis")
    plugin = plugins["flair_qgis"]
    layer = QgsRasterLayer(image, name or os.path.splitext(os.path.basename(image))[0])
    QgsProject.instance().addMapLayer(layer)
    iface.mainWindow().resize(1600, 1000)
    iface.mapCanvas().setExtent(layer.extent())
    plugin.show_dock(True)
    plugin.dock.set_model(model)
    plugin.dock.confidence_check.setChecked(True)
    return plugin, layer
