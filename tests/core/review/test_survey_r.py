"""Estimates, standard errors and Korn-Graubard bounds against R's ``survey`` package (issue 42).

The expected numbers were computed once by ``tests/data/survey_r/survey.R`` (R with Debian's
r-cran-survey 4.1-1-1: ``svymean``, ``svytotal``, ``svyratio``, ``svyciprop(method = "beta")``,
``degf`` of a ``subset()`` design) from the stratified samples of ``samples.csv`` and stored in
``expected.json`` with 15 significant digits; the tests read the file and need no R.
"""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest
from conftest import REPO

from flair_qgis.core.review.estimators import design_estimate
from flair_qgis.core.review.intervals import degrees_of_freedom_factor, korn_graubard
from flair_qgis.core.review.rates import domain_rates

DATA = REPO / "tests" / "data" / "survey_r"
EXPECTED = json.loads((DATA / "expected.json").read_text())
PIXEL_M2 = 0.25  # the R script's pixel area


def _sample(name: str) -> dict[str, np.ndarray]:
    with open(DATA / "samples.csv", newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["sample"] == name]
    return {k: np.array([int(r[k]) for r in rows]) for k in ("stratum", "N", "map", "ref", "label")}


def _pixels(x: dict[str, np.ndarray]) -> dict[int, int]:
    return {int(h): int(n) for h, n in zip(x["stratum"], x["N"])}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_oa_shares_areas_and_user_accuracy_equal_svymean_svytotal_svyratio(name):
    x, want = _sample(name), EXPECTED[name]
    owner = {h: h for h in _pixels(x)}
    est = design_estimate(x["stratum"], x["map"], x["ref"], _pixels(x), PIXEL_M2, owner)
    assert est.overall_accuracy == pytest.approx(want["oa"]["estimate"], abs=1e-12)
    assert est.overall_accuracy_se == pytest.approx(want["oa"]["se"], abs=1e-12)
    for k, c in enumerate(est.classes):
        share, area = want[f"share{c}"], want[f"area_m2_{c}"]
        assert est.area_proportion[k] == pytest.approx(share["estimate"], abs=1e-12)
        assert est.area_proportion_se[k] == pytest.approx(share["se"], abs=1e-12)
        assert est.area_m2[k] == pytest.approx(area["estimate"], rel=1e-12)
        assert est.area_m2_ci95[k] / 1.96 == pytest.approx(area["se"], rel=1e-12, abs=1e-9)
        if f"ua{c}" in want:
            assert est.users_accuracy[k] == pytest.approx(want[f"ua{c}"]["estimate"], abs=1e-12)
            assert est.users_accuracy_se[k] == pytest.approx(want[f"ua{c}"]["se"], abs=1e-12)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_label_error_rates_of_domains_equal_svyratio(name):
    x, want = _sample(name), EXPECTED[name]
    labels = sorted(set(x["label"].tolist()))
    domains = x["label"][:, None] == np.array(labels)[None, :]
    rates = domain_rates(x["stratum"], domains, x["label"] != x["ref"], _pixels(x))
    for c, rate in zip(labels, rates):
        expected = want[f"label_error{c}"]
        assert rate.estimate == pytest.approx(expected["estimate"], abs=1e-12)
        assert rate.se == pytest.approx(expected["se"], abs=1e-12)


def test_domain_degrees_of_freedom_are_the_subset_designs():
    """R's subset design: 6 items of the domain in 3 strata give degf 3 and the factor
    (t_5 / t_3)^2 = 0.652 (the whole sample's 15 items in 3 strata would give 0.969). scipy's and R's
    t quantiles agree to about 1e-9."""
    for figures in EXPECTED.values():
        for key, entry in figures.items():
            if key.startswith("label_error") and "df_factor" in entry:
                rows, strata = int(entry["rows"]), int(entry["rows"]) - int(entry["degf"])
                assert degrees_of_freedom_factor(rows, strata) == pytest.approx(entry["df_factor"], abs=1e-8), key
    assert EXPECTED["C"]["label_error9"]["df_factor"] == pytest.approx(0.652, abs=5e-4)
    assert degrees_of_freedom_factor(15, 3) == pytest.approx(0.969, abs=5e-4)


def test_korn_graubard_bounds_equal_svyciprop_beta():
    """From R's estimate, variance and degrees of freedom, uncapped (``svyciprop`` does not cap)."""
    checked = 0
    for figures in EXPECTED.values():
        for key, entry in figures.items():
            if "ci" not in entry:
                continue
            factor = entry.get("df_factor", 1.0)
            if key == "oa":
                continue  # its df is the whole design's: checked below
            got = korn_graubard(entry["estimate"], entry["se"] ** 2, 1.0, df_factor=factor)[0]
            assert got.lower == pytest.approx(entry["ci"][0], abs=1e-10), key
            assert got.upper == pytest.approx(entry["ci"][1], abs=1e-10), key
            checked += 1
    assert checked >= 5


def test_a_domain_without_silent_stratum_gets_r_s_interval_from_the_report_path():
    """Sample C, label class 9: two items in each of the 3 strata, one right and one wrong in each:
    no stratum without variation, ``n*`` below the cap, so ``domain_rates`` is R's interval exactly."""
    x = _sample("C")
    rate = domain_rates(x["stratum"], (x["label"] == 9)[:, None], x["label"] != x["ref"], _pixels(x))[0]
    expected = EXPECTED["C"]["label_error9"]
    assert (rate.lower, rate.upper) == pytest.approx(tuple(expected["ci"]), abs=1e-10)


def test_oa_bounds_equal_svyciprop_with_the_whole_designs_degrees_of_freedom():
    for name in EXPECTED:
        x, want = _sample(name), EXPECTED[name]["oa"]
        n, strata = len(x["stratum"]), len(set(x["stratum"].tolist()))
        got = korn_graubard(want["estimate"], want["se"] ** 2, 1.0, df_factor=degrees_of_freedom_factor(n, strata))[0]
        assert (got.lower, got.upper) == pytest.approx(tuple(want["ci"]), abs=1e-10), name
