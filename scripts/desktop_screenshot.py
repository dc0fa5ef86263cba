"""Run inside the QGIS desktop (``qgis --code``): load the plugin, segment a real patch from the
dock with the demo model, save a screenshot of the whole QGIS window; then score the view against
a polygon version of the patch's FLAIR mask (error map, suspicious labels), click the most
suspicious label and save a second screenshot with the Evaluate tab. See scripts/desktop-screenshot.

``FLAIR_SHOT_POLYGONS=1`` ticks "Also as polygons" first (the first screenshot then shows the
polygon layer). The dock keeps the width QGIS gives it (the default), as a new user would see it.
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
state = {}


def fail() -> None:
    desktop_steps.fail(OUTPUT)


def later(seconds: float, step) -> None:
    """Run ``step`` after a delay, reporting any error and quitting."""
    desktop_steps.later(seconds, step, OUTPUT)


def mask_polygons(mask: str, min_area_m2: float = 20.0) -> QgsVectorLayer:
    """The classes of a FLAIR mask as labelled polygons (field ``code``), as a label layer would be."""
    with rasterio.open(mask) as src:
        codes, transform = src.read(1).astype(np.int32), src.transform
    # The field is declared in the URI: QgsField's type argument is a QVariant.Type under Qt5
    # and a QMetaType.Type under Qt6.
    layer = QgsVectorLayer("Polygon?crs=EPSG:2154&field=code:integer", "labels (polygons from the mask)", "memory")
    features = []
    for shape, value in rasterio.features.shapes(codes, transform=transform):
        rings = ",".join("(" + ",".join(f"{x} {y}" for x, y in ring) + ")" for ring in shape["coordinates"])
        geometry = QgsGeometry.fromWkt(f"POLYGON({rings})")
        if geometry.area() >= min_area_m2:
            feature = QgsFeature(layer.fields())
            feature.setGeometry(geometry)
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
    QgsApplication.exit(0)


later(1, start)
