"""core.score.evaluate.score called directly: one entry for raster and polygon references, windows
covering the grid exactly, class alignment in the report, nothing written on refusal or cancel."""

from __future__ import annotations

import geopandas as gpd
import numpy as np
import pytest
import rasterio
from affine import Affine
from rasterio.features import shapes
from shapely.geometry import shape

from flair_qgis.core.engine.geotiff import AtomicGeoTiff
from flair_qgis.core.engine.grid import Grid
from flair_qgis.core.errors import Canceled, InputError
from flair_qgis.core.nomenclature import FLAIR1_MODEL_CLASSES
from flair_qgis.core.score.evaluate import Reference, each_window, prediction_grid, score, windows
from flair_qgis.core.score.protocols import get_protocol

TRANSFORM = Affine(0.2, 0.0, 650000.0, 0.0, -0.2, 6860000.0)


def _write(path, array, classes=()):
    grid = Grid(TRANSFORM, array.shape[1], array.shape[0], rasterio.crs.CRS.from_epsg(2154).to_wkt())
    out = AtomicGeoTiff(str(path), grid, "uint8", 255, 64, classes=classes)
    out.open()
    out.write(array, 0, 0)
    out.commit()
    return str(path)


@pytest.fixture
def pair(tmp_path):
    rng = np.random.default_rng(5)
    ref = np.repeat(np.repeat(rng.integers(1, 14, (6, 8)), 16, axis=0), 16, axis=1).astype(np.uint8)
    pred = ref.copy()
    pred[rng.random(ref.shape) < 0.3] = 4
    return tmp_path, ref, pred


def test_raster_and_polygon_references_agree(pair):
    tmp, ref, pred = pair
    pred_path, ref_path = _write(tmp / "pred.tif", pred), _write(tmp / "ref.tif", ref)
    polygons = gpd.GeoDataFrame(
        {"code": [int(v) for _, v in shapes(ref, transform=TRANSFORM)]},
        geometry=[shape(g) for g, _ in shapes(ref, transform=TRANSFORM)], crs="EPSG:2154",
    )  # fmt: skip
    protocol = get_protocol("flair1")
    by_raster = score(pred_path, Reference(raster_path=ref_path), protocol)
    by_polygons = score(pred_path, Reference(polygons=polygons, field="code", name="labels"), protocol)
    for key in ("miou", "oa", "pixels_evaluated", "confusion_matrix"):
        assert getattr(by_raster.scores, key) == getattr(by_polygons.scores, key)
    assert by_raster.scores.pixels_evaluated == ref.size and by_polygons.reference == "labels"
    assert by_raster.reference == ref_path and by_raster.reference_resampled is False
    assert by_polygons.reference_field == "code" and by_polygons.reference_resampled is None
    assert by_raster.scores.oa == pytest.approx(np.mean(ref == pred))
    assert by_raster.class_alignment.how == "values"


def test_deepness_class_map_is_aligned_in_the_report(pair):
    tmp, ref, pred = pair
    deepness = [c.__class__(i, c.name, c.color) for i, c in enumerate(FLAIR1_MODEL_CLASSES)]
    indices = _write(tmp / "idx.tif", pred - 1, classes=deepness)
    codes = _write(tmp / "codes.tif", pred)
    ref_path = Reference(raster_path=_write(tmp / "ref.tif", ref))
    aligned, direct = score(indices, ref_path, get_protocol("flair1")), score(codes, ref_path, get_protocol("flair1"))
    assert aligned.scores.confusion_matrix == direct.scores.confusion_matrix
    assert aligned.scores.miou == direct.scores.miou
    assert aligned.class_alignment.how == "names" and aligned.class_alignment.mapping[0] == 1


def test_windows_cover_the_grid_once():
    grid = Grid(TRANSFORM, 5000, 700, None)
    seen = np.zeros((700, 5000), dtype=np.int64)
    for row, col, rows, cols in windows(grid, window_px=1_000_000):
        seen[row : row + rows, col : col + cols] += 1
    assert (seen == 1).all()
    progress = []
    assert len(list(each_window(grid, 1_000_000, on_progress=progress.append))) == len(progress)
    assert progress[-1] == 100.0


def test_undeclared_values_write_no_error_map(pair):
    tmp, ref, pred = pair
    pred[0, 0] = 200
    pred_path, ref_path = _write(tmp / "pred.tif", pred), _write(tmp / "ref.tif", ref)
    with pytest.raises(InputError, match=r"prediction value\(s\) 200 \(1 px\)"):
        score(pred_path, Reference(raster_path=ref_path), get_protocol("flair1"), error_map_path=str(tmp / "e.tif"))
    assert sorted(p.name for p in tmp.iterdir()) == ["pred.tif", "ref.tif"]


def test_cancel_and_extent(pair):
    tmp, ref, pred = pair
    pred_path, ref_path = _write(tmp / "pred.tif", pred), _write(tmp / "ref.tif", ref)
    with pytest.raises(Canceled):
        score(pred_path, Reference(raster_path=ref_path), get_protocol("flair1"), is_canceled=lambda: True,
              error_map_path=str(tmp / "e.tif"))  # fmt: skip
    assert not (tmp / "e.tif").exists()
    extent = (650000.0, 6860000.0 - 16 * 0.2, 650000.0 + 32 * 0.2, 6860000.0)
    assert prediction_grid(pred_path, extent).width == 32
    part = score(pred_path, Reference(raster_path=ref_path), get_protocol("flair1"), extent=extent)
    assert part.scores.pixels_evaluated == 32 * 16
    assert part.scores.oa == pytest.approx(np.mean(ref[:16, :32] == pred[:16, :32]))
