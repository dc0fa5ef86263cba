"""Two interpreters on one review: DOUBLE_REVIEW spreads the double items over the strata, the
second interpreter reviews them blind, disagreements are queued and adjudicated, and every
verdict records its seconds."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from rasters import write_raster
from review_data import classes_array

from flair_qgis.core.errors import InputError
from flair_qgis.core.review import SampleRequest, create_review
from flair_qgis.core.review.create import double_items
from flair_qgis.core.review.report import review_report
from flair_qgis.core.review.session import ReviewSession
from flair_qgis.core.review.store import ReviewStore


@pytest.fixture
def review(tmp_path):
    classes = write_raster(tmp_path / "classes.tif", classes_array()[None], nodata=0)
    path = tmp_path / "review.gpkg"
    request = SampleRequest(str(classes), str(path), samples=60, min_per_class=5, seed=4, double_review=0.25)
    create_review(request)
    return path


def test_double_items_are_spread_over_the_strata():
    strata = np.repeat([1, 2, 3], [40, 40, 20])
    flags = double_items(strata, 0.2, np.random.default_rng(0))
    assert flags.sum() == 20
    assert [int(flags[strata == h].sum()) for h in (1, 2, 3)] == [8, 8, 4]
    assert double_items(strata, 0.0, np.random.default_rng(0)).sum() == 0


def test_sample_is_the_same_with_or_without_double_review(tmp_path, review):
    classes = tmp_path / "classes.tif"
    plain = tmp_path / "plain.gpkg"
    create_review(SampleRequest(str(classes), str(plain), samples=60, min_per_class=5, seed=4))
    with ReviewStore.open(review) as a, ReviewStore.open(plain) as b:
        assert [i.wkt for i in a.items()] == [i.wkt for i in b.items()]
        assert len(a.doubles()) == 15 and b.doubles() == set()


def test_second_interpreter_blind_disagreements_adjudication_and_seconds(review):
    ticks = itertools.count(0, 2.5)  # each clock read is 2.5 s after the previous one
    with ReviewStore.open(review) as store:
        first = ReviewSession(store, "ana", clock=lambda: next(ticks))
        for _ in range(len(first.items)):
            first.confirm()
            first.move(1)
        doubles = sorted(store.doubles())
        seconds = store.seconds()
    assert len(seconds) == 60 and all(v > 0 for v in seconds.values())
    with ReviewStore.open(review) as store:
        second = ReviewSession(store, "ben", mode="second")
        assert [i.item_id for i in second.items] == [i for i in [j.item_id for j in store.items()] if i in doubles]
        assert all(not i.reviewed and i.true_class is None for i in second.items)  # blind
        other = ReviewSession(store, "ana", mode="second")
        with pytest.raises(InputError, match="another person"):
            other.confirm()
        for k in range(len(second.items)):
            item = second.go_to(k)
            if k < 3:  # three disagreements
                second.choose_class(99)
            else:
                second.confirm()
            assert second.current.true_class == (99 if k < 3 else item.map_class)  # no reference: C confirms the map
        assert store.item(second.items[0].item_id).true_class != 99  # the first verdict is untouched
        queue = ReviewSession(store, "chief", mode="adjudicate")
        assert [i.item_id for i in queue.items] == [i.item_id for i in second.items[:3]]
        first_class, second_class, decided = queue.opinions()
        assert second_class == 99 and first_class != 99 and decided is None
        before = review_report(store)
        queue.choose_class(99)
        report = review_report(store)
    assert report.agreement.items == 15 and report.agreement.raw == pytest.approx(12 / 15)
    assert report.agreement.adjudicated == 1
    assert list(report.disagreements) == [i.item_id for i in second.items[:3]]
    # The first interpreter confirmed every map class; the adjudicated class 99 is the truth now.
    assert before.map_accuracy.overall_accuracy == 1.0 > report.map_accuracy.overall_accuracy
    assert set(report.seconds.median_per_reviewer) == {"ana", "ben"}


def test_stratified_confidence_incomplete_report_names_the_strata(tmp_path):
    """A few verdicts on a stratified_confidence review: map accuracy is incomplete and the JSON and
    CSV name the empty strata by class and confidence band."""
    from flair_qgis.core.review.report import report_csv

    data = classes_array()
    classes = write_raster(tmp_path / "classes.tif", data[None], nodata=0)
    level = np.where(np.arange(data.size).reshape(data.shape) % 3 == 0, 0.4, 0.9).astype(np.float32)
    confidence = write_raster(tmp_path / "confidence.tif", level[None], nodata=None)
    path = tmp_path / "review.gpkg"
    create_review(SampleRequest(str(classes), str(path), design="stratified_confidence", samples=40, min_per_class=2,
                                seed=1, confidence_path=str(confidence)))  # fmt: skip
    with ReviewStore.open(path) as store:
        first = store.items()[0]
        store.set_verdict(first.item_id, "correct", first.map_class, "ana")
        report = review_report(store)
    accuracy = report.map_accuracy
    assert not accuracy.complete and first.stratum not in accuracy.strata_without_reviewed_items
    for stratum in accuracy.strata_without_reviewed_items:
        band = "low" if stratum % 2 == 0 else "high"
        assert accuracy.strata_names[str(stratum)] == f"class {stratum // 2}, {band} confidence"
    text = report_csv(report)
    assert f"no reviewed item (class {accuracy.strata_without_reviewed_items[0] // 2}," in text


def test_session_refuses_a_verdict_on_an_item_not_seen_over_a_layer(tmp_path):
    from flair_qgis.core.review import ItemNotSeenError

    classes = write_raster(tmp_path / "classes.tif", classes_array()[None], nodata=0)
    path = tmp_path / "review.gpkg"
    result = create_review(SampleRequest(str(classes), str(path), design="random", samples=5, seed=2))
    assert (result.path, result.items, result.design) == (str(path), 5, "random")
    shown = [False]
    with ReviewStore.open(path) as store:
        session = ReviewSession(store, "ana", layer_shown=lambda: shown[0])
        session.mark_seen()  # on the map, but over no layer
        with pytest.raises(ItemNotSeenError):
            session.confirm()
        shown[0] = True
        with pytest.raises(ItemNotSeenError):  # a layer now, but the item was not shown over it
            session.confirm()
        session.mark_seen()
        assert session.confirm().verdict == "correct"
        session.move(1)
        with pytest.raises(ItemNotSeenError):  # the next item is not seen yet
            session.unsure()
        session.mark_seen()
        shown[0] = False  # the layer went away
        with pytest.raises(ItemNotSeenError):
            session.unsure()
        assert [i.verdict for i in store.items()] == ["correct", "", "", "", ""]
        assert ReviewSession(store, "ana").unsure().verdict == "unsure"  # scripts: no layer_shown, no rule
