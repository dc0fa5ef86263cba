"""QGIS layers as evaluation inputs for the core (captured on the main thread).

:func:`capture_reference` turns the ``REFERENCE`` layer into the core
:class:`~flair_qgis.core.score.evaluate.Reference` that :func:`flair_qgis.core.score.evaluate.score` takes:
a raster file path, or a GeoDataFrame of the polygon layer's features (class field + geometry,
the layer CRS as WKT beside it, never a pyproj CRS), so the worker thread never touches the layer.
"""

from __future__ import annotations

from qgis.core import QgsMapLayer, QgsRasterLayer, QgsVectorLayer, QgsWkbTypes

from ..core.errors import InputError
from ..core.score.evaluate import Reference
from ..core.score.polygons import CRS_WKT_ATTR
from .raster_input import crs_wkt_of, file_path_of


def raster_file(layer: QgsMapLayer | None, what: str) -> str:
    """The file behind a raster layer.

    Raises:
        InputError: not a valid raster layer, or one QGIS reads from a web service or database.
    """
    if not isinstance(layer, QgsRasterLayer) or not layer.isValid():
        raise InputError(f"The {what} is not a raster layer QGIS can open.")
    path = file_path_of(layer)
    if path is None:
        raise InputError(
            f"The {what} layer '{layer.name()}' is not a raster file (web or database layer): save it as "
            "GeoTIFF first (Export > Save As)."
        )
    return path


def polygons_of(layer: QgsVectorLayer, field: str):
    """The features of a polygon layer as a GeoDataFrame (one class field) without a pyproj CRS:
    the layer's CRS travels as WKT in ``gdf.attrs[CRS_WKT_ATTR]`` (see :mod:`flair_qgis.core.score.polygons`).

    Raises:
        InputError: not a polygon layer, or no such field.
    """
    import geopandas as gpd
    from shapely import wkb

    if layer.geometryType() != QgsWkbTypes.GeometryType.PolygonGeometry:
        kind = QgsWkbTypes.geometryDisplayString(layer.geometryType())
        raise InputError(
            f"The reference layer '{layer.name()}' holds {kind} geometries: give a polygon layer or a raster mask."
        )
    if not field:
        raise InputError("A polygon reference needs REFERENCE_FIELD: the field holding the class values.")
    names = layer.fields().names()
    if field not in names:
        raise InputError(f"The reference layer has no field '{field}'. Its fields are: {', '.join(names) or 'none'}.")
    values, geometries, fids = [], [], []
    for feature in layer.getFeatures():
        geometry = feature.geometry()
        if geometry is None or geometry.isEmpty():
            continue
        value = feature[field]
        values.append(None if value is None or (hasattr(value, "isNull") and value.isNull()) else value)
        geometries.append(wkb.loads(bytes(geometry.asWkb())))
        fids.append(feature.id())
    # No pyproj CRS here: it would be made on the main thread and used by the task's thread, which
    # crashes QGIS 3.40 (PROJ objects belong to one thread). The WKT travels beside the polygons.
    gdf = gpd.GeoDataFrame({field: values}, geometry=geometries, index=fids)
    gdf.attrs[CRS_WKT_ATTR] = crs_wkt_of(layer.crs())
    return gdf


def capture_reference(layer: QgsMapLayer | None, field: str) -> Reference:
    """Capture a reference layer (raster file or polygon layer). Call on the main thread.

    Raises:
        InputError: missing or invalid layer, or a layer that is neither a raster nor polygons.
    """
    if layer is None or not layer.isValid():
        raise InputError("REFERENCE is not a layer QGIS can open: give a raster mask or a polygon layer.")
    if isinstance(layer, QgsRasterLayer):
        return Reference(raster_path=raster_file(layer, "reference"), name=layer.name())
    if isinstance(layer, QgsVectorLayer):
        return Reference(polygons=polygons_of(layer, field), field=field, name=layer.name())
    raise InputError(f"The reference layer '{layer.name()}' is neither a raster nor a polygon layer.")
