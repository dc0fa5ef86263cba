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

and ``V = (1 - f) / n * mean_i (coef_i - coef)^2`` (``f = n / N``, 0 for an infinite population).
The 95 % interval is ``coef -+ t_{0.975, n-1} SE``, as Gwet's own irrCAC package prints it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

Z975 = 1.959963984540054
INTERVAL_METHOD = "Gwet (2008) linearised variance over items, Student t (n - 1 df) 95 % interval"


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


def _coefficient(cells: np.ndarray, weights: np.ndarray, pe: float, pe_cells: np.ndarray, n: int, fpc: float):
    """Coefficient, SE and linearised values from the cell shares ``cells`` (q x q)."""
    pa = float(np.trace(cells))
    if pe >= 1.0:
        return math.nan, math.nan
    coef = (pa - pe) / (1 - pe)
    linear = (weights - pe) / (1 - pe) - 2 * (1 - coef) * (pe_cells - pe) / (1 - pe)
    variance = fpc * float((cells * (linear - coef) ** 2).sum()) / n
    return coef, math.sqrt(max(variance, 0.0))


def agreement(first: Sequence[int], second: Sequence[int], population: int | None = None) -> dict:
    """Raw agreement, Cohen's kappa and Gwet's AC1 of two interpreters' classes on the same items.

    Args:
        first: the first interpreter's class of each item.
        second: the second interpreter's class, same order.
        population: how many items could have been double-reviewed (finite-population
            correction ``1 - n / N``); None: infinite.

    Returns:
        ``{"items", "raw", "kappa", "kappa_se", "kappa_ci95", "ac1", "ac1_se", "ac1_ci95",
        "interval", "per_class"}``; per class: items each interpreter gave it and the specific
        agreement ``2 n_kk / (n_k+ + n_+k)``. Figures are None without items.
    """
    n = len(first)
    out: dict = {"items": n, "interval": INTERVAL_METHOD}
    if n == 0:
        return {**out, "raw": None, "kappa": None, "kappa_se": None, "kappa_ci95": None, "ac1": None,
                "ac1_se": None, "ac1_ci95": None, "per_class": []}  # fmt: skip
    classes = sorted({int(v) for v in first} | {int(v) for v in second})
    position = {v: k for k, v in enumerate(classes)}
    q = len(classes)
    counts = np.zeros((q, q))
    for a, b in zip(first, second):
        counts[position[int(a)], position[int(b)]] += 1
    cells = counts / n
    rows, cols = cells.sum(axis=1), cells.sum(axis=0)
    weights = np.eye(q)
    fpc = 1.0 - n / population if population else 1.0
    kappa, kappa_se = _coefficient(
        cells, weights, float(rows @ cols), (cols[:, None] + rows[None, :]) / 2, n, fpc
    )  # fmt: skip
    pi = (rows + cols) / 2
    if q > 1:
        pe_ac1 = float((pi * (1 - pi)).sum() / (q - 1))
        per_rater = (1 - pi) / (q - 1)
        ac1, ac1_se = _coefficient(cells, weights, pe_ac1, (per_rater[:, None] + per_rater[None, :]) / 2, n, fpc)
    else:  # one class only: the raters agree on every item and no chance term exists
        ac1, ac1_se = 1.0, 0.0
    t = t_quantile_975(n - 1)

    def interval(coef: float, se: float) -> list[float] | None:
        return None if math.isnan(coef) or math.isnan(se) or n < 2 else [coef - t * se, coef + t * se]

    def number(value: float) -> float | None:
        return None if math.isnan(value) else float(value)

    per_class = [
        {"value": v, "first": int(counts[k].sum()), "second": int(counts[:, k].sum()), "both": int(counts[k, k]),
         "specific_agreement": float(2 * counts[k, k] / (counts[k].sum() + counts[:, k].sum()))}
        for k, v in enumerate(classes)
    ]  # fmt: skip
    return {
        **out, "raw": float(np.trace(cells)),
        "kappa": number(kappa), "kappa_se": number(kappa_se), "kappa_ci95": interval(kappa, kappa_se),
        "ac1": number(ac1), "ac1_se": number(ac1_se), "ac1_ci95": interval(ac1, ac1_se),
        "per_class": per_class,
    }  # fmt: skip
