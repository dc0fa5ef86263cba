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
from shapely.geometry import Polygon
from shapely.geometry.polygon import orient
from vector_helpers import overlap_area, rasterized, read_polygons, same_polygons, union_area

from flair_qgis.core.errors import Canceled, InputError
from flair_qgis.core.vectorize.inputs import VectorizeRequest
from flair_qgis.core.vectorize.job import vectorize
from flair_qgis.core.vectorize.labels import label_band
from flair_qgis.core.vectorize.simplify import simplify_coverage
from flair_qgis.core.vectorize.trace import trace_polygons

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


@pytest.mark.parametrize("name", ["synthetic", "one region"])
def test_simplified_coverage_of_corner_touches_and_a_lone_region(tmp_path, name):
    """Rings touching at one corner keep that point (a junction); a raster of one region has one ring."""
    values = synthetic() if name == "synthetic" else np.full((30, 40), 7, dtype=np.uint8)
    path = _write(tmp_path / "s.tif", values)
    frame = _run(path, tmp_path / "s.gpkg", simplify_m=0.6)
    assert frame.geometry.is_valid.all()
    assert overlap_area(frame) == pytest.approx(0, abs=1e-6)
    assert union_area(frame) == pytest.approx((values > 0).sum() * PIXEL_M2)
    if name == "one region":
        assert len(frame) == 1 and frame.geometry.iloc[0].equals(frame.geometry.iloc[0].envelope)


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


def _retraced(polygon: Polygon) -> Polygon:
    """The same polygon with every ring reversed and started one vertex later."""

    def ring(coords):
        points = list(coords)[:-1][::-1]
        points = points[1:] + points[:1]
        return [*points, points[0]]

    return Polygon(ring(polygon.exterior.coords), [ring(hole.coords) for hole in polygon.interiors])


def test_simplification_does_not_depend_on_how_rings_are_traced(mask_path):
    """GDAL 3.6 and GDAL >= 3.7 trace rings in opposite directions; a region dissolved across a band
    seam is traced anew: the simplified coverage must be the same whichever way."""
    _, values = mask_path
    labels, _ = label_band(values, values > 0)
    shapes = [shape for _, shape in trace_polygons(labels, 0)]
    once = simplify_coverage(shapes, 3.0)
    again = simplify_coverage([_retraced(shape) for shape in shapes], 3.0)
    assert sum(shape is not None for shape in once) > 20
    assert all((a is None and b is None) or a.equals(b) for a, b in zip(once, again))


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
