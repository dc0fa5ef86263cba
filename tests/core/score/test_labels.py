"""core.score.labels.rank_labels called directly: counts per polygon against hand-made expectations,
majority ties, ignored values, confidence weighting, cancel (nothing written)."""

from __future__ import annotations

import geopandas as gpd
import numpy as np
import pytest
import rasterio
from affine import Affine
from shapely.geometry import box

from flair_qgis.core.errors import Canceled
from flair_qgis.core.score.labels import rank_labels
from flair_qgis.core.score.protocols import get_protocol

TRANSFORM = Affine(1.0, 0.0, 0.0, 0.0, -1.0, 10.0)  # 1 m pixels, 10 x 10 px, top-left (0, 10)


def _raster(path, array, dtype="uint8", nodata=None):
    with rasterio.open(path, "w", driver="GTiff", width=10, height=10, count=1, dtype=dtype, crs="EPSG:2154",
                       transform=TRANSFORM, nodata=nodata) as dst:  # fmt: skip
        dst.write(array.astype(dtype), 1)
    return path


def _labels() -> gpd.GeoDataFrame:
    # A: columns 0..3 of rows 0..4 (20 px), label 1. B: columns 5..9 of rows 0..1 (10 px), label 2.
    # C: columns 0..9 of rows 6..9 (40 px), label 3. D: outside the raster, label 1.
    geoms = [box(0, 5, 4, 10), box(5, 8, 10, 10), box(0, 0, 10, 4), box(100, 100, 110, 110)]
    return gpd.GeoDataFrame({"code": [1, 2, 3, 1]}, geometry=geoms, crs="EPSG:2154")


def _prediction() -> np.ndarray:
    pred = np.zeros((10, 10), dtype=np.uint8)
    pred[0:5, 0:4] = 1  # A agrees everywhere...
    pred[0:2, 0:4] = 4  # ...but 8 of its 20 px are 4
    pred[0:2, 5:7] = 5  # B: 4 px of 5, 2 px of 6, 4 px of 7 -> tie 5 / 7, smaller wins
    pred[0:2, 7:8] = 6
    pred[0:2, 8:10] = 7
    pred[6:10, :] = 9  # C wholly contradicted
    return pred


def test_counts_majority_and_order(tmp_path):
    pred = _raster(tmp_path / "pred.tif", _prediction())
    out = rank_labels(pred, _labels(), "code", tmp_path / "ranked.gpkg")
    by_fid = {int(r["source_fid"]): r for _, r in out.iterrows()}
    assert by_fid[0]["pixels"] == 20 and by_fid[0]["agreement"] == pytest.approx(12 / 20)
    assert by_fid[0]["predicted"] == 1 and by_fid[0]["disagreeing_px"] == 8
    assert by_fid[1]["pixels"] == 10 and by_fid[1]["agreement"] == 0 and by_fid[1]["predicted"] == 5
    assert by_fid[2]["pixels"] == 40 and by_fid[2]["predicted"] == 9 and by_fid[2]["disagreeing_px"] == 40
    assert by_fid[3]["pixels"] == 0 and np.isnan(by_fid[3]["agreement"])
    # Suspicion 1: C (40 px in disagreement) before B (10 px); then A; the unscored polygon last.
    assert list(out["source_fid"]) == [2, 1, 0, 3] and list(out["rank"]) == [1, 2, 3, 4]
    written = gpd.read_file(tmp_path / "ranked.gpkg")
    assert list(written["source_fid"]) == [2, 1, 0, 3]


def test_confidence_weights_and_ignored_values(tmp_path):
    pred = _raster(tmp_path / "pred.tif", _prediction())
    confidence = np.full((10, 10), 0.5, np.float32)
    confidence[0:2, 5:10] = 0.9
    conf = _raster(tmp_path / "conf.tif", confidence, dtype="float32")
    protocol = get_protocol("custom", ignore=[4])
    out = rank_labels(pred, _labels(), "code", tmp_path / "r.gpkg", confidence_path=conf, protocol=protocol)
    by_fid = {int(r["source_fid"]): r for _, r in out.iterrows()}
    # The 8 px predicted as the ignored value 4 are not scored: A agrees on all it keeps.
    assert by_fid[0]["pixels"] == 12 and by_fid[0]["agreement"] == 1.0 and by_fid[0]["suspicion"] == 0.0
    assert by_fid[1]["mean_confidence"] == pytest.approx(0.9) and by_fid[1]["suspicion"] == pytest.approx(0.9)
    assert by_fid[2]["suspicion"] == pytest.approx(0.5)
    assert list(out["source_fid"][:2]) == [1, 2]


def test_cancel_writes_nothing(tmp_path):
    pred = _raster(tmp_path / "pred.tif", _prediction())
    with pytest.raises(Canceled):
        rank_labels(pred, _labels(), "code", tmp_path / "r.gpkg", is_canceled=lambda: True)
    assert not (tmp_path / "r.gpkg").exists()
