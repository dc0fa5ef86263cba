"""Helpers for the layout tests: polygons made from a FLAIR mask, the layer tree as a user reads it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import rasterio
import rasterio.features
from qgis.core import (
    QgsFeature,
    QgsField,
    QgsGeometry,
    QgsLayerTreeGroup,
    QgsLayerTreeLayer,
    QgsLayerTreeModel,
    QgsProject,
    QgsVectorLayer,
)
from qgis.PyQt.QtCore import Qt, QVariant


def mask_polygons(mask: Path, min_area_m2: float = 20.0, name: str = "labels") -> QgsVectorLayer:
    """The classes of a FLAIR mask as polygons (field ``code``) in EPSG:2154, a memory layer.

    FLAIR masks carry a local "Lambert-93" CRS: the transform is Lambert-93's, so the polygons are
    placed in EPSG:2154. Slivers smaller than ``min_area_m2`` are dropped, as a label layer would.
    """
    with rasterio.open(mask) as src:
        codes = src.read(1)
        transform = src.transform
    layer = QgsVectorLayer("Polygon?crs=EPSG:2154", name, "memory")
    layer.dataProvider().addAttributes([QgsField("code", QVariant.Int)])
    layer.updateFields()
    features = []
    for shape, value in rasterio.features.shapes(codes.astype(np.int32), transform=transform):
        ring = shape["coordinates"][0]
        geometry = QgsGeometry.fromWkt(
            "POLYGON(" + ",".join("(" + ",".join(f"{x} {y}" for x, y in r) + ")" for r in shape["coordinates"]) + ")"
        )
        if len(ring) < 4 or geometry.area() < min_area_m2:
            continue
        feature = QgsFeature(layer.fields())
        feature.setGeometry(geometry)
        feature.setAttribute("code", int(value))
        features.append(feature)
    layer.dataProvider().addFeatures(features)
    layer.updateExtents()
    return layer


def top_nodes() -> list:
    """The nodes at the top level of the project's layer tree."""
    return list(QgsProject.instance().layerTreeRoot().children())


def group_kinds(group: QgsLayerTreeGroup) -> list[str]:
    """``flair_qgis/kind`` of the layers of a group, top first."""
    return [
        child.layer().customProperty("flair_qgis/kind")
        for child in group.children()
        if isinstance(child, QgsLayerTreeLayer) and child.layer() is not None
    ]


def legend_texts(layer) -> list[str]:
    """The legend lines of a layer as the Layers panel shows them (user labels included)."""
    root = QgsProject.instance().layerTreeRoot()
    model = QgsLayerTreeModel(root)
    node = root.findLayer(layer.id())
    return [str(n.data(Qt.DisplayRole)) for n in model.layerLegendNodes(node)]


DOCK_WIDTH_PX = 300
"""The dock's default width on a 1600 px wide screen: every GUI test of the QA loop runs at it."""


def show_at_dock_width(dock, qtbot, width_px: int = DOCK_WIDTH_PX, height_px: int = 900) -> None:
    """Show the dock floating at ``width_px`` wide, as a user sees it at QGIS's default layout."""
    dock.setFloating(True)
    dock.resize(width_px, height_px)
    dock.show()
    qtbot.waitExposed(dock)


def horizontal_overflow(dock, qtbot) -> list[str]:
    """The tabs whose content is wider than the dock lets it be (a horizontal scrollbar shows)."""
    wide = []
    for index in range(dock.tabs.count()):
        dock.tabs.setCurrentIndex(index)
        area = dock.scroll_areas[index]
        qtbot.wait(50)
        if area.widget().minimumSizeHint().width() > area.viewport().width() or area.horizontalScrollBar().isVisible():
            wide.append(dock.tabs.tabText(index))
    dock.tabs.setCurrentIndex(0)
    return wide
