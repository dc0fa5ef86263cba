"""The polygons of a class map as a QGIS layer, styled with the class palette.

A categorized renderer on field ``class``: one category per class, in its colour, labelled with
its name in the legend; outlines a darker shade of the fill so that neighbours stay apart.
"""

from __future__ import annotations

from collections.abc import Sequence

from qgis.core import (
    QgsCategorizedSymbolRenderer,
    QgsFillSymbol,
    QgsLayerTreeGroup,
    QgsProject,
    QgsRendererCategory,
    QgsVectorLayer,
)
from qgis.PyQt.QtGui import QColor

from ..core import vocabulary
from ..core.nomenclature import ClassInfo
from .layer_tree import add_to_group

FIELD = "class"


def class_renderer(classes: Sequence[ClassInfo], opacity: float = 0.6) -> QgsCategorizedSymbolRenderer:
    """One category per class value: its colour, its name as the legend label."""
    categories = []
    for info in classes:
        fill = QColor(info.color)
        symbol = QgsFillSymbol.createSimple(
            {"color": fill.name(), "outline_color": fill.darker(150).name(), "outline_width": "0.2"}
        )
        symbol.setOpacity(opacity)
        categories.append(QgsRendererCategory(info.value, symbol, info.name))
    return QgsCategorizedSymbolRenderer(FIELD, categories)


def style_polygons(layer: QgsVectorLayer, classes: Sequence[ClassInfo]) -> None:
    """Give a polygon layer of ``flair:vectorize`` its class palette and legend."""
    layer.setRenderer(class_renderer(classes))
    layer.setCustomProperty(vocabulary.KIND_PROPERTY, vocabulary.KIND_POLYGONS)
    layer.triggerRepaint()


def open_polygons(path: str, name: str) -> QgsVectorLayer:
    """Open the ``predictions`` layer of a polygon file.

    Raises:
        OSError: QGIS cannot open it.
    """
    uri = f"{path}|layername=predictions" if path.lower().endswith(".gpkg") else path
    layer = QgsVectorLayer(uri, name, "ogr")
    if not layer.isValid():
        raise OSError(f"QGIS cannot open the polygons {path}")
    return layer


def add_polygons(
    path: str,
    classes: Sequence[ClassInfo],
    name: str,
    group: QgsLayerTreeGroup,
    project: QgsProject | None = None,
) -> QgsVectorLayer:
    """Open, style and add the polygons to a run's group."""
    layer = open_polygons(path, name)
    style_polygons(layer, classes)
    add_to_group(layer, group, project)
    return layer
