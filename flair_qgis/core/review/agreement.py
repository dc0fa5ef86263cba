"""Agreement between two interpreters on the same items: Cohen's kappa and Gwet's AC1.

Two raters classify the same ``n`` items into ``q`` classes; ``p_kl`` is the share of items the
first put in class ``k`` and the second in class ``l``, ``p_k+`` and ``p_+l`` the margins.

* raw agreement ``p_a = sum_k p_kk``;
* Cohen's kappa: ``p_e = sum_k p_k+ p_+k``, ``kappa = (p_a - p_e) / (1 - p_e)``;
* Gwet's AC1 (Gwet 2008): ``pi_k = (p_k+ + p_+k) / 2``, ``p_e = sum_k pi_k (1 - pi_k) / (q - 1)``,
  ``AC1 = (p_a - p_e) / (1 - p_e)``. Unlike kappa it stays high when one class dominates and the
  raters agree (the "kappa paradox"), which is the usual case of a land-cover sample.

Variances (Gwet 2008, *Computing inter-rater reliability and its variance in the presence of high
agreement*, BJMSP 61:29-48; Gwet 2014, *Handbook of Inter-Rater Reliability*, 4th ed.), by
linearisation over items: each item ``i`` in cell ``(k, l)`` gets

* kappa: ``kappa_i = (w_i - p_e) / (1 - p_e) - 2 (1 - kappa) (pe_i - p_e) / (1 - p_e)`` with
  ``w_i = [k = l]`` and ``pe_i = (p_+k + p_l+) / 2``;
* AC1: ``ac1_i = (w_i - p_e) / (1 - p_e) - 2 (1 - AC1) (pe_i - p_e) / (1 - p_e)`` with
  ``pe_i = (1 - pi_k) / (q - 1) / 2 + (1 - pi_l) / (q - 1) / 2``;

and ``V = (1 - f) / (n (n - 1)) * sum_i (coef_i - coef)^2`` (``f = n / N``, 0 for an infinite
population), the variance of irrCAC's raw-data functions (``gwet.ac1.raw``, ``conger.kappa.raw``);
irrCAC's contingency-table functions divide by ``n^2`` instead (``variance="table"``), which is
smaller by ``n / (n - 1)``. The 95 % interval is ``coef -+ t_{0.975, n-1} SE`` clipped to
``[-1, 1]``, as irrCAC prints it (irrCAC clips the upper bound at 1).

AC1's ``q`` is the number of classes the interpreters could choose from (the model's class list
when given), not only the classes they used: fewer classes overstate the chance agreement.

An interval is withheld (the coefficient is given, with a note) below :data:`MIN_PAIRS` pairs or
with fewer than :data:`MIN_MINORITY` items outside (or inside) the dominant class: there the
linearised variance is unreliable (issue 34 measured kappa covering 0.61 at 15 pairs and 0.84 at
30 with a 90 % class), and where every pair agrees it is 0. Kappa's alone is withheld where one
class holds :data:`DOMINANT_SHARE` of the items or more (issue 42: it covered 0.90 at 60 pairs
and 0.91 at 120 with a 90 % class).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

Z975 = 1.959963984540054
INTERVAL_METHOD = (
    "Gwet (2008) linearised variance over items (irrCAC raw data, n - 1), Student t (n - 1 df) 95 % interval "
    "clipped to [-1, 1]"
)
BASIS = (
    "on the double-reviewed items as drawn (unweighted): strata over-sampled by MIN_PER_CLASS count more than "
    "their share of the map; the coefficients describe the interpreters on these items, not the map"
)
"""What the coefficients are computed on (issue 34: map-weighted figures can differ, e.g. AC1 0.906 against
0.822 on the items); weighting by ``N_h / n_h`` would need the strata of the pairs."""
MIN_PAIRS = 50
"""Fewer double-reviewed items than this: no interval, the coefficients with a note."""
MIN_MINORITY = 10
"""Fewer items outside (or inside) the dominant class than this: no interval."""
DOMINANT_SHARE = 0.7
"""From this share of the items in one class (both interpreters' mean), kappa gets no interval (issue
42): with a class at 90 % and 8 % noise per interpreter its t interval covered 0.895-0.948 at 60-400
pairs over three populations (600 samples each), and 0.928 on the 69 of 500 samples of 60 pairs whose
share fell below 0.8; AC1's covered 0.925-0.955 and is kept. With classes at 60/20/10/10 % kappa
covered 0.928-0.958."""


def t_quantile_975(df: int) -> float:
    """The 0.975 quantile of Student's t with ``df`` degrees of freedom (Hill 1970 expansion,
    exact values up to 5 df, within 2e-4 from 6 df up; the normal quantile for large ``df``)."""
    if df <= 0:
        return math.nan
    exact = {1: 12.706204736, 2: 4.302652730, 3: 3.182446305, 4: 2.776445105, 5: 2.570581836}
    if df in exact:
        return exact[df]
    z, v = Z975, float(df)
    return (
        z
        + (z**3 + z) / (4 * v)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * v**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * v**3)
        + (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / (92160 * v**4)
    )


def _coefficient(
    cells: np.ndarray, weights: np.ndarray, pe: float, pe_cells: np.ndarray, n: int, fpc: float, divisor: int
) -> tuple[float, float]:
    """Coefficient and SE from the cell shares ``cells`` (q x q); ``divisor``: ``n - 1`` (raw) or ``n``."""
    pa = float(np.trace(cells))
    if pe >= 1.0 or divisor < 1:
        return (math.nan if pe >= 1.0 else (pa - pe) / (1 - pe)), math.nan
    coef = (pa - pe) / (1 - pe)
    linear = (weights - pe) / (1 - pe) - 2 * (1 - coef) * (pe_cells - pe) / (1 - pe)
    variance = fpc * float((cells * (linear - coef) ** 2).sum()) / divisor
    return coef, math.sqrt(max(variance, 0.0))


def _withheld(n: int, pi: np.ndarray, kappa_se: float, ac1_se: float) -> str:
    """Why no interval is given ("" when one is)."""
    dominant = float(pi.max()) if pi.size else 1.0
    minority = n * min(dominant, 1.0 - dominant)
    if n < MIN_PAIRS:
        return f"no interval: {n} double-reviewed items (fewer than {MIN_PAIRS})"
    if minority < MIN_MINORITY:
        return f"no interval: about {minority:.0f} items outside the dominant class (fewer than {MIN_MINORITY})"
    if kappa_se == 0 or ac1_se == 0:
        return "no interval: the interpreters agree on every item, the variance estimate is 0"
    return ""


def _kappa_withheld(pi: np.ndarray) -> str:
    """Why kappa alone gets no interval ("" when it does): a dominant class (:data:`DOMINANT_SHARE`)."""
    dominant = float(pi.max()) if pi.size else 0.0
    if dominant < DOMINANT_SHARE:
        return ""
    return (
        f"no kappa interval: one class holds {100 * dominant:.0f} % of the items (from {100 * DOMINANT_SHARE:.0f} % "
        "kappa's interval covers less than 0.95); AC1's is given"
    )


def agreement(
    first: Sequence[int],
    second: Sequence[int],
    population: int | None = None,
    classes: int | Sequence[int] | None = None,
    variance: str = "raw",
) -> dict:
    """Raw agreement, Cohen's kappa and Gwet's AC1 of two interpreters' classes on the same items.

    Args:
        first: the first interpreter's class of each item.
        second: the second interpreter's class, same order.
        population: how many items could have been double-reviewed (finite-population
            correction ``1 - n / N``); None: infinite.
        classes: the classes the interpreters could choose from (the model's list) or their
            number: AC1's ``q``; None: the classes met in the two lists.
        variance: ``raw`` (irrCAC's raw-data functions, ``n - 1``) or ``table`` (its
            contingency-table functions, ``n``).

    Returns:
        ``{"items", "basis", "raw", "kappa", "kappa_se", "kappa_ci95", "ac1", "ac1_se", "ac1_ci95",
        "interval", "note", "classes", "per_class"}`` (``basis``: :data:`BASIS`); the intervals are
        None (with the reason in ``note``) below MIN_PAIRS pairs or MIN_MINORITY items outside the
        dominant class; ``per_class``: :func:`_per_class`. Figures are None without items.

    Raises:
        ValueError: an unknown ``variance``.
    """
    if variance not in ("raw", "table"):
        raise ValueError(f"variance must be 'raw' or 'table' (got {variance!r})")
    n = len(first)
    method = INTERVAL_METHOD if variance == "raw" else INTERVAL_METHOD.replace("raw data, n - 1", "table, n")
    out: dict = {"items": n, "basis": BASIS, "interval": method}
    if n == 0:
        return {**out, **_without_pairs()}
    classes_met, counts = _contingency(first, second)
    choices = max(len(classes_met), classes if isinstance(classes, int) else len(set(classes or ()) | set(classes_met)))
    fpc = 1.0 - n / population if population else 1.0
    cells = counts / n
    kappa, kappa_se, ac1, ac1_se = _kappa_and_ac1(cells, n, choices, fpc, n - 1 if variance == "raw" else n)
    pi = (cells.sum(axis=1) + cells.sum(axis=0)) / 2
    note = _withheld(n, pi, kappa_se, ac1_se)
    kappa_note = _kappa_withheld(pi) if not note else ""
    return {
        **out,
        "raw": float(np.trace(cells)),
        "note": "; ".join(t for t in (note, kappa_note) if t),
        "classes": choices,
        "kappa": _number(kappa),
        "kappa_se": _number(kappa_se),
        "kappa_ci95": _interval_95(kappa, kappa_se, n, note or kappa_note),
        "ac1": _number(ac1),
        "ac1_se": _number(ac1_se),
        "ac1_ci95": _interval_95(ac1, ac1_se, n, note),
        "per_class": _per_class(counts, classes_met),
    }


def _without_pairs() -> dict:
    """The figures of :func:`agreement` when no item was double-reviewed: none, with a note.

    Returns:
        Every figure None, no class and no ``per_class`` entry.
    """
    return {
        "raw": None,
        "kappa": None,
        "kappa_se": None,
        "kappa_ci95": None,
        "ac1": None,
        "ac1_se": None,
        "ac1_ci95": None,
        "note": "no double-reviewed item",
        "classes": 0,
        "per_class": [],
    }


def _interval_95(coef: float, se: float, n: int, withheld: str) -> list[float] | None:
    """The 95 % interval ``coef -+ t_{0.975, n-1} SE`` clipped to ``[-1, 1]``, unless it is withheld.

    Args:
        coef: kappa or AC1.
        se: its standard error.
        n: the double-reviewed items.
        withheld: why no interval is given (:func:`_withheld`), "" when one is.

    Returns:
        ``[low, high]``; None when withheld, when the coefficient or its SE is undefined, or below 2 items.
    """
    if withheld or math.isnan(coef) or math.isnan(se) or n < 2:
        return None
    t = t_quantile_975(n - 1)
    return [max(-1.0, coef - t * se), min(1.0, coef + t * se)]


def _number(value: float) -> float | None:
    """A figure as the JSON gives it: a float, None for NaN."""
    return None if math.isnan(value) else float(value)


def _contingency(first: Sequence[int], second: Sequence[int]) -> tuple[list[int], np.ndarray]:
    """The classes met in either list, and the counts of (first, second) pairs: rows = first."""
    classes_met = sorted({int(v) for v in first} | {int(v) for v in second})
    position = {v: k for k, v in enumerate(classes_met)}
    counts = np.zeros((len(classes_met), len(classes_met)))
    for a, b in zip(first, second):
        counts[position[int(a)], position[int(b)]] += 1
    return classes_met, counts


def _kappa_and_ac1(
    cells: np.ndarray, n: int, choices: int, fpc: float, divisor: int
) -> tuple[float, float, float, float]:
    """Cohen's kappa and Gwet's AC1 with their standard errors, from the cell proportions.

    ``choices`` is AC1's ``q``; ``divisor`` the variance's ``n - 1`` (raw data) or ``n`` (table).
    """
    rows, cols = cells.sum(axis=1), cells.sum(axis=0)
    weights = np.eye(len(rows))
    kappa, kappa_se = _coefficient(
        cells, weights, float(rows @ cols), (cols[:, None] + rows[None, :]) / 2, n, fpc, divisor
    )
    if choices <= 1:  # one class only: the raters agree on every item and no chance term exists
        return kappa, kappa_se, 1.0, 0.0
    pi = (rows + cols) / 2
    pe_ac1 = float((pi * (1 - pi)).sum() / (choices - 1))
    per_rater = (1 - pi) / (choices - 1)
    ac1, ac1_se = _coefficient(cells, weights, pe_ac1, (per_rater[:, None] + per_rater[None, :]) / 2, n, fpc, divisor)
    return kappa, kappa_se, ac1, ac1_se


def _per_class(counts: np.ndarray, classes_met: list[int]) -> list[dict]:
    """Items each interpreter gave each class, and the specific agreement ``2 n_kk / (n_k+ + n_+k)``."""
    return [
        {
            "value": v,
            "first": int(counts[k].sum()),
            "second": int(counts[:, k].sum()),
            "both": int(counts[k, k]),
            "specific_agreement": float(2 * counts[k, k] / (counts[k].sum() + counts[:, k].sum())),
        }
        for k, v in enumerate(classes_met)
    ]
