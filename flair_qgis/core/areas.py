"""Pixel areas in square metres for any CRS, shared by the jobs that report areas.

The areas a review reports (m² and ha) and the ``area_m2`` of vectorised polygons come from here.

* projected CRS: ``|a e|`` (the transform's pixel width and height) times the square of the
  axis unit in metres (1 for metres, 0.3048006096 for US survey feet, ...): the area on the map
  plane, as every area of a projected map;
* geographic CRS: the geodesic area on the CRS's ellipsoid (:class:`pyproj.Geod`) of each row's
  pixel (all pixels of a north-up row have the same area); a stratum's pixel area is the mean over
  its pixels, so ``N_h a_h`` is the stratum's exact area;
* no CRS: the transform's units are taken as metres.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol

import numpy as np
from affine import Affine

from .crs import effective_wkt


class NorthUpGrid(Protocol):
    """What the areas need of a grid (e.g. :class:`flair_qgis.core.engine.grid.Grid`): a shared
    module imports no job, so the grid is described, not imported."""

    @property
    def transform(self) -> Affine: ...

    @property
    def crs_wkt(self) -> str | None: ...

    @property
    def height(self) -> int: ...


def _pyproj_crs(wkt: str | None):
    from pyproj import CRS
    from pyproj.exceptions import CRSError

    wkt = effective_wkt(wkt)
    if not wkt:
        return None
    try:
        return CRS.from_user_input(wkt)
    except CRSError:
        return None


def row_pixel_areas_m2(grid: NorthUpGrid) -> np.ndarray | float:
    """Area of one pixel in m²: one value (projected, or no CRS) or one per row (geographic).

    Args:
        grid: a north-up grid.
    """
    width, height = abs(grid.transform.a), abs(grid.transform.e)
    crs = _pyproj_crs(grid.crs_wkt)
    if crs is None:
        return width * height
    if not crs.is_geographic:
        factor = crs.axis_info[0].unit_conversion_factor if crs.axis_info else 1.0
        return width * height * factor * factor
    geod = crs.get_geod()
    top = grid.transform.f + grid.transform.e * np.arange(grid.height)
    bottom = top + grid.transform.e
    areas = np.empty(grid.height)
    for row, (y0, y1) in enumerate(zip(top.tolist(), bottom.tolist())):
        area, _ = geod.polygon_area_perimeter([0.0, width, width, 0.0], [y0, y0, y1, y1])
        areas[row] = abs(area)
    return areas


def stratum_pixel_areas_m2(
    grid: NorthUpGrid,
    strata: Mapping[int, int],
    rows_of_class: Callable[[], object] | None = None,
) -> dict[int, float]:
    """Mean pixel area (m²) per stratum.

    Args:
        grid: the sampled grid.
        strata: ``N_h`` per class value.
        rows_of_class: for a geographic CRS, a callable yielding ``(row, values, valid)`` windows
            (row of the window's top, class values, valid mask) to weigh each class's pixels by
            their row's area; not called otherwise.
    """
    areas = row_pixel_areas_m2(grid)
    if np.isscalar(areas) or rows_of_class is None:
        value = float(np.mean(areas))
        return {h: value for h in strata}
    per_row = np.asarray(areas)
    totals: dict[int, float] = dict.fromkeys(strata, 0.0)
    for row, values, valid in rows_of_class():  # type: ignore[attr-defined]
        weights = np.broadcast_to(per_row[row : row + values.shape[0], None], values.shape)
        classes, inverse = np.unique(values[valid], return_inverse=True)
        sums = np.bincount(inverse.ravel(), weights=weights[valid], minlength=len(classes))
        for value, total in zip(classes.tolist(), sums.tolist()):
            if int(value) in totals:
                totals[int(value)] += total
    return {h: totals[h] / strata[h] for h in strata}
