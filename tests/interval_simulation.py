"""Monte-Carlo simulation of the review's intervals in the hard cases of issue 42: coverage and mean
width of every figure (label-error rates, OA, UA, area shares, areas in m²) against the truth
computed from the full arrays, beside Korn-Graubard with ``n*`` capped at the domain's items and no
floor (the benchmark the issue measures widths against).

Used by ``tests/core/review/test_tight_intervals.py`` (assertions) and ``bench/review_intervals.py``
(the table of ``docs/review.md``). Samples are drawn with ``sampling.plan_ranks`` through
:class:`review_population.Sampler`, seeded.
"""

from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass

import numpy as np
from review_population import Sampler, population, stratum_population

from flair_qgis.core.review import intervals
from flair_qgis.core.review.estimators import design_estimate
from flair_qgis.core.review.rates import domain_rates

RARE_SIZES = {1: 800_000, 2: 60_000, 3: 50_000, 4: 40_000, 5: 20_000, 6: 15_000, 7: 10_000, 8: 4_000, 9: 1_000}
RARE_ERRORS = {1: 0.003, 2: 0.015, 3: 0.03, 4: 0.02, 5: 0.05, 6: 0.10, 7: 0.15, 8: 0.20, 9: 0.30}
MAP_ERRORS = dict(zip(RARE_SIZES, (0.002, 0.003, 0.01, 0.02, 0.03, 0.005, 0.015, 0.025, 0.03)))


@dataclass(frozen=True)
class Case:
    """A hard case: a population, the sample size, ``MIN_PER_CLASS`` and the design."""

    population: str
    samples: int
    min_per_class: int
    threshold: float | None = None


CASES = {
    "rare errors, OA near 1 (UA 0.97-0.998), 200 items": Case("rare", 200, 20),
    "rare errors, 600 items": Case("rare", 600, 20),
    "tiny strata: 2-5 items per stratum": Case("rare", 27, 2),
    "big stratum with 0.1 % errors, none seen": Case("big-silent", 200, 20),
    "big stratum with 4 % errors, often none seen": Case("benign", 200, 20),
    "near-census stratum (N = 25, n = 20)": Case("census", 220, 20),
    "UA = 0.998 on about 80 items": Case("ua998", 101, 20),
    "stratified_confidence (low share 0.5)": Case("flair", 200, 5, 0.7),
}


def make_population(name: str):
    """The population of a case (module docstring of ``review_population`` for the arrays)."""
    if name == "rare":
        return stratum_population(RARE_SIZES, RARE_ERRORS, MAP_ERRORS, seed=1)
    if name == "big-silent":
        return stratum_population(RARE_SIZES, {**RARE_ERRORS, 1: 0.001}, {**MAP_ERRORS, 1: 0.001}, seed=1)
    if name == "benign":
        errors = {c: 0.04 + 0.02 * k for k, c in enumerate(RARE_SIZES)}
        return stratum_population(RARE_SIZES, errors, errors, seed=1)
    if name == "census":
        return stratum_population({**RARE_SIZES, 10: 25}, {**RARE_ERRORS, 10: 0.08}, {1: 0.01, 10: 0.08}, seed=1)
    if name == "ua998":
        return stratum_population({1: 600_000, 2: 10_000}, {1: 0.01, 2: 0.05}, {1: 0.002, 2: 0.03}, seed=1)
    return population()


def truth_of(pop) -> dict[str, float]:
    """Every figure's true value from the full arrays (areas in m² at 1 m² per pixel)."""
    out = {"label error": pop.label_error_rate(), "OA": pop.overall_accuracy()}
    for c in pop.classes():
        out[f"area share {c}"] = pop.area_proportion(c)
        out[f"area {c}"] = pop.area_proportion(c) * pop.truth.size
        if c in pop.strata:
            out[f"UA {c}"] = pop.users_accuracy(c)
            stratum = pop.map == c
            out[f"label error map {c}"] = float(np.mean(pop.label[stratum] != pop.truth[stratum]))
    return out


@contextlib.contextmanager
def floor(value: float):
    """Run with another :data:`.intervals.SILENT_FLOOR` (0: the benchmark)."""
    kept = intervals.SILENT_FLOOR
    intervals.SILENT_FLOOR = value
    try:
        yield
    finally:
        intervals.SILENT_FLOOR = kept


def _figures(pop, sampler: Sampler, pixels: np.ndarray, owner: dict) -> dict:
    """``figure -> Interval`` of one sample."""
    strata, maps, refs = sampler.stratum[pixels], pop.map[pixels], pop.truth[pixels]
    est = design_estimate(strata, maps, refs, sampler.strata, 1.0, owner)
    out = {"OA": est.overall_accuracy_interval}
    for k, c in enumerate(est.classes):
        out[f"UA {c}"] = est.users_accuracy_interval[k]
        out[f"area share {c}"] = est.area_proportion_interval[k]
        out[f"area {c}"] = est.area_m2_interval[k]
    classes = np.array(sorted(set(maps.tolist())))
    domains = np.column_stack([np.ones(len(pixels), bool), maps[:, None] == classes[None, :]])
    rates = domain_rates(strata, domains, pop.label[pixels] != refs, sampler.strata)
    for key, rate in zip(["label error", *(f"label error map {c}" for c in classes.tolist())], rates):
        out[key] = rate
    return out


def simulate(case: Case, draws: int, seed: int = 42, pop=None) -> dict[str, dict[str, float]]:
    """Per figure: ``coverage``, ``width`` (mean, NaN bounds left out), ``zero`` (share of
    zero-width intervals at a truth strictly inside), and the benchmark's ``kg_n_coverage`` and
    ``kg_n_width`` on the same samples."""
    pop = make_population(case.population) if pop is None else pop
    sampler, rng = Sampler(pop, case.threshold), np.random.default_rng(seed)
    design = "stratified" if case.threshold is None else "stratified_confidence"
    owner = {h: h if case.threshold is None else h // 2 for h in sampler.strata}
    truth = truth_of(pop)
    sums: dict[str, dict[str, list[float]]] = {}
    for _ in range(draws):
        pixels = sampler.draw(design, case.samples, case.min_per_class, rng)
        ours = _figures(pop, sampler, pixels, owner)
        with floor(0.0):
            bench = _figures(pop, sampler, pixels, owner)
        for key, interval in ours.items():
            if key not in truth:
                continue
            t, row = truth[key], sums.setdefault(key, {})
            scale = pop.truth.size if key.startswith("area ") and "share" not in key else 1.0
            for name, item in (("", interval), ("kg_n_", bench[key])):
                held = item.lower is not None and item.lower - 1e-9 * scale <= t <= item.upper + 1e-9 * scale
                row.setdefault(name + "coverage", []).append(float(held))
                row.setdefault(name + "width", []).append(math.nan if item.width is None else item.width / scale)
            inside = 0 < t < scale
            row.setdefault("zero", []).append(float(inside and interval.width is not None and interval.width <= 0))
    return {
        key: {name: float(np.nanmean(values)) if values else math.nan for name, values in row.items()}
        for key, row in sums.items()
    }
