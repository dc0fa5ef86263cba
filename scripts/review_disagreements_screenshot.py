"""Run inside the QGIS desktop (``qgis --code``): segment a real patch, sample a stratified review
of its labels with a fifth of the items for a second interpreter, let two interpreters disagree on
a few, and save a screenshot of the Review tab's Disagreements queue. See
scripts/review-screenshot (``FLAIR_SHOT_CODE`` picks this script)."""

import os
import traceback

from qgis.core import QgsApplication, QgsProject, QgsRasterLayer
from qgis.PyQt.QtCore import QTimer
from qgis.utils import iface, loadPlugin, plugins, startPlugin

WORK = os.environ["FLAIR_SHOT_WORK"]
MODEL = os.environ["FLAIR_SHOT_MODEL"]
OUTPUT = os.environ["FLAIR_SHOT_OUTPUT"]


def fail() -> None:
    with open(OUTPUT + ".error.txt", "w") as handle:
        handle.write(traceback.format_exc())
    QgsApplication.exit(1)


def add(path: str, name: str, visible: bool = True, crs=None) -> QgsRasterLayer:
    layer = QgsRasterLayer(path, name)
    if crs is not None:
        layer.setCrs(crs)
    QgsProject.instance().addMapLayer(layer)
    QgsProject.instance().layerTreeRoot().findLayer(layer.id()).setItemVisibilityChecked(visible)
    return layer


def start() -> None:
    try:
        import processing

        from flair_qgis.core.review.session import ReviewSession
        from flair_qgis.core.review.store import ReviewStore
        from flair_qgis.gui.review_panel import ReviewPanel

        loadPlugin("flair_qgis")
        startPlugin("flair_qgis")
        plugin = plugins["flair_qgis"]
        image = os.path.join(WORK, "IMG_024577.tif")
        mask = os.path.join(WORK, "MSK_024577.tif")
        result = processing.run(
            "flair:segment",
            {"INPUT": image, "MODEL": MODEL, "OUTPUT": os.path.join(WORK, "classes_024577.tif"),
             "OUTPUT_CONFIDENCE": os.path.join(WORK, "confidence_024577.tif"), "DEVICE": "cpu"},
        )  # fmt: skip
        review = processing.run(
            "flair:sample",
            {"PREDICTION": result["OUTPUT"], "REFERENCE": mask, "CONFIDENCE": result["OUTPUT_CONFIDENCE"],
             "DESIGN": "stratified_confidence", "SAMPLES": 100, "MIN_PER_CLASS": 2, "SEED": 5,
             "DOUBLE_REVIEW": 0.2, "OUTPUT": os.path.join(WORK, "review_024577.gpkg")},
        )["OUTPUT"]  # fmt: skip
        # Two interpreters: the first takes every label as right; the second, blind, sees another
        # class on three of the double items.
        with ReviewStore.open(review) as store:
            first = ReviewSession(store, "ana")
            for _ in first.items:
                first.confirm()
                first.move(1)
            second = ReviewSession(store, "ben", mode="second")
            for k, item in enumerate(second.items):
                second.go_to(k)
                if k in (1, 4, 7):
                    second.choose_class(next(c.info.value for c in second.keys if c.info.value != item.label_class))
                else:
                    second.confirm()
        ortho = add(image, "IMG_024577")
        add(mask, "MSK_024577 (labels)", visible=False, crs=ortho.crs())
        prediction = add(result["OUTPUT"], "classes_024577")
        prediction.renderer().setOpacity(0.35)
        iface.mainWindow().resize(1600, 1000)
        plugin.show_dock(True)
        dock = plugin.dock
        dock.tabs.setCurrentIndex(dock.tabs.count() - 1)
        panel = dock.findChild(ReviewPanel)
        panel.reviewer_edit.setText("chief")
        panel.mode_combo.setCurrentIndex(panel.mode_combo.findData("adjudicate"))
        panel.open_review(review)
        panel.create_box.setCollapsed(True)
        QTimer.singleShot(4000, shoot)
    except Exception:
        fail()


def shoot() -> None:
    iface.mainWindow().grab().save(OUTPUT)
    QgsApplication.exit(0)


QTimer.singleShot(1000, start)
