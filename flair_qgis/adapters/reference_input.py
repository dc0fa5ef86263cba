"""QGIS layers as evaluation inputs for the core, captured on the main thread, read in the worker.

:func:`capture_reference` takes what the worker needs from the ``REFERENCE`` layer on the main
thread, without reading a feature: a raster file path, or for polygons a
:class:`PolygonLayerCapture` (a ``QgsVectorLayerFeatureSource``, the class field, the CRS and the
transform context). The worker then calls :meth:`CapturedReference.resolve`, which reads only the
polygons whose boxes meet the scored extent (a ``QgsFeatureRequest`` filter rectangle, answered by
the provider's own spatial index: GeoPackage R-tree, shapefile ``.qix``, PostGIS GiST) and only
the fields it needs, into the core :class:`~flair_qgis.core.score.evaluate.Reference`. A
million-polygon layer costs the main thread nothing, and the worker only what the extent holds.
The polygons carry their CRS as WKT beside them, never a pyproj CRS.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsCoordinateTransform,
    QgsCoordinateTransformContext,
    QgsCsException,
    QgsFeatureRequest,
    QgsFields,
    QgsMapLayer,
    QgsProject,
    QgsRasterLayer,
    QgsRectangle,
    QgsVectorLayer,
    QgsVectorLayerFeatureSource,
    QgsWkbTypes,
)

from ..core.errors import Canceled, InputError
from ..core.score import CRS_WKT_ATTR, Reference, prediction_grid
from ..i18n import tr
from .raster_input import crs_wkt_of, file_path_of

_CANCEL_EVERY = 1000  # features between two cancel checks


def raster_file(layer: QgsMapLayer | None, what: str) -> str:
    """The file behind a raster layer.

    Raises:
        InputError: not a valid raster layer, or one QGIS reads from a web service or database.
    """
    if not isinstance(layer, QgsRasterLayer) or not layer.isValid():
        raise InputError(tr("The {what} is not a raster layer QGIS can open.").format(what=tr(what)))
    path = file_path_of(layer)
    if path is None:
        raise InputError(
            tr(
                "The {what} layer '{name}' is not a raster file (web or database layer): save it as "
                "GeoTIFF first (Export > Save As)."
            ).format(what=tr(what), name=layer.name())
        )
    return path


def check_polygon_layer(layer: QgsVectorLayer, field: str) -> None:
    """Check that a reference layer holds polygons and has the class field ``field``.

    Raises:
        InputError: not polygons, no field given, or no such field (the message lists the fields).
    """
    if layer.geometryType() != QgsWkbTypes.GeometryType.PolygonGeometry:
        kind = QgsWkbTypes.geometryDisplayString(layer.geometryType())
        raise InputError(
            tr("The reference layer '{name}' holds {kind} geometries: give a polygon layer or a raster mask.").format(
                name=layer.name(), kind=kind
            )
        )
    if not field:
        raise InputError.of("no_class_field")
    names = layer.fields().names()
    if field not in names:
        raise InputError.of("unknown_field", field=field, fields=names)


def attribute_value(value):
    """A feature attribute as a Python value: NULL -> None, dates and other Qt values -> text."""
    if value is None or (hasattr(value, "isNull") and value.isNull()):
        return None
    return value if isinstance(value, (bool, int, float, str)) else str(value)


@dataclass(frozen=True)
class PolygonLayerCapture:
    """A polygon layer, captured on the main thread (no feature read) to be read in a worker.

    Attributes:
        source: the layer's feature source, safe to iterate in another thread.
        fields: the layer's fields.
        field: the class field.
        crs: the layer's CRS; ``crs_wkt`` the same as WKT for the core.
        transform_context: the project's datum transformations, for the extent.
        name: the layer's name.
        extra_fields: more fields to read (``flair:apply_review`` keeps every field).
    """

    source: QgsVectorLayerFeatureSource
    fields: QgsFields
    field: str
    crs: QgsCoordinateReferenceSystem
    crs_wkt: str
    transform_context: QgsCoordinateTransformContext
    name: str
    extra_fields: tuple[str, ...] = ()

    @classmethod
    def of(cls, layer: QgsVectorLayer, field: str, extra_fields: tuple[str, ...] = ()) -> PolygonLayerCapture:
        """Capture a polygon layer (main thread).

        Raises:
            InputError: not a polygon layer, or no such field.
        """
        check_polygon_layer(layer, field)
        return cls(
            QgsVectorLayerFeatureSource(layer),
            layer.fields(),
            field,
            layer.crs(),
            crs_wkt_of(layer.crs()),
            QgsProject.instance().transformContext(),
            layer.name(),
            tuple(extra_fields),
        )

    def request(self, bounds: tuple | None = None, bounds_crs_wkt: str | None = None) -> QgsFeatureRequest:
        """The feature request: the class field (and ``extra_fields``) only, and, with ``bounds``
        (``xmin, ymin, xmax, ymax`` in ``bounds_crs_wkt``), only features whose box meets them."""
        request = QgsFeatureRequest()
        request.setSubsetOfAttributes([self.field, *self.extra_fields], self.fields)
        if bounds is not None:
            rect = QgsRectangle(*bounds)
            bounds_crs = QgsCoordinateReferenceSystem.fromWkt(bounds_crs_wkt) if bounds_crs_wkt else self.crs
            if bounds_crs.isValid() and self.crs.isValid() and bounds_crs != self.crs:
                try:
                    transform = QgsCoordinateTransform(bounds_crs, self.crs, self.transform_context)
                    rect = transform.transformBoundingBox(rect)
                except QgsCsException:
                    rect = None  # no transformation between them: read everything, the core decides
            if rect is not None:
                request.setFilterRect(rect)
        return request

    def read(
        self,
        bounds: tuple | None = None,
        bounds_crs_wkt: str | None = None,
        *,
        is_canceled: Callable[[], bool] | None = None,
    ):
        """The polygons meeting ``bounds`` as a GeoDataFrame indexed by feature id (any thread).

        Raises:
            Canceled: ``is_canceled`` answered True.
        """
        import geopandas as gpd
        from shapely import wkb

        names = (self.field, *self.extra_fields)
        columns: dict[str, list] = {name: [] for name in names}
        geometries, fids = [], []
        for count, feature in enumerate(self.source.getFeatures(self.request(bounds, bounds_crs_wkt))):
            if is_canceled is not None and count % _CANCEL_EVERY == 0 and is_canceled():
                raise Canceled()
            geometry = feature.geometry()
            if geometry is None or geometry.isEmpty():
                continue
            for name in names:
                columns[name].append(attribute_value(feature[name]))
            geometries.append(wkb.loads(bytes(geometry.asWkb())))
            fids.append(feature.id())
        # No pyproj CRS here: it would be made in one thread and used in another, which crashes
        # QGIS 3.40 (PROJ objects belong to one thread). The WKT travels beside the polygons.
        gdf = gpd.GeoDataFrame(columns, geometry=geometries, index=fids)
        gdf.attrs[CRS_WKT_ATTR] = self.crs_wkt
        return gdf


@dataclass(frozen=True)
class CapturedReference:
    """A reference captured on the main thread: a raster file, or a polygon layer still to read."""

    name: str
    field: str = ""
    raster_path: str | None = None
    polygons: PolygonLayerCapture | None = None

    def resolve(
        self,
        prediction_path: str,
        extent: tuple | None = None,
        *,
        is_canceled: Callable[[], bool] | None = None,
    ) -> Reference:
        """The core reference for scoring ``prediction_path`` over ``extent`` (in its CRS; None =
        all of it): polygons are read only where the scored grid lies. Call in the worker.

        Raises:
            InputError: the prediction cannot be read, or the extent misses it.
            Canceled: ``is_canceled`` answered True.
        """
        if self.polygons is None:
            return Reference(raster_path=self.raster_path, name=self.name)
        grid = prediction_grid(prediction_path, extent)
        gdf = self.polygons.read(grid.bounds, grid.crs_wkt, is_canceled=is_canceled)
        return Reference(polygons=gdf, field=self.field, name=self.name)


def unopened_layer_message(layer: QgsMapLayer | None) -> str:
    """What to say of a database or web layer QGIS could not open ("" for any other case).

    The provider's own error is not read: on QGIS 3.22, ``error()`` of an invalid ``postgres``
    layer crashes the process, and its words are already in QGIS's message log.
    """
    if layer is None or layer.isValid() or layer.providerType() in ("ogr", "gdal", ""):
        return ""
    return tr(
        "The layer '{name}' ({provider}) cannot be opened: check the connection (host, port, database, user, "
        "table) and that the server is running; QGIS's message log (PostGIS tab) says what the server answered."
    ).format(name=layer.name(), provider=layer.providerType())


def capture_reference(layer: QgsMapLayer | None, field: str, extra_fields: tuple[str, ...] = ()) -> CapturedReference:
    """Capture a reference layer (raster file or polygon layer) on the main thread; reads no feature.

    Raises:
        InputError: missing or invalid layer, or a layer that is neither a raster nor polygons.
    """
    message = unopened_layer_message(layer)
    if message:
        raise InputError(message)
    if layer is None or not layer.isValid():
        raise InputError(tr("REFERENCE is not a layer QGIS can open: give a raster mask or a polygon layer."))
    if isinstance(layer, QgsRasterLayer):
        return CapturedReference(layer.name(), raster_path=raster_file(layer, "reference"))
    if isinstance(layer, QgsVectorLayer):
        return CapturedReference(layer.name(), field, polygons=PolygonLayerCapture.of(layer, field, extra_fields))
    raise InputError(
        tr("The reference layer '{name}' is neither a raster nor a polygon layer.").format(name=layer.name())
    )
