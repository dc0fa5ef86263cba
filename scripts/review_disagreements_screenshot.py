"""Run inside the QGIS desktop (``qgis --code``): segment a real patch, sample a stratified review
of its labels with a fifth of the items for a second interpreter, let two interpreters disagree on
a few, and save a screenshot of the Review tab's Disagreements queue. See
scripts/review-screenshot (``FLAIR_SHOT_CODE`` picks this script)."""

import os

from qgis.PyQt.QtCore import QTimer
from qgis.utils import iface, loadPlugin, plugins, startPlugin
from shot_common import IMAGE, MASK, WORK, add, fail, segment_patch, shoot


def start() -> None:
    try:
        import processing

        from flair_qgis.core.review.session import ReviewSession
        from flair_qgis.core.review.store import ReviewStore
        from flair_qgis.gui.review.review_panel import ReviewPanel

        loadPlugin("flair_qgis")
        startPlugin("flair_qgis")
        plugin = plugins["flair_qgis"]
        result = segment_patch()
        review = processing.run(
            "flair:sample",
            {"PREDICTION": result["OUTPUT"], "REFERENCE": MASK, "CONFIDENCE": result["OUTPUT_CONFIDENCE"],
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
        ortho = add(IMAGE, "IMG_024577")
        add(MASK, "MSK_024577 (labels)", visible=False, crs=ortho.crs())
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


QTimer.singleShot(1000, start)
