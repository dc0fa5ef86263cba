"""A corrected copy of the reference from a review's verdicts; the original is never modified.

Rule: every item reviewed ``correct`` or ``wrong`` carries the class seen on the ground
(``true_class``). Where the reference disagrees with it, the copy takes ``true_class``:

* raster reference: the reference cell under the item's point (a pixel centre of the sampled
  grid, moved into the reference's CRS when it differs);
* polygon reference: the polygon of the item (``source_fid`` for the ``suspicious`` design),
  else the polygon holding the item's point (the last one where polygons overlap, as when
  scoring).

``unsure`` items and items without a verdict change nothing. Public entry points:
:func:`apply_review_raster`, :func:`apply_review_polygons`.
"""

from __future__ import annotations

import os
import shutil

import numpy as np

from ..atomic import check_output_path, write_atomic
from ..crs import same_crs
from ..errors import InputError
from ..paths import check_outputs_not_inputs, check_sidecars_not_input
from ..score.polygons import BoxIndex, with_own_crs
from ..score.reference import raster_info
from .store import ReviewItem, ReviewStore


def _decided(store: ReviewStore) -> list[ReviewItem]:
    return [i for i in store.items() if i.verdict in ("correct", "wrong") and i.true_class is not None]


def _points(items: list[ReviewItem], review_wkt: str, target_wkt: str | None) -> np.ndarray:
    """``(n, 2)`` points of the items (a point inside each polygon) in the target CRS."""
    import geopandas as gpd
    from shapely import wkt as shapely_wkt

    points = [shapely_wkt.loads(i.wkt).representative_point() for i in items]
    series = gpd.GeoSeries(points, crs=review_wkt or None)
    if review_wkt and target_wkt and not same_crs(review_wkt, target_wkt):
        series = series.to_crs(target_wkt)
    return np.array([(p.x, p.y) for p in series]) if len(series) else np.zeros((0, 2))


def apply_review_raster(reference_path: str, review_path: str, output_path: str) -> dict:
    """Write a corrected copy of a reference raster.

    Returns:
        ``{"output", "changed", "reviewed", "outside"}``: cells changed, decided items, items
        outside the reference.

    Raises:
        InputError: output is an input, unreadable inputs, a true class the raster type cannot hold.
    """
    import rasterio
    from rasterio.windows import Window

    check_outputs_not_inputs({"OUTPUT": output_path}, {"REFERENCE": reference_path, "REVIEW": review_path})
    check_sidecars_not_input("OUTPUT", output_path, (".qml",), {"REFERENCE": reference_path, "REVIEW": review_path})
    output_path = check_output_path(os.path.abspath(output_path))
    info = raster_info(reference_path, "reference")
    with ReviewStore.open(review_path) as store:
        items = _decided(store)
        xy = _points(items, store.design.get("crs_wkt", ""), info.crs_wkt)
    limits = np.iinfo(info.dtype) if np.dtype(info.dtype).kind in "iu" else None
    changes: dict[tuple[int, int], int] = {}
    outside = 0
    inverse = ~info.transform
    for item, (x, y) in zip(items, xy):
        col, row = (int(np.floor(v)) for v in inverse * (x, y))
        if not (0 <= row < info.height and 0 <= col < info.width):
            outside += 1
            continue
        if limits is not None and not limits.min <= int(item.true_class) <= limits.max:  # type: ignore[arg-type]
            raise InputError(f"Class {item.true_class} does not fit the reference's {info.dtype} cells.")
        changes[(row, col)] = int(item.true_class)  # type: ignore[arg-type]
    changed = 0

    def write(tmp: str) -> None:
        nonlocal changed
        shutil.copyfile(reference_path, tmp)
        with rasterio.open(tmp, "r+") as dst:
            for (row, col), value in changes.items():
                window = Window(col, row, 1, 1)
                if int(dst.read(1, window=window)[0, 0]) != value:
                    dst.write(np.full((1, 1), value, dtype=info.dtype), 1, window=window)
                    changed += 1

    write_atomic(output_path, write, suffix=".tif")
    style = os.path.splitext(reference_path)[0] + ".qml"
    if os.path.exists(style):
        shutil.copyfile(style, os.path.splitext(output_path)[0] + ".qml")
    return {"output": output_path, "changed": changed, "reviewed": len(items), "outside": outside}


def _corrected_labels(gdf, field: str, items, xy, fids: dict) -> tuple:
    """The class field with each decided item's true class written on the polygon it falls in.

    An item is matched by its ``source_fid`` when the layer has that feature, else by the last
    polygon holding its point (as when scoring).

    Args:
        gdf: the reference polygons.
        field: the class field.
        items: the decided review items.
        xy: each item's point in the layer's CRS, same order.
        fids: ``source_fid`` per item id.

    Returns:
        ``(corrected, outside)``: the corrected field (object dtype) and how many items fell in
        no polygon.
    """
    from shapely.geometry import Point

    corrected = gdf[field].astype(object).copy()
    outside = 0
    geometries = list(gdf.geometry)
    index = BoxIndex(geometries)
    for item, (x, y) in zip(items, xy):
        fid = fids.get(item.item_id)
        if fid is not None and fid in gdf.index:
            position = gdf.index.get_loc(fid)
        else:
            point = Point(x, y)
            hits = [int(h) for h in index.query((x, y, x, y)) if geometries[int(h)].intersects(point)]
            if not hits:
                outside += 1
                continue
            position = max(hits)  # the last polygon holding the point, as when scoring
        corrected.iloc[position] = int(item.true_class)
    return corrected, outside


def apply_review_polygons(
    polygons, field: str, review_path: str, output_path: str, reference_path: str | None = None
) -> dict:
    """Write a corrected copy of reference polygons to a GeoPackage.

    Args:
        polygons: GeoDataFrame whose index is the feature ids that ``source_fid`` records (the
            Processing shell passes the layer's features), or a vector file (read with GeoPandas:
            ids 0..n-1, so only point items are matched reliably).
        field: the class field.
        review_path: the review GeoPackage.
        output_path: the GeoPackage written (layer ``reference_corrected``); it keeps every
            column and adds ``label_before`` (the value before the review).
        reference_path: the file behind ``polygons``, to refuse writing over it.

    Returns:
        ``{"output", "changed", "reviewed", "outside"}``.

    Raises:
        InputError: output is an input, missing field, unreadable inputs.
    """
    import geopandas as gpd

    path_given = isinstance(polygons, (str, os.PathLike))
    reference_path = os.fspath(polygons) if path_given else reference_path
    check_outputs_not_inputs({"OUTPUT": output_path}, {"REFERENCE": reference_path, "REVIEW": review_path})
    output_path = check_output_path(os.path.abspath(output_path))
    gdf = gpd.read_file(os.fspath(polygons)) if path_given else with_own_crs(polygons).copy()
    if field not in gdf.columns:
        raise InputError(f"The reference layer has no field '{field}': give the class field (REFERENCE_FIELD).")
    with ReviewStore.open(review_path) as store:
        items = _decided(store)
        review_wkt = store.design.get("crs_wkt", "")
        fids = store.column("source_fid")
    layer_wkt = gdf.crs.to_wkt() if gdf.crs is not None else None
    xy = _points(items, review_wkt, layer_wkt)
    before = gdf[field].copy()
    corrected, outside = _corrected_labels(gdf, field, items, xy, fids)
    changed_mask = corrected.astype(object).to_numpy() != before.astype(object).to_numpy()
    out = gdf.copy()
    numeric = before.dtype.kind in "iuf"
    out[field] = corrected.astype(before.dtype if numeric and not before.isna().any() else object).to_numpy()
    out["label_before"] = before.to_numpy()

    def write(tmp: str) -> None:
        os.remove(tmp)
        out.to_file(tmp, layer="reference_corrected", driver="GPKG")

    write_atomic(output_path, write, suffix=".gpkg")
    return {"output": output_path, "changed": int(changed_mask.sum()), "reviewed": len(items), "outside": outside}
