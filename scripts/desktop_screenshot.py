"""Run inside the QGIS desktop (``qgis --code``): load the plugin, segment a real patch from the
dock with the demo model, save a screenshot of the whole QGIS window; then score the view against
a polygon version of the patch's FLAIR mask (error map, suspicious labels), click the most
suspicious label and save a second screenshot with the Evaluate tab. See scripts/desktop-screenshot.

``FLAIR_SHOT_POLYGONS=1`` ticks "Also as polygons" first (the first screenshot then shows the
polygon layer). With ``FLAIR_SHOT_OUTPUT_CROSSWALK`` a third screenshot shows the "Crosswalk…" dialog
(issue 40) for the same polygons coded as OCS GE text codes, the shipped example crosswalk loaded.
The dock keeps the width QGIS gives it (the default), as a new user would see it.
"""

import os

import desktop_steps
import numpy as np
import rasterio
import rasterio.features
from qgis.core import (
    QgsApplication,
    QgsFeature,
    QgsGeometry,
    QgsProject,
    QgsVectorLayer,
)
from qgis.utils import iface

IMAGE = os.environ["FLAIR_SHOT_IMAGE"]
MASK = os.environ["FLAIR_SHOT_MASK"]
MODEL = os.environ["FLAIR_SHOT_MODEL"]
OUTPUT = os.environ["FLAIR_SHOT_OUTPUT"]
OUTPUT_EVALUATE = os.environ["FLAIR_SHOT_OUTPUT_EVALUATE"]
OUTPUT_CROSSWALK = os.environ.get("FLAIR_SHOT_OUTPUT_CROSSWALK", "")
# (``qgis --code`` runs this file without ``__file__``: the repository is found beside desktop_steps.)
REPO = os.path.dirname(os.path.dirname(os.path.abspath(desktop_steps.__file__)))
EXAMPLE_CROSSWALK = os.path.join(REPO, "resources", "crosswalks", "ocsge_couverture_to_flair1.csv")
# FLAIR #1 code -> an OCS GE cover code (the patch's mask codes), for the crosswalk step.
OCSGE = {1: "CS1.1.1.1", 2: "CS1.1.2.1", 3: "CS1.1.1.2", 4: "CS1.2.1", 5: "CS1.2.2", 6: "CS2.1.1.2",
         7: "CS2.1.1.1", 8: "CS2.1.2", 9: "CS2.1.3", 10: "CS2.2.1", 11: "CS2.2.1", 12: "CS1.2.1"}  # fmt: skip
state = {}


def fail() -> None:
    desktop_steps.fail(OUTPUT)


def later(seconds: float, step) -> None:
    """Run ``step`` after a delay, reporting any error and quitting."""
    desktop_steps.later(seconds, step, OUTPUT)


def mask_polygons(mask: str, min_area_m2: float = 20.0, text: bool = False) -> QgsVectorLayer:
    """The classes of a FLAIR mask as labelled polygons (field ``code``; with ``text``, field ``cs``
    holding OCS GE-like cover codes), as a label layer would be."""
    with rasterio.open(mask) as src:
        codes, transform = src.read(1).astype(np.int32), src.transform
    # The field is declared in the URI: QgsField's type argument is a QVariant.Type under Qt5
    # and a QMetaType.Type under Qt6.
    field, name = ("cs:string", "OCS GE (text codes)") if text else ("code:integer", "labels (polygons from the mask)")
    layer = QgsVectorLayer(f"Polygon?crs=EPSG:2154&field={field}", name, "memory")
    features = []
    for shape, value in rasterio.features.shapes(codes, transform=transform):
        rings = ",".join("(" + ",".join(f"{x} {y}" for x, y in ring) + ")" for ring in shape["coordinates"])
        geometry = QgsGeometry.fromWkt(f"POLYGON({rings})")
        if geometry.area() >= min_area_m2:
            feature = QgsFeature(layer.fields())
            feature.setGeometry(geometry)
            if text:
                feature.setAttribute("cs", OCSGE.get(int(value), "CS2.2.2"))
            else:
                feature.setAttribute("code", int(value))
            features.append(feature)
    layer.dataProvider().addFeatures(features)
    layer.updateExtents()
    return layer


def start() -> None:
    plugin, layer = desktop_steps.open_dock(IMAGE, MODEL)
    if os.environ.get("FLAIR_SHOT_POLYGONS"):  # "Also as polygons", cleaned as a user would
        plugin.dock.segment.run_section.polygons_check.setChecked(True)
        plugin.dock.segment.run_section.min_area_spin.setValue(20.0)
        plugin.dock.segment.run_section.simplify_spin.setValue(0.4)
    state.update(dock=plugin.dock, image=layer)
    later(3, run)


def run() -> None:
    state["dock"].segment.run()
    later(0.5, wait_run)


def wait_run() -> None:
    if state["dock"].segment.task is not None:
        later(0.5, wait_run)
        return
    iface.mapCanvas().refreshAllLayers()
    later(3, shoot_segment)


def shoot_segment() -> None:
    iface.mainWindow().grab().save(OUTPUT)
    polygons = mask_polygons(MASK)
    QgsProject.instance().addMapLayer(polygons)
    # The user's own label layer stays below, unticked: the plugin's outlines show the labels.
    QgsProject.instance().layerTreeRoot().findLayer(polygons.id()).setItemVisibilityChecked(False)
    dock = state["dock"]
    qa = dock.qa
    dock.tabs.setCurrentIndex(1)
    qa.reference_combo.setLayer(polygons)
    qa.field_combo.setField("code")
    qa.protocol_combo.setCurrentIndex(qa.protocol_combo.findData("flair1"))
    qa.error_check.setChecked(True)
    qa.suspicious_check.setChecked(True)
    iface.mapCanvas().setExtent(state["image"].extent())
    later(1, score)


def score() -> None:
    state["dock"].qa.score_view()
    later(0.5, wait_score)


def wait_score() -> None:
    qa = state["dock"].qa
    if qa.task is not None:
        later(0.5, wait_score)
        return
    if qa.report is None:
        raise RuntimeError("scoring failed: " + qa.summary_label.text())
    qa.suspicious_table.selectRow(0)
    qa.suspicious_table.clicked.emit(qa.suspicious_table.model().index(0, 0))
    iface.mapCanvas().refreshAllLayers()
    iface.layerTreeView().scrollToTop()  # the run's group: suspicious labels, error map and their legends
    later(4, shoot_evaluate)


def shoot_evaluate() -> None:
    iface.mainWindow().grab().save(OUTPUT_EVALUATE)
    if not OUTPUT_CROSSWALK:
        QgsApplication.exit(0)
        return
    ocsge = mask_polygons(MASK, text=True)
    QgsProject.instance().addMapLayer(ocsge)
    qa = state["dock"].qa
    qa.reference_combo.setLayer(ocsge)
    qa.field_combo.setField("cs")
    iface.mapCanvas().setExtent(state["image"].extent())  # the values of the whole patch
    dialog = qa.open_crosswalk()
    dialog.show()
    state["crosswalk"] = dialog
    later(1, wait_values)


def wait_values() -> None:
    dialog = state["crosswalk"]
    if dialog.task is not None:
        later(0.5, wait_values)
        return
    dialog.load_csv(EXAMPLE_CROSSWALK)
    later(2, shoot_crosswalk)


def shoot_crosswalk() -> None:
    from qgis.PyQt.QtGui import QPainter

    # The dialog is a window of its own: drawn over the main window's picture where it stands.
    window, dialog = iface.mainWindow(), state["crosswalk"]
    picture = window.grab()
    painter = QPainter(picture)
    painter.drawPixmap(dialog.frameGeometry().topLeft() - window.frameGeometry().topLeft(), dialog.grab())
    painter.end()
    picture.save(OUTPUT_CROSSWALK)
    QgsApplication.exit(0)


later(1, start)
