"""flair:evaluate and the core evaluate functions on real FLAIR masks: every reference kind,
nodata, extent, error map, and bad input (clear message, nothing written)."""

import json
import os

import numpy as np
import pytest
import rasterio
from affine import Affine
from conftest import FLAIR_DATA
from eval_helpers import image_crs, independent_scores, perturb, polygons_from_mask, read_mask, write_raster
from qgis.core import QgsProcessingException

from flair_qgis.core.engine.grid import affine_xy
from flair_qgis.core.errors import InputError
from flair_qgis.core.score.evaluate import evaluate_rasters, evaluate_vector
from flair_qgis.core.score.protocols import get_protocol

PATCH = "024577"


@pytest.fixture
def case(tmp_path):
    mask, profile = read_mask(PATCH)
    pred = perturb(mask, 7, 0.2, list(range(1, 14)))
    pred_path = write_raster(tmp_path / "pred.tif", pred, profile, nodata=255, crs=image_crs())
    ref_path = tmp_path / "MSK.tif"
    ref_path.write_bytes((FLAIR_DATA / f"MSK_{PATCH}.tif").read_bytes())
    return {
        "mask": mask,
        "profile": profile,
        "pred": pred,
        "pred_path": pred_path,
        "ref_path": ref_path,
        "tmp": tmp_path,
    }


def _params(case, **extra):
    params = {
        "PREDICTION": str(case["pred_path"]),
        "REFERENCE": str(case["ref_path"]),
        "PROTOCOL": "flair1",
        "OUTPUT_REPORT": str(case["tmp"] / "report.json"),
    }
    params.update(extra)
    return params


def test_same_grid_raster_through_processing(run_alg, case):
    res = run_alg("flair:evaluate", _params(case, OUTPUT_ERROR_MAP=str(case["tmp"] / "errors.tif")))
    expected = independent_scores(case["mask"], case["pred"], "flair1")
    assert res["MIOU"] == pytest.approx(expected["miou"])
    assert res["OA"] == pytest.approx(expected["oa"])
    report = json.loads((case["tmp"] / "report.json").read_text())
    assert report["protocol"] == "flair1"
    assert report["pixels_evaluated"] == 512 * 512
    assert report["absent_class_score"] == "skip"
    assert set(report["classes"][0]) == {"value", "name", "iou", "precision", "recall", "f1", "support"}
    matrix = np.array(report["confusion_matrix"])
    assert matrix.shape == (13, 13) and matrix.sum() == 512 * 512
    assert report["confusion_labels"] == list(range(1, 14))
    for row in report["classes"]:
        assert (
            row["iou"] == pytest.approx(expected["ious"][row["value"]])
            if expected["ious"][row["value"]] is not None
            else row["iou"] is None
        )
    csv_lines = (case["tmp"] / "report.csv").read_text().splitlines()
    assert csv_lines[0] == "value,name,iou,precision,recall,f1,support" and len(csv_lines) == 1 + 12 + 2
    assert (case["tmp"] / "report.png").stat().st_size > 1000
    # Error map: 1 where right, 2 + index of the missed reference class where wrong.
    with rasterio.open(res["OUTPUT_ERROR_MAP"]) as src:
        errors = src.read(1)
        assert src.colormap(1)[1][:3] != src.colormap(1)[2][:3]
    ref13 = np.where(case["mask"] >= 13, 13, case["mask"])
    pred13 = np.where(case["pred"] >= 13, 13, case["pred"])
    assert ((errors == 1) == (ref13 == pred13)).all()
    wrong = ref13 != pred13
    assert (errors[wrong] == ref13[wrong].astype(int) - 1 + 2).all()
    qml = (case["tmp"] / "errors.qml").read_text()
    assert 'label="correct"' in qml and "missed: building (1)" in qml


def test_reprojected_reference_is_aligned_with_nearest(case):
    # The reference written at 0.4 m (every other pixel) in EPSG:2154: nearest resampling back to
    # the 0.2 m prediction grid gives each 2x2 block the class of its top-left pixel.
    mask, profile = case["mask"], case["profile"]
    coarse = mask[::2, ::2]
    t = profile["transform"]
    coarse_path = write_raster(
        case["tmp"] / "coarse.tif", coarse, profile, crs=image_crs(), transform=Affine(0.4, 0, t.c, 0, -0.4, t.f)
    )
    report = evaluate_rasters(case["pred_path"], coarse_path, get_protocol("flair1"))
    upsampled = np.repeat(np.repeat(coarse, 2, axis=0), 2, axis=1)
    expected = independent_scores(upsampled, case["pred"], "flair1")
    assert report.reference_resampled is True
    assert report.scores.miou == pytest.approx(expected["miou"])
    assert report.scores.pixels_evaluated == 512 * 512


def test_reference_in_another_crs(case):
    # Reference warped to Web Mercator with nearest: scoring it back must keep class values
    # (no interpolated codes) and agree with the original mask on most pixels.
    from rasterio.enums import Resampling
    from rasterio.warp import calculate_default_transform, reproject

    mask, profile = case["mask"], case["profile"]
    src_crs = image_crs()
    dst_crs = "EPSG:3857"
    bounds = rasterio.transform.array_bounds(512, 512, profile["transform"])
    transform, width, height = calculate_default_transform(src_crs, dst_crs, 512, 512, *bounds, resolution=0.25)
    warped = np.zeros((height, width), np.uint8)
    reproject(
        mask,
        warped,
        src_transform=profile["transform"],
        src_crs=src_crs,
        dst_transform=transform,
        dst_crs=dst_crs,
        resampling=Resampling.nearest,
        src_nodata=None,
        dst_nodata=0,
    )
    path = write_raster(case["tmp"] / "merc.tif", warped, profile, nodata=0, crs=dst_crs, transform=transform)
    perfect = write_raster(case["tmp"] / "perfect.tif", mask, profile, nodata=255, crs=src_crs)
    report = evaluate_rasters(perfect, path, get_protocol("flair1"))
    assert report.reference_resampled is True
    assert report.scores.oa > 0.97
    assert set(report.scores.confusion_labels) == set(range(1, 14))
    assert report.scores.pixels_evaluated > 0.9 * 512 * 512


def test_polygon_reference_equals_raster(run_alg, case):
    gpkg = polygons_from_mask(case["mask"], case["profile"]["transform"], image_crs(), case["tmp"] / "ref.gpkg")
    res = run_alg("flair:evaluate", _params(case, REFERENCE=str(gpkg), REFERENCE_FIELD="code"))
    expected = independent_scores(case["mask"], case["pred"], "flair1")
    assert res["MIOU"] == pytest.approx(expected["miou"])
    assert res["PIXELS"] == 512 * 512
    # Text field holding class numbers is accepted too.
    gpkg_text = polygons_from_mask(
        case["mask"], case["profile"]["transform"], image_crs(), case["tmp"] / "t.gpkg", as_text=True
    )
    report = evaluate_vector(case["pred_path"], gpkg_text, "code", get_protocol("flair1"))
    assert report.scores.miou == pytest.approx(expected["miou"])


def test_nodata_on_either_side_not_counted(case):
    pred = case["pred"].copy()
    pred[:64] = 255  # prediction nodata
    pred_path = write_raster(case["tmp"] / "p2.tif", pred, case["profile"], nodata=255, crs=image_crs())
    ref = case["mask"].copy()
    ref[:, :100] = 0
    ref_path = write_raster(case["tmp"] / "r2.tif", ref, case["profile"], nodata=0)
    report = evaluate_rasters(pred_path, ref_path, get_protocol("flair1"))
    keep = np.ones((512, 512), bool)
    keep[:64] = False
    keep[:, :100] = False
    expected = independent_scores(case["mask"][keep], case["pred"][keep], "flair1")
    assert report.scores.pixels_evaluated == keep.sum()
    assert report.scores.miou == pytest.approx(expected["miou"])


def test_extent_scores_only_that_area(run_alg, case):
    t = case["profile"]["transform"]
    x0, y0 = affine_xy(t, 0, 0)
    extent = f"{x0},{x0 + 0.2 * 100},{y0 - 0.2 * 50},{y0} [EPSG:2154]"
    res = run_alg("flair:evaluate", _params(case, EXTENT=extent))
    expected = independent_scores(case["mask"][:50, :100], case["pred"][:50, :100], "flair1")
    assert res["PIXELS"] == 5000
    assert res["MIOU"] == pytest.approx(expected["miou"])


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"PROTOCOL": "custom", "CLASSES": "1-5"}, r"does not declare reference value\(s\) 7 \(\d+ px\), 8"),
        ({"PROTOCOL": "flair1", "REFERENCE_FIELD": "missing", "REFERENCE": "polygons"}, "no field 'missing'"),
        ({"REFERENCE": "polygons_text", "REFERENCE_FIELD": "code"}, "not class values"),
        ({"REFERENCE": "points", "REFERENCE_FIELD": "code"}, "Point geometries"),
        ({"REFERENCE": "far"}, "do not overlap"),
        ({"EXTENT": "1,2,3,4 [EPSG:2154]"}, "does not intersect"),
    ],
)
def test_bad_input_clear_message_nothing_written(run_alg, case, change, message):
    import geopandas as gpd
    from shapely.geometry import Point, box

    tmp = case["tmp"]
    params = _params(case, OUTPUT_ERROR_MAP=str(tmp / "errors.tif"))
    params.update(change)
    t = case["profile"]["transform"]
    if params["REFERENCE"] == "polygons":
        params["REFERENCE"] = str(polygons_from_mask(case["mask"], t, image_crs(), tmp / "ref.gpkg"))
    elif params["REFERENCE"] == "polygons_text":
        gdf = gpd.GeoDataFrame({"code": ["building"]}, geometry=[box(t.c, t.f - 50, t.c + 50, t.f)], crs=image_crs())
        gdf.to_file(tmp / "text.gpkg")
        params["REFERENCE"] = str(tmp / "text.gpkg")
    elif params["REFERENCE"] == "points":
        gdf = gpd.GeoDataFrame({"code": [1]}, geometry=[Point(t.c + 5, t.f - 5)], crs=image_crs())
        gdf.to_file(tmp / "pts.gpkg")
        params["REFERENCE"] = str(tmp / "pts.gpkg")
    elif params["REFERENCE"] == "far":
        far = Affine(0.2, 0, t.c + 10000, 0, -0.2, t.f)
        params["REFERENCE"] = str(write_raster(tmp / "far.tif", case["mask"], case["profile"], transform=far))
    before = sorted(os.listdir(tmp))
    with pytest.raises(QgsProcessingException, match=message):
        run_alg("flair:evaluate", params)
    assert sorted(os.listdir(tmp)) == before


def test_unknown_protocol_and_undeclared_values_core(case):
    with pytest.raises(InputError, match="Unknown protocol"):
        get_protocol("flair2")
    pred = case["pred"].copy()
    pred[0, 0] = 0
    path = write_raster(case["tmp"] / "p0.tif", pred, case["profile"], crs=image_crs())
    with pytest.raises(InputError, match=r"prediction value\(s\) 0 \(1 px\)"):
        evaluate_rasters(path, case["ref_path"], get_protocol("flair1"), error_map_path=str(case["tmp"] / "e.tif"))
    assert not (case["tmp"] / "e.tif").exists()


def test_custom_protocol_parameters(run_alg, case):
    res = run_alg(
        "flair:evaluate",
        _params(
            case,
            PROTOCOL="custom",
            REMAP="13-19:13",
            EVALUATED_CLASSES="1-12",
            ABSENT_CLASS_SCORE="zero",
            CLASSES="1-13",
            DROP_EXCLUDED=False,
        ),
    )
    report = json.loads((case["tmp"] / "report.json").read_text())
    expected = independent_scores(case["mask"], case["pred"], "flair1", absent="zero")
    assert report["absent_class_score"] == "zero"
    assert res["MIOU"] == pytest.approx(expected["miou"])
