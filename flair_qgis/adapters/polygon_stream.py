"""A QGIS polygon layer streamed to the core feature by feature, and a layer's identity.

:class:`LayerFeatures` is captured on the main thread (a ``QgsVectorLayerFeatureSource``, the
fields, the CRS as WKT) and read in the worker: by ids, by a box (the provider's spatial index
answers), or every feature once. It is the core's
:class:`~flair_qgis.core.review.polygon_apply.PolygonFeatures`; nothing holds the layer.

:func:`reference_identity` says which layer a review is drawn from (see
:mod:`flair_qgis.core.review.identity`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from qgis.core import (
    QgsDataSourceUri,
    QgsFeatureRequest,
    QgsFields,
    QgsMapLayer,
    QgsRasterLayer,
    QgsRectangle,
    QgsVectorLayer,
    QgsVectorLayerFeatureSource,
)

from ..core.review import Feature, FieldSpec, file_identity
from .layer_source import layer_source
from .raster_input import crs_wkt_of
from .reference_input import attribute_value, check_polygon_layer, raster_file


def _kind(field) -> str:
    if field.isNumeric():
        return (
            "real"
            if field.typeName().lower() in ("real", "double", "float", "numeric", "decimal") or (field.precision() > 0)
            else "int"
        )
    return "text"


@dataclass(frozen=True)
class LayerFeatures:
    """A polygon layer read feature by feature in any thread (capture with :meth:`of` on the main thread)."""

    source: QgsVectorLayerFeatureSource
    qgs_fields: QgsFields
    crs_wkt: str | None
    fields: tuple[FieldSpec, ...]
    wkb_type: int
    feature_count: int | None

    @classmethod
    def of(cls, layer: QgsVectorLayer, field: str) -> LayerFeatures:
        """Capture a polygon layer on the main thread (no feature read).

        Raises:
            InputError: not a polygon layer, or no such field.
        """
        check_polygon_layer(layer, field)
        fields = layer.fields()
        specs = tuple(FieldSpec(f.name(), _kind(f)) for f in fields)
        count = layer.featureCount()
        return cls(
            QgsVectorLayerFeatureSource(layer),
            fields,
            crs_wkt_of(layer.crs()),
            specs,
            int(layer.wkbType()),
            count if count >= 0 else None,
        )

    def features(
        self, *, fids: Sequence[int] | None = None, bounds: tuple[float, float, float, float] | None = None
    ) -> Iterator[Feature]:
        """``(id, WKB, values)`` of the features with these ids, meeting ``bounds``, or all."""
        request = QgsFeatureRequest()
        if fids is not None:
            request.setFilterFids([int(f) for f in fids])
        elif bounds is not None:
            request.setFilterRect(QgsRectangle(*bounds))
        for feature in self.source.getFeatures(request):
            geometry = feature.geometry()
            wkb = b"" if geometry is None or geometry.isEmpty() else bytes(geometry.asWkb())
            yield feature.id(), wkb, tuple(attribute_value(v) for v in feature.attributes())


def _only_layer(path: str) -> str:
    """The name of the layer of a one-layer vector file ("" otherwise), so that ``file.gpkg`` and
    ``file.gpkg|layername=x`` name the same layer."""
    from osgeo import ogr

    dataset = ogr.Open(path)
    if dataset is None or dataset.GetLayerCount() != 1:
        return ""
    return str(dataset.GetLayer(0).GetName())


def reference_identity(layer: QgsMapLayer) -> dict[str, object]:
    """The identity of a reference layer: provider, source (no password), layer, feature count, file time.

    Raises:
        InputError: a raster that is not a file.
    """
    if isinstance(layer, QgsRasterLayer):
        return file_identity(raster_file(layer, "reference"), "gdal")
    provider = layer.providerType()
    parts = layer_source(layer)
    count = layer.featureCount() if isinstance(layer, QgsVectorLayer) else None
    features = count if count is not None and count >= 0 else None
    path = parts.path
    if path and os.path.isfile(path):
        return file_identity(path, provider, parts.layer_name or _only_layer(path), features)
    uri = QgsDataSourceUri(layer.source())
    where = uri.service() or f"{uri.host()}:{uri.port()}/{uri.database()}"
    table = f"{uri.schema()}.{uri.table()}" if uri.schema() else uri.table()
    source = f"{where} {table}".strip() if uri.table() else layer.publicSource()
    return {
        "provider": provider,
        "source": source,
        "layer": table,
        "features": features,
        "size": None,
        "modified": None,
    }
