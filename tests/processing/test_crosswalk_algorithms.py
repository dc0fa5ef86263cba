"""CROSSWALK through Processing (issue 40): a GeoPackage with OCS GE-like text codes, read by QGIS
through flair:evaluate and flair:rank_labels, scores as the same polygons recoded by hand; without
CROSSWALK the text field is refused in a line that names it."""

from __future__ import annotations

import json

import geopandas as gpd
import numpy as np
import pytest
from crosswalk_helpers import CSV, PATCH, UNLISTED, UNLISTED_CLASS, text_and_integer_polygons
from eval_helpers import image_crs, perturb, read_mask, write_raster
from qgis.core import QgsProcessingException


@pytest.fixture
def case(tmp_path):
    mask, profile = read_mask(PATCH)
    crs = image_crs()
    pred = perturb(mask, seed=41, rate=0.15, values=list(range(1, 14)))
    text_gdf, int_gdf = text_and_integer_polygons(mask, profile["transform"], crs)
    text_gdf.to_file(tmp_path / "ocsge.gpkg", driver="GPKG")
    int_gdf.to_file(tmp_path / "recoded.gpkg", driver="GPKG")
    (tmp_path / "crosswalk.csv").write_text(CSV, encoding="utf-8")
    return {
        "tmp": tmp_path,
        "mask": mask,
        "pred": str(write_raster(tmp_path / "pred.tif", pred, profile, crs=crs)),
        "text": str(tmp_path / "ocsge.gpkg"),
        "int": str(tmp_path / "recoded.gpkg"),
        "csv": str(tmp_path / "crosswalk.csv"),
    }


def test_evaluate_through_crosswalk_equals_recoded(run_alg, case):
    tmp = case["tmp"]
    common = {"PREDICTION": case["pred"], "PROTOCOL": "flair1"}
    a = run_alg("flair:evaluate", {**common, "REFERENCE": case["text"], "REFERENCE_FIELD": "cs",
                                   "CROSSWALK": case["csv"], "OUTPUT_REPORT": str(tmp / "a.json")})  # fmt: skip
    b = run_alg("flair:evaluate", {**common, "REFERENCE": case["int"], "REFERENCE_FIELD": "code",
                                   "OUTPUT_REPORT": str(tmp / "b.json")})  # fmt: skip
    assert (a["MIOU"], a["OA"], a["PIXELS"]) == (b["MIOU"], b["OA"], b["PIXELS"])
    ra, rb = json.loads((tmp / "a.json").read_text()), json.loads((tmp / "b.json").read_text())
    assert ra["confusion_matrix"] == rb["confusion_matrix"] and ra["classes"] == rb["classes"]
    pixels = int(np.sum(case["mask"] == UNLISTED_CLASS))
    assert ra["crosswalk"]["file"] == "crosswalk.csv"
    assert ra["crosswalk"]["unmapped"] == [{"value": UNLISTED, "pixels": pixels, "share": pixels / 512**2}]


def test_rank_labels_through_crosswalk_keeps_the_reference_code(run_alg, case):
    tmp = case["tmp"]
    run_alg("flair:rank_labels", {"PREDICTION": case["pred"], "REFERENCE": case["text"], "REFERENCE_FIELD": "cs",
                                  "PROTOCOL": "flair1", "CROSSWALK": case["csv"],
                                  "OUTPUT": str(tmp / "ranked.gpkg")})  # fmt: skip
    run_alg("flair:rank_labels", {"PREDICTION": case["pred"], "REFERENCE": case["int"], "REFERENCE_FIELD": "code",
                                  "PROTOCOL": "flair1", "OUTPUT": str(tmp / "ranked_int.gpkg")})  # fmt: skip
    text, recoded = gpd.read_file(tmp / "ranked.gpkg"), gpd.read_file(tmp / "ranked_int.gpkg")
    scored = text[text["reference_code"] != UNLISTED].reset_index(drop=True)
    columns = ["label", "predicted", "agreement", "pixels", "disagreeing_px"]
    assert scored[columns].equals(recoded[columns])
    assert set(scored.loc[scored["label"] == 7, "reference_code"]) == {"CS2.1.1.1", "CS2.1.1.3"}


def test_text_field_without_crosswalk_is_refused_naming_it(run_alg, case):
    with pytest.raises(QgsProcessingException, match="CROSSWALK") as info:
        run_alg("flair:evaluate", {"PREDICTION": case["pred"], "REFERENCE": case["text"], "REFERENCE_FIELD": "cs",
                                   "PROTOCOL": "flair1", "OUTPUT_REPORT": str(case["tmp"] / "r.json")})  # fmt: skip
    assert "'CS" in str(info.value)
    assert not (case["tmp"] / "r.json").exists()


def test_review_algorithms_take_the_crosswalk(run_alg, case):
    import rasterio

    from flair_qgis.core.nomenclature import FLAIR1_MODEL_CLASSES
    from flair_qgis.core.review.store import ReviewStore

    tmp = case["tmp"]
    declared = [{"value": c.value, "name": c.name, "color": c.color} for c in FLAIR1_MODEL_CLASSES]
    with rasterio.open(case["pred"], "r+") as dst:  # as flair:segment writes it: class names declared
        dst.update_tags(1, CLASSES=json.dumps(declared))
    review = str(tmp / "review.gpkg")
    sample = {"PREDICTION": case["pred"], "REFERENCE": case["text"], "REFERENCE_FIELD": "cs", "DESIGN": "suspicious"}
    run_alg("flair:sample", {**sample, "SAMPLES": 5, "CROSSWALK": case["csv"], "OUTPUT": review})
    with ReviewStore.open(review) as store:
        own = store.column("reference_code")
        first = store.items()[0]
        # Wrong: the ground is building (one code: CS1.1.1.1).
        store.set_verdict(first.item_id, "wrong", 1, "a")
    assert set(own.values()) <= {"CS1.1.1.1", "CS2.2.2", "CS1.1.1.2", "CS1.2.2", "CS2.1.1.1", "CS2.1.1.3", "CS2.1.2"}
    run_alg("flair:review_report", {"REVIEW": review, "CROSSWALK": case["csv"],
                                    "OUTPUT_REPORT": str(tmp / "review.json")})  # fmt: skip
    entry = json.loads((tmp / "review.json").read_text())["crosswalk"]
    assert entry["drawn_with"] is True and sum(row["wrong"] for row in entry["codes"]) == 1
    res = run_alg("flair:apply_review", {"REFERENCE": case["text"], "REFERENCE_FIELD": "cs", "REVIEW": review,
                                         "CROSSWALK": case["csv"], "OUTPUT": str(tmp / "fixed.gpkg")})  # fmt: skip
    fixed = gpd.read_file(tmp / "fixed.gpkg", layer="reference_corrected")
    original = gpd.read_file(case["text"])
    changed = fixed["cs"] != original["cs"]
    expected = 0 if own[first.item_id] == "CS1.1.1.1" else 1
    assert res["CHANGED"] == expected and int(changed.sum()) == expected
    assert set(fixed.loc[changed, "cs"]) <= {"CS1.1.1.1"}
