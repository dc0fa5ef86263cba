"""Polygons bounding a run: the maps are nodata outside them, decided tile core by tile core.

A pixel is inside when its centre is inside a polygon (``rasterio.features.geometry_mask`` with
``all_touched=False``), the rule GDAL's rasterisation follows. Each tile core is rasterised on
its own while it is written, so the mask costs no second pass over the outputs and its memory is
one core, whatever the extent.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import shapely.wkb
from rasterio.features import geometry_mask

from ..engine.grid import Grid, affine_xy, window_transform
from ..errors import InputError


def polygons_bounds(wkbs: Sequence[bytes]) -> tuple[float, float, float, float]:
    """``(xmin, ymin, xmax, ymax)`` of polygons given as WKB.

    Raises:
        InputError: no polygon, or polygons without area.
    """
    shapes = [shapely.wkb.loads(w) for w in wkbs]
    shapes = [s for s in shapes if not s.is_empty]
    if not shapes:
        raise InputError.of("mask_without_polygon")
    boxes = [s.bounds for s in shapes]
    xmin, ymin = min(b[0] for b in boxes), min(b[1] for b in boxes)
    xmax, ymax = max(b[2] for b in boxes), max(b[3] for b in boxes)
    if not (xmax > xmin and ymax > ymin):
        raise InputError.of("mask_without_area")
    return float(xmin), float(ymin), float(xmax), float(ymax)


class PolygonMask:
    """Which pixels of a grid lie inside polygons.

    Args:
        wkbs: polygons as WKB, in the grid's CRS.
        grid: the output grid.
    """

    def __init__(self, wkbs: Sequence[bytes], grid: Grid) -> None:
        self.grid = grid
        self.shapes = [s for s in (shapely.wkb.loads(w) for w in wkbs) if not s.is_empty]
        self.bounds = [s.bounds for s in self.shapes]

    def inside(self, row: int, col: int, rows: int, cols: int) -> np.ndarray:
        """A boolean ``(rows, cols)`` array, True where the pixel centre is inside a polygon.

        Args:
            row: top row of the window, in grid pixels.
            col: left column of the window.
            rows: window height.
            cols: window width.
        """
        t = self.grid.transform
        transform = window_transform(t, col, row)
        x0, y1 = affine_xy(transform, 0, 0)
        x1, y0 = affine_xy(transform, cols, rows)
        near = [
            shape
            for shape, (sx0, sy0, sx1, sy1) in zip(self.shapes, self.bounds)
            if sx0 <= max(x0, x1) and sx1 >= min(x0, x1) and sy0 <= max(y0, y1) and sy1 >= min(y0, y1)
        ]
        if not near:
            return np.zeros((rows, cols), dtype=bool)
        return geometry_mask(near, out_shape=(rows, cols), transform=transform, all_touched=False, invert=True)
