"""core.engine.grid: output grids over an extent, and tile layouts whose cores partition them."""

from __future__ import annotations

import numpy as np
import pytest
from affine import Affine

from flair_qgis.core.engine.grid import Grid, core_stride_px, pixel_offset, plan_grid, tile_layout
from flair_qgis.core.errors import InputError

SOURCE = Affine(0.2, 0.0, 1000.0, 0.0, -0.2, 5000.0)  # 0.2 m pixels, top-left at (1000, 5000)


def test_whole_raster_keeps_the_source_grid():
    grid = plan_grid(SOURCE, 100, 50, "WKT")
    assert (grid.transform, grid.width, grid.height, grid.crs_wkt) == (SOURCE, 100, 50, "WKT")
    assert grid.bounds == pytest.approx((1000.0, 4990.0, 1020.0, 5000.0))
    assert grid.area_km2 == pytest.approx(20 * 10 / 1e6)


def test_extent_snaps_outwards_to_source_pixels_and_is_clipped():
    # 1.03 m .. 3.01 m covers source columns 5..15 (x 1001.0 .. 1003.2 snapped outwards).
    grid = plan_grid(SOURCE, 100, 50, None, extent=(1001.03, 4995.0, 1003.01, 5010.0))
    assert grid.transform.c == pytest.approx(1001.0) and grid.transform.f == pytest.approx(5000.0)
    assert (grid.width, grid.height) == (11, 25)


def test_model_resolution_gives_a_coarser_grid_on_the_same_origin():
    grid = plan_grid(SOURCE, 100, 50, None, resolution_m=0.5)
    assert (grid.transform.a, grid.transform.c, grid.transform.f) == (0.5, 1000.0, 5000.0)
    assert (grid.width, grid.height) == (40, 20)
    # Float noise in the source's pixel size is the same resolution.
    assert plan_grid(SOURCE, 100, 50, None, resolution_m=0.2000001).transform == SOURCE


@pytest.mark.parametrize(
    ("extent", "message"),
    [((0.0, 0.0, 10.0, 10.0), "does not intersect"), ((1005.0, 4995.0, 1005.0, 4999.0), "empty")],
)
def test_bad_extents(extent, message):
    with pytest.raises(InputError, match=message):
        plan_grid(SOURCE, 100, 50, None, extent=extent)


def test_rotated_raster_is_refused():
    with pytest.raises(InputError, match="Rotated"):
        plan_grid(Affine(0.2, 0.1, 0.0, 0.0, -0.2, 0.0), 10, 10, None)


@pytest.mark.parametrize(
    ("width", "height", "tile", "overlap"), [(70, 100, 64, 16), (40, 50, 64, 16), (300, 129, 96, 40)]
)
def test_tile_cores_partition_the_grid_in_whole_blocks(width, height, tile, overlap):
    tiles = tile_layout(width, height, tile, overlap)
    covered = [[0] * width for _ in range(height)]
    stride = core_stride_px(tile, overlap)
    for t in tiles:
        assert 0 <= t.core_offset[0] and t.core_offset[0] + t.core_rows <= tile
        assert t.core_row % stride == 0 and t.core_col % stride == 0
        for r in range(t.core_row, t.core_row + t.core_rows):
            for c in range(t.core_col, t.core_col + t.core_cols):
                covered[r][c] += 1
    assert all(v == 1 for row in covered for v in row)


def test_stride_rounds_down_to_16_px_blocks():
    assert core_stride_px(96, 40) == 48  # 56 rounded down: the overlap only grows
    with pytest.raises(InputError, match="Overlap must be between"):
        core_stride_px(64, 60)


def test_pixel_offset_of_a_shared_grid():
    grid = Grid(Affine(0.2, 0.0, 1002.0, 0.0, -0.2, 4998.0), 10, 10, None)
    assert pixel_offset(SOURCE, grid) == (10, 10)
    shifted = Grid(Affine(0.2, 0.0, 1002.1, 0.0, -0.2, 4998.0), 10, 10, None)
    assert pixel_offset(SOURCE, shifted) is None


def test_affine_xy_and_window_transform_are_affines_own_operations_to_the_bit():
    import warnings

    from flair_qgis.core.engine.grid import affine_xy, window_transform

    t = Affine(0.2000000000002, 1e-7, 420454.40000001004, -3e-8, -0.19999999999998, 6439424.0)
    cols, rows = np.array([0.5, 17.5, 511.5, -3.25]), np.array([0.5, 3.5, 511.5, 7.75])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PendingDeprecationWarning)  # affine 3 deprecates `*` here
        xs, ys = t * (cols, rows)
        inverse = ~t * (xs[1], ys[1])
        shifted = t * Affine.translation(37, 11)
    assert np.array_equal(affine_xy(t, cols, rows)[0], xs) and np.array_equal(affine_xy(t, cols, rows)[1], ys)
    assert affine_xy(~t, xs[1], ys[1]) == inverse
    assert tuple(window_transform(t, 37, 11)) == tuple(shifted)
