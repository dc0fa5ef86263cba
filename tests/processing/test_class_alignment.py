"""Model classes aligned with protocol codes by name or CLASS_MAP, through flair:segment,
flair:evaluate, flair:rank_labels and flair:benchmark (issue 8 item 5).

A Deepness-style 13-class model declares indices 0..12 with FLAIR #1's names. Scored under
``flair1`` it must give exactly what the same predictions written as codes 1..13 give.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
import rasterio
from bench_helpers import flair1_ign_layout, int_weights, pixel_conv_model
from conftest import FLAIR_DATA, RecordingFeedback
from eval_helpers import image_crs, polygons_from_mask, read_mask, write_raster
from qgis.core import QgsProcessingException

from flair_qgis.core.classes import raster_classes
from flair_qgis.core.nomenclature import FLAIR1_MODEL_CLASSES

PATCH = "024577"
UNIT = {"mean": [0] * 5, "std": [1] * 5}
# FLAIR #1 statistics: normalised bands vary around 0, so random weights give every class somewhere.
FLAIR_NORM = {"mean": [105.08, 110.87, 101.82, 106.38, 53.26], "std": [52.17, 45.38, 44.0, 39.69, 79.3]}
DEEPNESS = {"class_names": {str(i): c.name for i, c in enumerate(FLAIR1_MODEL_CLASSES)}, **FLAIR_NORM}
SCORED = ("miou", "oa", "pixels_evaluated", "classes", "confusion_matrix", "confusion_labels")


@pytest.fixture
def deepness_map(run_alg, tmp_path):
    """flair:segment of a real patch with a Deepness-style model, and the same map as codes 1..13."""
    weights = int_weights((13, 5), seed=11)
    model = pixel_conv_model(tmp_path / "deepness.onnx", weights, DEEPNESS)
    image = tmp_path / f"IMG_{PATCH}.tif"
    image.write_bytes((FLAIR_DATA / f"IMG_{PATCH}.tif").read_bytes())
    res = run_alg("flair:segment", {"INPUT": str(image), "MODEL": str(model), "OUTPUT": str(tmp_path / "idx.tif")})
    with rasterio.open(res["OUTPUT"]) as src:
        index, profile = src.read(1), src.profile
    codes = write_raster(tmp_path / "codes.tif", index.astype(np.uint8) + 1, profile, nodata=255)
    return {"model": model, "weights": weights, "index_map": res["OUTPUT"], "codes": codes, "index": index}


def _evaluate(run_alg, prediction, out, feedback=None, **extra):
    params = {"PREDICTION": str(prediction), "REFERENCE": str(FLAIR_DATA / f"MSK_{PATCH}.tif"), "PROTOCOL": "flair1",
              "OUTPUT_REPORT": str(out), **extra}  # fmt: skip
    run_alg("flair:evaluate", params, feedback)
    return json.loads(out.read_text())


def test_segment_keeps_model_values_and_names(deepness_map):
    declared = raster_classes(deepness_map["index_map"])
    assert [(c.value, c.name) for c in declared] == [(i, c.name) for i, c in enumerate(FLAIR1_MODEL_CLASSES)]
    # Index 0 (building) occurs, and most classes do: a misalignment could not go unnoticed.
    assert deepness_map["index"].max() <= 12 and (deepness_map["index"] == 0).any()
    assert len(np.unique(deepness_map["index"])) >= 8


def test_deepness_class_map_scores_as_codes(run_alg, deepness_map, tmp_path):
    feedback = RecordingFeedback()
    aligned = _evaluate(run_alg, deepness_map["index_map"], tmp_path / "aligned.json", feedback)
    direct = _evaluate(run_alg, deepness_map["codes"], tmp_path / "direct.json")
    assert {k: aligned[k] for k in SCORED} == {k: direct[k] for k in SCORED}
    assert aligned["class_alignment"]["how"] == "names"
    assert aligned["class_alignment"]["mapping"] == {str(i): i + 1 for i in range(13)}
    assert direct["class_alignment"]["how"] == "values" and direct["class_alignment"]["mapping"] == {}
    assert any("aligned by class names" in line and "0 building -> 1" in line for line in feedback.infos)


def test_unnamed_indices_need_class_map(run_alg, deepness_map, tmp_path):
    with rasterio.open(deepness_map["index_map"]) as src:
        profile = src.profile
    plain = write_raster(tmp_path / "plain.tif", deepness_map["index"].astype(np.uint8), profile, nodata=255)
    with pytest.raises(QgsProcessingException) as err:
        _evaluate(run_alg, plain, tmp_path / "refused.json", OUTPUT_ERROR_MAP=str(tmp_path / "err.tif"))
    assert "CLASS_MAP" in str(err.value) and "prediction value(s) 0 (" in str(err.value)
    assert not (tmp_path / "refused.json").exists() and not (tmp_path / "err.tif").exists()
    class_map = ",".join(f"{i}:{i + 1}" for i in range(13))
    mapped = _evaluate(run_alg, plain, tmp_path / "mapped.json", CLASS_MAP=class_map)
    direct = _evaluate(run_alg, deepness_map["codes"], tmp_path / "direct.json")
    assert {k: mapped[k] for k in SCORED} == {k: direct[k] for k in SCORED}
    assert mapped["class_alignment"]["how"] == "class_map"


def test_rank_labels_aligns_the_same_way(run_alg, deepness_map, tmp_path):
    import geopandas as gpd

    mask, profile = read_mask(PATCH)
    labels = polygons_from_mask(mask, profile["transform"], image_crs(), tmp_path / "labels.gpkg")
    ranked = {}
    for name, prediction in (("aligned", deepness_map["index_map"]), ("direct", deepness_map["codes"])):
        out = tmp_path / f"{name}.gpkg"
        run_alg("flair:rank_labels", {"PREDICTION": str(prediction), "REFERENCE": str(labels),
                                      "REFERENCE_FIELD": "code", "PROTOCOL": "flair1", "OUTPUT": str(out)})  # fmt: skip
        ranked[name] = gpd.read_file(out)
    columns = ["source_fid", "label", "predicted", "agreement", "pixels", "suspicion"]
    assert ranked["aligned"][columns].equals(ranked["direct"][columns])


def test_benchmark_deepness_model_equals_codes_model(run_alg, tmp_path):
    root = tmp_path / "flair1"
    images = sorted(FLAIR_DATA.glob("IMG_*.tif"))[:3]
    flair1_ign_layout(root, images, [FLAIR_DATA / p.name.replace("IMG_", "MSK_") for p in images])
    weights = int_weights((13, 5), seed=4)
    reports = {}
    for name, meta in (("deepness", DEEPNESS), ("codes", FLAIR_NORM)):
        model = pixel_conv_model(tmp_path / f"{name}.onnx", weights, meta)
        out = tmp_path / f"{name}.json"
        run_alg("flair:benchmark", {"DATASET": str(root), "MODEL": str(model), "PROTOCOL": "flair1",
                                    "OUTPUT_REPORT": str(out), "DEVICE": "cpu"})  # fmt: skip
        reports[name] = json.loads(out.read_text())
    assert {k: reports["deepness"][k] for k in SCORED} == {k: reports["codes"][k] for k in SCORED}
    assert reports["deepness"]["benchmark"]["class_values"] == list(range(1, 14))
    assert reports["deepness"]["class_alignment"]["how"] == "names"
