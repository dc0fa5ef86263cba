"""Output grids and tile layouts, in pixel coordinates of the output grid.

A :class:`Grid` is a north-up raster grid (transform, size, CRS). :func:`plan_grid` derives the
grid a run writes from the source raster, the extent the user asked for and the model's
resolution: the source's own grid when the resolutions match (so the class map lines up with
the imagery pixel for pixel), else a grid at the model's resolution anchored on the source's
origin.

:func:`tile_layout` places tiles so that every pixel is predicted by exactly one tile, the one
in whose centre it lies ("core"), and so that each core is a whole number of output blocks:
each block of the GeoTIFF is then written once, complete, and never read back.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from affine import Affine

from ..errors import InputError

# Relative difference below which two pixel sizes are the same (float noise in FLAIR transforms).
_SAME_RESOLUTION_RTOL = 1e-3
# Fraction of a pixel below which extent edges snap to the nearest pixel edge.
_SNAP_EPS = 1e-6
GTIFF_BLOCK_MULTIPLE_PX = 16


def affine_xy(transform: Affine, x, y):
    """``transform * (x, y)``, written out: a pixel's ``(col, row)`` (numbers or arrays) to map
    coordinates, or map coordinates to ``(col, row)`` with an inverse transform.

    affine 3 deprecates ``*`` for this and affine 2 (Debian 12) has no ``@``; the operations are
    affine's own, in its order, so the results are the same to the bit.
    """
    return x * transform.a + y * transform.b + transform.c, x * transform.d + y * transform.e + transform.f


def window_bounds(
    transform: Affine, col: float, row: float, cols: float, rows: float
) -> tuple[float, float, float, float]:
    """``(xmin, ymin, xmax, ymax)`` in map units of the ``rows × cols`` pixels whose top-left is ``(col, row)``."""
    x0, y0 = affine_xy(transform, col, row)
    x1, y1 = affine_xy(transform, col + cols, row + rows)
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def window_transform(transform: Affine, col, row) -> Affine:
    """``transform * Affine.translation(col, row)``, written out: the transform of a window whose
    top-left pixel is ``(col, row)`` (see :func:`affine_xy`)."""
    x0, y0 = affine_xy(transform, col, row)
    return Affine(transform.a, transform.b, x0, transform.d, transform.e, y0)


@dataclass(frozen=True)
class Grid:
    """A north-up raster grid.

    Attributes:
        transform: affine from (col, row) to map coordinates.
        width: number of columns.
        height: number of rows.
        crs_wkt: the CRS as WKT, or None when the source has none.
    """

    transform: Affine
    width: int
    height: int
    crs_wkt: str | None

    @property
    def pixel_size_m(self) -> float:
        """Pixel width in map units (metres for projected CRSs)."""
        return abs(self.transform.a)

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """``(xmin, ymin, xmax, ymax)`` in map units."""
        return window_bounds(self.transform, 0, 0, self.width, self.height)

    @property
    def area_km2(self) -> float:
        """Ground area covered, km² (map units taken as metres)."""
        return self.width * self.height * abs(self.transform.a * self.transform.e) / 1e6


def same_resolution(a: float, b: float) -> bool:
    """True when two pixel sizes differ by float noise only."""
    return math.isclose(a, b, rel_tol=_SAME_RESOLUTION_RTOL)


def plan_grid(
    source_transform: Affine,
    source_width: int,
    source_height: int,
    crs_wkt: str | None,
    extent: tuple[float, float, float, float] | None = None,
    resolution_m: float | None = None,
) -> Grid:
    """The output grid for an extent of a source raster.

    Args:
        source_transform: north-up affine of the source raster.
        source_width: source columns.
        source_height: source rows.
        crs_wkt: CRS of the source (and of ``extent``).
        extent: ``(xmin, ymin, xmax, ymax)`` in the source CRS; None for the whole raster. It is
            clipped to the raster.
        resolution_m: the model's pixel size; None or equal to the source's keeps the source grid.

    Returns:
        The grid to predict on.

    Raises:
        InputError: the extent does not intersect the raster, or the raster is rotated.
    """
    if source_transform.b != 0 or source_transform.d != 0:
        raise InputError.of("rotated_raster")
    res_x, res_y = source_transform.a, -source_transform.e
    if res_x <= 0 or res_y <= 0:
        raise InputError.of("not_north_up")
    rx0, ry1 = source_transform.c, source_transform.f
    rx1, ry0 = rx0 + source_width * res_x, ry1 - source_height * res_y
    if extent is None:
        xmin, ymin, xmax, ymax = rx0, ry0, rx1, ry1
    else:
        xmin, ymin, xmax, ymax = extent
        if not (xmax > xmin and ymax > ymin):
            raise InputError.of("empty_extent")
        xmin, ymin, xmax, ymax = max(xmin, rx0), max(ymin, ry0), min(xmax, rx1), min(ymax, ry1)
        if not (xmax > xmin and ymax > ymin):
            raise InputError.of("extent_outside_raster")

    out_res_x, out_res_y = res_x, res_y
    if resolution_m is not None and not same_resolution(res_x, resolution_m):
        out_res_x = out_res_y = resolution_m

    col0 = math.floor((xmin - rx0) / out_res_x + _SNAP_EPS)
    col1 = math.ceil((xmax - rx0) / out_res_x - _SNAP_EPS)
    row0 = math.floor((ry1 - ymax) / out_res_y + _SNAP_EPS)
    row1 = math.ceil((ry1 - ymin) / out_res_y - _SNAP_EPS)
    width, height = col1 - col0, row1 - row0
    if width <= 0 or height <= 0:
        raise InputError.of("extent_below_pixel")
    transform = Affine(out_res_x, 0.0, rx0 + col0 * out_res_x, 0.0, -out_res_y, ry1 - row0 * out_res_y)
    return Grid(transform=transform, width=width, height=height, crs_wkt=crs_wkt)


@dataclass(frozen=True)
class Tile:
    """One model input window and the part of the output it decides.

    All coordinates are output-grid pixels. The read window may stick out of the grid (context
    read around the extent, or padding past the raster's edge).

    Attributes:
        read_row: top row of the model input window.
        read_col: left column of the model input window.
        core_row: top row of the decided region.
        core_col: left column of the decided region.
        core_rows: rows of the decided region.
        core_cols: columns of the decided region.
    """

    read_row: int
    read_col: int
    core_row: int
    core_col: int
    core_rows: int
    core_cols: int

    @property
    def core_offset(self) -> tuple[int, int]:
        """``(row, col)`` of the core inside the model input window."""
        return (self.core_row - self.read_row, self.core_col - self.read_col)


def core_stride_px(tile_size_px: int, overlap_px: int) -> int:
    """Distance between tile cores: ``tile - overlap`` rounded down to a GeoTIFF block multiple.

    Rounding down only ever adds overlap, never removes it.

    Raises:
        InputError: the tile is too small, or the overlap leaves no core.
    """
    if tile_size_px < 2 * GTIFF_BLOCK_MULTIPLE_PX:
        raise InputError.of("tile_size_too_small", minimum=2 * GTIFF_BLOCK_MULTIPLE_PX, tile_size_px=tile_size_px)
    if overlap_px < 0 or overlap_px > tile_size_px - GTIFF_BLOCK_MULTIPLE_PX:
        raise InputError.of(
            "bad_overlap",
            maximum=tile_size_px - GTIFF_BLOCK_MULTIPLE_PX,
            tile_size_px=tile_size_px,
            overlap_px=overlap_px,
        )
    stride = tile_size_px - overlap_px
    return stride - stride % GTIFF_BLOCK_MULTIPLE_PX


def _axis(length_px: int, tile_size_px: int, stride_px: int) -> list[tuple[int, int, int]]:
    """``(read_start, core_start, core_length)`` along one axis."""
    if length_px <= tile_size_px:
        # One tile decides the whole axis, centred on it to read context on both sides.
        return [(-((tile_size_px - length_px) // 2), 0, length_px)]
    margin = (tile_size_px - stride_px) // 2
    return [(start - margin, start, min(stride_px, length_px - start)) for start in range(0, length_px, stride_px)]


def tile_layout(grid_width: int, grid_height: int, tile_size_px: int, overlap_px: int) -> list[Tile]:
    """Tiles covering a grid, in row-major order.

    Args:
        grid_width: output columns.
        grid_height: output rows.
        tile_size_px: model input edge.
        overlap_px: minimum overlap between neighbouring tiles; a model whose receptive field
            has radius r gives seamless output with ``overlap_px >= 2 * r``.

    Returns:
        The tiles; their cores partition the grid.
    """
    stride = core_stride_px(tile_size_px, overlap_px)
    rows = _axis(grid_height, tile_size_px, stride)
    cols = _axis(grid_width, tile_size_px, stride)
    return [
        Tile(read_row=rr, read_col=rc, core_row=cr, core_col=cc, core_rows=nr, core_cols=nc)
        for rr, cr, nr in rows
        for rc, cc, nc in cols
    ]


def window_tile_layout(
    layer_width: int,
    layer_height: int,
    window: tuple[int, int, int, int],
    tile_size_px: int,
    overlap_px: int,
) -> list[Tile]:
    """The tiles of the whole-layer layout whose cores meet a window, in layer-grid pixels.

    Any two windows of one layer then share the tiles they both meet, and each tile reads and
    decides exactly what it does in a whole-layer run (the tile cache relies on it).

    Args:
        layer_width: columns of the layer's grid at the model's resolution.
        layer_height: rows of that grid.
        window: ``(row, col, rows, cols)`` of the extent in that grid.
        tile_size_px: model input edge.
        overlap_px: minimum overlap between neighbouring tiles.

    Returns:
        The tiles, row-major; their cores may reach outside the window.
    """
    row0, col0, rows, cols = window
    stride = core_stride_px(tile_size_px, overlap_px)

    def meets(axis: list[tuple[int, int, int]], start: int, length: int) -> list[tuple[int, int, int]]:
        return [a for a in axis if a[1] < start + length and a[1] + a[2] > start]

    along_rows = meets(_axis(layer_height, tile_size_px, stride), row0, rows)
    along_cols = meets(_axis(layer_width, tile_size_px, stride), col0, cols)
    return [
        Tile(read_row=rr, read_col=rc, core_row=cr, core_col=cc, core_rows=nr, core_cols=nc)
        for rr, cr, nr in along_rows
        for rc, cc, nc in along_cols
    ]


def batched(tiles: list[Tile], batch_size: int) -> Iterator[list[Tile]]:
    """Consecutive groups of at most ``batch_size`` tiles."""
    for start in range(0, len(tiles), batch_size):
        yield tiles[start : start + batch_size]


def pixel_offset(transform: Affine, grid: Grid) -> tuple[int, int] | None:
    """``(row, col)`` of ``grid``'s origin in a raster of ``transform`` when both share pixels.

    Returns None when the raster is rotated, has another pixel size, or is shifted by a fraction
    of a pixel (more than 1/1000: FLAIR transforms carry float noise); the raster must then be
    resampled onto the grid.
    """
    if transform.b or transform.d:
        return None
    if not (same_resolution(transform.a, grid.transform.a) and same_resolution(transform.e, grid.transform.e)):
        return None
    col_f = (grid.transform.c - transform.c) / transform.a
    row_f = (grid.transform.f - transform.f) / transform.e
    col, row = round(col_f), round(row_f)
    if abs(col_f - col) > 1e-3 or abs(row_f - row) > 1e-3:
        return None
    return row, col
