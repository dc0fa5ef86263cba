"""Monte-Carlo coverage and width of the review's intervals in the hard cases of issue 42.

Each case draws ``DRAWS`` seeded samples with ``sampling.plan_ranks`` from a population whose
truth is computed from its full arrays (``tests/interval_simulation.py``) and measures, per figure
(label-error rate overall and per map class, OA, UA, area shares, areas in m²), the share of
intervals holding the truth and their mean width, beside Korn-Graubard capped at the domain's items
without the floor of :data:`flair_qgis.core.review.intervals.SILENT_FLOOR` (the issue's benchmark).
``bench/review_intervals.py`` prints the same figures as the table of ``docs/review.md``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from interval_simulation import CASES, simulate

DRAWS = 250
SE = math.sqrt(0.95 * 0.05 / DRAWS)
FIGURE_FLOOR = 0.95 - 2.33 * SE
"""Every figure: 0.95 less 2.33 binomial SEs of a 0.95 coverage over DRAWS samples (0.918)."""
MAIN_FLOOR = 0.95 - 1.645 * SE
"""The label-error rate and OA: 0.95 less 1.645 SEs (0.927)."""
WIDTH_RATIO = 1.1
FLOORED = {
    "rare errors, OA near 1 (UA 0.97-0.998), 200 items": 1.5,
    "big stratum with 0.1 % errors, none seen": 1.6,
    "near-census stratum (N = 25, n = 20)": 1.5,
    "stratified_confidence (low share 0.5)": 1.15,
}
"""Cases where a heavy stratum's items usually show no error and the floor widens the label-error rate
and OA beyond 1.1 times the benchmark: the width the case "big stratum with 4 % errors, often none
seen" needs (the benchmark covers 0.82 there), which a sample cannot tell from these (docs/review.md)."""


@pytest.fixture(scope="module")
def results():
    return {}


def _run(results, case):
    if case not in results:
        results[case] = simulate(CASES[case], DRAWS)
    return results[case]


@pytest.mark.slow
@pytest.mark.parametrize("case", list(CASES))
def test_every_interval_covers_the_truth_and_none_has_zero_width(case, results):
    figures = _run(results, case)
    low = {k: round(v["coverage"], 3) for k, v in figures.items() if v["coverage"] < FIGURE_FLOOR}
    assert not low, low
    for key in ("label error", "OA"):
        assert figures[key]["coverage"] >= MAIN_FLOOR, (key, figures[key])
    zero = {k: v["zero"] for k, v in figures.items() if v["zero"] > 0}
    assert not zero, zero
    areas = [v["coverage"] for k, v in figures.items() if k.startswith("area ") and "share" not in k]
    assert areas and min(areas) >= FIGURE_FLOOR


@pytest.mark.slow
@pytest.mark.parametrize("case", list(CASES))
def test_widths_stay_within_the_benchmark_s(case, results):
    """Mean width against Korn-Graubard capped at the items (no floor), on the same samples: at most
    1.1 times for every figure, or the recorded ceiling of a FLOORED case for the rate and OA."""
    figures = _run(results, case)
    ratios = {k: v["width"] / v["kg_n_width"] for k, v in figures.items() if v["kg_n_width"] > 0}
    ceiling = {k: FLOORED.get(case, WIDTH_RATIO) if k in ("label error", "OA") else WIDTH_RATIO for k in ratios}
    high = {k: round(r, 3) for k, r in ratios.items() if r > ceiling[k]}
    assert not high, high


@pytest.mark.slow
def test_the_case_that_needs_the_floor():
    """80 % of the map in a stratum with 4 % errors and 36 of 200 items (no error seen in 23 % of the
    samples): the benchmark covers about 0.82 for the label-error rate and OA, ours at least 0.95."""
    figures = simulate(CASES["big stratum with 4 % errors, often none seen"], DRAWS)
    for key in ("label error", "OA"):
        assert figures[key]["kg_n_coverage"] < 0.88 and figures[key]["coverage"] >= MAIN_FLOOR, figures[key]
    assert np.isfinite(figures["label error"]["width"])
