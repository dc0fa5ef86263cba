"""Reviews of a reference in its own nomenclature (issue 40): items keep the reference's code beside
the class; apply_review writes the reference's codes back, takes the code a verdict names where
several codes count as one class, and lists (never guesses) a verdict that names only such a class."""

from __future__ import annotations

import json

import geopandas as gpd
import numpy as np
import rasterio
from rasters import write_raster
from shapely.geometry import box

from flair_qgis.core.nomenclature import FLAIR1_MODEL_CLASSES
from flair_qgis.core.review import SEVERAL_CODES, SampleRequest, create_review, review_report
from flair_qgis.core.review.polygon_apply import apply_review_polygons
from flair_qgis.core.review.store import ReviewStore
from flair_qgis.core.score import parse_crosswalk

CSV = "reference,class\nCS1.1.1.1,building\nCS2.1.1.1,deciduous\nCS2.1.1.3,7\n"
CODES = ["CS1.1.1.1", "CS2.1.1.1", "CS2.1.1.3", "CS2.2.1"]  # the last is not in the crosswalk
PREDICTED = [7, 7, 1, 1]  # per 10-column cell


def _case(tmp_path, double_review: float = 0.0):
    classes = np.repeat(np.array(PREDICTED, dtype=np.uint8), 10)[None, None, :].repeat(20, axis=1)
    prediction = write_raster(tmp_path / "map.tif", classes)
    declared = [{"value": c.value, "name": c.name, "color": c.color} for c in FLAIR1_MODEL_CLASSES]
    with rasterio.open(prediction, "r+") as dst:
        dst.update_tags(1, CLASSES=json.dumps(declared))
        left, bottom, right, top = dst.bounds
    step = (right - left) / 4
    cells = [box(left + k * step, bottom, left + (k + 1) * step, top) for k in range(4)]
    gdf = gpd.GeoDataFrame({"cs": CODES, "name": list("abcd")}, geometry=cells, crs="EPSG:2154")
    crosswalk = parse_crosswalk(CSV, "ocsge.csv", "f" * 64)
    review = tmp_path / "review.gpkg"
    request = SampleRequest(str(prediction), str(review), design="suspicious", samples=10,
                            reference_polygons=gdf, reference_field="cs", crosswalk=crosswalk,
                            double_review=double_review)  # fmt: skip
    create_review(request)
    return gdf, review


def test_items_show_the_reference_code_beside_the_class(tmp_path):
    _gdf, review = _case(tmp_path)
    with ReviewStore.open(review) as store:
        items = {i.item_id: i for i in store.items()}
        own = store.column("reference_code")
        recorded = json.loads(store.design["crosswalk"])
    pairs = sorted((own[k], items[k].label_class) for k in items)
    # The unlisted code is not scored, so it is no suspicious label.
    assert pairs == [("CS1.1.1.1", 1), ("CS2.1.1.1", 7), ("CS2.1.1.3", 7)]
    assert recorded["file"] == "ocsge.csv" and recorded["rows"][0] == ["CS1.1.1.1", "building"]


def _item_of(store: ReviewStore, code: str) -> int:
    return next(k for k, v in store.column("reference_code").items() if v == code)


def test_apply_writes_reference_codes_and_never_guesses(tmp_path):
    gdf, review = _case(tmp_path)
    with ReviewStore.open(review) as store:
        store.set_verdict(_item_of(store, "CS1.1.1.1"), "wrong", 7, "a")  # 7 has two codes, none named
        store.set_verdict(_item_of(store, "CS2.1.1.3"), "wrong", 1, "a")  # 1 has one code
        store.set_verdict(_item_of(store, "CS2.1.1.1"), "correct", 7, "a")
    result = apply_review_polygons(gdf, "cs", str(review), str(tmp_path / "fixed.gpkg"))
    fixed = gpd.read_file(tmp_path / "fixed.gpkg", layer="reference_corrected")
    assert fixed["cs"].tolist() == ["CS1.1.1.1", "CS2.1.1.1", "CS1.1.1.1", "CS2.2.1"]
    assert result.changed == 1
    assert [(c.label, c.reason) for c in result.conflicts] == [("CS1.1.1.1", SEVERAL_CODES)]
    # Once the verdict names the code, it is written.
    with ReviewStore.open(review) as store:
        store.set_verdict(_item_of(store, "CS1.1.1.1"), "wrong", 7, "a", true_code="CS2.1.1.3")
    result = apply_review_polygons(gdf, "cs", str(review), str(tmp_path / "fixed2.gpkg"))
    fixed = gpd.read_file(tmp_path / "fixed2.gpkg", layer="reference_corrected")
    assert fixed["cs"].tolist() == ["CS2.1.1.3", "CS2.1.1.1", "CS1.1.1.1", "CS2.2.1"]
    assert result.changed == 2 and not result.conflicts
    assert fixed["label_before"].tolist() == CODES


def test_review_report_counts_verdicts_per_reference_code(tmp_path):
    _gdf, review = _case(tmp_path)
    with ReviewStore.open(review) as store:
        store.set_verdict(_item_of(store, "CS2.1.1.3"), "wrong", 1, "a")
        store.set_verdict(_item_of(store, "CS2.1.1.1"), "unsure", None, "a")
        entry = review_report(store).as_json()["crosswalk"]
    assert entry["file"] == "ocsge.csv" and entry["drawn_with"] is True
    by_code = {row["code"]: row for row in entry["codes"]}
    assert by_code["CS2.1.1.3"] == {"code": "CS2.1.1.3", "class": 7, "items": 1, "correct": 0, "wrong": 1, "unsure": 0}
    assert by_code["CS2.1.1.1"]["unsure"] == 1 and by_code["CS1.1.1.1"]["items"] == 1


def test_codes_named_by_the_second_interpreter_and_the_adjudicator(tmp_path):
    from flair_qgis.core.review import CODES_DISAGREE, ReviewSession

    gdf, review = _case(tmp_path, double_review=1.0)
    with ReviewStore.open(review) as store:
        target = _item_of(store, "CS1.1.1.1")  # polygon 0, labelled building

    def session(reviewer: str, mode: str) -> ReviewSession:
        opened = ReviewSession(ReviewStore.open(review), reviewer=reviewer, mode=mode)
        opened.go_to(next(k for k, i in enumerate(opened.items) if i.item_id == target))
        return opened

    first = session("ana", "first")
    first.choose_code("CS2.1.1.1")  # deciduous, one of its two codes
    assert first.true_code() == "CS2.1.1.1"
    first.close()
    second = session("ben", "second")
    assert second.true_code() is None  # blind: the first interpreter's code is not shown
    second.choose_code("CS2.1.1.3")
    assert (second.current.true_class, second.true_code()) == (7, "CS2.1.1.3")
    second.close()
    with ReviewStore.open(review) as store:
        assert store.true_codes("first") == {target: "CS2.1.1.1"}
        assert store.true_codes("second") == {target: "CS2.1.1.3"}
    # One class, two codes named: listed, not guessed.
    result = apply_review_polygons(gdf, "cs", str(review), str(tmp_path / "a.gpkg"))
    assert [(c.polygon_fid, c.reason) for c in result.conflicts] == [(0, CODES_DISAGREE)] and result.changed == 0
    second = session("ben", "second")
    second.choose_class(1)  # the second interpreter now sees building: a disagreement
    second.close()
    chief = session("chief", "adjudicate")
    assert [i.item_id for i in chief.items] == [target] and chief.true_code() is None
    chief.choose_code("CS2.1.1.3")
    assert chief.true_code() == "CS2.1.1.3"
    chief.close()
    # The adjudicated code wins over the first interpreter's.
    result = apply_review_polygons(gdf, "cs", str(review), str(tmp_path / "b.gpkg"))
    fixed = gpd.read_file(tmp_path / "b.gpkg", layer="reference_corrected")
    assert fixed["cs"].tolist()[0] == "CS2.1.1.3" and result.changed == 1 and not result.conflicts
