"""``DESIGN=stratified_label`` (strata = map class x label class) and the (stratum x label class)
pixel counts recorded at sampling (issue 34): written by the real sampling job, read by the report,
and the design's label-error rate checked by Monte-Carlo where a label class is split across strata."""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest
from rasters import write_raster
from review_data import classes_array
from review_population import Population, Sampler

from flair_qgis.core.errors import InputError
from flair_qgis.core.review import SampleRequest, create_review
from flair_qgis.core.review.label_strata import LABEL_FACTOR, stratum_label, stratum_map_class
from flair_qgis.core.review.rates import domain_rates
from flair_qgis.core.review.report import review_report
from flair_qgis.core.review.store import ReviewStore


@pytest.fixture(scope="module")
def rasters(tmp_path_factory):
    """The class map of the review tests and labels differing from it on a band of rows and columns."""
    folder = tmp_path_factory.mktemp("labels")
    data = classes_array()
    labels = data.copy()
    labels[::7, :] = np.where(data[::7, :] > 0, (data[::7, :] % 4) + 1, 0)
    labels[:, ::11] = 0  # no label there (nodata)
    classes = write_raster(folder / "classes.tif", data[None], nodata=0)
    reference = write_raster(folder / "labels.tif", labels[None], nodata=0)
    return classes, reference, data, labels


def _cells(data, labels, strata):
    keep = (data > 0) & (labels > 0)
    pairs, counts = np.unique(np.stack([strata[keep], labels[keep]]), axis=1, return_counts=True)
    return {(int(h), int(c)): int(n) for h, c, n in zip(pairs[0], pairs[1], counts)}


def test_stratified_review_records_the_pixels_of_each_stratum_and_label_class(rasters, tmp_path):
    classes, reference, data, labels = rasters
    path = tmp_path / "review.gpkg"
    create_review(SampleRequest(str(classes), str(path), samples=60, min_per_class=5, seed=2,
                                reference_raster=str(reference)))  # fmt: skip
    with ReviewStore.open(path) as store:
        assert store.label_cells == _cells(data, labels, data)  # counted from the rasters themselves
    with sqlite3.connect(path) as conn:
        listed = {r[0] for r in conn.execute("SELECT table_name FROM gpkg_contents")}
    assert "review_label_cells" in listed  # an attribute table QGIS lists


def test_stratified_label_strata_are_map_class_by_label_class(rasters, tmp_path):
    classes, reference, data, labels = rasters
    path = tmp_path / "by_label.gpkg"
    create_review(SampleRequest(str(classes), str(path), design="stratified_label", samples=150, min_per_class=2,
                                seed=5, reference_raster=str(reference)))  # fmt: skip
    with ReviewStore.open(path) as store:
        items, strata, cells = store.items(), store.strata, store.label_cells
        report = review_report(store)
    index = np.where(labels > 0, labels.astype(np.int64) + 1, 0)
    expected = data.astype(np.int64) * LABEL_FACTOR + index
    values, counts = np.unique(expected[data > 0], return_counts=True)
    assert strata == dict(zip(values.tolist(), counts.tolist()))
    assert cells == {(h, stratum_label(h)): n for h, n in strata.items() if stratum_label(h) is not None}
    for item in items:
        assert item.map_class == stratum_map_class(item.stratum)
        assert item.label_class == stratum_label(item.stratum)
    per_stratum = {h: sum(1 for i in items if i.stratum == h) for h in strata}
    assert all(n >= min(2, strata[h]) for h, n in per_stratum.items())
    assert report.map_accuracy.complete is False  # nothing reviewed yet
    some = next(iter(report.map_accuracy.strata_names.values()))
    assert some.startswith("class ") and (", label " in some or ", no label" in some)


def test_stratified_label_needs_the_labels(rasters, tmp_path):
    with pytest.raises(InputError, match="stratified_label splits each class by the labels"):
        create_review(SampleRequest(str(rasters[0]), str(tmp_path / "r.gpkg"), design="stratified_label"))


def _split_population() -> Population:
    """Issue 34's case: 3,000 px labelled 9 under the map's 800,000 px stratum, 60 % wrong; 1,500 px
    labelled 9 forming a small stratum, 3 % wrong (truth 0.410); the other labels right."""
    sizes = {1: 800_000, 2: 198_500, 9: 1_500}
    maps = np.concatenate([np.full(n, c) for c, n in sizes.items()])
    truth, label = maps.copy(), maps.copy()
    label[:3_000] = 9
    truth[1_800:3_000] = 9  # the first 1,800 of the 3,000 labelled 9 are truly 1: wrong
    small = 800_000 + 198_500
    truth[small : small + 45] = 1
    return Population(truth, maps, label, maps.size, sizes)


def test_monte_carlo_stratified_label_rate_of_a_split_label_class():
    """500 draws of 600 items (MIN_PER_CLASS 20) with the sampling module's plan for
    ``stratified_label``: the rate of label class 9 (truth 0.410) is unbiased and its Korn-Graubard
    interval covers >= 0.93. Measured (seed 34): mean 0.409, coverage 0.974, mean width 0.309
    (issue 42; 0.976 and 0.318 before). The same population under ``stratified`` (map classes)
    averages 0.348, coverage 0.865 (test_intervals.py)."""
    pop = _split_population()
    truth = pop.label_error_rate(9)
    assert truth == pytest.approx(0.41)
    sampler, rng = Sampler(pop, by_label=True), np.random.default_rng(34)
    estimates, hits, widths = [], [], []
    for _ in range(500):
        pixels = sampler.draw("stratified_label", 600, 20, rng)
        strata, labels, refs = sampler.stratum[pixels], pop.label[pixels], pop.truth[pixels]
        rate = domain_rates(strata, (labels == 9)[:, None], labels != refs, sampler.strata)[0]
        estimates.append(rate.estimate)
        hits.append(rate.lower <= truth <= rate.upper)
        widths.append(rate.upper - rate.lower)
    mc_se = np.std(estimates) / np.sqrt(len(estimates))
    assert abs(np.mean(estimates) - truth) < 3 * mc_se
    assert np.mean(hits) >= 0.93
    print(f"mean {np.mean(estimates):.3f} coverage {np.mean(hits):.3f} width {np.mean(widths):.3f}")
