"""core.reference: the polygon box index (no rtree/pygeos), polygon and class-raster readers, CRS
comparison. Expected values are computed by hand or by brute force, not by the code under test."""

from __future__ import annotations

import numpy as np
import pytest
import rasterio
from affine import Affine
from rasterio.crs import CRS

from flair_qgis.core.errors import InputError
from flair_qgis.core.grid import Grid
from flair_qgis.core.reference import BoxIndex, ClassRasterSource, PolygonSource, same_crs


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


def test_class_raster_aligned_and_outside(tmp_path):
    grid = _grid()
    data = np.arange(50, dtype=np.uint8).reshape(5, 10)
    path = tmp_path / "ref.tif"
    # The raster starts 2 rows and 3 columns into the grid.
    transform = Affine(1.0, 0.0, 1003.0, 0.0, -1.0, 1998.0)
    with rasterio.open(
        path, "w", driver="GTiff", width=10, height=5, count=1, dtype="uint8", crs="EPSG:2154",
        transform=transform, nodata=0,
    ) as dst:  # fmt: skip
        dst.write(data, 1)
    source = ClassRasterSource(str(path), grid)
    assert source.aligned
    with source.open() as reader:
        values, valid = reader.read(0, 0, 10, 20)
    expected_valid = np.zeros((10, 20), dtype=bool)
    expected_valid[2:7, 3:13] = data != 0
    np.testing.assert_array_equal(valid, expected_valid)
    np.testing.assert_array_equal(values[2:7, 3:13], data)


def test_same_crs_local_cs_named_like_epsg():
    local = (
        'LOCAL_CS["RGF93 v1 / Lambert-93",UNIT["metre",1,AUTHORITY["EPSG","9001"]],'
        'AXIS["Easting",EAST],AXIS["Northing",NORTH]]'
    )
    assert same_crs(local, CRS.from_epsg(2154).to_wkt())
    assert not same_crs(CRS.from_epsg(4326).to_wkt(), CRS.from_epsg(2154).to_wkt())
    assert same_crs(None, CRS.from_epsg(2154).to_wkt())
