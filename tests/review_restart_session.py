"""One QGIS session of the lost-review test (tests/test_gui_french.py), run as its own process.

``give PREDICTION REFERENCE``: start a headless QGIS with the plugin, copy the class map into
QGIS's Processing temporary folder (where a Processing run's temporary output lies), create a
review from the Review tab with the review file left empty, give three verdicts with keys, quit
QGIS.
``find``: start QGIS again in the same profile and report what the Review tab shows.
Prints one JSON line. The profile is the process's HOME / XDG folders, set by the caller.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

os.environ["QT_QPA_PLATFORM"] = "offscreen"
TESTS = Path(__file__).resolve().parent
sys.path.insert(0, str(TESTS.parent))


def start():
    from pytest_qgis.mock_qgis_classes import MockMessageBar
    from pytest_qgis.qgis_interface import QgisInterface  # before QGIS starts, as pytest-qgis does
    from qgis.core import QgsApplication

    app = QgsApplication([], True)
    app.initQgis()
    plugins = os.path.join(QgsApplication.pkgDataPath(), "python", "plugins")
    sys.path.append(plugins)
    from processing.core.Processing import Processing

    Processing.initialize()
    from qgis.gui import QgsMapCanvas
    from qgis.PyQt.QtWidgets import QMainWindow

    window = QMainWindow()
    canvas = QgsMapCanvas(window)
    iface = QgisInterface(canvas, MockMessageBar(), window)
    from flair_qgis.plugin import FlairPlugin

    plugin = FlairPlugin(iface)
    plugin.initGui()
    plugin.show_dock(True)
    from flair_qgis.gui.review.review_panel import ReviewPanel

    panel = plugin.dock.findChild(ReviewPanel)
    return app, iface, plugin, panel


def wait(app, done, seconds: float = 120) -> None:
    import time

    end = time.monotonic() + seconds
    while not done() and time.monotonic() < end:
        app.processEvents()
        time.sleep(0.01)


def give(prediction: str, reference: str) -> dict:
    from qgis.core import QgsProcessingUtils, QgsProject, QgsRasterLayer
    from qgis.PyQt.QtCore import Qt

    app, _iface, plugin, panel = start()
    temp = QgsProcessingUtils.tempFolder()
    in_temp = shutil.copy(prediction, os.path.join(temp, "prediction.tif"))
    shutil.copy(os.path.splitext(prediction)[0] + ".qml", os.path.join(temp, "prediction.qml"))  # its style
    QgsProject.instance().addMapLayer(QgsRasterLayer(str(reference), "MSK"))
    QgsProject.instance().addMapLayer(QgsRasterLayer(in_temp, "prediction"))
    box = panel.create_box
    box.setCollapsed(False)
    box.preselect()  # what opening the box does on a shown dock
    box.reference_combo.setLayer(QgsProject.instance().mapLayersByName("MSK")[0])
    box.design_combo.setCurrentIndex(box.design_combo.findData("random"))
    box.samples_spin.setValue(8)
    shown = box.path_label.text()
    box.start()
    wait(app, lambda: box.task is None and panel.session is not None)
    for key in (Qt.Key.Key_C, Qt.Key.Key_C, Qt.Key.Key_U):
        panel.handle_key(key, Qt.KeyboardModifier.NoModifier)
    path = panel.session.store.path
    result = {
        "class_map": box.prediction_combo.currentLayer().name() if box.prediction_combo.currentLayer() else "",
        "path_label": shown,
        "path": path,
        "temp": temp,
        "verdicts": verdicts(path),
    }
    plugin.unload()
    QgsProject.instance().clear()
    app.exitQgis()
    return result


def verdicts(path: str) -> dict:
    from flair_qgis.core.review.store import ReviewStore

    with ReviewStore.open(path) as store:
        return {str(i.item_id): i.verdict for i in store.items() if i.verdict}


def find() -> dict:
    from qgis.core import Qgis
    from qgis.PyQt.QtCore import Qt

    app, iface, plugin, panel = start()
    session = panel.session
    result = {
        "path": session.store.path if session else "",
        "status": panel.status_label.text(),
        "messages": list(iface.messageBar().get_messages(Qgis.MessageLevel.Warning)),
        "prediction_layer": bool(panel.layer_combos["M"].currentLayer()),
        "labels_layer": panel.layer_combos["R"].currentLayer().name() if panel.layer_combos["R"].currentLayer() else "",
    }
    if session is not None:
        result["verdicts"] = verdicts(session.store.path)
        before = dict(result["verdicts"])
        panel.handle_key(Qt.Key.Key_C, Qt.KeyboardModifier.NoModifier)
        result["verdict_accepted_after_restart"] = verdicts(session.store.path) != before
    plugin.unload()
    app.exitQgis()
    return result


if __name__ == "__main__":
    outcome = give(sys.argv[2], sys.argv[3]) if sys.argv[1] == "give" else find()
    sys.stdout.write("RESULT " + json.dumps(outcome) + "\n")
    sys.stdout.flush()
    sys.exit(0)  # a normal exit: QGIS deletes its temporary folder as it does for users
