"""core.engine.pixel_sources: windows of an output grid read from a raster file, with a validity mask."""

from __future__ import annotations

import numpy as np
import pytest
from affine import Affine
from rasters import random_image, write_raster

from flair_qgis.core.engine.grid import Grid
from flair_qgis.core.engine.pixel_sources import RasterioSource, capture_file
from flair_qgis.core.errors import InputError


@pytest.fixture
def image(tmp_path):
    data = random_image(40, 30, bands=3)
    data[:, 3:5, 26:28] = 0  # nodata on every band: invalid
    return write_raster(tmp_path / "img.tif", data, nodata=0), data


def test_aligned_window_reads_bands_in_the_asked_order_and_pads_outside(image):
    path, data = image
    raster = capture_file(path)
    grid = Grid(raster.transform, raster.width, raster.height, raster.crs_wkt)
    with RasterioSource(path, (3, 1), grid).open() as reader:
        window, valid = reader.read(-2, 25, 8, 8)
    assert window.shape == (2, 8, 8)
    inside = data[[2, 0], 0:6, 25:30]
    assert (window[:, 2:, :5] == inside).all()
    assert not valid[:2].any() and not valid[:, 5:].any()  # outside the raster
    expected_valid = ~np.all(data[[2, 0], 0:6, 25:30] == 0, axis=0)  # nodata on every band read
    assert (valid[2:, :5] == expected_valid).all()


def test_coarser_grid_is_resampled(image):
    path, data = image
    raster = capture_file(path)
    coarse = Grid(Affine(0.4, 0.0, raster.transform.c, 0.0, -0.4, raster.transform.f), 15, 20, raster.crs_wkt)
    with RasterioSource(path, (1,), coarse).open() as reader:
        window, valid = reader.read(0, 0, 20, 15)
    assert window.shape == (1, 20, 15) and valid.any()
    # The area average of a 2x2 block, where all four pixels are data.
    block = data[0, 4:6, 4:6].astype(float)
    if (block > 0).all():
        assert window[0, 2, 2] == pytest.approx(block.mean(), abs=1.0)


def test_capture_file_and_bad_bands(image, tmp_path):
    path, _ = image
    raster = capture_file(path)
    assert (raster.width, raster.height, raster.band_count) == (30, 40, 3)
    assert raster.band_labels == ("red", "green", "blue")  # GDAL makes 3-band bytes RGB
    grid = Grid(raster.transform, 30, 40, raster.crs_wkt)
    with pytest.raises(InputError, match=r"band\(s\) 4 but the raster has 3"):
        RasterioSource(path, (1, 4), grid)
    with pytest.raises(InputError, match="Cannot open raster"):
        capture_file(tmp_path / "missing.tif")
