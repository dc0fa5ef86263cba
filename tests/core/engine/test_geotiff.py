"""core.engine.geotiff: GeoTIFFs and text files written completely or not at all, class maps styled."""

from __future__ import annotations

import os

import numpy as np
import pytest
import rasterio
from affine import Affine

from flair_qgis.core.atomic import check_output_path, write_atomic, write_text_atomic
from flair_qgis.core.engine.geotiff import AtomicGeoTiff, nodata_for
from flair_qgis.core.engine.grid import Grid
from flair_qgis.core.errors import InputError
from flair_qgis.core.nomenclature import ClassInfo

GRID = Grid(Affine(0.2, 0.0, 600000.0, 0.0, -0.2, 6800000.0), 40, 32, None)
CLASSES = (ClassInfo(1, "building", "#db0e9a"), ClassInfo(5, "water", "#1553ae"))


def test_class_map_is_published_with_colours_names_and_style(tmp_path):
    path = str(tmp_path / "classes.tif")
    out = AtomicGeoTiff(path, GRID, "uint8", 255, 16, classes=CLASSES, description="class")
    out.open()
    data = np.where(np.arange(40 * 32).reshape(32, 40) % 2, 1, 5).astype(np.uint8)
    out.write(data[:16], 0, 0)
    out.write(data[16:], 16, 0)
    assert not os.path.exists(path)  # nothing published before commit
    out.commit()
    with rasterio.open(path) as src:
        assert (src.read(1) == data).all()
        assert src.nodata == 255 and src.descriptions == ("class",)
        assert src.colormap(1)[5][:3] == (0x15, 0x53, 0xAE)
    assert "water" in (tmp_path / "classes.qml").read_text()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_abort_leaves_the_target_as_it_was(tmp_path):
    target = tmp_path / "classes.tif"
    target.write_bytes(b"previous run")
    out = AtomicGeoTiff(str(target), GRID, "uint8", 255, 16)
    out.open()
    out.write(np.zeros((16, 16), np.uint8), 0, 0)
    out.abort()
    assert target.read_bytes() == b"previous run"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["classes.tif"]


def test_write_atomic_removes_its_temporary_file_on_error(tmp_path):
    target = tmp_path / "report.json"

    def fail(tmp: str) -> None:
        with open(tmp, "w") as handle:
            handle.write("half")
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError):
        write_atomic(str(target), fail)
    assert list(tmp_path.iterdir()) == []
    write_text_atomic(str(target), "{}")
    assert target.read_text() == "{}"


def test_output_path_checks(tmp_path):
    assert check_output_path(str(tmp_path / "a.tif")) == str(tmp_path / "a.tif")
    with pytest.raises(InputError, match="does not exist"):
        check_output_path(str(tmp_path / "missing" / "a.tif"))
    with pytest.raises(InputError, match="is a folder"):
        check_output_path(str(tmp_path))
    with pytest.raises(InputError, match="No confidence file"):
        check_output_path("", "confidence")


@pytest.mark.parametrize(
    ("values", "expected"),
    [([0, 1, 12], ("uint8", 255)), ([0, 255], ("uint16", 65535)), ([-1, 3], ("int32", -(2**31)))],
)
def test_nodata_is_a_value_no_class_uses(values, expected):
    assert nodata_for(values) == expected


@pytest.mark.parametrize("ours", [False, True], ids=["cache-of-qgis", "cache-of-our-process"])
def test_both_ways_of_writing_publish_the_same_compressed_file(ours, tmp_path, monkeypatch):
    # In QGIS the blocks are written uncompressed and compressed at commit by a GIL-free copy;
    # in a process whose GDAL cache is ours (scripts/flair, Dask workers) they are written compressed.
    from flair_qgis.core.engine import geotiff as writer

    monkeypatch.setattr(writer, "FLUSH_BYTES", 512)  # several flushes on this small grid
    monkeypatch.setattr(writer.GDAL_CACHE, "ours", ours)
    path = str(tmp_path / "classes.tif")
    out = AtomicGeoTiff(path, GRID, "uint8", 255, 16, classes=CLASSES, tags={"RUN": "x"})
    out.open()
    data = np.where(np.arange(40 * 32).reshape(32, 40) % 3, 1, 5).astype(np.uint8)
    for row in (0, 16):
        for col in (0, 16, 32):
            out.write(data[row : row + 16, col : col + 16], row, col)
    out.commit()
    with rasterio.open(path) as src:
        assert (src.read(1) == data).all()
        assert src.profile["compress"] == "zstd" and src.nodata == 255 and src.tags()["RUN"] == "x"
        assert src.colormap(1)[5][:3] == (0x15, 0x53, 0xAE)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
