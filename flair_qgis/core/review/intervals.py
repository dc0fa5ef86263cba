"""Confidence intervals for proportions estimated from a review sample: exact binomial and
hypergeometric intervals, Korn-Graubard's design-based interval, Kish's effective sample size.

Why not the normal interval ``p -+ z SE``: when label errors are rare (1-3 %), most strata show no
error in the sample, the estimated variance misses them and the interval is far too short, often
of zero width. The intervals here stay honest there (measured coverage in ``docs/review.md``).

* Clopper-Pearson (Clopper & Pearson 1934, Biometrika 26:404-413): for ``x`` successes in ``n``
  trials, ``lower = B(a/2; x, n - x + 1)`` and ``upper = B(1 - a/2; x + 1, n - x)`` with ``B(q; a, b)``
  the ``q`` quantile of the beta distribution (``lower = 0`` at ``x = 0``, ``upper = 1`` at
  ``x = n``). Non-integer ``x`` and ``n`` are allowed (Korn-Graubard uses them).
* Finite-population version (Buonaccorsi 1987, The American Statistician 41:215-218): a simple
  random sample of ``n`` of ``N`` units without replacement has a hypergeometric count; the exact
  bounds on the population count ``M`` are the smallest ``M`` with ``P(X >= x | M) >= a/2`` and the
  largest with ``P(X <= x | M) >= a/2``, divided by ``N``. A census (``n = N``) gives ``x / N``
  exactly. Used where the sampling fraction is material (``n / N >= 5 %``, Cochran 1977 §2.6).
* Korn-Graubard (Korn & Graubard 1998, Survey Methodology 24:193-201; R survey's
  ``svyciprop(method = "beta")``): from a design-based estimate ``p`` with variance ``v``, the
  effective sample size ``n* = p (1 - p) / v * (t_{n_d-1} / t_{n_d-H_d})^2`` (``n_d`` items of the
  figure's domain in ``H_d`` strata, as R's ``subset()`` of the design counts them; ``t_d`` the
  ``1 - a/2`` quantile of Student's t with ``d`` degrees of freedom), then the Clopper-Pearson
  bounds at ``x = p n*`` trials ``n*``. Three guards (issue 42):

  - ``n*`` is capped at ``n_d / (1 - f_d)``, ``f_d = n_d / N_d`` the domain's sampling fraction:
    no interval claims more precision than a simple random sample of its items with the
    finite-population correction (Korn & Graubard 1998 discuss truncating ``n*`` at ``n``).
  - a stratum whose two or more items in the domain all say the same (no error seen, or only
    errors) adds ``SILENT_FLOOR p (1 - p) w_h^2 (1 - f_h) / n_hd`` to ``v`` (``w_h`` its estimated
    share of the domain, ``n_hd`` its items there): the sample cannot tell its variance, so it is
    counted at :data:`SILENT_FLOOR` times that of the domain's. The case that needs it: 80 % of
    the map in one stratum with 4 % errors and 36 of 200 items, which shows no error in 23 % of
    samples: capped at the items only, the label-error rate and OA covered 0.82
    (``tests/core/review/test_tight_intervals.py``, ``docs/review.md``); with the floor at 0.45,
    0.98. Its price where the big stratum really is almost error-free (0.1-0.3 %): about 1.4
    times the width of the items-capped interval, which covered 1.00 there; the floor does not
    tell the two apart from a sample, and coverage comes first. The former cap at Kish's
    effective size cost 2.1 times that width.
  - where ``p`` is 0 or 1, or ``v`` is 0 (every sampled stratum all right or all wrong), ``n*`` is
    Kish's effective sample size of the domain's items instead: no interval is ever of zero
    width unless every stratum it rests on was reviewed in full (a census).

* Kish's effective sample size (Kish 1965, *Survey Sampling*, §11.7): ``(sum_i w_i)^2 / sum_i w_i^2``
  over the sampled units with weights ``w_i = N_h / n_h``; ``n`` for equal weights.
"""

from __future__ import annotations

import functools
import importlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType

import numpy as np

CONFIDENCE = 0.95
KORN_GRAUBARD = "korn-graubard"
CLOPPER_PEARSON = "clopper-pearson"
HYPERGEOMETRIC = "clopper-pearson-finite-population"
NORMAL = "normal"
CENSUS = "census"
MATERIAL_FRACTION = 0.05
"""Sampling fraction from which the exact interval uses the hypergeometric (finite population)."""
NEEDS_SCIPY = "no interval: the review's intervals need scipy (sudo apt install python3-scipy, or pip install scipy)"
"""The note of every interval where scipy cannot be imported: the plugin loads without scipy
(``adapters/deps.py`` makes it optional), so the estimates stay and only the bounds are missing."""


def _scipy() -> tuple[ModuleType, ModuleType] | None:
    """``(scipy.special, scipy.stats)``, or None where scipy is missing (imported here, not at load)."""
    try:
        return importlib.import_module("scipy.special"), importlib.import_module("scipy.stats")
    except ImportError:
        return None


@dataclass(frozen=True)
class Interval:
    """An estimate and its confidence interval.

    Attributes:
        estimate: the point estimate (a proportion 0..1, or an area).
        lower, upper: the bounds; None where no interval can be given (see ``note``).
        method: ``korn-graubard``, ``clopper-pearson``, ``clopper-pearson-finite-population``,
            ``normal`` or ``census`` (every unit reviewed: the bounds are the estimate).
        se: the design-based standard error (None where not estimable).
        n_eff: the effective sample size the bounds rest on (Korn-Graubard, Clopper-Pearson).
        note: why the interval is what it is (Kish fallback, truncation, too few items...).
        level: the confidence level.
    """

    estimate: float
    lower: float | None
    upper: float | None
    method: str
    se: float | None = None
    n_eff: float | None = None
    note: str = ""
    level: float = CONFIDENCE

    @property
    def bounds(self) -> tuple[float, float] | None:
        """``(lower, upper)`` or None."""
        return None if self.lower is None or self.upper is None else (self.lower, self.upper)

    @property
    def width(self) -> float | None:
        return None if self.lower is None or self.upper is None else self.upper - self.lower


def clopper_pearson_bounds(
    successes: np.ndarray | float, trials: np.ndarray | float, level: float = CONFIDENCE
) -> tuple[np.ndarray, np.ndarray]:
    """Clopper-Pearson bounds (module docstring), vectorised; real ``successes`` and ``trials`` allowed.

    Args:
        successes: ``x`` (0 <= x <= trials).
        trials: ``n`` (> 0).
        level: confidence level.

    Returns:
        ``(lower, upper)`` arrays of the broadcast shape.
    """
    from scipy import special

    x = np.asarray(successes, dtype=np.float64)
    n = np.asarray(trials, dtype=np.float64)
    x, n = np.broadcast_arrays(x, n)
    alpha = 1.0 - level
    with np.errstate(invalid="ignore", divide="ignore"):
        low = np.where(x > 0, special.betaincinv(np.where(x > 0, x, 1.0), n - x + 1.0, alpha / 2), 0.0)
        high = np.where(x < n, special.betaincinv(x + 1.0, np.where(x < n, n - x, 1.0), 1 - alpha / 2), 1.0)
    return low, high


def clopper_pearson(successes: int, trials: int, level: float = CONFIDENCE) -> Interval:
    """The exact binomial interval of ``successes`` in ``trials`` (Clopper & Pearson 1934).

    Raises:
        ValueError: ``trials`` < 1 or ``successes`` outside ``0..trials``.
    """
    if trials < 1 or not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials and trials >= 1 (got {successes} of {trials})")
    low, high = clopper_pearson_bounds(successes, trials, level)
    return Interval(successes / trials, float(low), float(high), CLOPPER_PEARSON, n_eff=float(trials), level=level)


def finite_population_bounds(
    successes: np.ndarray | int, trials: np.ndarray | int, population: np.ndarray | int, level: float = CONFIDENCE
) -> tuple[np.ndarray, np.ndarray]:
    """Exact bounds on the population share ``M / N`` from ``x`` successes in a simple random sample of
    ``n`` of ``N`` units without replacement (hypergeometric; Buonaccorsi 1987), one per entry.

    Returns:
        ``(lower, upper)`` arrays; ``(x / N, x / N)`` for a census.
    """
    arrays = np.broadcast_arrays(*(np.asarray(v, dtype=np.int64) for v in (successes, trials, population)))
    lower, upper = np.zeros(arrays[0].shape), np.zeros(arrays[0].shape)
    for k in np.ndindex(arrays[0].shape):
        lower[k], upper[k] = _finite_bounds(int(arrays[0][k]), int(arrays[1][k]), int(arrays[2][k]), level)
    return lower, upper


@functools.lru_cache(maxsize=4096)
def _finite_bounds(x: int, n: int, big_n: int, level: float) -> tuple[float, float]:
    """Bisection on the integer ``M`` (the tails are monotone in ``M``), each tail a sum of
    hypergeometric terms from log-binomials; cached, as a review asks for the same few triples."""
    from scipy.special import gammaln

    half = (1.0 - level) / 2
    log_all = gammaln(big_n + 1) - gammaln(n + 1) - gammaln(big_n - n + 1)

    def tail(m: int, first: int, last: int) -> float:
        """``P(first <= X <= last)`` when the population holds ``m`` successes."""
        j = np.arange(max(first, n - (big_n - m), 0), min(last, m, n) + 1)
        if j.size == 0:
            return 0.0
        log_terms = (
            gammaln(m + 1)
            - gammaln(j + 1)
            - gammaln(m - j + 1)
            + gammaln(big_n - m + 1)
            - gammaln(n - j + 1)
            - gammaln(big_n - m - n + j + 1)
            - log_all
        )
        return float(np.exp(log_terms).sum())

    def search(accept: Callable[[int], bool], lo: int, hi: int, largest: bool) -> int:
        # The answer lies in [lo, hi]: accept(lo) holds for largest, accept(hi) for smallest.
        while hi > lo:
            mid = (lo + hi + (1 if largest else 0)) // 2
            if accept(mid) == largest:
                lo = mid if largest else mid + 1
            else:
                hi = mid - 1 if largest else mid
        return lo

    top = big_n - (n - x)  # the most successes the population can hold
    # P(X <= x | M) decreases in M; P(X >= x | M) increases.
    upper = search(lambda m: tail(m, 0, x) >= half, x, top, True)
    lower = search(lambda m: tail(m, x, n) >= half, x, top, False)
    return lower / big_n, upper / big_n


def exact_proportion(successes: int, trials: int, population: int | None = None, level: float = CONFIDENCE) -> Interval:
    """Exact interval of a proportion from a simple random sample: the hypergeometric bounds where the
    sampling fraction ``trials / population`` is 5 % or more, else Clopper-Pearson.

    Raises:
        ValueError: as :func:`clopper_pearson`, or more trials than the population.
    """
    if _scipy() is None:
        return Interval(successes / trials if trials else math.nan, None, None, CLOPPER_PEARSON, note=NEEDS_SCIPY)
    if population is None or trials / population < MATERIAL_FRACTION:
        return clopper_pearson(successes, trials, level)
    if trials > population:
        raise ValueError(f"{trials} trials out of a population of {population}")
    low, high = finite_population_bounds(successes, trials, population, level)
    census = trials == population
    return Interval(
        successes / trials,
        float(low[()]),
        float(high[()]),
        CENSUS if census else HYPERGEOMETRIC,
        n_eff=float(trials),
        note="every unit reviewed" if census else f"finite population: {trials} of {population}",
        level=level,
    )


def kish_effective_n(weights: Sequence[float] | np.ndarray) -> float:
    """Kish's effective sample size ``(sum w)^2 / sum w^2`` of units with weights ``w`` (0 without units)."""
    w = np.asarray(weights, dtype=np.float64)
    squares = float((w * w).sum())
    return float(w.sum()) ** 2 / squares if squares > 0 else 0.0


@functools.lru_cache(maxsize=1024)
def degrees_of_freedom_factor(items: int, strata: int, level: float = CONFIDENCE) -> float:
    """Korn-Graubard's ``(t_{n-1} / t_{n-H})^2`` for ``n`` items in ``H`` strata (1 for a single stratum)."""
    scipy = _scipy()
    if items < 2 or scipy is None:
        return 1.0
    stats = scipy[1]
    q = 1 - (1 - level) / 2
    return float((stats.t.ppf(q, items - 1) / stats.t.ppf(q, max(items - strata, 1))) ** 2)


SILENT_FLOOR = 0.45
"""The share of ``p (1 - p)`` a stratum showing no variation is counted at (module docstring)."""


def korn_graubard(
    estimate: np.ndarray | float,
    variance: np.ndarray | float,
    kish_n: np.ndarray | float,
    cap_n: np.ndarray | float = math.inf,
    census: np.ndarray | bool = False,
    df_factor: np.ndarray | float = 1.0,
    level: float = CONFIDENCE,
    silent: np.ndarray | float = 0.0,
) -> list[Interval]:
    """Korn-Graubard intervals of design-based proportions (module docstring), one per estimate.

    Args:
        estimate: ``p`` per figure.
        variance: its estimated design variance (NaN: not estimable, no interval).
        kish_n: Kish's effective sample size of the figure's domain (the ``n*`` where ``p`` is 0 or 1).
        cap_n: ``n_d / (1 - f_d)``, the largest ``n*`` allowed.
        census: True where every stratum the figure rests on was reviewed in full.
        df_factor: :func:`degrees_of_freedom_factor` of each figure's domain.
        level: confidence level.
        silent: ``sum_h w_h^2 (1 - f_h) / n_hd`` over the strata whose units in the domain show no
            variation (:attr:`.stratified.DomainSizes.shares`): they add ``SILENT_FLOOR p (1 - p)``
            times it to the variance.

    Returns:
        One :class:`Interval` per figure; bounds None where the variance is unknown, the estimate
        is NaN, no unit backs it, or scipy is missing (:data:`NEEDS_SCIPY`).
    """
    available = _scipy() is not None
    p, v, kish, cap, known, factor, quiet = np.broadcast_arrays(
        *(
            np.atleast_1d(np.asarray(a, dtype=np.float64))
            for a in (estimate, variance, kish_n, cap_n, census, df_factor, silent)
        )
    )
    # A weighted mean of 0/1 values can miss 0 or 1 by a rounding error: snap it back.
    p = np.where(np.abs(p) < 1e-12, 0.0, np.where(np.abs(1 - p) < 1e-12, 1.0, p))
    with np.errstate(invalid="ignore", divide="ignore"):
        spread = p * (1 - p)
        degenerate = (spread <= 0) | (v <= 1e-12 * spread)
        floored = v + SILENT_FLOOR * spread * quiet
        n_star = np.minimum(np.where(degenerate, kish, spread / floored) * factor, cap)
        low, high = clopper_pearson_bounds(p * n_star, n_star, level) if available else (p, p)
    return [
        _kg_interval(p[k], v[k], n_star[k], bool(known[k]), bool(degenerate[k]), available, low[k], high[k], level)
        for k in range(p.size)
    ]


def _kg_interval(
    p: float, v: float, n_star: float, census: bool, degenerate: bool, available: bool, low, high, level: float
) -> Interval:
    """One figure of :func:`korn_graubard`: its bounds, or why there are none."""
    se = None if math.isnan(v) else math.sqrt(max(v, 0.0))
    if math.isnan(p):
        return Interval(math.nan, None, None, KORN_GRAUBARD, se, note="no item in the domain", level=level)
    if census:
        return Interval(float(p), float(p), float(p), CENSUS, 0.0, note="every unit reviewed", level=level)
    if not available:
        return Interval(float(p), None, None, KORN_GRAUBARD, se, note=NEEDS_SCIPY, level=level)
    if math.isnan(v) or not n_star > 0:
        note = "variance unknown (a stratum with a single item)" if math.isnan(v) else "no item in the domain"
        return Interval(float(p), None, None, KORN_GRAUBARD, se, note=note, level=level)
    note = "Kish effective sample size (no variation seen in the sample)" if degenerate else ""
    return Interval(float(p), float(low), float(high), KORN_GRAUBARD, se, float(n_star), note, level)


def normal_interval(
    estimate: float, se: float, z: float, low: float = -math.inf, high: float = math.inf, note: str = ""
) -> Interval:
    """``estimate -+ z se`` truncated to ``[low, high]`` (e.g. an area to ``[0, map area]``)."""
    if math.isnan(se) or math.isnan(estimate):
        return Interval(estimate, None, None, NORMAL, None if math.isnan(se) else se, note=note or "variance unknown")
    lower, upper = estimate - z * se, estimate + z * se
    truncated = lower < low or upper > high
    text = "; ".join(t for t in (note, "truncated to the possible range" if truncated else "") if t)
    return Interval(estimate, max(lower, low), min(upper, high), NORMAL, se, note=text)
