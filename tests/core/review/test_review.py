"""Label review core: sampling
designs on a multi-window class map, the review GeoPackage (schema, durable verdicts, two writers)."""

from __future__ import annotations

import math
import multiprocessing
import sqlite3
import subprocess
import sys

import numpy as np
import pytest
from conftest import REPO
from rasters import write_raster
from review_data import classes_array

from flair_qgis.core.errors import InputError
from flair_qgis.core.review import SampleRequest, create_review
from flair_qgis.core.review.rates import wilson_interval
from flair_qgis.core.review.report import report_csv, review_report
from flair_qgis.core.review.sampling import allocate
from flair_qgis.core.review.store import ReviewStore

# --- sampling ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def class_map(tmp_path_factory):
    data = classes_array()
    path = write_raster(tmp_path_factory.mktemp("classes") / "classes.tif", data[None], nodata=0)
    return path, data


def test_allocation_minimum_proportional_and_small_strata():
    sizes = allocate({1: 1000, 2: 3000, 3: 6000, 9: 3}, 100, 10)
    assert sizes[9] == 3  # a stratum smaller than the minimum gives all its pixels
    assert sum(sizes.values()) == 100
    assert sizes[1] >= 10 and sizes[3] > sizes[2] > sizes[1]
    assert allocate({1: 5, 2: 5}, 100, 2) == {1: 5, 2: 5}  # fewer pixels than asked: all of them


def _sample(class_map, tmp_path, design, samples=200, **extra):
    path, _ = class_map
    out = tmp_path / f"{design}.gpkg"
    create_review(SampleRequest(str(path), str(out), design=design, samples=samples, seed=7, **extra))
    with ReviewStore.open(out) as store:
        return store, store.items()


def _pixel(item, data):
    x, y = item.bounds[0], item.bounds[1]
    col, row = int((x - 600000.0) / 0.2), int((6800000.0 - y) / 0.2)
    return row, col


def test_stratified_sample_counts_strata_and_reads_the_map_at_each_item(class_map, tmp_path):
    _, data = class_map
    store, items = _sample(class_map, tmp_path, "stratified", samples=200, min_per_class=20)
    values, counts = np.unique(data[data > 0], return_counts=True)
    assert store.strata == dict(zip(values.tolist(), counts.tolist()))
    per_stratum = {h: sum(1 for i in items if i.stratum == h) for h in store.strata}
    assert per_stratum[9] == 7 and all(n >= 20 for h, n in per_stratum.items() if h != 9)
    assert sum(per_stratum.values()) == 200
    pixels = {_pixel(i, data) for i in items}
    assert len(pixels) == 200  # no pixel twice
    for item in items:
        assert data[_pixel(item, data)] == item.map_class == item.stratum
    assert not any(i.reviewed for i in items) and {i.label_class for i in items} == {None}
    assert store.design["design"] == "stratified" and store.pixel_area_m2 == pytest.approx(0.04)
    # Items come shuffled: the first half already spans every large stratum.
    assert {i.stratum for i in items[:100]} >= {1, 2, 3, 4}


def test_same_seed_same_sample(class_map, tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    _, first = _sample(class_map, tmp_path / "a", "random", samples=50)
    _, second = _sample(class_map, tmp_path / "b", "random", samples=50)
    assert [i.wkt for i in first] == [i.wkt for i in second]


def test_random_sample_avoids_nodata(class_map, tmp_path):
    _, data = class_map
    _, items = _sample(class_map, tmp_path, "random", samples=300)
    assert len(items) == 300
    assert all(data[_pixel(i, data)] > 0 for i in items)
    assert len({_pixel(i, data) for i in items}) == 300


def test_grid_sample_is_systematic_with_a_common_offset(class_map, tmp_path):
    _, data = class_map
    store, items = _sample(class_map, tmp_path, "grid", samples=100)
    assert store.design["review_order"] == "shuffled"
    with ReviewStore.open(store.path) as reopened:
        assert review_report(reopened).response.order == "random, fixed at sampling"
    rows = sorted({_pixel(i, data)[0] for i in items})
    cols = sorted({_pixel(i, data)[1] for i in items})
    step = round(math.sqrt((data > 0).sum() / 100))
    assert set(np.diff(rows)) == {step} and set(np.diff(cols)) == {step}
    assert 80 <= len(items) <= 120
    order = [_pixel(i, data) for i in items]
    # Issue 34: shuffled (it ran row by row, so a review stopped part-way had seen the top of the map only).
    assert order != sorted(order) and {r for r, _ in order[: len(order) // 4]} != set(rows[: len(rows) // 4])


@pytest.mark.parametrize("samples", [0, -5])
def test_samples_must_be_positive(class_map, tmp_path, samples):
    with pytest.raises(InputError, match="SAMPLES must be at least 1"):
        create_review(SampleRequest(str(class_map[0]), str(tmp_path / "r.gpkg"), samples=samples))
    assert not (tmp_path / "r.gpkg").exists()


def test_all_nodata_prediction_has_no_stratum(tmp_path):
    path = write_raster(tmp_path / "empty.tif", np.zeros((1, 64, 64), dtype=np.uint8), nodata=0)
    with pytest.raises(InputError, match="no valid pixel"):
        create_review(SampleRequest(str(path), str(tmp_path / "r.gpkg"), samples=10))
    assert list(tmp_path.iterdir()) == [path]


# --- the review GeoPackage --------------------------------------------------------------------------


@pytest.fixture
def review_file(class_map, tmp_path):
    out = tmp_path / "review.gpkg"
    create_review(SampleRequest(str(class_map[0]), str(out), design="stratified", samples=40, min_per_class=5))
    return out


def test_another_schema_is_refused(tmp_path, review_file):
    import geopandas as gpd
    from shapely.geometry import Point

    other = tmp_path / "other.gpkg"
    gpd.GeoDataFrame({"a": [1]}, geometry=[Point(0, 0)], crs="EPSG:2154").to_file(other, layer="review")
    with pytest.raises(InputError, match="not a review GeoPackage"):
        ReviewStore.open(other)
    text = tmp_path / "notes.gpkg"
    text.write_text("hello")
    with pytest.raises(InputError, match="is not a GeoPackage"):
        ReviewStore.open(text)
    conn = sqlite3.connect(review_file)
    conn.execute("ALTER TABLE review RENAME COLUMN verdict TO decision")
    conn.commit()
    conn.close()
    with pytest.raises(InputError, match=r"another schema.*verdict"):
        ReviewStore.open(review_file)


def _write_verdicts(path: str, item_ids: list[int], reviewer: str) -> None:
    with ReviewStore.open(path) as store:
        for item_id in item_ids:
            store.set_verdict(item_id, "wrong", 3, reviewer)


def test_two_writers_at_once_lose_nothing_and_keep_the_file_whole(review_file):
    ids = list(range(1, 41))
    context = multiprocessing.get_context("spawn")
    writers = [
        context.Process(target=_write_verdicts, args=(str(review_file), ids, name)) for name in ("anne", "bruno")
    ]
    for process in writers:
        process.start()
    for process in writers:
        process.join(60)
        assert process.exitcode == 0
    conn = sqlite3.connect(review_file)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
    with ReviewStore.open(review_file) as store:
        items = store.items()
    assert all(i.verdict == "wrong" and i.reviewer in ("anne", "bruno") for i in items)


def test_last_write_wins_per_item(review_file):
    with ReviewStore.open(review_file) as first, ReviewStore.open(review_file) as second:
        first.set_verdict(1, "correct", 1, "anne")
        second.set_verdict(1, "wrong", 2, "bruno")
        first.set_verdict(2, "unsure", None, "anne")
        assert first.item(1).verdict == "wrong" and first.item(1).true_class == 2
        assert second.item(2).verdict == "unsure"


def test_a_verdict_survives_a_killed_process(review_file):
    code = (
        f"import os, sys; sys.path.insert(0, {str(REPO)!r})\n"
        "from flair_qgis.core.review.store import ReviewStore\n"
        f"s = ReviewStore.open({str(review_file)!r}); s.set_verdict(5, 'wrong', 2, 'crash')\n"
        "os._exit(9)  # no close, no cleanup: like QGIS killed\n"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 9
    with ReviewStore.open(review_file) as store:
        item = store.item(5)
    assert (item.verdict, item.true_class, item.reviewer) == ("wrong", 2, "crash")
    assert item.reviewed_at.endswith("+00:00")


def test_report_counts_unsure_and_one_verdict_is_no_map_accuracy(review_file):
    with ReviewStore.open(review_file) as store:
        items = store.items()
        store.set_verdict(items[0].item_id, "correct", items[0].map_class, "t")
        store.set_verdict(items[1].item_id, "unsure", None, "t")
        report = review_report(store)
    assert (report.items, report.reviewed, report.unsure) == (40, 2, 1)
    assert report.label_errors.reviewed == 0  # no reference: no label to judge
    accuracy = report.map_accuracy
    # One verdict is no "map OA 100 %": four of the five strata have no reviewed item.
    assert accuracy.reviewed == 1 and accuracy.complete is False
    assert accuracy.overall_accuracy is None and accuracy.classes == ()
    assert set(accuracy.strata_without_reviewed_items) == {1, 2, 3, 4, 9} - {items[0].stratum}
    assert report.response.prefix is True  # the unsure item comes after the decided one
    csv_text = report_csv(report)
    assert "map accuracy incomplete" in csv_text and "no reviewed item" in csv_text


def _two_strata_review(tmp_path, design: str):
    """Strata of 9,900 and 100 px, 20 items each (the issue's example); labels wrong on 1 of the 20
    items of the large stratum and on 9 of the 20 of the small one."""
    import geopandas as gpd

    from flair_qgis.core.review.schema import create_review_file

    n = 40
    strata = [1] * 20 + [2] * 20
    label = [1] * 20 + [2] * 20
    truth = [1] * 19 + [3] + [2] * 11 + [3] * 9
    items = gpd.GeoDataFrame(
        {"item_id": range(1, n + 1), "stratum": strata if design == "stratified" else [0] * n, "map_class": strata,
         "label_class": label},
        geometry=gpd.points_from_xy(range(n), [0] * n), crs="EPSG:2154",
    )  # fmt: skip
    path = str(tmp_path / f"{design}.gpkg")
    create_review_file(path, items, {1: 9900, 2: 100}, 1.0, {"design": design})
    store = ReviewStore.open(path)
    for k in range(n):
        store.set_verdict(k + 1, "correct" if truth[k] == label[k] else "wrong", truth[k], "t")
    return store


def test_stratified_label_error_rate_is_weighted_and_says_so(tmp_path):
    with _two_strata_review(tmp_path, "stratified") as store:
        report = review_report(store)
    errors = report.label_errors
    # Plain share: 10/40 = 25 %. Weighted: (9900 * 1/20 + 100 * 9/20) / 10000 = 5.4 %.
    assert errors.wrong == 10 and errors.reviewed == 40
    assert errors.rate == pytest.approx((9900 * 1 / 20 + 100 * 9 / 20) / 10000)
    assert errors.estimator.startswith("stratified combined ratio")
    low, high = errors.ci95
    # Korn-Graubard: one error in the 20 items of the 9,900 px stratum leaves the upper bound wide
    # (issue 34); the normal interval said [0.4 %, 10.4 %].
    assert errors.interval == "korn-graubard" and low < errors.rate < high < 0.3
    per_class = {c.value: c for c in errors.per_class}
    assert per_class[2].rate == pytest.approx(9 / 20)  # one stratum: its own share
    assert report.map_accuracy.complete is True and report.response.prefix is True


def test_suspicious_design_gives_counts_only(tmp_path):
    with _two_strata_review(tmp_path, "suspicious") as store:
        report = review_report(store)
    errors = report.label_errors
    assert errors.rate is None and errors.ci95 is None and errors.probability_sample is False
    assert errors.note.startswith("10 of 40 reviewed items wrong; not a probability sample")
    assert report.map_accuracy is None
    assert "not a probability sample" in report_csv(report).splitlines()[1]


def test_random_design_uses_korn_graubard_on_one_stratum(tmp_path):
    """One stratum of 10,000 px, 10 wrong of 40: the design variance is ``(1 - f) p (1 - p) / (n - 1)``,
    so ``n* = (n - 1) / (1 - f)`` and the bounds are Clopper-Pearson's at ``x = p n*`` of ``n*``
    (checked here on the beta quantiles of Newcombe's method 5 with n* = 39 / 0.996: within the
    Clopper-Pearson bounds of 9/39 and 11/39)."""
    with _two_strata_review(tmp_path, "random") as store:
        report = review_report(store)
    errors = report.label_errors
    assert errors.rate == 0.25 and errors.interval == "korn-graubard"
    low, high = errors.ci95
    wilson = wilson_interval(10, 40)
    assert low < wilson[0] and high > wilson[1]  # exact intervals are wider than Wilson's
    assert 0.12 < low < 0.14 and 0.40 < high < 0.42  # Clopper-Pearson 10/40: 0.1269-0.4119
    assert errors.estimator.startswith("simple random sample proportion (one stratum), Korn-Graubard")


def test_skipped_items_are_counted_and_warned(tmp_path):
    with _two_strata_review(tmp_path, "stratified") as store:
        store.set_verdict(3, "", None)
        store.set_verdict(5, "unsure", None, "t")
        report = review_report(store)
    response = report.response
    assert response.prefix is False
    assert (response.skipped_before_last, response.unsure_before_last) == (1, 1)
    assert "bias" in response.warning


@pytest.mark.parametrize(
    ("design", "figures", "complete"),
    [
        ("stratified", ["rate", "se", "ci95", "interval"], ["complete"]),
        ("random", ["rate", "se", "ci95", "interval"], []),
        ("suspicious", ["rate", "ci95", "se"], []),  # withheld: not a probability sample
    ],
)
def test_report_json_keeps_its_public_keys_in_order(tmp_path, design, figures, complete):
    """The typed report writes the JSON keys flair:review_report has always written, in the same order."""
    with _two_strata_review(tmp_path, design) as store:
        report = review_report(store).as_json()
    assert list(report) == ["review", "design", "items", "reviewed", "unsure", "label_errors", "map_accuracy",
                            "response", "agreement", "disagreements", "seconds"]  # fmt: skip
    errors = report["label_errors"]
    head = ["reviewed", "wrong", "probability_sample"]
    assert list(errors) == [*head, *figures, "estimator", *complete, "note", "per_class"]
    assert list(errors["per_class"][0]) == ["value", "name", "reviewed", "wrong", *figures, "note"]
    assert list(report["response"]) == ["order", "prefix", "skipped_before_last", "unsure_before_last", "warning"]
    assert list(report["seconds"]) == ["verdicts", "median_per_reviewer", "median_per_class"]
    assert list(report["agreement"])[-3:] == ["double_items", "second_reviewed", "adjudicated"]
    if design != "suspicious":
        assert list(report["map_accuracy"]) == [
            "reviewed", "strata_without_reviewed_items", "z", "estimator", "complete", "strata_names", "notes",
            "overall_accuracy", "overall_accuracy_se", "classes",
            # issue 34: appended
            "overall_accuracy_ci95", "overall_accuracy_interval", "overall_accuracy_note",
        ]  # fmt: skip
        assert list(report["map_accuracy"]["classes"][0]) == [
            "value", "name", "users_accuracy", "users_accuracy_se", "producers_accuracy", "producers_accuracy_se",
            "area_proportion", "area_proportion_se", "area_ha", "area_ha_ci95", "stratum_pixels", "stratum_reviewed",
            # issue 34: appended
            "users_accuracy_ci95", "users_accuracy_interval", "users_accuracy_note", "producers_accuracy_ci95",
            "producers_accuracy_interval", "producers_accuracy_note", "area_proportion_ci95",
            "area_proportion_interval", "area_proportion_note", "area_ha_bounds", "area_ha_interval", "area_ha_note",
            "reference_items",
        ]  # fmt: skip


def test_incomplete_stratified_report_withholds_its_rates_in_the_same_key_order(tmp_path):
    with _two_strata_review(tmp_path, "stratified") as store:
        for item_id in range(21, 41):  # stratum 2 loses every verdict
            store.set_verdict(item_id, "", None)
        errors = review_report(store).as_json()["label_errors"]
    assert errors["complete"] is False and errors["rate"] is None
    assert list(errors) == ["reviewed", "wrong", "probability_sample", "rate", "ci95", "se", "estimator", "complete",
                            "note", "per_class"]  # fmt: skip


# --- allocation (issue 34) ------------------------------------------------------------------------------


def test_every_stratum_gets_two_items_whatever_min_per_class_says():
    """MIN_PER_CLASS=0 left small strata at n_h = 0 (the review could never be complete) and 1 gave
    no variance: now ``n_h >= min(2, N_h)`` in every stratified design."""
    from flair_qgis.core.review.sampling import allocate_confidence

    strata = {1: 1_000_000, 2: 400, 3: 1}
    for minimum in (0, 1):
        sizes = allocate(strata, 200, minimum)
        assert sizes[2] == 2 and sizes[3] == 1 and sum(sizes.values()) == 200
        banded = allocate_confidence({2: 1_000_000, 3: 50_000, 4: 300, 5: 7}, 200, minimum, 0.5)
        assert min(banded.values()) == 2 and sum(banded.values()) == 200


def test_a_confidence_band_too_small_for_its_share_gives_the_rest_to_the_other():
    """Issue 34: a low band of 12 px kept its share (100 of 200), so 112 items were drawn."""
    from flair_qgis.core.review.sampling import allocate_confidence

    sizes = allocate_confidence({2: 12, 3: 500_000, 5: 80_000}, 200, 5, 0.5)
    assert sizes[2] == 12 and sum(sizes.values()) == 200
    assert sizes[3] > sizes[5] >= 5
    high_short = allocate_confidence({2: 500_000, 4: 80_000, 3: 9, 5: 3}, 200, 5, 0.5)
    assert (high_short[3], high_short[5]) == (9, 3) and sum(high_short.values()) == 200


@pytest.mark.parametrize("design", ["stratified", "stratified_confidence"])
@pytest.mark.parametrize("minimum", [0, 1])
def test_min_per_class_below_two_is_refused(class_map, tmp_path, design, minimum):
    request = SampleRequest(str(class_map[0]), str(tmp_path / "r.gpkg"), design=design, min_per_class=minimum,
                            confidence_path=str(class_map[0]))  # fmt: skip
    with pytest.raises(InputError, match="MIN_PER_CLASS must be at least 2"):
        create_review(request)
    assert not (tmp_path / "r.gpkg").exists()
