"""core.score.polygons: the box index (shapely's R-tree, no rtree/pygeos) and polygons rasterised on a
prediction grid. Expected values are written by hand or found by brute force."""

from __future__ import annotations

import numpy as np
import pytest
from affine import Affine
from rasterio.crs import CRS

from flair_qgis.core.engine.grid import Grid
from flair_qgis.core.errors import InputError
from flair_qgis.core.score.polygons import BoxIndex, PolygonSource


def _grid(width: int = 20, height: int = 10) -> Grid:
    # 1 m pixels, top-left corner at (1000, 2000), EPSG:2154.
    return Grid(Affine(1.0, 0.0, 1000.0, 0.0, -1.0, 2000.0), width, height, CRS.from_epsg(2154).to_wkt())


def test_box_index_equals_brute_force():
    from shapely.geometry import box

    rng = np.random.default_rng(3)
    corners = rng.uniform(0, 100, size=(300, 2))
    sizes = rng.uniform(0.5, 8, size=(300, 2))
    boxes = [(x, y, x + w, y + h) for (x, y), (w, h) in zip(corners, sizes)]
    index = BoxIndex([box(*b) for b in boxes])
    for query in [(10, 10, 20, 30), (0, 0, 1, 1), (50, 50, 50.5, 50.5), (200, 200, 300, 300)]:
        expected = [
            i for i, b in enumerate(boxes)
            if b[0] <= query[2] and query[0] <= b[2] and b[1] <= query[3] and query[1] <= b[3]
        ]  # fmt: skip
        assert index.query(query).tolist() == expected


def test_box_index_empty():
    assert BoxIndex([]).query((0, 0, 1, 1)).tolist() == []


def test_polygons_rasterised_at_pixel_centres():
    import geopandas as gpd
    from shapely.geometry import box

    grid = _grid()
    # Polygon A covers columns 0..4 of rows 0..9; polygon B columns 10..14 of rows 2..5, with a
    # null class (not counted); C (class 3) covers pixel centres only partly: columns 16..18 of row 0.
    gdf = gpd.GeoDataFrame(
        {"code": [7, None, 3]},
        geometry=[box(1000, 1990, 1005, 2000), box(1010, 1994, 1015, 1998), box(1015.6, 1999.4, 1018.6, 2000)],
        crs="EPSG:2154",
    )
    source = PolygonSource(gdf, "code", grid)
    with source.open() as reader:
        values, valid = reader.read(0, 0, 10, 20)
        index = reader.read_index(0, 0, 10, 20)
    expected_index = np.zeros((10, 20), dtype=np.int32)
    expected_index[:, 0:5] = 1
    expected_index[2:6, 10:15] = 2
    expected_index[0, 16:19] = 3
    np.testing.assert_array_equal(index, expected_index)
    assert valid.sum() == 10 * 5 + 3
    assert (values[:, 0:5] == 7).all() and (values[0, 16:19] == 3).all()
    assert not valid[2:6, 10:15].any()


def test_polygon_window_offset_matches_full_read():
    import geopandas as gpd
    from shapely.geometry import box

    grid = _grid()
    gdf = gpd.GeoDataFrame({"code": [1, 2]}, geometry=[box(1000, 1990, 1012, 2000), box(1012, 1990, 1020, 1995)])
    gdf = gdf.set_crs("EPSG:2154")
    with PolygonSource(gdf, "code", grid).open() as reader:
        full, _ = reader.read(0, 0, 10, 20)
        part, _ = reader.read(3, 8, 5, 9)
    np.testing.assert_array_equal(part, full[3:8, 8:17])


def test_polygon_source_refuses_text_classes_and_points():
    import geopandas as gpd
    from shapely.geometry import Point, box

    grid = _grid()
    text = gpd.GeoDataFrame({"code": ["forest"]}, geometry=[box(1000, 1990, 1005, 2000)], crs="EPSG:2154")
    with pytest.raises(InputError, match="not class values"):
        PolygonSource(text, "code", grid)
    points = gpd.GeoDataFrame({"code": [1]}, geometry=[Point(1001, 1999)], crs="EPSG:2154")
    with pytest.raises(InputError, match="Point geometries"):
        PolygonSource(points, "code", grid)
    with pytest.raises(InputError, match="no field 'klass'"):
        PolygonSource(text, "klass", grid)
