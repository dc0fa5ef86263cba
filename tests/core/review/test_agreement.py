"""Cohen's kappa and Gwet's AC1 reproduce a published worked example to its printed digits."""

from __future__ import annotations

import pytest

from flair_qgis.core.review.agreement import agreement, t_quantile_975


def _raters(table):
    first, second = [], []
    for k, row in enumerate(table):
        for j, count in enumerate(row):
            first += [k] * count
            second += [j] * count
    return first, second


def test_gwet_handbook_abstractors_table():
    """Gwet (2014), Handbook of Inter-Rater Reliability, 4th ed.: two abstractors classify 100
    pregnancies as ectopic, AIU or NIU (3 x 3 table [[13, 0, 0], [0, 20, 7], [0, 4, 56]]). The
    figures below are those printed by Gwet's own R package irrCAC for this table (dataset
    ``cont3x3abstractors``, README "Computing agreement coefficients from contingency tables"):
    percent agreement 0.89, Cohen's kappa 0.7964094 (SE 0.05891072, 95 % CI (0.68, 0.913)),
    Gwet's AC1 0.8493305 (SE 0.04321747, 95 % CI (0.764, 0.935))."""
    result = agreement(*_raters([[13, 0, 0], [0, 20, 7], [0, 4, 56]]))
    assert result["items"] == 100 and round(result["raw"], 2) == 0.89
    assert round(result["kappa"], 7) == 0.7964094
    assert round(result["kappa_se"], 8) == 0.05891072
    assert [round(v, 3) for v in result["kappa_ci95"]] == [0.680, 0.913]
    assert round(result["ac1"], 7) == 0.8493305
    assert round(result["ac1_se"], 8) == 0.04321747
    assert [round(v, 3) for v in result["ac1_ci95"]] == [0.764, 0.935]
    specific = {c["value"]: c["specific_agreement"] for c in result["per_class"]}
    assert specific[0] == 1.0 and specific[1] == pytest.approx(40 / 51)


def test_kappa_paradox_ac1_stays_high():
    """One class dominates and the raters agree on 95 % of items: kappa drops, AC1 does not."""
    first, second = _raters([[90, 3], [2, 5]])
    result = agreement(first, second)
    assert result["raw"] == pytest.approx(0.95)
    assert result["ac1"] > 0.9 > result["kappa"]


def test_no_items_and_one_class():
    assert agreement([], [])["kappa"] is None
    same = agreement([4, 4, 4], [4, 4, 4])
    assert same["raw"] == 1.0 and same["ac1"] == 1.0 and same["kappa"] is None


@pytest.mark.parametrize(("df", "exact"), [(6, 2.446911851), (10, 2.228138852), (30, 2.042272456), (99, 1.984216952)])
def test_t_quantile(df, exact):
    assert t_quantile_975(df) == pytest.approx(exact, abs=2e-4)
