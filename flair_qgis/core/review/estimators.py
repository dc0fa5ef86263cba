"""Accuracy and area estimators for a reviewed sample (Olofsson et al. 2014), and the Wilson interval.

Stratified random sampling with the map classes as strata (Olofsson et al. 2014, "Good practices
for estimating area and assessing accuracy of land change", RSE 148: 42-57, section 5). With
``n_ij`` the sample count of map class (stratum) ``i`` and reference class ``j``, ``n_i.`` the
sample size of stratum ``i``, ``N_i`` its pixels in the map and ``W_i = N_i / N``:

* cell proportion ``p_ij = W_i * n_ij / n_i.``;
* overall accuracy ``OA = sum_j p_jj``, ``V(OA) = sum_i W_i^2 U_i (1 - U_i) / (n_i. - 1)``;
* user's accuracy ``U_i = n_ii / n_i.``, ``V(U_i) = U_i (1 - U_i) / (n_i. - 1)``;
* area proportion ``p_.j = sum_i p_ij``,
  ``SE(p_.j) = sqrt(sum_i W_i^2 (n_ij/n_i.)(1 - n_ij/n_i.) / (n_i. - 1))``;
* producer's accuracy ``P_j = p_jj / p_.j`` with the variance of the paper's eq. (7)
  (``N^_.j = sum_i N_i n_ij / n_i.``):
  ``V(P_j) = [N_j^2 (1-P_j)^2 U_j (1-U_j)/(n_j.-1)
  + P_j^2 sum_{i!=j} N_i^2 (n_ij/n_i.)(1-n_ij/n_i.)/(n_i.-1)] / N^_.j^2``;
* area ``A_j = p_.j * A`` and its 95 % interval ``A_j +- z SE(p_.j) A`` (``A`` total map area).

A stratum with a single reviewed item has no variance estimate: its standard errors are NaN.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

Z95 = 1.96
"""Normal quantile of a two-sided 95 % interval, rounded as in Olofsson et al. (2014) and Newcombe (1998)."""


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float] | None:
    """Wilson score interval of a binomial proportion (no continuity correction).

    ``(p + z^2/2n -+ z sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n)`` with ``p = successes / trials``.

    Returns:
        ``(low, high)`` in 0..1, or None without trials.
    """
    if trials <= 0:
        return None
    p = successes / trials
    z2 = z * z
    centre = p + z2 / (2 * trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    denominator = 1 + z2 / trials
    return max(0.0, (centre - half) / denominator), min(1.0, (centre + half) / denominator)


@dataclass(frozen=True)
class StratifiedEstimate:
    """Estimates of a stratified sample whose strata are the map classes.

    Attributes:
        classes: class values, in the order of every per-class array.
        overall_accuracy, overall_accuracy_se: OA and its standard error.
        users_accuracy, users_accuracy_se: per class (NaN for a class that is not a stratum).
        producers_accuracy, producers_accuracy_se: per class (NaN where the class has no estimated area).
        area_proportion, area_proportion_se: estimated share of the map area per class.
        area_m2, area_m2_ci95: estimated area and the half-width of its 95 % interval.
        proportions: ``(classes, classes)`` estimated cell proportions ``p_ij`` (rows map, columns reference).
    """

    classes: tuple[int, ...]
    overall_accuracy: float
    overall_accuracy_se: float
    users_accuracy: np.ndarray
    users_accuracy_se: np.ndarray
    producers_accuracy: np.ndarray
    producers_accuracy_se: np.ndarray
    area_proportion: np.ndarray
    area_proportion_se: np.ndarray
    area_m2: np.ndarray
    area_m2_ci95: np.ndarray
    proportions: np.ndarray


def _tally(
    map_classes: Sequence[int], reference_classes: Sequence[int]
) -> tuple[list[int], tuple[int, ...], np.ndarray]:
    """The strata, the classes in report order and the ``n_ij`` counts of the reviewed units.

    Args:
        map_classes: map class (= stratum) of each reviewed unit.
        reference_classes: the true class of each unit, same order.

    Returns:
        ``(strata, classes, counts)``: the map classes with units, those followed by any other
        reference class, and the unit counts (rows: map class, columns: reference class).
    """
    strata = sorted({int(v) for v in map_classes})
    classes = tuple(strata + sorted({int(v) for v in reference_classes} - set(strata)))
    index = {v: k for k, v in enumerate(classes)}
    k = len(classes)
    counts = np.zeros((k, k), dtype=np.float64)
    np.add.at(counts, ([index[int(m)] for m in map_classes], [index[int(r)] for r in reference_classes]), 1.0)
    return strata, classes, counts


def stratified_estimate(
    map_classes: Sequence[int],
    reference_classes: Sequence[int],
    stratum_pixels: Mapping[int, int],
    pixel_area_m2: float,
    z: float = Z95,
) -> StratifiedEstimate:
    """Olofsson et al. (2014) estimators from reviewed sample units.

    Args:
        map_classes: map class (= stratum) of each reviewed unit.
        reference_classes: the true class of each unit, same order.
        stratum_pixels: ``N_i`` per map class; strata without a reviewed unit are left out of
            the weights (the caller reports them).
        pixel_area_m2: area of one pixel.
        z: normal quantile of the interval.

    Returns:
        The estimates (classes: the strata with units, then any other reference class).
    """
    strata, classes, counts = _tally(map_classes, reference_classes)
    pixels = np.array([float(stratum_pixels.get(v, 0)) if v in strata else 0.0 for v in classes])
    total_pixels = pixels.sum()
    weights = pixels / total_pixels if total_pixels > 0 else pixels
    n_i = counts.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(n_i[:, None] > 0, counts / n_i[:, None], 0.0)  # n_ij / n_i.
        var_share = np.where(n_i[:, None] > 0, share * (1 - share) / (n_i[:, None] - 1), 0.0)
        proportions = weights[:, None] * share
        users = np.where(n_i > 0, np.diag(share), np.nan)
        users_var = np.diag(var_share).copy()
        users_var[n_i == 0] = np.nan
        area = proportions.sum(axis=0)
        area_se = np.sqrt((weights[:, None] ** 2 * var_share).sum(axis=0))
        overall = float(np.trace(proportions))
        overall_se = float(math.sqrt(float((weights**2 * users_var)[n_i > 0].sum())))
        producers = np.where(area > 0, np.diag(proportions) / area, np.nan)
        estimated_pixels = (pixels[:, None] * share).sum(axis=0)  # N^_.j
        own = np.where(pixels > 0, pixels**2 * (1 - producers) ** 2 * users_var, 0.0)
        others = (pixels[:, None] ** 2 * var_share).sum(axis=0) - np.diag(pixels[:, None] ** 2 * var_share)
        producers_var = (own + producers**2 * others) / estimated_pixels**2
    total_m2 = total_pixels * pixel_area_m2
    return StratifiedEstimate(
        classes=classes,
        overall_accuracy=overall,
        overall_accuracy_se=overall_se,
        users_accuracy=users,
        users_accuracy_se=np.sqrt(users_var),
        producers_accuracy=producers,
        producers_accuracy_se=np.sqrt(producers_var),
        area_proportion=area,
        area_proportion_se=area_se,
        area_m2=area * total_m2,
        area_m2_ci95=z * area_se * total_m2,
        proportions=proportions,
    )
