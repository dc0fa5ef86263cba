"""The review report reads the intervals of issue 34: Korn-Graubard and exact bounds with their method,
no zero-width interval at a rate that is neither 0 nor 1, figures withheld with a note, honest
partial grids, and per-class label-error rates withheld where a label class is split thinly."""

from __future__ import annotations

import json

import numpy as np
import pytest

from flair_qgis.core.review.rates import domain_rates
from flair_qgis.core.review.report import review_report
from flair_qgis.core.review.store import ReviewStore


def _review(tmp_path, design, strata, rows, cells=None, name="r"):
    """A review file whose items are ``rows`` of ``(stratum, map class, label class, true class or None)``
    (None: no verdict yet); ``cells`` the (stratum, label class) pixel counts, if recorded."""
    import geopandas as gpd

    from flair_qgis.core.review.schema import create_review_file

    n = len(rows)
    items = gpd.GeoDataFrame(
        {"item_id": range(1, n + 1), "stratum": [r[0] for r in rows], "map_class": [r[1] for r in rows],
         "label_class": [r[2] for r in rows]},
        geometry=gpd.points_from_xy(range(n), [0] * n), crs="EPSG:2154",
    )  # fmt: skip
    path = str(tmp_path / f"{name}.gpkg")
    create_review_file(path, items, strata, 1.0, {"design": design}, label_cells=cells)
    store = ReviewStore.open(path)
    for k, row in enumerate(rows):
        if row[3] is not None:
            store.set_verdict(k + 1, "correct" if row[3] == row[2] else "wrong", row[3], "t")
    return store


def test_rare_errors_in_a_small_stratum_get_an_interval_of_positive_width(tmp_path):
    """Issue 34: 30 items in a stratum of 900,000 px, all labels right, 3 in a stratum of 3,000 px, all
    wrong. The rate is 3,000 / 903,000 = 0.0033; main printed CI [0.0033, 0.0033] (the normal
    interval: no variance seen in either stratum). Korn-Graubard falls back on Kish's n (about 30)."""
    rows = [(1, 1, 1, 1)] * 30 + [(2, 2, 2, 3)] * 3
    with _review(tmp_path, "stratified", {1: 900_000, 2: 3_000}, rows) as store:
        report = review_report(store)
    errors = report.label_errors
    assert errors.rate == pytest.approx(3_000 / 903_000)
    low, high = errors.ci95
    assert errors.interval == "korn-graubard" and "Kish" in errors.note
    assert low < 1e-9 and 0.08 < high < 0.13  # the issue: [0, 0.112]
    accuracy = report.map_accuracy
    assert accuracy.overall_accuracy_interval == "korn-graubard"
    oa_low, oa_high = accuracy.overall_accuracy_ci95
    assert oa_low < 0.92 and oa_high == pytest.approx(1.0)  # not 0.9967 +- 0
    ua = {c.value: c for c in accuracy.classes}[1]
    # UA of class 1 = 30/30 in its own stratum: Clopper-Pearson, lower bound (a/2)^(1/30) = 0.8843.
    assert ua.users_accuracy == 1.0 and ua.users_accuracy_interval == "clopper-pearson"
    assert ua.users_accuracy_ci95[0] == pytest.approx(0.025 ** (1 / 30)) and ua.users_accuracy_ci95[1] == 1.0


def test_report_json_names_every_interval_and_flags_thin_areas(tmp_path):
    rows = [(1, 1, 1, 1)] * 25 + [(1, 1, 1, 2)] * 5 + [(2, 2, 2, 2)] * 8 + [(2, 2, 2, 1)] * 2
    with _review(tmp_path, "stratified", {1: 9_000, 2: 1_000}, rows) as store:
        data = json.loads(json.dumps(review_report(store).as_json()))
    accuracy = data["map_accuracy"]
    assert accuracy["overall_accuracy_interval"] == "korn-graubard" and len(accuracy["overall_accuracy_ci95"]) == 2
    assert any("share of the map's area, times the map's area" in n for n in accuracy["notes"])
    by_value = {c["value"]: c for c in accuracy["classes"]}
    assert by_value[1]["producers_accuracy_interval"] == by_value[1]["area_proportion_interval"] == "korn-graubard"
    assert by_value[2]["users_accuracy_interval"] == "clopper-pearson"  # 10 of 1,000: fraction 1 %
    assert by_value[2]["area_ha_interval"] == "korn-graubard" and by_value[2]["reference_items"] == 13
    assert 0 <= by_value[2]["area_ha_bounds"][0] < by_value[2]["area_ha"] < by_value[2]["area_ha_bounds"][1]
    assert by_value[1]["area_ha_note"] == "" and by_value[2]["area_ha_note"] == ""
    thin = [(1, 1, 1, 1)] * 30 + [(2, 2, 2, 2)] * 6 + [(2, 2, 2, 1)] * 3
    with _review(tmp_path, "stratified", {1: 9_000, 2: 1_000}, thin, name="thin") as store:
        classes = {c.value: c for c in review_report(store).map_accuracy.classes}
    assert "rests on 6 reviewed items of the class (< 10)" in classes[2].area_ha_note
    per_class = data["label_errors"]["per_class"]
    assert [c["interval"] for c in per_class] == ["korn-graubard"] * 2 and all("note" in c for c in per_class)


def test_a_figure_without_a_variance_keeps_its_estimate_and_withholds_its_interval(tmp_path):
    """A stratum with a single reviewed item of more pixels: its variance is unknown, so every
    interval resting on it is withheld with a note; the estimate stays."""
    rows = [(1, 1, 1, 1)] * 19 + [(1, 1, 1, 2)] + [(2, 2, 2, 2)]
    with _review(tmp_path, "stratified", {1: 9_000, 2: 1_000}, rows) as store:
        report = review_report(store)
    errors = report.label_errors
    assert errors.rate == pytest.approx(0.9 / 20) and errors.ci95 is None
    assert "variance unknown" in errors.note and errors.interval == "korn-graubard"
    assert report.map_accuracy.overall_accuracy is not None and report.map_accuracy.overall_accuracy_ci95 is None
    assert "variance unknown" in report.map_accuracy.overall_accuracy_note


def _grid_rows(decided: int) -> list:
    """400 grid items, the first 160 (the top rows, as grids were stored) 151 right (0.944), the other
    240 180 right (0.75): 331 of 400 right overall."""
    rows = []
    for k in range(400):
        right = (k % 100) < (91 if k < 160 else 80)
        truth = 1 if right else 2
        rows.append((0, 1, 1, truth if k < decided else None))
    return rows


def test_a_partial_grid_gives_no_figure_until_every_item_has_a_verdict(tmp_path):
    """Issue 34: a reviewer stopping at 160 of 400 grid items got OA 0.9125 +- 0.044 with
    complete=true against a truth of 0.840. Now every figure is null and complete false."""
    with _review(tmp_path, "grid", {0: 1_000_000}, _grid_rows(160)) as store:
        report = review_report(store)
    assert report.label_errors.complete is False and report.label_errors.rate is None
    assert "of 400 grid items, 240 without a verdict" in report.label_errors.note
    accuracy = report.map_accuracy
    assert accuracy.complete is False and accuracy.overall_accuracy is None and accuracy.classes == ()
    assert any("systematic sample stands for the whole map" in n for n in accuracy.notes)
    with _review(tmp_path, "grid", {0: 1_000_000}, _grid_rows(400), name="done") as store:
        done = review_report(store)
    assert done.label_errors.complete is True and done.map_accuracy.complete is True
    assert done.map_accuracy.overall_accuracy == pytest.approx(331 / 400)


def _split_label_rows(items_in_big: int) -> list:
    # Label class 5 under map stratum 1 (800,000 px, 3,000 of them labelled 5) and stratum 2 (1,500 px,
    # all labelled 5); the big stratum's few items labelled 5 decide half the class.
    return [(1, 1, 1, 1)] * 40 + [(1, 1, 5, 1)] * items_in_big + [(2, 5, 5, 5)] * 20


CELLS = {(1, 1): 797_000, (1, 5): 3_000, (2, 5): 1_500}


def test_a_label_class_split_thinly_across_strata_has_its_rate_withheld(tmp_path):
    with _review(tmp_path, "stratified", {1: 800_000, 2: 1_500}, _split_label_rows(2), CELLS) as store:
        errors = review_report(store).label_errors
    by_value = {c.value: c for c in errors.per_class}
    assert by_value[5].rate is None and by_value[5].ci95 is None
    assert "stratum 1 holds 67 % of this label class's pixels but 2 reviewed items" in by_value[5].note
    assert by_value[1].rate == 0.0 and errors.rate is not None  # the overall rate and other classes stay
    with _review(tmp_path, "stratified", {1: 800_000, 2: 1_500}, _split_label_rows(5), CELLS, "enough") as store:
        enough = {c.value: c for c in review_report(store).label_errors.per_class}
    assert enough[5].rate is not None and "reviewed items" not in enough[5].note


def test_an_old_review_without_label_cells_says_the_check_was_not_made(tmp_path):
    with _review(tmp_path, "stratified", {1: 800_000, 2: 1_500}, _split_label_rows(2)) as store:
        errors = review_report(store).label_errors
    withheld = {c.value: c for c in errors.per_class}[5]
    assert withheld.rate is None and withheld.ci95 is None and "split across 2 strata" in withheld.note
    assert "does not record the pixels of each stratum x label class" in errors.note
    with _review(tmp_path, "stratified", {1: 800_000, 2: 1_500}, _split_label_rows(6), name="old6") as store:
        kept = {c.value: c for c in review_report(store).label_errors.per_class}[5]
    assert kept.rate is not None and kept.ci95 is not None


def test_agreement_counts_every_class_of_the_review_for_ac1(tmp_path):
    """AC1's chance agreement divides by q - 1, q the classes offered (the review's 5 classes), not the
    2 the interpreters used. With 60 pairs agreeing on 54 (45 + 9) of class 1 / 2: p_a = 0.9,
    pi = (0.8, 0.2) gives p_e = (0.8 * 0.2 + 0.2 * 0.8) / 4 = 0.08 and AC1 = 0.82 / 0.92 = 0.8913;
    with q = 2 it would be (0.9 - 0.32) / 0.68 = 0.8529."""
    import geopandas as gpd

    from flair_qgis.core.review.schema import create_review_file

    first = [1] * 45 + [2] * 9 + [1] * 3 + [2] * 3
    second = [1] * 45 + [2] * 9 + [2] * 3 + [1] * 3
    n = len(first)
    items = gpd.GeoDataFrame(
        {"item_id": range(1, n + 1), "stratum": [1] * n, "map_class": [1] * n, "label_class": first,
         "double": [1] * n},
        geometry=gpd.points_from_xy(range(n), [0] * n), crs="EPSG:2154",
    )  # fmt: skip
    classes = json.dumps([{"value": v, "name": f"c{v}", "color": "#000000"} for v in range(1, 6)])
    path = str(tmp_path / "pairs.gpkg")
    create_review_file(path, items, {1: 10_000}, 1.0, {"design": "stratified", "classes": classes})
    with ReviewStore.open(path) as store:
        for k in range(n):
            store.set_verdict(k + 1, "correct", first[k], "ana")
            store.set_second_verdict(k + 1, "correct", second[k], "bob")
        coefficients = review_report(store).agreement.coefficients
    assert coefficients["classes"] == 5 and coefficients["items"] == 60
    assert coefficients["ac1"] == pytest.approx(0.82 / 0.92)
    assert "unweighted" in coefficients["basis"]


def test_without_scipy_the_report_writes_its_estimates_and_says_what_to_install(tmp_path):
    """scipy is optional for the plugin: with it unimportable the report JSON keeps every estimate and
    SE, the intervals are null with a note naming the package, and the dependency check words it."""
    import subprocess
    import sys

    from conftest import REPO

    rows = [(1, 1, 1, 1)] * 25 + [(1, 1, 1, 2)] * 5 + [(2, 2, 2, 2)] * 8 + [(2, 2, 2, 1)] * 2
    with _review(tmp_path, "stratified", {1: 9_000, 2: 1_000}, rows) as store:
        expected = review_report(store)
    code = f"""
import json, sys
sys.modules["scipy"] = None  # import scipy raises ImportError
sys.path.insert(0, {str(REPO)!r})
from flair_qgis.core.review import ReviewStore, review_report, write_review_report
with ReviewStore.open({store.path!r}) as store:
    report = review_report(store)
write_review_report(report, {str(tmp_path / "report.json")!r})
from flair_qgis.adapters.deps_check import review_dependency_error
print("MESSAGE", json.dumps(review_dependency_error("linux")))
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    message = json.loads(done.stdout.split("MESSAGE ", 1)[1])
    assert "scipy" in message and "sudo apt install python3-scipy" in message and "pip install" in message
    data = json.loads((tmp_path / "report.json").read_text())
    errors, accuracy = data["label_errors"], data["map_accuracy"]
    assert errors["rate"] == pytest.approx(expected.label_errors.rate) and errors["se"] is not None
    assert errors["ci95"] is None and "python3-scipy" in errors["note"]
    assert accuracy["overall_accuracy"] == pytest.approx(expected.map_accuracy.overall_accuracy)
    assert accuracy["overall_accuracy_ci95"] is None and "python3-scipy" in accuracy["overall_accuracy_note"]
    for entry in accuracy["classes"]:
        assert entry["users_accuracy"] is not None and entry["users_accuracy_ci95"] is None
        assert entry["area_ha"] is not None and entry["area_ha_bounds"] is None  # Korn-Graubard needs scipy
        assert "python3-scipy" in entry["area_ha_note"]


def test_csv_appends_the_intervals_columns(tmp_path):
    import csv
    import io

    from flair_qgis.core.review.report import report_csv

    rows = [(1, 1, 1, 1)] * 25 + [(1, 1, 1, 2)] * 5 + [(2, 2, 2, 2)] * 8 + [(2, 2, 2, 1)] * 2
    with _review(tmp_path, "stratified", {1: 9_000, 2: 1_000}, rows) as store:
        report = review_report(store)
    table = list(csv.DictReader(io.StringIO(report_csv(report))))
    head = list(table[0])
    assert head[:16][-1] == "note" and head[16:] == [
        "label_error_interval", "label_error_note", "users_accuracy_ci95_low", "users_accuracy_ci95_high",
        "producers_accuracy_ci95_low", "producers_accuracy_ci95_high", "area_ha_low", "area_ha_high",
    ]  # fmt: skip
    assert table[0]["label_error_interval"] == "korn-graubard"
    by_value = {row["value"]: row for row in table[1:]}
    ua = {c.value: c for c in report.map_accuracy.classes}[2].users_accuracy_ci95
    assert float(by_value["2"]["users_accuracy_ci95_low"]) == pytest.approx(ua[0])
    assert float(by_value["2"]["area_ha_low"]) < float(by_value["2"]["area_ha"]) < float(by_value["2"]["area_ha_high"])


def test_no_error_seen_gets_kish_bounds_not_the_raw_item_count(tmp_path):
    """Issue 34: 300 items, 100 of them in the stratum holding 99 % of the pixels, no error seen. The
    Wilson interval on the 300 items said [0, 1.26 %]; Kish's effective n (about 102) gives about 3.6 %."""
    rows = [(1, 1, 1, 1)] * 100 + [(h, h, h, h) for h in (2, 3, 4, 5) for _ in range(50)]
    strata = {1: 990_000, 2: 2_500, 3: 2_500, 4: 2_500, 5: 2_500}
    with _review(tmp_path, "stratified", strata, rows) as store:
        report = review_report(store)
    errors = report.label_errors
    assert errors.rate == 0.0 and errors.ci95[0] == 0.0
    assert 0.034 < errors.ci95[1] < 0.038 and "Kish" in errors.note
    low, high = report.map_accuracy.overall_accuracy_ci95
    assert high == 1.0 and 0.962 < low < 0.966  # OA = 1 is not "1 +- 0"


def test_stratified_confidence_without_an_error_gives_no_zero_width_interval(tmp_path):
    """Issue 34: under stratified_confidence, UA 0.95 +- 0 and OA = 1 +- 0 where no error was seen."""
    rows = [(h, h // 2, h // 2, h // 2) for h in (2, 3, 4, 5) for _ in range(20)]
    strata = {2: 50_000, 3: 400_000, 4: 20_000, 5: 130_000}
    with _review(tmp_path, "stratified_confidence", strata, rows) as store:
        accuracy = review_report(store).map_accuracy
    low, high = accuracy.overall_accuracy_ci95
    assert accuracy.overall_accuracy == 1.0 and low < 0.97 and high == 1.0
    for entry in accuracy.classes:
        assert entry.users_accuracy == 1.0 and entry.users_accuracy_ci95[0] < 0.95
        assert entry.users_accuracy_interval == "korn-graubard"  # a ratio over two strata


def test_monte_carlo_random_design_one_stratum_korn_graubard_covers_rare_errors():
    """The report's ``random`` path: one stratum ``{0: N}``, Korn-Graubard (Wilson before issue 34).
    500 simple random samples of 200 pixels (the sampling module's ranks) of the rare-error
    population of ``test_intervals.py`` (truth 1.07 %, about 2 errors per sample): the overall rate
    and that of label class 1 (80 % of the map, truth about 0.3 %). Measured (seed 34): coverage
    0.980 overall (mean width 0.034) and 0.998 for class 1."""
    from review_population import Sampler, stratum_population

    sizes = {1: 800_000, 2: 60_000, 3: 50_000, 4: 40_000, 5: 20_000, 6: 15_000, 7: 10_000, 8: 4_000, 9: 1_000}
    errors = {1: 0.003, 2: 0.015, 3: 0.03, 4: 0.02, 5: 0.05, 6: 0.10, 7: 0.15, 8: 0.20, 9: 0.30}
    pop = stratum_population(sizes, errors, seed=1)
    sampler, rng = Sampler(pop), np.random.default_rng(34)
    one = {0: pop.truth.size}
    truth = [pop.label_error_rate(), pop.label_error_rate(1)]
    hits, widths = np.zeros(2), []
    for _ in range(500):
        pixels = sampler.draw("random", 200, 0, rng)
        labels, refs = pop.label[pixels], pop.truth[pixels]
        domains = np.column_stack([np.ones(len(pixels), bool), labels == 1])
        rates = domain_rates(np.zeros(len(pixels), int), domains, labels != refs, one)
        hits += [r.lower <= t <= r.upper for r, t in zip(rates, truth)]
        widths.append(rates[0].upper - rates[0].lower)
    coverage = hits / 500
    assert coverage.min() >= 0.93, coverage
    print(f"coverage {coverage.round(3).tolist()} width {np.mean(widths):.3f}")
