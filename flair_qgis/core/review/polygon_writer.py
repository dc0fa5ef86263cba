"""The corrected copy of reference polygons (:func:`.polygon_apply.apply_review_polygons`) as a GeoPackage.

Layer ``reference_corrected``: every field of the reference, feature ids kept, plus ``label_before``
(the class before the review) and ``review_items`` (how many decided items agree on the polygon's
class, null where none). Table ``conflicts``: ``polygon_fid``, ``label``, ``item_ids``,
``true_classes``, ``reason``. Features are streamed in transactions of :data:`CHUNK`, the cancel
hook polled between two.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import Canceled
from .apply import Conflict

if TYPE_CHECKING:  # annotations only: polygon_apply imports this module to write its copy
    from .polygon_apply import FieldSpec, PolygonFeatures, PolygonPlan

CHUNK = 10_000
"""Features written per transaction (and between two cancel checks)."""
OUTPUT_LAYER = "reference_corrected"
CONFLICTS_TABLE = "conflicts"


def _ogr_type(kind: str) -> int:
    from osgeo import ogr

    return {"int": ogr.OFTInteger64, "real": ogr.OFTReal}.get(kind, ogr.OFTString)


def _cast(value: Any, kind: str) -> object:
    if value is None:
        return None
    return int(value) if kind == "int" else float(value) if kind == "real" else str(value)


def write_corrected_copy(
    path: str,
    polygons: PolygonFeatures,
    field: str,
    kind: str,
    plan: PolygonPlan,
    is_canceled: Callable[[], bool] | None,
    on_progress: Callable[[float], None] | None,
) -> None:
    """Stream every feature of ``polygons`` into ``path`` with the plan's classes, then the conflicts.

    Args:
        path: the GeoPackage to create (it must not exist).
        polygons: the reference layer, read once.
        field: its class field.
        kind: the class field's kind (``int``, ``real`` or ``text``), also that of ``label_before``.
        plan: the new class per polygon id, the items behind each, the conflicts.
        is_canceled: polled every :data:`CHUNK` features.
        on_progress: progress in percent, every :data:`CHUNK` features.

    Raises:
        Canceled: ``is_canceled`` answered True (the file is left part-written for the caller to drop).
    """
    from osgeo import ogr

    ogr.UseExceptions()
    driver = ogr.GetDriverByName("GPKG")
    dataset = driver.CreateDataSource(path)
    layer, written = _create_corrected_layer(dataset, polygons, kind)
    definition = layer.GetLayerDefn()
    field_at = [f.name for f in polygons.fields].index(field)
    multi = ogr.GT_Flatten(polygons.wkb_type) == ogr.wkbMultiPolygon
    total = polygons.feature_count or 0
    layer.StartTransaction()
    for count, (fid, wkb, values) in enumerate(polygons.features(), start=1):
        out = ogr.Feature(definition)
        out.SetFID(fid)
        for position, (k, spec) in enumerate(written):
            value = plan.relabel.get(fid) if k == field_at and fid in plan.relabel else values[k]
            _set(out, position, _cast(value, spec.kind))
        _set(out, len(written), _cast(values[field_at], kind))
        _set(out, len(written) + 1, plan.support.get(fid))
        if wkb:
            geometry = ogr.CreateGeometryFromWkb(wkb)
            out.SetGeometry(ogr.ForceToMultiPolygon(geometry) if multi else geometry)
        layer.CreateFeature(out)
        if count % CHUNK == 0:
            layer.CommitTransaction()
            if is_canceled is not None and is_canceled():
                raise Canceled()
            if on_progress is not None and total:
                on_progress(min(99.0, 100.0 * count / total))
            layer.StartTransaction()
    layer.CommitTransaction()
    _write_conflicts(dataset, plan.conflicts)
    dataset = None  # closes the file


def _create_corrected_layer(dataset, polygons: PolygonFeatures, kind: str) -> tuple[Any, list[tuple[int, FieldSpec]]]:
    """The layer of the copy: the reference's CRS, geometry type and fields, then ``label_before``
    and ``review_items``.

    Args:
        dataset: the OGR GeoPackage being written.
        polygons: the reference layer.
        kind: the class field's kind, that of ``label_before``.

    Returns:
        The OGR layer, and the reference fields it holds with their positions among the reference's
        fields (all but one named like the FID column, whose values are the feature ids kept).
    """
    from osgeo import ogr, osr

    srs = None
    if polygons.crs_wkt:
        srs = osr.SpatialReference()
        srs.ImportFromWkt(polygons.crs_wkt)
        srs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    layer = dataset.CreateLayer(OUTPUT_LAYER, srs, polygons.wkb_type, ["FID=fid"])
    # A source field named like the FID column (a GeoPackage's own 'fid') is the feature id kept.
    written = [(k, f) for k, f in enumerate(polygons.fields) if f.name.lower() != "fid"]
    for _k, spec in written:
        layer.CreateField(ogr.FieldDefn(spec.name, _ogr_type(spec.kind)))
    layer.CreateField(ogr.FieldDefn("label_before", _ogr_type(kind)))
    layer.CreateField(ogr.FieldDefn("review_items", ogr.OFTInteger))
    return layer, written


def _set(feature, position: int, value: object) -> None:
    if value is None:
        feature.SetFieldNull(position)
    else:
        feature.SetField(position, value)


def _write_conflicts(dataset, rows: list[Conflict]) -> None:
    from osgeo import ogr

    table = dataset.CreateLayer(CONFLICTS_TABLE, None, ogr.wkbNone)
    table.CreateField(ogr.FieldDefn("polygon_fid", ogr.OFTInteger64))
    for name in ("label", "item_ids", "true_classes", "reason"):
        table.CreateField(ogr.FieldDefn(name, ogr.OFTString))
    table.StartTransaction()
    for row in rows:
        out = ogr.Feature(table.GetLayerDefn())
        for name, value in dataclasses.asdict(row).items():
            if name != "cell":  # raster cells only
                _set(out, out.GetFieldIndex(name), value)
        table.CreateFeature(out)
    table.CommitTransaction()
