"""core.score.reference: class rasters read on a prediction grid, CRS comparison. Expected values are
written by hand, not computed by the code under test."""

from __future__ import annotations

import numpy as np
import rasterio
from affine import Affine
from rasterio.crs import CRS

from flair_qgis.core.crs import same_crs
from flair_qgis.core.engine.grid import Grid
from flair_qgis.core.score.reference import ClassRasterSource


def _grid(width: int = 20, height: int = 10) -> Grid:
    # 1 m pixels, top-left corner at (1000, 2000), EPSG:2154.
    return Grid(Affine(1.0, 0.0, 1000.0, 0.0, -1.0, 2000.0), width, height, CRS.from_epsg(2154).to_wkt())


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
