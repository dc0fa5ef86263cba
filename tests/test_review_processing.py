"""flair:sample, flair:review_report and flair:apply_review end to end, on the demo model's
prediction of a real FLAIR patch against the patch's real reference mask."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest
from qgis.core import QgsProcessingException
from review_data import demo_prediction, polygons_of_mask, read_band, reprojected, value_at

from flair_qgis.core.review.estimators import Z95
from flair_qgis.core.review.store import ReviewStore


@pytest.fixture(scope="module")
def inputs(flair_provider, tmp_path_factory):
    return demo_prediction(tmp_path_factory.mktemp("review-inputs"))


def _digest(path) -> str:
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


def _sample(run_alg, inputs, out, **params):
    prediction, confidence, reference = inputs
    base = {"PREDICTION": str(prediction), "REFERENCE": str(reference), "CONFIDENCE": str(confidence),
            "DESIGN": "stratified", "SAMPLES": 120, "MIN_PER_CLASS": 10, "SEED": 3, "OUTPUT": str(out)}  # fmt: skip
    return run_alg("flair:sample", {**base, **params})


def test_sample_reads_map_label_and_confidence_at_each_item(run_alg, inputs, tmp_path):
    prediction, confidence, reference = inputs
    result = _sample(run_alg, inputs, tmp_path / "review.gpkg")
    assert result["ITEMS"] == 120
    digest = _digest(reference)
    with ReviewStore.open(result["OUTPUT"]) as store:
        items = store.items()
        strata = store.strata
    pred = read_band(prediction)
    values, counts = np.unique(pred[pred != 255], return_counts=True)
    assert strata == dict(zip(values.tolist(), counts.tolist()))
    for item in items:
        x, y = item.bounds[:2]
        assert item.map_class == value_at(prediction, x, y) == item.stratum
        assert item.label_class == value_at(reference, x, y)
        with __import__("rasterio").open(confidence) as src:
            expected = float(next(src.sample([(x, y)]))[0])
        assert item.confidence == pytest.approx(expected, rel=1e-6)
        assert item.suspicion == pytest.approx(expected if item.label_class != item.map_class else 0.0, rel=1e-6)
    assert _digest(reference) == digest


def test_reference_in_another_crs_works(run_alg, inputs, tmp_path):
    aligned = _sample(run_alg, inputs, tmp_path / "aligned.gpkg")
    moved = reprojected(inputs[2], tmp_path / "msk_3857.tif", "EPSG:3857")
    warped = _sample(run_alg, inputs, tmp_path / "warped.gpkg", REFERENCE=str(moved))
    with ReviewStore.open(aligned["OUTPUT"]) as a, ReviewStore.open(warped["OUTPUT"]) as b:
        first, second = a.items(), b.items()
    assert [i.wkt for i in first] == [i.wkt for i in second]
    same = sum(1 for i, j in zip(first, second) if i.label_class == j.label_class)
    assert same >= 0.9 * len(first)  # nearest-neighbour warping moves class edges by a pixel at most


def test_report_estimates_the_demo_models_accuracy_within_its_interval(run_alg, inputs, tmp_path):
    prediction, _, reference = inputs
    result = _sample(run_alg, inputs, tmp_path / "review.gpkg", SAMPLES=300, MIN_PER_CLASS=15)
    with ReviewStore.open(result["OUTPUT"]) as store:
        items = store.items()
        # The interpreter confirms every label (the mask is the truth here), one is left unsure.
        for item in items[1:]:
            store.set_verdict(item.item_id, "correct", item.label_class, "test")
        store.set_verdict(items[0].item_id, "unsure", None, "test")
    report_path = tmp_path / "report.json"
    out = run_alg("flair:review_report", {"REVIEW": result["OUTPUT"], "OUTPUT_REPORT": str(report_path)})
    report = json.loads(report_path.read_text())
    assert (report["items"], report["reviewed"], report["unsure"]) == (300, 300, 1)
    assert report["label_errors"]["rate"] == 0.0 and report["label_errors"]["reviewed"] == 299
    assert report["label_errors"]["ci95"][0] == 0.0 and 0 < report["label_errors"]["ci95"][1] < 0.02
    assert "Wilson on the domain" in report["label_errors"]["estimator"]
    pred, mask = read_band(prediction), read_band(reference)
    true_oa = float((pred == mask).mean())
    accuracy = report["map_accuracy"]
    assert abs(accuracy["overall_accuracy"] - true_oa) < 3 * accuracy["overall_accuracy_se"]
    for entry in accuracy["classes"]:
        true_share = float((mask == entry["value"]).mean())
        assert abs(entry["area_proportion"] - true_share) <= 3 * entry["area_proportion_se"] + 1e-9
        assert entry["area_ha_ci95"] == pytest.approx(Z95 * entry["area_proportion_se"] * pred.size * 0.04 / 1e4)
    csv_lines = open(out["OUTPUT_CSV"]).read().splitlines()
    assert csv_lines[0].startswith("value,name,label_reviewed") and len(csv_lines) > 2


def test_apply_review_raster_changes_exactly_the_reviewed_cells(run_alg, inputs, tmp_path):
    reference = inputs[2]
    digest = _digest(reference)
    review = _sample(run_alg, inputs, tmp_path / "review.gpkg")["OUTPUT"]
    changed = {}
    with ReviewStore.open(review) as store:
        items = store.items()
        for item in items[:6]:
            new = 1 if item.label_class != 1 else 2
            store.set_verdict(item.item_id, "wrong", new, "test")
            changed[item.bounds[:2]] = new
        store.set_verdict(items[6].item_id, "correct", items[6].label_class, "test")
        store.set_verdict(items[7].item_id, "unsure", None, "test")
    out = run_alg(
        "flair:apply_review", {"REFERENCE": str(reference), "REVIEW": review, "OUTPUT": str(tmp_path / "fixed.tif")}
    )
    assert out["CHANGED"] == 6
    before, after = read_band(reference), read_band(out["OUTPUT"])
    assert int((before != after).sum()) == 6
    for (x, y), value in changed.items():
        assert value_at(out["OUTPUT"], x, y) == value
    assert _digest(reference) == digest
    for target in (str(reference), review):
        with pytest.raises(QgsProcessingException, match="would overwrite"):
            run_alg("flair:apply_review", {"REFERENCE": str(reference), "REVIEW": review, "OUTPUT": target})
    assert _digest(reference) == digest


def test_suspicious_polygons_reviewed_and_applied(run_alg, inputs, tmp_path):
    polygons = polygons_of_mask(inputs[2], tmp_path / "labels.gpkg", crs="EPSG:4326")
    import geopandas as gpd

    with_comment = gpd.read_file(polygons)
    with_comment["comment"] = [f"region {k}" for k in range(len(with_comment))]
    with_comment.to_file(polygons, layer="labels", driver="GPKG")
    review = _sample(
        run_alg, inputs, tmp_path / "review.gpkg", REFERENCE=str(polygons), REFERENCE_FIELD="code",
        DESIGN="suspicious", SAMPLES=10,
    )["OUTPUT"]  # fmt: skip
    with ReviewStore.open(review) as store:
        items = store.items()
        fids = store.column("source_fid")
        suspicion = [i.suspicion for i in items]
        assert suspicion == sorted(suspicion, reverse=True) and len(items) == 10
        assert all(i.wkt.startswith(("POLYGON", "MULTIPOLYGON")) for i in items)
        store.set_verdict(items[0].item_id, "wrong", items[0].map_class, "test")
        store.set_verdict(items[1].item_id, "correct", items[1].label_class, "test")
    out = run_alg(
        "flair:apply_review",
        {
            "REFERENCE": str(polygons),
            "REFERENCE_FIELD": "code",
            "REVIEW": review,
            "OUTPUT": str(tmp_path / "fixed.gpkg"),
        },
    )
    fixed = gpd.read_file(out["OUTPUT"])
    assert list(fixed["comment"]) == list(with_comment["comment"])  # every field kept, in order
    assert out["CHANGED"] == 1
    moved = fixed[fixed["code"] != fixed["label_before"]]
    assert len(moved) == 1 and int(moved["code"].iloc[0]) == items[0].map_class
    assert int(moved["label_before"].iloc[0]) == items[0].label_class
    assert fids[items[0].item_id] is not None


@pytest.mark.parametrize("samples", [0, -1])
def test_processing_refuses_non_positive_samples(run_alg, inputs, tmp_path, samples):
    with pytest.raises(QgsProcessingException, match="SAMPLES must be at least 1"):
        _sample(run_alg, inputs, tmp_path / "r.gpkg", SAMPLES=samples)
    assert not (tmp_path / "r.gpkg").exists()


def test_report_refuses_another_schema(run_alg, inputs, tmp_path):
    polygons = polygons_of_mask(inputs[2], tmp_path / "labels.gpkg")
    with pytest.raises(QgsProcessingException, match="not a review GeoPackage"):
        run_alg("flair:review_report", {"REVIEW": str(polygons), "OUTPUT_REPORT": str(tmp_path / "r.json")})
    assert not (tmp_path / "r.json").exists()


def test_outputs_never_overwrite_inputs(run_alg, inputs, tmp_path):
    polygons = polygons_of_mask(inputs[2], tmp_path / "labels.gpkg")
    digest = _digest(polygons)
    with pytest.raises(QgsProcessingException, match="OUTPUT would overwrite REFERENCE"):
        _sample(run_alg, inputs, polygons, REFERENCE=str(polygons), REFERENCE_FIELD="code")
    assert _digest(polygons) == digest
    review = _sample(run_alg, inputs, tmp_path / "review.gpkg")["OUTPUT"]
    with pytest.raises(QgsProcessingException, match="OUTPUT would overwrite REVIEW"):
        run_alg("flair:apply_review", {"REFERENCE": str(inputs[2]), "REVIEW": review, "OUTPUT": review})
    with ReviewStore.open(review) as store:
        assert len(store.items()) == 120
