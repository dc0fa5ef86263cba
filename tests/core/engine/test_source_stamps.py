"""Every file behind a raster, stamped once per run: VRT sources placed on the tile grid, content
hashed only for small files, remote sources told apart."""

from __future__ import annotations

import os

import numpy as np
import pytest
import rasterio
from affine import Affine
from rasters import write_raster

from flair_qgis.core.engine.grid import Grid
from flair_qgis.core.engine.source_stamps import describe_source_files, file_stamp, is_remote


def _vrt_of(folder, pieces: int, size_px: int = 16):
    """A VRT over ``pieces`` x ``pieces`` tiny GeoTIFFs, row-major."""
    from osgeo import gdal

    files = []
    for i in range(pieces):
        for j in range(pieces):
            data = np.full((1, size_px, size_px), (i * pieces + j) % 256, dtype=np.uint8)  # numpy 2 refuses 256
            origin = (600000.0 + j * size_px * 0.2, 6800000.0 - i * size_px * 0.2)
            files.append(str(write_raster(folder / f"t_{i:02d}_{j:02d}.tif", data, origin=origin)))
    vrt = folder / "m.vrt"
    gdal.BuildVRT(str(vrt), files).FlushCache()
    return vrt, files


def _grid(path) -> Grid:
    with rasterio.open(path) as src:
        return Grid(src.transform, src.width, src.height, src.crs.to_wkt())


def test_a_vrt_of_hundreds_of_tiles_is_stamped_by_stat_when_big_and_each_tile_reads_its_own(tmp_path):
    vrt, files = _vrt_of(tmp_path, 20)  # 400 sources
    grid = _grid(vrt)
    described = describe_source_files(str(vrt), grid, hash_max_bytes=0)  # every file "big": stat only
    assert len(described.parts) == 400
    assert all(":b2=" not in part.stamp for part in described.parts)
    hashed = describe_source_files(str(vrt), grid)
    assert all(":b2=" in part.stamp for part in hashed.parts)  # small files: content too
    part = {p.path: p for p in described.parts}[files[21]]  # row 1, col 1
    assert part.window == (16.0, 16.0, 32.0, 32.0)
    assert described.tile_stamps(16, 16, 16, 16) == [part.stamp]
    assert len(described.tile_stamps(8, 8, 16, 16)) == 4
    assert described.identity.startswith(f"file:{vrt}|grid-crs:")


def test_statistics_gdal_writes_into_a_vrt_leave_its_identity(tmp_path):
    import subprocess

    vrt, _ = _vrt_of(tmp_path, 2)
    grid = _grid(vrt)
    before = describe_source_files(str(vrt), grid).identity
    subprocess.run(["gdalinfo", "-stats", "-hist", str(vrt)], check=True, capture_output=True)
    assert "STATISTICS_MEAN" in vrt.read_text()
    assert describe_source_files(str(vrt), grid).identity == before


def test_a_resampled_source_concerns_the_tiles_a_kernel_reaches(tmp_path):
    vrt, files = _vrt_of(tmp_path, 2)
    with rasterio.open(vrt) as src:
        t = src.transform
        coarse = Grid(Affine(t.a * 2, t.b * 2, t.c, t.d * 2, t.e * 2, t.f), 16, 16, src.crs.to_wkt())  # 0.4 m
    part = {p.path: p for p in describe_source_files(str(vrt), coarse).parts}[files[3]]
    assert part.window == (6.0, 6.0, 18.0, 18.0)  # (8, 8, 16, 16) widened by 2 px


def test_file_stamp_follows_size_mtime_and_small_content(tmp_path):
    path = tmp_path / "f.bin"
    path.write_bytes(b"a" * 100)
    os.utime(path, ns=(1, 1))
    first = file_stamp(str(path))
    path.write_bytes(b"b" * 100)
    os.utime(path, ns=(1, 1))
    assert file_stamp(str(path)) != first
    assert file_stamp(str(path), hash_max_bytes=10) == f"{path}:100:1"
    assert file_stamp(str(tmp_path / "gone.tif")).endswith(":missing")


@pytest.mark.parametrize(
    ("path", "uri", "remote"),
    [
        ("/data/ortho.vrt", "", False),
        ("/vsicurl/https://example.org/cog.tif", "", True),
        ("/vsis3/bucket/cog.tif", "", True),
        (None, "wms:type=xyz&url=https://tile.example.org/{z}/{x}/{y}.png", True),
        (None, "postgresraster:dbname='ign' table=ortho", True),
    ],
)
def test_remote_sources_are_told_apart(path, uri, remote):
    assert is_remote(path, uri) is remote
