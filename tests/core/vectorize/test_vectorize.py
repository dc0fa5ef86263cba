"""core.vectorize on real FLAIR masks and a synthetic map: exact polygons, one coverage after
each cleaning option, areas, seams, cancel and bad input."""

from __future__ import annotations

import os

import numpy as np
import pytest
import rasterio
from affine import Affine
from conftest import FLAIR_DATA
from pyproj import Geod
from shapely.geometry.polygon import orient
from vector_helpers import overlap_area, rasterized, read_polygons, same_polygons, union_area

from flair_qgis.core.errors import Canceled, InputError
from flair_qgis.core.vectorize.inputs import VectorizeRequest
from flair_qgis.core.vectorize.job import vectorize

PATCH = "024577"
PIXEL_M2 = 0.2 * 0.2


def _write(path, array, transform=None, crs="EPSG:2154", nodata=0, dtype=None):
    transform = transform or Affine(0.2, 0, 800000.0, 0, -0.2, 6500000.0)
    with rasterio.open(
        path, "w", driver="GTiff", width=array.shape[1], height=array.shape[0], count=1,
        dtype=dtype or array.dtype.name, crs=crs, transform=transform, nodata=nodata,
    ) as dst:  # fmt: skip
        dst.write(array, 1)
    return str(path)


@pytest.fixture
def mask_path(tmp_path):
    """A real FLAIR mask with a nodata hole and a nodata border strip."""
    with rasterio.open(FLAIR_DATA / f"MSK_{PATCH}.tif") as src:
        values = src.read(1)
        transform = src.transform
    values[200:260, 300:340] = 0
    values[:, :5] = 0
    return _write(tmp_path / "mask.tif", values, transform=transform), values


def _run(source, out, **options):
    vectorize(VectorizeRequest(source, str(out), **options))
    return read_polygons(out)


def synthetic() -> np.ndarray:
    """Holes, islands, diagonal one-pixel bridges and two regions touching at a corner only."""
    a = np.full((40, 48), 1, dtype=np.uint8)
    a[5:15, 5:15] = 2
    a[8:11, 8:11] = 3  # island in an island
    a[9, 9] = 1  # hole in the island's island
    for k in range(12):  # a diagonal line of one-pixel steps: 12 regions of class 4
        a[20 + k, 20 + k] = 4
    a[2, 30], a[3, 31] = 5, 5  # touch at a corner: two regions
    a[30:38, 2:10] = 0  # nodata
    a[33:35, 5:7] = 6  # island inside nodata
    return a


def test_real_mask_polygons_are_exact_and_areas_match(mask_path, tmp_path):
    path, values = mask_path
    frame = _run(path, tmp_path / "out.gpkg")
    assert np.array_equal(rasterized(frame, path), values)  # nodata stays out: 0 where no polygon
    for value in np.unique(values[values > 0]).tolist():
        assert frame.loc[frame["class"] == value, "area_m2"].sum() == pytest.approx((values == value).sum() * PIXEL_M2)
    assert frame.geometry.is_valid.all()
    assert np.allclose(frame["area_m2"], frame.geometry.area)
    assert frame["source"].unique().tolist() == ["mask.tif"]
    assert frame["created"].str.match(r"\d{4}-\d\d-\d\dT").all()


def test_synthetic_map_exact_with_corner_regions_apart(tmp_path):
    values = synthetic()
    path = _write(tmp_path / "syn.tif", values)
    frame = _run(path, tmp_path / "syn.gpkg")
    assert np.array_equal(rasterized(frame, path), values)
    assert (frame["class"] == 4).sum() == 12
    assert (frame["class"] == 5).sum() == 2
    assert (frame["class"] == 3).sum() == 1 and (frame["class"] == 6).sum() == 1
    assert len(frame.loc[frame["class"] == 2].iloc[0].geometry.interiors) == 1
    assert overlap_area(frame) == 0
    assert union_area(frame) == pytest.approx((values > 0).sum() * PIXEL_M2)


@pytest.mark.parametrize(
    "options",
    [{}, {"min_area_m2": 2.0}, {"fill_holes_m2": 1.0}, {"simplify_m": 0.5}, {"min_area_m2": 2.0, "simplify_m": 1.0}],
)
def test_one_coverage_after_each_cleaning(mask_path, tmp_path, options):
    path, values = mask_path
    frame = _run(path, tmp_path / "out.gpkg", **options)
    valid_m2 = (values > 0).sum() * PIXEL_M2
    assert frame.geometry.is_valid.all()
    assert overlap_area(frame) == pytest.approx(0, abs=1e-6)
    assert union_area(frame) == pytest.approx(valid_m2)
    assert frame.geometry.area.sum() == pytest.approx(valid_m2)
    if options.get("min_area_m2") and not options.get("simplify_m"):
        assert frame["area_m2"].min() >= options["min_area_m2"]
    if not options.get("simplify_m"):
        assert frame["area_m2"].sum() == pytest.approx(valid_m2)
        assert np.allclose(frame["area_m2"], frame.geometry.area)


def test_min_area_merges_into_longest_neighbour(tmp_path):
    values = np.full((20, 20), 1, dtype=np.uint8)
    values[:, 10:] = 2
    values[5:7, 8:10] = 3  # 4 px sharing 6 edges with class 1 and 2 with class 2: class 1 gets them
    path = _write(tmp_path / "m.tif", values)
    frame = _run(path, tmp_path / "m.gpkg", min_area_m2=0.2)
    assert sorted(frame["class"]) == [1, 2]
    assert frame.loc[frame["class"] == 1, "area_m2"].iloc[0] == pytest.approx(200 * PIXEL_M2)


def test_fill_holes_absorbs_enclosed_regions_only(tmp_path):
    values = synthetic()
    path = _write(tmp_path / "h.tif", values)
    frame = _run(path, tmp_path / "h.gpkg", fill_holes_m2=0.5)
    assert (frame["class"] == 3).sum() == 0  # 8 px island of class 3 (0.32 m²) inside class 2
    assert len(frame.loc[frame["class"] == 2].iloc[0].geometry.interiors) == 0
    assert (frame["class"] == 6).sum() == 1  # an island in nodata touches no region: kept


@pytest.mark.parametrize("options", [{}, {"min_area_m2": 2.0}, {"fill_holes_m2": 1.0}, {"simplify_m": 0.6}])
def test_banded_run_equals_whole_raster_run(mask_path, tmp_path, options):
    path, _ = mask_path
    whole = _run(path, tmp_path / "whole.gpkg", **options)
    banded = _run(path, tmp_path / "banded.gpkg", band_px=512 * 37, **options)
    assert same_polygons(whole, banded)


def test_geographic_crs_area_is_geodesic(tmp_path):
    values = synthetic()
    transform = Affine(2e-6, 0, 2.35, 0, -2e-6, 48.85)
    path = _write(tmp_path / "geo.tif", values, transform=transform, crs="EPSG:4326")
    frame = _run(path, tmp_path / "geo.gpkg")
    geod = Geod(ellps="WGS84")
    for geom, area in zip(frame.geometry, frame["area_m2"]):
        assert area == pytest.approx(geod.geometry_area_perimeter(orient(geom, 1.0))[0], rel=1e-6)


def test_cancel_leaves_nothing(mask_path, tmp_path):
    path, _ = mask_path
    out = tmp_path / "out.gpkg"
    calls = []
    with pytest.raises(Canceled):
        vectorize(
            VectorizeRequest(path, str(out), band_px=512 * 64), is_canceled=lambda: calls.append(1) or len(calls) > 3
        )
    assert os.listdir(tmp_path) == ["mask.tif"]


def test_bad_input_is_refused_and_nothing_written(tmp_path):
    floats = _write(tmp_path / "f.tif", np.random.default_rng(0).random((10, 10)).astype("float32"), nodata=None)
    with pytest.raises(InputError, match="continuous"):
        vectorize(VectorizeRequest(floats, str(tmp_path / "f.gpkg")))
    many = _write(tmp_path / "many.tif", np.arange(120 * 100, dtype="int32").reshape(120, 100), nodata=None)
    with pytest.raises(InputError, match="10,000 distinct values"):
        vectorize(VectorizeRequest(many, str(tmp_path / "many.gpkg")))
    same = _write(tmp_path / "s.tif", synthetic())
    with pytest.raises(InputError, match="OUTPUT is the PREDICTION"):
        vectorize(VectorizeRequest(same, same))
    with pytest.raises(InputError, match="ending in"):
        vectorize(VectorizeRequest(same, str(tmp_path / "s.xyz")))
    assert sorted(os.listdir(tmp_path)) == ["f.tif", "many.tif", "s.tif"]
