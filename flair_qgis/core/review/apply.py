"""A corrected copy of a reference raster from a review's verdicts; the original is never modified.

Rule: every item reviewed ``correct`` or ``wrong`` carries the class seen on the ground
(``true_class``; the adjudicated class where two interpreters disagreed and one was decided).
Where the reference disagrees with it, the copy takes ``true_class`` in the reference cell under
the item's point (a pixel centre of the sampled grid, moved into the reference's CRS when it
differs). ``unsure`` items and items without a verdict change nothing. The review must have been
drawn from this raster (:mod:`.identity`).

A raster reviewed through a crosswalk (``CROSSWALK``, default the one the review was drawn with)
is written back in its own codes, by the polygons' rule (:mod:`.code_writeback`): a cell whose
code counts as the class decided keeps it; else it takes the code the verdicts name, or the
class's only code. Where several codes count as the class and no verdict names one, the cell is
left as it is and listed as a conflict (as are the items of one cell deciding different classes,
or naming different codes). A code is written only when it is a number the raster's type holds;
a text code is refused (``code_not_for_raster``). The copy keeps the raster's type and nodata.

Public entry point: :func:`apply_review_raster`. Polygons: :mod:`.polygon_apply`.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import shutil
from dataclasses import dataclass

import numpy as np

from ..atomic import check_output_path, write_atomic
from ..crs import same_crs
from ..engine.grid import affine_xy
from ..errors import InputError
from ..paths import check_outputs_not_inputs, check_sidecars_not_input
from ..score import Crosswalk, raster_info, reference_key
from .code_writeback import CodeWriteBack, code_write_back
from .identity import check_reference_identity, file_identity
from .schema import ReviewItem
from .store import ReviewStore

DISAGREE = "items disagree"


@dataclass(frozen=True)
class Conflict:
    """A polygon or raster cell left unchanged, or an item refused (a row of table ``conflicts``).

    Attributes:
        polygon_fid: the polygon's feature id (-1 for a raster cell).
        label: its class or reference code as text (None when unknown).
        item_ids, true_classes: the items involved and their true classes, comma-separated.
        reason: why (:data:`DISAGREE`, ``polygon_apply.OUTSIDE_FID``, ``MISSING_FID`` or one of
            :mod:`.code_writeback`'s).
        cell: a raster cell's ``(row, column)``; None for a polygon.
    """

    polygon_fid: int
    label: str | None
    item_ids: str
    true_classes: str
    reason: str
    cell: tuple[int, int] | None = None


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
        conflicts: polygons (and cells of a raster written in its codes) left unchanged, refused items.
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
    """The items reviewed ``correct`` or ``wrong`` with a true class: the ones a corrected copy
    applies, with the adjudicated class where two interpreters' classes were settled."""
    settled = store.adjudications()
    return [
        dataclasses.replace(i, true_class=settled[i.item_id][0]) if i.item_id in settled else i
        for i in store.items()
        if i.verdict in ("correct", "wrong") and i.true_class is not None
    ]


def item_points(items: list[ReviewItem], review_wkt: str, target_wkt: str | None) -> np.ndarray:
    """``(n, 2)`` points of the items (a point inside each polygon) in the target CRS."""
    import geopandas as gpd
    from shapely import wkt as shapely_wkt

    points = [shapely_wkt.loads(i.wkt).representative_point() for i in items]
    series = gpd.GeoSeries(points, crs=review_wkt or None)
    if review_wkt and target_wkt and not same_crs(review_wkt, target_wkt):
        series = series.to_crs(target_wkt)
    return np.array([(p.x, p.y) for p in series]) if len(series) else np.zeros((0, 2))


def apply_review_raster(
    reference_path: str, review_path: str, output_path: str, crosswalk: Crosswalk | None = None
) -> ApplyResult:
    """Write a corrected copy of a reference raster.

    Args:
        reference_path: the reference raster (never modified).
        review_path: the review GeoPackage drawn from it.
        output_path: the GeoTIFF written (completely or not at all).
        crosswalk: write the reference's codes (``CROSSWALK``; default the review's; module docstring).

    Returns:
        Cells changed, decided items, items outside the reference, warnings, conflicts (codes only).

    Raises:
        InputError: output is an input, unreadable inputs, another raster than the one the review
            was drawn from, a true class or a reference code the raster type cannot hold.
    """
    check_outputs_not_inputs({"OUTPUT": output_path}, {"REFERENCE": reference_path, "REVIEW": review_path})
    check_sidecars_not_input("OUTPUT", output_path, (".qml",), {"REFERENCE": reference_path, "REVIEW": review_path})
    output_path = check_output_path(os.path.abspath(output_path))
    info = raster_info(reference_path, "reference")
    with ReviewStore.open(review_path) as store:
        items = decided_items(store)
        xy = item_points(items, store.design.get("crs_wkt", ""), info.crs_wkt)
        recorded = json.loads(store.design["reference_identity"]) if store.design.get("reference_identity") else None
    warnings = check_reference_identity(recorded, file_identity(reference_path, "gdal"))
    cells, outside = _item_cells(items, xy, info)
    codes = code_write_back(review_path, crosswalk)
    conflicts: list[Conflict] = []
    changes: dict[tuple[int, int], float | int]
    if codes is None:  # class values; the last item of a cell wins
        changes = {cell: [_class_value(i.true_class, info.dtype) for i in group][-1] for cell, group in cells.items()}
    else:
        changes, conflicts = _code_changes(cells, _read_cells(reference_path, cells), codes, info.dtype)
    changed = _write_copy(reference_path, output_path, changes, info.dtype)
    return ApplyResult(output_path, changed, len(items), outside, tuple(warnings), conflicts=tuple(conflicts))


def _item_cells(items: list[ReviewItem], xy: np.ndarray, info) -> tuple[dict[tuple[int, int], list[ReviewItem]], int]:
    """The decided items by the reference cell under their point, in review order; items outside."""
    cells: dict[tuple[int, int], list[ReviewItem]] = {}
    outside = 0
    inverse = ~info.transform
    for item, (x, y) in zip(items, xy):
        col, row = (int(np.floor(v)) for v in affine_xy(inverse, x, y))
        if not (0 <= row < info.height and 0 <= col < info.width):
            outside += 1
            continue
        cells.setdefault((row, col), []).append(item)
    return cells, outside


def _class_value(true_class: int | None, dtype: str) -> int:
    """A true class written as a class value (no crosswalk); refused when the raster type cannot hold it."""
    value = int(true_class or 0)
    if np.dtype(dtype).kind in "iu":
        limits = np.iinfo(dtype)
        if not limits.min <= value <= limits.max:
            raise InputError.of("class_outside_dtype", value=value, dtype=dtype)
    return value


def _code_value(code: object, dtype: str) -> float | int:
    """A reference code as the number a raster cell of ``dtype`` holds.

    Raises:
        InputError: a text code, a fraction in an integer raster, or a number out of the type's range.
    """
    try:
        number = float(str(code))
    except ValueError:
        number = float("nan")
    kind = np.dtype(dtype).kind
    if kind in "iu":
        limits = np.iinfo(dtype)
        if not (number.is_integer() and limits.min <= number <= limits.max):
            raise InputError.of("code_not_for_raster", code=code, dtype=dtype)
        return int(number)
    if kind != "f" or not math.isfinite(number):
        raise InputError.of("code_not_for_raster", code=code, dtype=dtype)
    return number


def _read_cells(path: str, cells) -> dict[tuple[int, int], object]:
    """The reference's value in each cell (one small read per cell)."""
    import rasterio
    from rasterio.windows import Window

    with rasterio.open(path) as src:
        return {(row, col): src.read(1, window=Window(col, row, 1, 1))[0, 0].item() for row, col in cells}


def _code_changes(
    cells: dict[tuple[int, int], list[ReviewItem]], labels: dict, codes: CodeWriteBack, dtype: str
) -> tuple[dict[tuple[int, int], float | int], list[Conflict]]:
    """The code each cell takes (the polygons' rule, :meth:`CodeWriteBack.target`), and the cells
    left unchanged as conflicts."""
    changes: dict[tuple[int, int], float | int] = {}
    conflicts: list[Conflict] = []
    for cell in sorted(cells):
        group, label = cells[cell], labels[cell]
        classes = sorted({int(i.true_class) for i in group})  # type: ignore[arg-type]
        code, reason = (None, DISAGREE) if len(classes) != 1 else codes.target(label, classes[0], group)
        if reason:
            conflicts.append(_cell_conflict(cell, label, group, reason))
            continue
        if reference_key(code) != reference_key(label):
            changes[cell] = _code_value(code, dtype)
    return changes, conflicts


def _cell_conflict(cell: tuple[int, int], label: object, items: list[ReviewItem], reason: str) -> Conflict:
    return Conflict(
        polygon_fid=-1,
        label=reference_key(label),
        item_ids=", ".join(str(i.item_id) for i in items),
        true_classes=", ".join(str(i.true_class) for i in items),
        reason=reason,
        cell=cell,
    )


def _write_copy(reference_path: str, output_path: str, changes: dict, dtype: str) -> int:
    """Copy the reference with ``changes`` (cell -> value) written, atomically (and its ``.qml``
    style); the number of cells whose value changed."""
    import rasterio
    from rasterio.windows import Window

    changed = 0

    def write(tmp: str) -> None:
        nonlocal changed
        shutil.copyfile(reference_path, tmp)
        with rasterio.open(tmp, "r+") as dst:
            for (row, col), value in changes.items():
                window = Window(col, row, 1, 1)
                if dst.read(1, window=window)[0, 0] != value:
                    dst.write(np.full((1, 1), value, dtype=dtype), 1, window=window)
                    changed += 1

    write_atomic(output_path, write, suffix=".tif")
    style = os.path.splitext(reference_path)[0] + ".qml"
    if os.path.exists(style):
        shutil.copyfile(style, os.path.splitext(output_path)[0] + ".qml")
    return changed
