"""The vectorize job owns its output: canceled at any point, even once the layer is in place, it
leaves the folder as it was (every file of a shapefile), and says what it removed."""

from __future__ import annotations

import os

import numpy as np
import pytest
import rasterio
from affine import Affine

from flair_qgis.core.errors import Canceled
from flair_qgis.core.vectorize import VectorizeRequest, vectorize


@pytest.fixture
def class_map(tmp_path):
    (tmp_path / "in").mkdir()
    (tmp_path / "out").mkdir()
    values = np.repeat(np.repeat(np.random.default_rng(3).integers(1, 5, (8, 8)), 8, axis=0), 8, axis=1)
    path = tmp_path / "in" / "classes.tif"
    profile = {
        "driver": "GTiff",
        "width": 64,
        "height": 64,
        "count": 1,
        "dtype": "uint8",
        "nodata": 0,
        "crs": "EPSG:2154",
        "transform": Affine(0.2, 0, 650000.0, 0, -0.2, 6860000.0),
    }
    with rasterio.open(path, "w", **profile) as dst:
        dst.write(values.astype(np.uint8), 1)
    return str(path), tmp_path / "out"


@pytest.mark.parametrize("name", ["polygons.gpkg", "polygons.shp"])
@pytest.mark.parametrize("threshold", [0.0, 50.0, 100.0])
def test_a_cancel_leaves_the_folder_as_it_was(class_map, name, threshold):
    source, out = class_map
    (out / "notes.txt").write_text("the user's")
    seen: list[float] = []
    request = VectorizeRequest(source, str(out / name), min_area_m2=1.0)
    with pytest.raises(Canceled) as err:
        vectorize(request, lambda: bool(seen) and seen[-1] >= threshold, seen.append)
    assert os.listdir(out) == ["notes.txt"]
    if threshold == 100.0:  # the layer was in place: every one of its files is removed and named
        removed = {os.path.basename(p) for p in err.value.removed}
        assert removed == (
            {"polygons.gpkg"}
            if name.endswith(".gpkg")
            else {"polygons.shp", "polygons.dbf", "polygons.shx", "polygons.prj"}
        )
        assert str(err.value).startswith("Canceled by the user; removed what the run had written: polygons.")


def test_a_cancel_before_the_layer_keeps_an_older_file_at_the_output(class_map):
    source, out = class_map
    (out / "polygons.gpkg").write_bytes(b"the user's older polygons")
    with pytest.raises(Canceled) as err:
        vectorize(VectorizeRequest(source, str(out / "polygons.gpkg")), lambda: True)
    assert err.value.removed == () and (out / "polygons.gpkg").read_bytes() == b"the user's older polygons"
