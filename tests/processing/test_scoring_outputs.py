"""Scoring outputs never overwrite an input of the same run (issue 8 item 3): evaluate's report,
its CSV/PNG and the error map vs the prediction and the reference; rank_labels' GeoPackage vs the
reference; benchmark's predictions folder vs the dataset, its report vs the model or a dataset
file. Each is refused before anything is written, with a message naming both parameters."""

from __future__ import annotations

import os
import shutil

import numpy as np
import pytest
import rasterio
from bench_helpers import int_weights, pixel_conv_model
from conftest import FLAIR_DATA
from eval_helpers import image_crs, polygons_from_mask, read_mask, write_raster
from qgis.core import QgsProcessingException

PATCH = "000473"


def _snapshot(folder) -> dict[str, bytes]:
    files = (p for p in sorted(os.listdir(folder)) if os.path.isfile(os.path.join(folder, p)))
    return {p: open(os.path.join(folder, p), "rb").read() for p in files}


@pytest.fixture
def scoring_case(tmp_path):
    mask, profile = read_mask(PATCH)
    pred = write_raster(tmp_path / "pred.tif", mask, profile, nodata=255, crs=image_crs())
    ref = tmp_path / "MSK.tif"
    shutil.copy(FLAIR_DATA / f"MSK_{PATCH}.tif", ref)
    return tmp_path, pred, ref


def _refused(run_alg, algorithm, params, folder, *names):
    before = _snapshot(folder)
    with pytest.raises(QgsProcessingException) as err:
        run_alg(algorithm, params)
    for name in names:
        assert name in str(err.value)
    assert "Traceback" not in str(err.value)
    assert _snapshot(folder) == before  # nothing written, nothing changed
    return str(err.value)


def test_error_map_onto_the_reference_through_a_symlink(run_alg, scoring_case):
    tmp, pred, ref = scoring_case
    os.symlink(ref, tmp / "link.tif")
    params = {"PREDICTION": str(pred), "REFERENCE": str(ref), "PROTOCOL": "flair1",
              "OUTPUT_REPORT": str(tmp / "r.json"), "OUTPUT_ERROR_MAP": str(tmp / "link.tif")}  # fmt: skip
    _refused(run_alg, "flair:evaluate", params, tmp, "OUTPUT_ERROR_MAP", "REFERENCE")


def test_error_map_onto_the_prediction_by_a_relative_path(run_alg, scoring_case, monkeypatch):
    tmp, pred, ref = scoring_case
    (tmp / "sub").mkdir()
    monkeypatch.chdir(tmp / "sub")
    params = {"PREDICTION": str(pred), "REFERENCE": str(ref), "PROTOCOL": "flair1",
              "OUTPUT_REPORT": str(tmp / "r.json"), "OUTPUT_ERROR_MAP": "../pred.tif"}  # fmt: skip
    _refused(run_alg, "flair:evaluate", params, tmp, "OUTPUT_ERROR_MAP", "PREDICTION")


def test_report_picture_beside_would_replace_a_png_prediction(run_alg, scoring_case):
    tmp, _pred, ref = scoring_case
    mask, _profile = read_mask(PATCH)
    png = tmp / "classes.png"
    with rasterio.open(png, "w", driver="PNG", width=mask.shape[1], height=mask.shape[0], count=1,
                       dtype="uint8") as dst:  # fmt: skip
        dst.write(mask, 1)
    params = {"PREDICTION": str(png), "REFERENCE": str(ref), "PROTOCOL": "flair1",
              "OUTPUT_REPORT": str(tmp / "classes.json")}  # fmt: skip
    message = _refused(run_alg, "flair:evaluate", params, tmp, "OUTPUT_REPORT", "PREDICTION")
    assert "classes.png" in message


def test_report_onto_the_reference_json_name(run_alg, scoring_case):
    # A report named like the reference raster (".json" added) is a new file: it runs.
    _tmp, pred, ref = scoring_case
    params = {"PREDICTION": str(pred), "REFERENCE": str(ref), "PROTOCOL": "flair1", "OUTPUT_REPORT": str(ref)}
    res = run_alg("flair:evaluate", params)
    assert res["OUTPUT_REPORT"] == str(ref) + ".json" and open(ref, "rb").read()[:2] in (b"II", b"MM")


def test_ranked_labels_onto_the_reference(run_alg, tmp_path):
    mask, profile = read_mask(PATCH)
    gpkg = polygons_from_mask(mask, profile["transform"], image_crs(), tmp_path / "labels.gpkg")
    pred = write_raster(tmp_path / "pred.tif", mask, profile, crs=image_crs())
    params = {"PREDICTION": str(pred), "REFERENCE": str(gpkg), "REFERENCE_FIELD": "code", "OUTPUT": str(gpkg)}
    _refused(run_alg, "flair:rank_labels", params, tmp_path, "OUTPUT", "REFERENCE")


@pytest.fixture
def bench_case(tmp_path):
    root = tmp_path / "data"
    root.mkdir()
    for name in (f"IMG_{PATCH}.tif", f"MSK_{PATCH}.tif"):
        shutil.copy(FLAIR_DATA / name, root / name)
    model = pixel_conv_model(tmp_path / "m.onnx", int_weights((13, 5), seed=1), {"mean": [0] * 5, "std": [1] * 5})
    return tmp_path, root, model


@pytest.mark.parametrize(
    ("outputs", "names"),
    [
        ({"OUTPUT_PREDICTIONS": "{root}"}, ("OUTPUT_PREDICTIONS", "DATASET")),
        ({"OUTPUT_PREDICTIONS": "{root}/preds"}, ("OUTPUT_PREDICTIONS", "DATASET", "inside")),
        ({"OUTPUT_REPORT": "{model}"}, ("OUTPUT_REPORT", "MODEL")),
        ({"OUTPUT_REPORT": "{root}/MSK_000473.tif"}, ("OUTPUT_REPORT", "DATASET")),
        ({"OUTPUT_SAMPLES": "{root}/IMG_000473.tif"}, ("OUTPUT_SAMPLES", "DATASET")),
    ],
)
def test_benchmark_outputs_onto_inputs(run_alg, bench_case, outputs, names):
    tmp, root, model = bench_case
    params = {"DATASET": str(root), "MODEL": str(model), "PROTOCOL": "flair1", "DEVICE": "cpu",
              "OUTPUT_REPORT": str(tmp / "report.json")}  # fmt: skip
    params.update({k: v.format(root=root, model=model) for k, v in outputs.items()})
    model_bytes = open(model, "rb").read()
    _refused(run_alg, "flair:benchmark", params, root, *names)
    assert open(model, "rb").read() == model_bytes
    assert not (tmp / "report.json").exists()
    assert np.array_equal(rasterio.open(root / f"MSK_{PATCH}.tif").read(1), read_mask(PATCH)[0])
