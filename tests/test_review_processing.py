"""flair:sample, flair:review_report and flair:apply_review end to end, on the demo model's
prediction of a real FLAIR patch against the patch's real reference mask."""

from __future__ import annotations

import hashlib
import json
import sqlite3

import numpy as np
import pytest
from qgis.core import QgsProcessingException
from review_data import demo_prediction, polygons_of_mask, read_band, reprojected, value_at

from flair_qgis.core.review.estimators import Z95
from flair_qgis.core.review.gpkg_blob import register_gpkg_functions
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
    assert report["label_errors"]["interval"] == "korn-graubard"  # issue 34: was "Wilson on the domain"
    assert "Kish effective sample size" in report["label_errors"]["note"]  # no error seen: Kish's n
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


# --- flair:apply_review on polygons (issue 16) ------------------------------------------------------


def _features(path, layer):
    """A GeoPackage layer as QGIS reads it: a GeoDataFrame indexed by feature id."""
    import geopandas as gpd
    from qgis.core import QgsVectorLayer
    from shapely import wkb

    source = QgsVectorLayer(f"{path}|layername={layer}", layer, "ogr")
    assert source.isValid()
    names = source.fields().names()
    rows, geometries, fids = [], [], []
    for feature in source.getFeatures():
        fids.append(feature.id())
        rows.append([None if v is None or (hasattr(v, "isNull") and v.isNull()) else v for v in feature.attributes()])
        geometry = feature.geometry()
        geometries.append(wkb.loads(bytes(geometry.asWkb())) if not geometry.isNull() else None)
    frame = gpd.GeoDataFrame(rows, columns=names, index=fids)
    return frame.set_geometry(geometries) if any(g is not None for g in geometries) else frame


def _items_per_polygon(review, polygons_path):
    """``{polygon fid: [items]}`` computed here with Shapely over the layer as QGIS reads it."""
    gdf = _features(polygons_path, "labels")
    with ReviewStore.open(review) as store:
        items = store.items()
    found: dict[int, list] = {}
    for item in items:
        point = __import__("shapely.wkt", fromlist=["loads"]).loads(item.wkt)
        hits = [int(fid) for fid, geometry in gdf.geometry.items() if geometry.intersects(point)]
        if hits:
            found.setdefault(max(hits), []).append(item)
    return gdf, found


def test_apply_polygons_relabels_only_where_items_agree_and_lists_conflicts(run_alg, inputs, tmp_path):
    """Pixel items on a real FLAIR patch's polygons: a polygon whose items agree takes their class, one
    whose items disagree is left alone and listed (table 'conflicts' and log), the rest is untouched."""
    from conftest import RecordingFeedback

    polygons = polygons_of_mask(inputs[2], tmp_path / "labels.gpkg")
    digest = _digest(polygons)
    review = _sample(run_alg, inputs, tmp_path / "review.gpkg", REFERENCE=str(polygons), REFERENCE_FIELD="code",
                     SAMPLES=150)["OUTPUT"]  # fmt: skip
    gdf, per_polygon = _items_per_polygon(review, polygons)
    crowded = sorted((fid for fid, items in per_polygon.items() if len(items) >= 2), key=lambda f: -len(per_polygon[f]))
    assert len(crowded) >= 2, "the patch's large polygons hold several items"
    agreed, disputed = crowded[0], crowded[1]
    single = next(fid for fid, items in per_polygon.items() if len(items) == 1)
    new_class = 19 if int(gdf.loc[agreed, "code"]) != 19 else 18
    with ReviewStore.open(review) as store:
        for item in per_polygon[agreed]:
            store.set_verdict(item.item_id, "wrong", new_class, "first")
        first, *others = per_polygon[disputed]
        store.set_verdict(first.item_id, "wrong", new_class, "first")
        for item in others:
            store.set_verdict(item.item_id, "correct", int(gdf.loc[disputed, "code"]), "first")
        store.set_verdict(per_polygon[single][0].item_id, "unsure", None, "first")
    feedback = RecordingFeedback()
    params = {"REFERENCE": str(polygons), "REFERENCE_FIELD": "code", "REVIEW": review}
    out = run_alg("flair:apply_review", {**params, "OUTPUT": str(tmp_path / "fixed.gpkg")}, feedback)
    fixed = _features(out["OUTPUT"], "reference_corrected")
    assert out["CHANGED"] == 1
    assert list(fixed.index) == list(gdf.index)  # every feature, ids kept
    assert (
        int(fixed.loc[agreed, "code"]) == new_class
        and int(fixed.loc[agreed, "label_before"]) == gdf.loc[agreed, "code"]
    )
    assert int(fixed.loc[agreed, "review_items"]) == len(per_polygon[agreed])
    untouched = fixed.index != agreed
    assert (fixed.loc[untouched, "code"].to_numpy() == gdf.loc[untouched, "code"].to_numpy()).all()
    assert fixed.geometry.geom_equals(gdf.geometry).all()
    conflicts = _features(out["OUTPUT"], "conflicts")
    assert list(conflicts["polygon_fid"]) == [disputed]
    assert conflicts["item_ids"].iloc[0] == ", ".join(str(i.item_id) for i in per_polygon[disputed])
    assert conflicts["reason"].iloc[0] == "items disagree"
    assert any(f"Polygon {disputed} " in w and "left unchanged" in w for w in feedback.warnings)
    assert _digest(polygons) == digest


def test_apply_polygons_refuses_another_layer(run_alg, inputs, tmp_path):
    import shutil

    polygons = polygons_of_mask(inputs[2], tmp_path / "labels.gpkg")
    review = _sample(run_alg, inputs, tmp_path / "review.gpkg", REFERENCE=str(polygons), REFERENCE_FIELD="code",
                     SAMPLES=30)["OUTPUT"]  # fmt: skip
    copy = shutil.copy(polygons, tmp_path / "other.gpkg")
    fewer = tmp_path / "fewer.gpkg"
    import geopandas as gpd

    gpd.read_file(polygons).iloc[1:].to_file(fewer, layer="labels", driver="GPKG")
    for other, what in ((copy, "source differ"), (fewer, "source and feature count differ")):
        target = tmp_path / f"fixed-{other.stem}.gpkg"
        with pytest.raises(QgsProcessingException, match=f"review was drawn from the reference {polygons}.*{what}"):
            params = {"REFERENCE": str(other), "REFERENCE_FIELD": "code", "REVIEW": review}
            run_alg("flair:apply_review", {**params, "OUTPUT": str(target)})
        assert not target.exists()
    # The layer the review was drawn from, opened by its layer name this time, is accepted.
    named = f"{polygons}|layername=labels"
    run_alg("flair:apply_review", {"REFERENCE": named, "REFERENCE_FIELD": "code", "REVIEW": review,
                                   "OUTPUT": str(tmp_path / "fixed.gpkg")})  # fmt: skip
    assert (tmp_path / "fixed.gpkg").exists()


def test_apply_polygons_refuses_an_item_outside_its_source_fid(run_alg, inputs, tmp_path):

    polygons = polygons_of_mask(inputs[2], tmp_path / "labels.gpkg")
    review = _sample(run_alg, inputs, tmp_path / "review.gpkg", REFERENCE=str(polygons), REFERENCE_FIELD="code",
                     DESIGN="suspicious", SAMPLES=4)["OUTPUT"]  # fmt: skip
    with ReviewStore.open(review) as store:
        items = store.items()
        fids = store.column("source_fid")
        for item in items[:2]:
            store.set_verdict(item.item_id, "wrong", 19, "first")
    moved_to = int(fids[items[1].item_id])
    # A review whose source_fid points to another polygon (as a review drawn from another layer would).
    with sqlite3.connect(review) as conn:
        register_gpkg_functions(conn)
        conn.execute(
            "UPDATE review SET source_fid = ? WHERE item_id = ?", (int(fids[items[0].item_id]), items[1].item_id)
        )
    out = run_alg("flair:apply_review", {"REFERENCE": str(polygons), "REFERENCE_FIELD": "code", "REVIEW": review,
                                         "OUTPUT": str(tmp_path / "fixed.gpkg")})  # fmt: skip
    fixed = _features(out["OUTPUT"], "reference_corrected")
    conflicts = _features(out["OUTPUT"], "conflicts")
    assert out["CHANGED"] == 1
    assert int(fixed.loc[int(fids[items[0].item_id]), "code"]) == 19
    assert int(fixed.loc[moved_to, "code"]) == int(fixed.loc[moved_to, "label_before"])
    assert list(conflicts["item_ids"]) == [str(items[1].item_id)]
    assert conflicts["reason"].iloc[0] == "point outside its source_fid polygon"


# --- stratified_confidence and two interpreters (issue 16, sections 2 and 3) -------------------------


def test_stratified_confidence_two_interpreters_end_to_end(run_alg, inputs, tmp_path):
    """The demo model's class map and confidence on a real patch: strata are map class x band, the
    low band gets its share, a fifth of the items is double; a second interpreter's verdicts give
    kappa/AC1 in the report and adjudications change the estimates."""
    import rasterio
    from conftest import RecordingFeedback

    prediction, confidence, _reference = inputs
    design = {"DESIGN": "stratified_confidence", "SAMPLES": 100, "MIN_PER_CLASS": 2, "CONFIDENCE_THRESHOLD": 0.8,
              "LOW_CONFIDENCE_SHARE": 0.6, "DOUBLE_REVIEW": 0.2}  # fmt: skip
    review = _sample(run_alg, inputs, tmp_path / "review.gpkg", **design)["OUTPUT"]
    pred, conf = read_band(prediction), read_band(confidence)
    with rasterio.open(prediction) as src:
        nodata = src.nodata
    valid = pred != nodata if nodata is not None else np.ones(pred.shape, bool)
    expected = {}
    for c, high in zip(pred[valid].tolist(), (conf[valid] >= 0.8).tolist()):
        expected[2 * c + int(high)] = expected.get(2 * c + int(high), 0) + 1
    with ReviewStore.open(review) as store:
        items = store.items()
        assert store.strata == expected
        rows = dict(
            (
                (s, (m, b))
                for s, m, b in store._conn.execute("SELECT stratum, map_class, confidence_band FROM review_strata")
            )
        )
        doubles = store.doubles()
    assert rows == {h: (h // 2, "low" if h % 2 == 0 else "high") for h in expected}
    for item in items:
        assert item.map_class == item.stratum // 2
        assert (item.confidence >= 0.8) == (item.stratum % 2 == 1)
    low = sum(1 for i in items if i.stratum % 2 == 0)
    assert abs(low - 60) <= 2 * sum(1 for h in expected if h % 2 == 0)  # the minimum per stratum may move it
    assert len(doubles) == 20
    # First interpreter: the reference label is the truth; second: disagrees on two double items.
    double_items = [i for i in items if i.item_id in doubles]
    with ReviewStore.open(review) as store:
        for item in items:
            store.set_verdict(item.item_id, "correct" if item.label_class == item.map_class else "wrong",
                              int(item.label_class), "ana", seconds=4.0)  # fmt: skip
        with pytest.raises(Exception, match="another person"):
            store.set_second_verdict(double_items[0].item_id, "correct", 1, "ana")
        for k, item in enumerate(double_items):
            other = int(item.label_class) if k >= 2 else (int(item.label_class) % 12) + 1
            store.set_second_verdict(item.item_id, "wrong", other, "ben", seconds=6.0)
        disputed = store.disagreements()
    assert disputed == [i.item_id for i in double_items[:2]]
    feedback = RecordingFeedback()
    report_path = tmp_path / "report.json"
    run_alg("flair:review_report", {"REVIEW": review, "OUTPUT_REPORT": str(report_path)}, feedback)
    report = json.loads(report_path.read_text())
    assert report["agreement"]["items"] == 20 and report["agreement"]["raw"] == pytest.approx(0.9)
    assert report["agreement"]["kappa"] is not None and report["agreement"]["ac1"] >= report["agreement"]["kappa"]
    assert report["disagreements"] == disputed
    assert report["seconds"]["median_per_reviewer"] == {"ana": 4.0, "ben": 6.0}
    assert "Stehman (2014)" in report["map_accuracy"]["estimator"] and report["map_accuracy"]["complete"]
    assert any("kappa" in line for line in feedback.infos)
    # The adjudicated class replaces the first interpreter's in the estimates.
    with ReviewStore.open(review) as store:
        store.set_adjudication(disputed[0], (int(double_items[0].label_class) % 12) + 1, "chief")
    run_alg("flair:review_report", {"REVIEW": review, "OUTPUT_REPORT": str(tmp_path / "after.json")})
    after = json.loads((tmp_path / "after.json").read_text())
    assert after["agreement"]["adjudicated"] == 1
    assert after["label_errors"]["wrong"] == report["label_errors"]["wrong"] + 1


def test_apply_raster_refuses_another_raster(run_alg, inputs, tmp_path):
    import shutil

    review = _sample(run_alg, inputs, tmp_path / "review.gpkg", SAMPLES=20)["OUTPUT"]
    copy = shutil.copy(inputs[2], tmp_path / "copy.tif")
    with pytest.raises(QgsProcessingException, match=f"drawn from the reference {inputs[2]}.*source differ"):
        run_alg("flair:apply_review", {"REFERENCE": str(copy), "REVIEW": review, "OUTPUT": str(tmp_path / "f.tif")})
    assert not (tmp_path / "f.tif").exists()


def test_sample_refuses_min_per_class_below_two(run_alg, inputs, tmp_path):
    with pytest.raises(QgsProcessingException, match="MIN_PER_CLASS must be at least 2"):
        _sample(run_alg, inputs, tmp_path / "refused.gpkg", MIN_PER_CLASS=1)
    assert not (tmp_path / "refused.gpkg").exists()


def test_sample_stratified_label_and_its_report(run_alg, inputs, tmp_path):
    """DESIGN=stratified_label on the demo model's map and the real mask: strata = map class x label
    class, recorded with their pixels; the report's per-class label-error rates cover every label class."""
    from flair_qgis.core.review.label_strata import stratum_label, stratum_map_class

    prediction, _confidence, reference = inputs
    result = _sample(run_alg, inputs, tmp_path / "by_label.gpkg", DESIGN="stratified_label", SAMPLES=150,
                     MIN_PER_CLASS=2)  # fmt: skip
    pred, mask = read_band(prediction), read_band(reference)
    with ReviewStore.open(result["OUTPUT"]) as store:
        strata, cells, items = store.strata, store.label_cells, store.items()
        for item in items:
            store.set_verdict(item.item_id, "correct", item.label_class, "t")
    assert sum(strata.values()) == int((pred != 255).sum())
    for h, n in strata.items():
        label = stratum_label(h)
        expected = (pred == stratum_map_class(h)) & ((mask == label) if label is not None else False)
        if label is not None:
            assert n == int(expected.sum()) and cells[(h, label)] == n
    report_path = tmp_path / "report.json"
    run_alg("flair:review_report", {"REVIEW": result["OUTPUT"], "OUTPUT_REPORT": str(report_path)})
    report = json.loads(report_path.read_text())
    assert report["design"] == "stratified_label" and report["label_errors"]["complete"] is True
    assert report["label_errors"]["rate"] == 0.0 and report["label_errors"]["interval"] == "korn-graubard"
    assert {c["value"] for c in report["label_errors"]["per_class"]} == {i.label_class for i in items} - {None}


def test_label_cells_from_polygon_labels_match_the_mask(run_alg, inputs, tmp_path):
    """The (stratum x label class) pixels recorded at sampling from polygon labels: the mask's own
    regions as polygons give the mask's counts (pixel centres inside the polygons)."""
    prediction, _confidence, reference = inputs
    polygons = polygons_of_mask(reference, tmp_path / "labels.gpkg")
    result = _sample(run_alg, inputs, tmp_path / "review.gpkg", REFERENCE=str(polygons), REFERENCE_FIELD="code")
    pred, mask = read_band(prediction), read_band(reference)
    keep = pred != 255
    pairs, counts = np.unique(np.stack([pred[keep], mask[keep]]), axis=1, return_counts=True)
    with ReviewStore.open(result["OUTPUT"]) as store:
        assert store.label_cells == {(int(h), int(c)): int(n) for h, c, n in zip(pairs[0], pairs[1], counts)}
