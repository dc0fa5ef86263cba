"""core.segment.mask: polygons as a per-window mask, pixel centres inside."""

from __future__ import annotations

import numpy as np
import pytest
import shapely.geometry
from affine import Affine

from flair_qgis.core.engine.grid import Grid, affine_xy
from flair_qgis.core.errors import InputError
from flair_qgis.core.segment.mask import PolygonMask, polygons_bounds

GRID = Grid(Affine(0.5, 0.0, 100.0, 0.0, -0.5, 200.0), 80, 60, None)
TRIANGLE = shapely.geometry.Polygon([(102, 197), (130, 195), (110, 172)])


def _centres_inside(shape, row, col, rows, cols) -> np.ndarray:
    t = GRID.transform
    return np.array(
        [[shape.contains(shapely.geometry.Point(affine_xy(t, c + 0.5, r + 0.5))) for c in range(col, col + cols)]
         for r in range(row, row + rows)]
    )  # fmt: skip


@pytest.mark.parametrize("window", [(0, 0, 60, 80), (5, 10, 17, 23), (40, 60, 20, 20)])
def test_inside_is_the_pixel_centres_in_the_polygons(window):
    mask = PolygonMask([TRIANGLE.wkb], GRID)
    got = mask.inside(*window)
    assert got.shape == window[2:]
    assert (got == _centres_inside(TRIANGLE, *window)).all()


def test_windows_far_from_every_polygon_are_all_outside():
    mask = PolygonMask([shapely.geometry.box(101, 198, 102, 199).wkb], GRID)
    assert not mask.inside(40, 40, 16, 16).any()


def test_bounds_of_several_polygons_and_refusals():
    square = shapely.geometry.box(140, 150, 145, 160)
    assert polygons_bounds([TRIANGLE.wkb, square.wkb]) == (102.0, 150.0, 145.0, 197.0)
    with pytest.raises(InputError, match="no area"):
        polygons_bounds([shapely.geometry.LineString([(0, 0), (1, 0)]).wkb])
    with pytest.raises(InputError, match="no polygon"):
        polygons_bounds([])
