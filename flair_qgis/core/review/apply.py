"""A corrected copy of a reference raster from a review's verdicts; the original is never modified.

Rule: every item reviewed ``correct`` or ``wrong`` carries the class seen on the ground
(``true_class``). Where the reference disagrees with it, the copy takes ``true_class`` in the
reference cell under the item's point (a pixel centre of the sampled grid, moved into the
reference's CRS when it differs). ``unsure`` items and items without a verdict change nothing.
The review must have been drawn from this raster (:mod:`.identity`).

Public entry point: :func:`apply_review_raster`. Polygons: :mod:`.polygon_apply`.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass

import numpy as np

from ..atomic import check_output_path, write_atomic
from ..crs import same_crs
from ..engine.grid import affine_xy
from ..errors import InputError
from ..paths import check_outputs_not_inputs, check_sidecars_not_input
from ..score import raster_info
from .identity import check_reference_identity, file_identity
from .schema import ReviewItem
from .store import ReviewStore


@dataclass(frozen=True)
class Conflict:
    """A polygon left unchanged, or an item refused (a row of table ``conflicts``).

    Attributes:
        polygon_fid: the polygon's feature id.
        label: its class as text (None when unknown).
        item_ids, true_classes: the items involved and their true classes, comma-separated.
        reason: why (``polygon_apply.DISAGREE``, ``OUTSIDE_FID`` or ``MISSING_FID``).
    """

    polygon_fid: int
    label: str | None
    item_ids: str
    true_classes: str
    reason: str


@dataclass(frozen=True)
class ApplyResult:
    """What a corrected copy changed.

    Attributes:
        output: the file written.
        changed: cells (raster) or polygons changed.
        reviewed: decided items (``correct`` or ``wrong`` with a true class).
        outside: items outside the reference (raster) or in no polygon.
        warnings: for the log (e.g. the reference differs from the one recorded).
        refused: polygons only: items whose point is not in their ``source_fid`` polygon.
        conflicts: polygons only: polygons left unchanged and refused items.
        single_item: polygons only: changes that rest on a single item.
    """

    output: str
    changed: int
    reviewed: int
    outside: int
    warnings: tuple[str, ...] = ()
    refused: int = 0
    conflicts: tuple[Conflict, ...] = ()
    single_item: int = 0


def decided_items(store: ReviewStore) -> list[ReviewItem]:
    """The items reviewed ``correct`` or ``wrong`` with a true class: the ones a corrected copy applies."""
    return [i for i in store.items() if i.verdict in ("correct", "wrong") and i.true_class is not None]


def item_points(items: list[ReviewItem], review_wkt: str, target_wkt: str | None) -> np.ndarray:
    """``(n, 2)`` points of the items (a point inside each polygon) in the target CRS."""
    import geopandas as gpd
    from shapely import wkt as shapely_wkt

    points = [shapely_wkt.loads(i.wkt).representative_point() for i in items]
    series = gpd.GeoSeries(points, crs=review_wkt or None)
    if review_wkt and target_wkt and not same_crs(review_wkt, target_wkt):
        series = series.to_crs(target_wkt)
    return np.array([(p.x, p.y) for p in series]) if len(series) else np.zeros((0, 2))


def apply_review_raster(reference_path: str, review_path: str, output_path: str) -> ApplyResult:
    """Write a corrected copy of a reference raster.

    Returns:
        Cells changed, decided items, items outside the reference, warnings for the log.

    Raises:
        InputError: output is an input, unreadable inputs, another raster than the one the review
            was drawn from, a true class the raster type cannot hold.
    """
    import rasterio
    from rasterio.windows import Window

    check_outputs_not_inputs({"OUTPUT": output_path}, {"REFERENCE": reference_path, "REVIEW": review_path})
    check_sidecars_not_input("OUTPUT", output_path, (".qml",), {"REFERENCE": reference_path, "REVIEW": review_path})
    output_path = check_output_path(os.path.abspath(output_path))
    info = raster_info(reference_path, "reference")
    with ReviewStore.open(review_path) as store:
        items = decided_items(store)
        xy = item_points(items, store.design.get("crs_wkt", ""), info.crs_wkt)
        recorded = json.loads(store.design["reference_identity"]) if store.design.get("reference_identity") else None
    warnings = check_reference_identity(recorded, file_identity(reference_path, "gdal"))
    limits = np.iinfo(info.dtype) if np.dtype(info.dtype).kind in "iu" else None
    changes: dict[tuple[int, int], int] = {}
    outside = 0
    inverse = ~info.transform
    for item, (x, y) in zip(items, xy):
        col, row = (int(np.floor(v)) for v in affine_xy(inverse, x, y))
        if not (0 <= row < info.height and 0 <= col < info.width):
            outside += 1
            continue
        if limits is not None and not limits.min <= int(item.true_class) <= limits.max:  # type: ignore[arg-type]
            raise InputError.of("class_outside_dtype", value=item.true_class, dtype=info.dtype)
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
    return ApplyResult(output_path, changed, len(items), outside, tuple(warnings))
