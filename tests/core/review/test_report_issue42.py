"""The review report's smaller fixes of issue 42: unsure grid items keep a grid incomplete, a class
no item is of is listed, ``allocate_confidence`` keeps its total."""

from __future__ import annotations

import json

import pytest

from flair_qgis.core.review.report import review_report
from flair_qgis.core.review.sampling import allocate_confidence
from tests.core.review.test_report_intervals import _grid_rows, _review


def test_a_grid_with_unsure_items_is_not_complete(tmp_path):
    """Issue 42: the first 40 % decided and the rest marked unsure reported OA 0.925, complete,
    against a truth of 0.840. Unsure items now wait like items without a verdict."""
    with _review(tmp_path, "grid", {0: 1_000_000}, _grid_rows(160)) as store:
        for item_id in range(161, 401):
            store.set_verdict(item_id, "unsure", None, "t")
        report = review_report(store)
    assert report.unsure == 240
    assert report.label_errors.complete is False and report.label_errors.rate is None
    assert "of 400 grid items, 240 marked unsure" in report.label_errors.note
    accuracy = report.map_accuracy
    assert accuracy.complete is False and accuracy.overall_accuracy is None and accuracy.classes == ()
    with _review(tmp_path, "grid", {0: 1_000_000}, _grid_rows(400), name="done") as store:
        assert review_report(store).map_accuracy.complete is True


def test_a_class_met_by_no_item_is_listed_with_no_item(tmp_path):
    import geopandas as gpd

    from flair_qgis.core.review.schema import create_review_file
    from flair_qgis.core.review.store import ReviewStore

    rows = [(1, 1, 1)] * 40 + [(1, 1, 2)] * 2 + [(2, 2, 2)] * 8
    n = len(rows)
    items = gpd.GeoDataFrame(
        {"item_id": range(1, n + 1), "stratum": [0] * n, "map_class": [r[1] for r in rows],
         "label_class": [r[2] for r in rows]},
        geometry=gpd.points_from_xy(range(n), [0] * n), crs="EPSG:2154",
    )  # fmt: skip
    classes = json.dumps([{"value": v, "name": f"c{v}"} for v in (1, 2, 7)])
    path = str(tmp_path / "random.gpkg")
    create_review_file(path, items, {1: 8_000, 2: 1_900, 7: 100}, 1.0, {"design": "random", "classes": classes})
    with ReviewStore.open(path) as store:
        for k, row in enumerate(rows):
            store.set_verdict(k + 1, "correct" if row[2] == row[1] else "wrong", row[2], "t")
        accuracy = review_report(store).map_accuracy
    by_value = {c.value: c for c in accuracy.classes}
    assert set(by_value) == {1, 2, 7}
    absent = by_value[7]
    assert absent.name == "c7" and absent.reference_items == 0
    assert absent.users_accuracy is None and absent.producers_accuracy is None
    assert absent.area_ha == 0.0 and absent.area_ha_bounds[0] == 0.0 and absent.area_ha_bounds[1] > 0
    assert "no item of the class reviewed" in absent.area_ha_note and absent.area_ha_interval == "korn-graubard"


@pytest.mark.parametrize("share", [1.0, 0.99, 0.5, 0.0])
def test_allocate_confidence_returns_the_requested_total(share):
    strata = {2: 5_000, 3: 20_000, 4: 3_000, 5: 9_000, 7: 100, 9: 100}  # even: low band, odd: high
    sizes = allocate_confidence(strata, 200, 5, share)
    assert sum(sizes.values()) == 200 and min(sizes.values()) >= 5
