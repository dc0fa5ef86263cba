"""flair:rank_labels: polygons from a real FLAIR mask, a prediction wrong on known polygons."""

import geopandas as gpd
import numpy as np
import pytest
from eval_helpers import image_crs, polygons_from_mask, read_mask, write_raster
from qgis.core import QgsProcessingException
from rasterio.features import rasterize


def test_rank_labels_orders_contradicted_polygons_first(run_alg, tmp_path):
    mask, profile = read_mask("024577")
    transform = profile["transform"]
    gpkg = polygons_from_mask(mask, transform, image_crs(), tmp_path / "labels.gpkg")
    polygons = gpd.read_file(gpkg)
    areas = polygons.geometry.area
    big = polygons[areas > areas.median()].index[:3].tolist()
    pred = mask.copy()
    conf = np.full(mask.shape, 0.6, np.float32)
    # Two polygons fully contradicted (class 12), with high and low confidence.
    for fid, c in zip(big[:2], (0.95, 0.4)):
        inside = rasterize([(polygons.geometry[fid], 1)], out_shape=mask.shape, transform=transform).astype(bool)
        pred[inside] = 12
        conf[inside] = c
    pred_path = write_raster(tmp_path / "pred.tif", pred, profile, nodata=255, crs=image_crs())
    conf_path = write_raster(tmp_path / "conf.tif", conf, profile, crs=image_crs(), dtype="float32")
    out = tmp_path / "ranked.gpkg"
    res = run_alg(
        "flair:rank_labels",
        {
            "PREDICTION": str(pred_path),
            "REFERENCE": str(gpkg),
            "REFERENCE_FIELD": "code",
            "CONFIDENCE": str(conf_path),
            "OUTPUT": str(out),
        },
    )
    ranked = gpd.read_file(out)
    assert res["POLYGONS"] == len(polygons) == len(ranked)
    assert res["DISAGREEING"] == 2
    # Most suspicious first: contradicted with confidence 0.95, then contradicted with 0.4.
    first, second = ranked.iloc[0], ranked.iloc[1]
    assert first["agreement"] == 0 and first["predicted"] == 12 and first["mean_confidence"] == pytest.approx(0.95)
    assert second["agreement"] == 0 and second["mean_confidence"] == pytest.approx(0.4)
    assert first["label"] == polygons.loc[big[0], "code"]
    assert list(ranked["rank"]) == list(range(1, len(ranked) + 1))
    # Independent check of one untouched polygon: agreement 1, majority = label, pixel count.
    other = ranked.iloc[-1]
    assert {"label", "predicted", "agreement", "pixels", "mean_confidence", "suspicion"} <= set(ranked.columns)
    scored = ranked[ranked["pixels"] > 0]
    assert (scored.iloc[2:]["agreement"] == 1).all()
    assert scored["pixels"].sum() == 512 * 512
    assert other is not None


def test_rank_labels_bad_field(run_alg, tmp_path):
    mask, profile = read_mask("000473")
    gpkg = polygons_from_mask(mask, profile["transform"], image_crs(), tmp_path / "labels.gpkg")
    pred_path = write_raster(tmp_path / "pred.tif", mask, profile, crs=image_crs())
    with pytest.raises(QgsProcessingException, match="no field 'nope'"):
        run_alg(
            "flair:rank_labels",
            {
                "PREDICTION": str(pred_path),
                "REFERENCE": str(gpkg),
                "REFERENCE_FIELD": "nope",
                "OUTPUT": str(tmp_path / "out.gpkg"),
            },
        )
    assert not (tmp_path / "out.gpkg").exists()
