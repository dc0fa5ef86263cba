"""flair:rank_labels: polygons from a real FLAIR mask, a prediction wrong on known polygons."""

import geopandas as gpd
import numpy as np
import pytest
from eval_helpers import image_crs, polygons_from_mask, read_mask, write_raster
from qgis.core import QgsProcessingException
from rasterio.features import rasterize

from flair_qgis.core.engine.grid import affine_xy


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
    scored = ranked[ranked["pixels"] > 0]
    assert (scored.iloc[2:]["agreement"] == 1).all()
    assert scored["pixels"].sum() == 512 * 512
    # Every polygon against an independent count: its pixels (rasterised one by one), the
    # majority of the prediction over them and the share equal to the label.
    expected = independent_counts(polygons, pred, transform)
    for _, row in ranked.iterrows():
        pixels, majority, agreement = expected[row["source_fid"]]
        assert row["pixels"] == pixels
        if pixels:
            assert row["predicted"] == majority and row["agreement"] == pytest.approx(agreement)
            assert row["disagreeing_px"] == round(pixels * (1 - agreement))


def independent_counts(polygons: gpd.GeoDataFrame, pred: np.ndarray, transform) -> dict:
    """Per polygon (by its fid, 1-based as in the GeoPackage): pixels, majority class, agreement."""
    counts = {}
    for position, (_, polygon) in enumerate(polygons.iterrows()):
        inside = rasterize([(polygon.geometry, 1)], out_shape=pred.shape, transform=transform).astype(bool)
        values = pred[inside]
        if values.size == 0:
            counts[position + 1] = (0, None, None)
            continue
        majority = int(np.bincount(values).argmax())  # ties to the smaller value
        counts[position + 1] = (int(values.size), majority, float(np.mean(values == polygon["code"])))
    return counts


def test_ties_are_ordered_by_the_area_in_disagreement(run_alg, tmp_path):
    """Without confidence, wholly contradicted polygons all have suspicion 1: the larger area first;
    equal partial disagreement shares: the larger disagreeing area first."""
    from shapely.geometry import box

    mask, profile = read_mask("000473")
    transform = profile["transform"]
    x0, y0 = affine_xy(transform, 0, 0)
    # Squares of 10, 30 and 20 px (0.2 m pixels) labelled 1, a prediction of 2 everywhere, and two
    # squares half right (suspicion 0.5) of 10 and 40 px.
    sides_px = {"a": 10, "b": 30, "c": 20, "d": 10, "e": 40}
    offsets = {"a": 0, "b": 50, "c": 100, "d": 200, "e": 300}
    geoms = [box(x0 + 0.2 * offsets[k], y0 - 0.2 * s, x0 + 0.2 * (offsets[k] + s), y0) for k, s in sides_px.items()]
    labels = gpd.GeoDataFrame({"code": [1] * 5, "name": list(sides_px)}, geometry=geoms, crs=image_crs())
    labels.to_file(tmp_path / "labels.gpkg", driver="GPKG")
    pred = np.full(mask.shape, 2, dtype=np.uint8)
    for key in ("d", "e"):  # the top half of these squares is predicted as the label
        side = sides_px[key]
        pred[: side // 2, offsets[key] : offsets[key] + side] = 1
    pred_path = write_raster(tmp_path / "pred.tif", pred, profile, crs=image_crs())
    run_alg("flair:rank_labels", {"PREDICTION": str(pred_path), "REFERENCE": str(tmp_path / "labels.gpkg"),
                                  "REFERENCE_FIELD": "code", "OUTPUT": str(tmp_path / "ranked.gpkg")})  # fmt: skip
    ranked = gpd.read_file(tmp_path / "ranked.gpkg")
    names = dict(zip(ranked["source_fid"], ranked["suspicion"]))
    assert list(ranked["source_fid"]) == [2, 3, 1, 5, 4]  # b, c, a (suspicion 1), then e, d (0.5)
    assert list(ranked["disagreeing_px"]) == [900, 400, 100, 800, 50]
    assert names[2] == names[3] == names[1] == 1.0 and names[5] == names[4] == 0.5
    assert len(set(zip(ranked["suspicion"], ranked["disagreeing_px"]))) == 5


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


@pytest.mark.parametrize("with_confidence", [False, True])
def test_demo_patch_top_ten_are_distinct(run_alg, tmp_path, with_confidence):
    """The issue's case: IMG_024577 segmented by the bundled demo model, its mask as 38 polygons.
    Without confidence 15 polygons are wholly contradicted (suspicion 1.00): the area in
    disagreement orders them, and no two of the top ten share a (suspicion, area)."""
    from conftest import FLAIR_DATA, REPO

    image = tmp_path / "IMG_024577.tif"
    image.write_bytes((FLAIR_DATA / "IMG_024577.tif").read_bytes())
    seg = run_alg("flair:segment", {"INPUT": str(image), "MODEL": str(REPO / "resources/models/flair-demo-unet.onnx"),
                                    "OUTPUT": str(tmp_path / "classes.tif"),
                                    "OUTPUT_CONFIDENCE": str(tmp_path / "confidence.tif")})  # fmt: skip
    mask, profile = read_mask("024577")
    gpkg = polygons_from_mask(mask, profile["transform"], image_crs(), tmp_path / "labels.gpkg")
    params = {"PREDICTION": seg["OUTPUT"], "REFERENCE": str(gpkg), "REFERENCE_FIELD": "code", "PROTOCOL": "flair1",
              "OUTPUT": str(tmp_path / "ranked.gpkg")}  # fmt: skip
    if with_confidence:
        params["CONFIDENCE"] = seg["OUTPUT_CONFIDENCE"]
    run_alg("flair:rank_labels", params)
    ranked = gpd.read_file(tmp_path / "ranked.gpkg")
    assert len(ranked) == 38
    top = ranked.head(10)
    assert len(set(zip(top["suspicion"], top["disagreeing_px"]))) == 10
    keys = list(zip(-ranked["suspicion"].fillna(-1), -ranked["disagreeing_px"], -ranked["pixels"]))
    assert keys == sorted(keys)
    if not with_confidence:
        assert (ranked["suspicion"] == 1.0).sum() >= 10
