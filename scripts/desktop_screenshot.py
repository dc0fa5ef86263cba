"""Run inside the QGIS desktop (``qgis --code``): load the plugin, segment a real patch from the
dock, and save a screenshot of the whole QGIS window. See scripts/desktop-screenshot."""

import os
import traceback

from qgis.core import QgsApplication, QgsProject, QgsRasterLayer
from qgis.PyQt.QtCore import QTimer
from qgis.utils import iface, loadPlugin, plugins, startPlugin

IMAGE = os.environ["FLAIR_SHOT_IMAGE"]
MODEL = os.environ["FLAIR_SHOT_MODEL"]
OUTPUT = os.environ["FLAIR_SHOT_OUTPUT"]
state = {}


def fail() -> None:
    with open(OUTPUT + ".error.txt", "w") as handle:
        handle.write(traceback.format_exc())
    QgsApplication.exit(1)


def start() -> None:
    try:
        loadPlugin("flair_qgis")
        startPlugin("flair_qgis")
        plugin = plugins["flair_qgis"]
        layer = QgsRasterLayer(IMAGE, os.path.splitext(os.path.basename(IMAGE))[0])
        QgsProject.instance().addMapLayer(layer)
        iface.mainWindow().resize(1600, 1000)
        iface.mapCanvas().setExtent(layer.extent())
        plugin.show_dock(True)
        plugin.dock.set_model(MODEL)
        state["dock"] = plugin.dock
        QTimer.singleShot(3000, run)
    except Exception:
        fail()


def run() -> None:
    try:
        state["dock"].run()
        QTimer.singleShot(500, wait)
    except Exception:
        fail()


def wait() -> None:
    if state["dock"].task is not None:
        QTimer.singleShot(500, wait)
        return
    iface.mapCanvas().refreshAllLayers()
    QTimer.singleShot(3000, shoot)


def shoot() -> None:
    iface.mainWindow().grab().save(OUTPUT)
    QgsApplication.exit(0)


QTimer.singleShot(1000, start)
