"""Run inside the QGIS desktop (``qgis --code``): segment a real patch, create a review of its
labels from the Review tab, give a few verdicts with the keys, save a screenshot of the window.
``FLAIR_SHOT_ALL=1`` gives a verdict to every item (most "correct", every ninth a class key) and
scrolls to the figures table. See scripts/review-screenshot."""

import os

from qgis.PyQt.QtCore import Qt, QTimer
from qgis.utils import iface, loadPlugin, plugins, startPlugin
from shot_common import IMAGE, MASK, WORK, add, fail, segment_patch, shoot

state = {}


def start() -> None:
    try:
        loadPlugin("flair_qgis")
        startPlugin("flair_qgis")
        plugin = plugins["flair_qgis"]
        result = segment_patch()
        ortho = add(IMAGE, "IMG_024577")
        # The masks carry a LOCAL_CS without EPSG code: the layer gets the image's CRS, as a user would give it.
        labels = add(MASK, "MSK_024577 (labels)", visible=False, crs=ortho.crs())
        prediction = add(result["OUTPUT"], "classes_024577")
        prediction.renderer().setOpacity(0.35)
        confidence = add(result["OUTPUT_CONFIDENCE"], "confidence_024577", visible=False)
        iface.mainWindow().resize(1600, 1000)
        plugin.show_dock(True)
        dock = plugin.dock
        dock.tabs.setCurrentIndex(dock.tabs.count() - 1)
        from flair_qgis.gui.review.review_panel import ReviewPanel

        panel = dock.findChild(ReviewPanel)
        box = panel.create_box
        box.prediction_combo.setLayer(prediction)
        box.reference_combo.setLayer(labels)
        box.confidence_combo.setLayer(confidence)
        box.samples_spin.setValue(200)
        box.min_spin.setValue(10)
        box.output_widget.setFilePath(os.path.join(WORK, "review_024577.gpkg"))
        box.start()
        state["panel"] = panel
        QTimer.singleShot(1000, wait)
    except Exception:
        fail()


def wait() -> None:
    try:
        panel = state["panel"]
        if panel.create_box.task is not None or panel.session is None:
            QTimer.singleShot(500, wait)
            return
        panel.create_box.setCollapsed(True)
        keys = [Qt.Key.Key_C, Qt.Key.Key_C, Qt.Key.Key_3, Qt.Key.Key_C, Qt.Key.Key_U, Qt.Key.Key_C, Qt.Key.Key_7]
        if os.environ.get("FLAIR_SHOT_ALL"):
            keys = [Qt.Key.Key_3 if i % 9 == 8 else Qt.Key.Key_C for i in range(len(panel.session.items))]
        for key in keys:
            panel.handle_key(key, Qt.KeyboardModifier.NoModifier)
        if os.environ.get("FLAIR_SHOT_ALL"):
            area = next(a for a in plugins["flair_qgis"].dock.scroll_areas if a.isAncestorOf(panel))
            panel.figures.setCollapsed(False)
            area.ensureWidgetVisible(panel.figures)
        QTimer.singleShot(4000, shoot)
    except Exception:
        fail()


QTimer.singleShot(1000, start)
