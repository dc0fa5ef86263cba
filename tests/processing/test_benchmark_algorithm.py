"""flair:benchmark on FLAIR #1 (real patches in IGN's layout), FLAIR-HUB and WeedSense folders.

Expected scores are recomputed here independently, per class with boolean masks as the
evaluation cards write them, from class maps predicted with numpy by the exact toy models.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
from pathlib import Path

import numpy as np
import pytest
import rasterio
from bench_helpers import (
    flair1_ign_layout,
    fusion_model,
    int_weights,
    make_flair1_dataset,
    make_flairhub_dataset,
    make_weedsense_dataset,
    pixel_conv_model,
    weedsense_model,
)
from conftest import FLAIR_DATA
from qgis.core import QgsProcessingException

from flair_qgis.core.benchmark.runner import BenchmarkRequest, run_benchmark
from flair_qgis.core.errors import Canceled, InputError


def first_argmax(scores: np.ndarray) -> np.ndarray:
    """Index of the largest score along axis 0, ties to the lowest index (as np.argmax)."""
    return np.argmax(scores, axis=0)


def read(path: Path | str) -> np.ndarray:
    with rasterio.open(path) as src:
        return src.read()


@pytest.fixture
def flair1_real(tmp_path: Path) -> Path:
    """The 9 real FLAIR patches copied into IGN's D0xx_YYYY/Zn_XX/img|msk tree."""
    root = tmp_path / "flair1"
    images = sorted(FLAIR_DATA.glob("IMG_*.tif"))
    masks = [FLAIR_DATA / p.name.replace("IMG_", "MSK_") for p in images]
    flair1_ign_layout(root, images, masks)
    return root


def flair1_expected(root: Path, weights: np.ndarray) -> tuple[float, float, dict[str, np.ndarray]]:
    """mIoU and OA of FLAIR #1: one summed matrix, codes 13..19 as 13, IoU of 1..12, NaN skipped."""
    tp = np.zeros(14)
    fp = np.zeros(14)
    fn = np.zeros(14)
    correct = total = 0
    predictions = {}
    for img in sorted(root.rglob("IMG_*.tif")):
        patch = img.stem[4:]
        msk = img.parent.parent / "msk" / f"MSK_{patch}.tif"
        pixels = read(img).astype(np.int64)
        scores = np.tensordot(weights.astype(np.int64), pixels, axes=([1], [0]))
        index = first_argmax(scores)
        predictions[patch] = index
        pred = index + 1
        ref = read(msk)[0].astype(np.int64)
        ref[ref >= 13] = 13
        for c in range(1, 14):
            p, g = pred == c, ref == c
            tp[c] += np.sum(p & g)
            fp[c] += np.sum(p & ~g)
            fn[c] += np.sum(~p & g)
        correct += int(np.sum(pred == ref))
        total += ref.size
    ious = [tp[c] / (tp[c] + fp[c] + fn[c]) for c in range(1, 13) if tp[c] + fp[c] + fn[c] > 0]
    return float(np.mean(ious)), correct / total, predictions


def test_flair1_real_patches_ign_layout(run_alg, flair1_real, tmp_path):
    weights = int_weights((13, 5), seed=3)
    model = pixel_conv_model(tmp_path / "flair13.onnx", weights, {"mean": [0] * 5, "std": [1] * 5})
    report_path = tmp_path / "out" / "report.json"
    report_path.parent.mkdir()
    res = run_alg(
        "flair:benchmark",
        {
            "DATASET": str(flair1_real),
            "MODEL": str(model),
            "PROTOCOL": "flair1",
            "OUTPUT_REPORT": str(report_path),
            "OUTPUT_PREDICTIONS": str(tmp_path / "out" / "pred"),
            "DEVICE": "cpu",
            "BATCH_SIZE": 2,
        },
    )
    miou, oa, predictions = flair1_expected(flair1_real, weights)
    report = json.loads(report_path.read_text())
    assert report["protocol"] == "flair1"
    assert report["miou"] == pytest.approx(miou, abs=1e-12)
    assert report["oa"] == pytest.approx(oa, abs=1e-12)
    assert res["MIOU"] == pytest.approx(miou, abs=1e-12)
    assert res["SAMPLES"] == 9 and res["FAILED"] == 0
    assert report["benchmark"]["layout"] == "flair1"
    assert report["benchmark"]["class_values"] == list(range(1, 14))
    assert report["pixels_evaluated"] == 9 * 512 * 512
    # IGN's submission format: PRED_<id>.tif, uint8 class index 0..12.
    for patch, index in predictions.items():
        pred = read(tmp_path / "out" / "pred" / f"PRED_{patch}.tif")
        assert pred.dtype == np.uint8
        assert np.array_equal(pred[0], index)
    rows = list(csv.DictReader(open(res["SAMPLES_CSV"])))
    assert sorted(r["sample_id"] for r in rows) == sorted(predictions)
    assert all(r["status"] == "ok" and os.path.isfile(r["input_IMAGE"]) for r in rows)
    worst = report["benchmark"]["worst_samples"]
    assert [w["miou"] for w in worst] == sorted(w["miou"] for w in worst)
    assert min(float(r["miou"]) for r in rows) == pytest.approx(worst[0]["miou"], abs=1e-6)


def test_flair1_flat_folder_model_classes_declared(run_alg, tmp_path):
    """Any folder where IMG_/MSK_ pair by id; classes from the metadata decide the codes."""
    root = tmp_path / "flat"
    root.mkdir()
    for name in ("IMG_000473.tif", "MSK_000473.tif", "IMG_084558.tif", "MSK_084558.tif"):
        shutil.copy(FLAIR_DATA / name, root / name)
    weights = int_weights((3, 5), seed=5)
    # Three outputs declared as FLAIR codes 10, 7, 2.
    model = pixel_conv_model(tmp_path / "m.onnx", weights, {"mean": [0] * 5, "std": [1] * 5, "classes": [10, 7, 2]})
    report_path = tmp_path / "r.json"
    run_alg("flair:benchmark", {"DATASET": str(root), "MODEL": str(model), "PROTOCOL": "flair1",
                                "OUTPUT_REPORT": str(report_path)})  # fmt: skip
    report = json.loads(report_path.read_text())
    codes = np.array([10, 7, 2])
    hits = {c: [0, 0] for c in range(1, 13)}
    for patch in ("000473", "084558"):
        pred = codes[first_argmax(np.tensordot(weights, read(root / f"IMG_{patch}.tif").astype(np.float64), 1))]
        ref = np.minimum(read(root / f"MSK_{patch}.tif")[0], 13)
        for c, counts in hits.items():
            counts[0] += np.sum((pred == c) & (ref == c))
            counts[1] += np.sum((pred == c) | (ref == c))
    ious = [i / u for i, u in hits.values() if u > 0]
    assert report["miou"] == pytest.approx(np.mean(ious), abs=1e-12)
    assert {row["value"] for row in report["classes"] if row["iou"] is None} == {
        c for c, h in hits.items() if h[1] == 0
    }


def test_unpaired_listed_then_skipped_or_refused(run_alg, flair1_real, tmp_path):
    model = pixel_conv_model(tmp_path / "m.onnx", int_weights((13, 5), 1), {"mean": [0] * 5, "std": [1] * 5})
    lonely_mask = next(flair1_real.rglob("MSK_000687.tif"))
    lonely_mask.unlink()
    orphan = flair1_real / "D999_2022" / "Z1_AA" / "msk" / "MSK_999999.tif"
    orphan.parent.mkdir(parents=True)
    shutil.copy(FLAIR_DATA / "MSK_000473.tif", orphan)
    params = {"DATASET": str(flair1_real), "MODEL": str(model), "PROTOCOL": "flair1",
              "OUTPUT_REPORT": str(tmp_path / "r.json")}  # fmt: skip
    with pytest.raises(QgsProcessingException) as err:
        run_alg("flair:benchmark", {**params, "ON_UNPAIRED": "fail"})
    assert "IMG_000687.tif" in str(err.value) and "MSK_999999.tif" in str(err.value)
    assert not (tmp_path / "r.json").exists()
    res = run_alg("flair:benchmark", {**params, "ON_UNPAIRED": "skip"})
    report = json.loads((tmp_path / "r.json").read_text())
    assert res["SAMPLES"] == 8
    assert report["benchmark"]["unpaired_count"] == 2
    assert any("IMG_000687.tif" in line for line in report["benchmark"]["unpaired"])
    assert any("MSK_999999.tif" in line for line in report["benchmark"]["unpaired"])


def test_unreadable_sample_reported_run_goes_on(tmp_path):
    root = tmp_path / "ds"
    ids = make_flair1_dataset(root, 4)
    broken = next(root.rglob(f"IMG_{ids[1]}.tif"))
    broken.write_bytes(b"not a tiff at all")
    model = pixel_conv_model(tmp_path / "m.onnx", int_weights((13, 5), 2), {"mean": [0] * 5, "std": [1] * 5})
    result = run_benchmark(BenchmarkRequest(str(root), str(model), "flair1", str(tmp_path / "r.json")))
    assert result.samples == 3 and result.failed == 1
    failed = result.report.run.failed
    assert failed[0].sample_id == ids[1] and failed[0].path == str(broken)
    rows = {r["sample_id"]: r for r in csv.DictReader(open(result.samples_csv_path))}
    assert rows[ids[1]]["status"] == "failed" and str(broken) in rows[ids[1]]["error"]


def test_no_samples_says_which_layouts(tmp_path):
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "notes.txt").write_text("nothing here")
    model = pixel_conv_model(tmp_path / "m.onnx", int_weights((13, 5), 2))
    with pytest.raises(InputError, match=r"FLAIR #1.*FLAIR-HUB.*WeedSense"):
        run_benchmark(BenchmarkRequest(str(tmp_path / "empty"), str(model), "flair1", str(tmp_path / "r.json")))


def test_cancel_writes_nothing(tmp_path):
    root = tmp_path / "ds"
    make_flair1_dataset(root, 6)
    model = pixel_conv_model(tmp_path / "m.onnx", int_weights((13, 5), 2))
    out = tmp_path / "out"
    out.mkdir()
    calls = []

    def cancel_second() -> bool:
        calls.append(1)
        return len(calls) > 1

    request = BenchmarkRequest(str(root), str(model), "flair1", str(out / "r.json"), predictions_dir=str(out / "pred"),
                               batch_size=1)  # fmt: skip
    with pytest.raises(Canceled):
        run_benchmark(request, is_canceled=cancel_second)
    assert sorted(os.listdir(out)) == ["pred"] and os.listdir(out / "pred") == []


# ----------------------------------------------------------------------------- FLAIR-HUB


AERIAL_MEAN, AERIAL_STD = [100.0, 100.0, 100.0], [2.0, 2.0, 2.0]
DEM_MEAN, DEM_STD = [256.0, 256.0], [4.0, 4.0]


def fusion_metadata(aerial_bands: list) -> dict:
    return {
        "inputs": [
            {
                "name": "aerial",
                "modality": "AERIAL_RGBI",
                "bands": aerial_bands,
                "mean": AERIAL_MEAN,
                "std": AERIAL_STD,
                "resolution_cm": 20,
            },
            {
                "name": "dem",
                "modality": "DEM_ELEV",
                "bands": [1, 2],
                "mean": DEM_MEAN,
                "std": DEM_STD,
                "resolution_cm": 40,
            },
        ],
        "classes": list(range(19)),
    }


def flairhub_expected(patches: list[dict], w_aerial, w_dem, label: str, evaluated: list[int]) -> tuple[float, float]:
    """IGN's FLAIR-HUB scoring: pixels of non-evaluated classes (either side) dropped, 0/0 IoU = 0."""
    inter = {c: 0 for c in evaluated}
    union = {c: 0 for c in evaluated}
    correct = total = 0
    for patch in patches:
        rgbi = patch["rgbi"].astype(np.float64)
        aerial = (rgbi[[3, 0, 1]] - 100.0) / 2.0  # NIR, R, G
        dem = (np.repeat(np.repeat(patch["dem"], 2, axis=1), 2, axis=2) - 256.0) / 4.0
        scores = np.tensordot(w_aerial, aerial, 1) + np.tensordot(w_dem, dem, 1)
        pred = first_argmax(scores)
        ref = patch[label].astype(np.int64)
        keep = np.isin(ref, evaluated) & np.isin(pred, evaluated)
        for c in evaluated:
            inter[c] += np.sum((pred == c) & (ref == c) & keep)
            union[c] += np.sum(((pred == c) | (ref == c)) & keep)
        correct += np.sum((pred == ref) & keep)
        total += np.sum(keep)
    ious = [inter[c] / union[c] if union[c] else 0.0 for c in evaluated]
    return float(np.mean(ious)), correct / total


@pytest.mark.parametrize("aerial_bands", [[4, 1, 2], ["NIR", "R", "G"]], ids=["band-numbers", "band-names"])
def test_flairhub_two_modalities_landcover(run_alg, tmp_path, aerial_bands):
    root = tmp_path / "hub"
    patches = make_flairhub_dataset(root, 4)
    w_aerial, w_dem = int_weights((19, 3), 7), int_weights((19, 2), 8)
    model = fusion_model(tmp_path / "fusion.onnx", w_aerial, w_dem, fusion_metadata(aerial_bands))
    report_path = tmp_path / "r.json"
    res = run_alg("flair:benchmark", {"DATASET": str(root), "MODEL": str(model), "PROTOCOL": "flairhub-landcover",
                                      "OUTPUT_REPORT": str(report_path), "BATCH_SIZE": 3})  # fmt: skip
    report = json.loads(report_path.read_text())
    miou, oa = flairhub_expected(patches, w_aerial, w_dem, "cosia", list(range(15)))
    assert report["miou"] == pytest.approx(miou, abs=1e-12)
    assert report["oa"] == pytest.approx(oa, abs=1e-12)
    assert res["SAMPLES"] == 4
    assert report["confusion_labels"] == list(range(15))
    inputs = report["benchmark"]["inputs"]
    assert [(i["modality"], i["bands"]) for i in inputs] == [("AERIAL_RGBI", [4, 1, 2]), ("DEM_ELEV", [1, 2])]
    assert sorted(r["sample_id"] for r in csv.DictReader(open(res["SAMPLES_CSV"]))) == sorted(p["id"] for p in patches)


def test_flairhub_croptype_scores_lpis(tmp_path):
    root = tmp_path / "hub"
    patches = make_flairhub_dataset(root, 3, seed=4)
    w_aerial, w_dem = int_weights((23, 3), 9), int_weights((23, 2), 10)
    meta = fusion_metadata([4, 1, 2]) | {"classes": list(range(23))}
    model = fusion_model(tmp_path / "crop.onnx", w_aerial, w_dem, meta)
    result = run_benchmark(BenchmarkRequest(str(root), str(model), "flairhub-croptype", str(tmp_path / "r.json")))
    evaluated = [c for c in range(23) if c not in (5, 9)]
    miou, oa = flairhub_expected(patches, w_aerial, w_dem, "lpis", evaluated)
    assert result.report.scores.miou == pytest.approx(miou, abs=1e-12)
    assert result.report.scores.oa == pytest.approx(oa, abs=1e-12)
    assert result.report.run.label_modality == "ALL_LABEL-LPIS"


def test_flairhub_model_needs_absent_modality(tmp_path):
    root = tmp_path / "hub"
    make_flairhub_dataset(root, 2, modalities=("AERIAL_RGBI",))
    model = fusion_model(tmp_path / "fusion.onnx", int_weights((19, 3), 1), int_weights((19, 2), 2),
                         fusion_metadata([4, 1, 2]))  # fmt: skip
    with pytest.raises(InputError, match=r"DEM_ELEV.*AERIAL_RGBI"):
        run_benchmark(BenchmarkRequest(str(root), str(model), "flairhub-landcover", str(tmp_path / "r.json")))


# ----------------------------------------------------------------------------- WeedSense


WEEKS = list(range(1, 12))


def weedsense_metadata() -> dict:
    return {
        "mean": [0, 0, 0],
        "std": [1, 1, 1],
        "outputs": [
            {"name": "mask", "task": "segmentation", "classes": list(range(17))},
            {"name": "height", "task": "regression", "unit": "cm"},
            {"name": "stage", "task": "classification", "classes": WEEKS},
        ],
    }


def test_weedsense_three_heads(run_alg, tmp_path):
    from sklearn.metrics import f1_score, mean_absolute_error, mean_squared_error, r2_score

    root = tmp_path / "weeds"
    samples = make_weedsense_dataset(root, 6)
    w_seg, w_stage = int_weights((17, 3), 11), int_weights((11, 3), 12)
    model = weedsense_model(tmp_path / "weeds.onnx", w_seg, w_stage, 0.25, weedsense_metadata())
    report_path = tmp_path / "r.json"
    res = run_alg("flair:benchmark", {"DATASET": str(root), "MODEL": str(model), "PROTOCOL": "weedsense",
                                      "OUTPUT_REPORT": str(report_path), "BATCH_SIZE": 4})  # fmt: skip
    report = json.loads(report_path.read_text())

    # Card recipe: IoU per class over all samples, union 0 -> 1.0, 255 ignored.
    inter, union = np.zeros(17), np.zeros(17)
    heights_true, heights_pred, weeks_true, weeks_pred = [], [], [], []
    for s in samples:
        image = s["image"].astype(np.float64)
        pred = first_argmax(np.tensordot(w_seg, image, 1))
        gold = s["mask"]
        valid = gold != 255
        for c in range(17):
            p, g = (pred == c) & valid, (gold == c) & valid
            inter[c] += np.sum(p & g)
            union[c] += np.sum(p | g)
        means = image.reshape(3, -1).mean(axis=1)
        heights_true.append(s["height_cm"])
        heights_pred.append(0.25 * means[0])
        weeks_true.append(s["growth_week"])
        weeks_pred.append(WEEKS[int(np.argmax(w_stage @ means))])
    ious = [inter[c] / union[c] if union[c] > 0 else 1.0 for c in range(17)]
    assert report["miou"] == pytest.approx(np.mean(ious), abs=1e-12)
    assert report["miou_percent"] == pytest.approx(100 * np.mean(ious), abs=1e-10)
    assert report["mae_cm"] == pytest.approx(mean_absolute_error(heights_true, heights_pred), abs=1e-4)
    assert report["rmse_cm"] == pytest.approx(np.sqrt(mean_squared_error(heights_true, heights_pred)), abs=1e-4)
    assert report["r2"] == pytest.approx(r2_score(heights_true, heights_pred), abs=1e-5)
    errors = np.abs(np.array(heights_pred) - np.array(heights_true))
    assert report["max_error_cm"] == pytest.approx(errors.max(), abs=1e-4)
    assert report["within_5cm"] == pytest.approx(np.mean(errors <= 5), abs=1e-12)
    assert report["accuracy"] == pytest.approx(np.mean(np.array(weeks_true) == np.array(weeks_pred)), abs=1e-12)
    assert report["f1"] == pytest.approx(f1_score(weeks_true, weeks_pred, average="macro"), abs=1e-12)
    assert report["accuracy_percent"] == pytest.approx(100 * report["accuracy"])
    assert res["SAMPLES"] == 6
    rows = list(csv.DictReader(open(res["SAMPLES_CSV"])))
    assert [int(r["growth_week_pred"]) for r in rows] == weeks_pred


def test_weedsense_labels_csv_missing_column(tmp_path):
    root = tmp_path / "weeds"
    make_weedsense_dataset(root, 2)
    (root / "labels.csv").write_text("image,height_cm\nplant_000.png,3.0\n")
    model = weedsense_model(tmp_path / "w.onnx", int_weights((17, 3), 1), int_weights((11, 3), 2), 1.0,
                            weedsense_metadata())  # fmt: skip
    with pytest.raises(InputError, match="growth_week"):
        run_benchmark(BenchmarkRequest(str(root), str(model), "weedsense", str(tmp_path / "r.json")))
