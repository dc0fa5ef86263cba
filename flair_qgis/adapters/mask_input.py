"""Polygons that bound a run (the dock's "selected polygons", ``flair:segment``'s MASK), captured for the core.

Captured on the main thread: the polygons as WKB in the first input layer's CRS, which
:func:`flair_qgis.core.segment.plan_job` turns into the run's extent and its per-tile mask.
"""

from __future__ import annotations

from collections.abc import Iterable

from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsCoordinateTransform,
    QgsFeature,
    QgsProject,
    QgsVectorLayer,
    QgsWkbTypes,
)

from ..core.errors import InputError
from ..i18n import tr
from .layer_source import layer_source


def polygons_wkb(
    features: Iterable[QgsFeature], source_crs: QgsCoordinateReferenceSystem, target_crs: QgsCoordinateReferenceSystem
) -> tuple[bytes, ...]:
    """The features' geometries as WKB in ``target_crs`` (empty geometries are left out).

    Raises:
        InputError: no feature has a geometry.
    """
    transform = None
    if source_crs.isValid() and target_crs.isValid() and source_crs != target_crs:
        transform = QgsCoordinateTransform(source_crs, target_crs, QgsProject.instance())
    wkbs = []
    for feature in features:
        geometry = feature.geometry()
        if geometry is None or geometry.isEmpty():
            continue
        if transform is not None:
            geometry.transform(transform)
        wkbs.append(bytes(geometry.asWkb()))
    if not wkbs:
        raise InputError(tr("The mask polygons have no geometry: choose polygons that bound the run."))
    return tuple(wkbs)


def selected_polygons(layer: QgsVectorLayer | None, target_crs: QgsCoordinateReferenceSystem) -> tuple[bytes, ...]:
    """The selected polygons of a layer as WKB in ``target_crs`` (the dock's "selected polygons").

    Raises:
        InputError: not a polygon layer, or nothing selected.
    """
    if not isinstance(layer, QgsVectorLayer) or layer.geometryType() != QgsWkbTypes.GeometryType.PolygonGeometry:
        raise InputError(tr("Choose a polygon layer whose selected polygons bound the run."))
    features = list(layer.getSelectedFeatures())
    if not features:
        raise InputError(
            tr("No polygon is selected in '{name}': select the areas to segment first.").format(name=layer.name())
        )
    try:
        return polygons_wkb(features, layer.crs(), target_crs)
    except InputError:
        raise InputError(tr("The selected features of '{name}' have no geometry.").format(name=layer.name())) from None


def vector_file(layer: QgsVectorLayer | None) -> str | None:
    """The file behind a vector layer (``/data/zones.gpkg``), or None for memory and database layers."""
    if layer is None or layer.providerType() != "ogr":
        return None
    return layer_source(layer).path or None
