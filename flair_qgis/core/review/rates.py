"""Label-error rates over domains (a label class, the whole review) of a stratified sample.

A rate in a domain is a stratified combined ratio (Stehman 2014 eqs. 27-28: errors over items of the
domain, both as stratum totals; :func:`.stratified.stratified_ratio`). :func:`domain_rates` gives it
the Korn-Graubard interval (:mod:`.intervals`); :func:`thin_label_classes` says which label classes
are split across strata too thinly for a rate; :func:`stratified_rates` (normal interval, Wilson
at 0 and 1) is the former interval, kept for the tests that measure it beside the new one.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from .estimators import proportion_intervals
from .intervals import CONFIDENCE, Interval
from .stratified import Z95, Strata, stratified_ratio


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
class RateEstimate:
    """A proportion over a domain with its interval.

    Attributes:
        rate: the estimate (None without a unit in the domain).
        se: its standard error (None where not estimable).
        ci95: ``(low, high)`` or None.
        method: how the interval was made.
    """

    rate: float | None
    se: float | None
    ci95: tuple[float, float] | None
    method: str


STRATIFIED_RATIO_METHOD = (
    "stratified combined ratio (Stehman 2014 eqs. 27-28), Taylor-linearised SE, normal 95 % interval"
)
WILSON_METHOD = "simple random sample proportion, Wilson score 95 % interval (Newcombe 1998)"


def stratified_rates(
    unit_strata: Sequence[int],
    domains: np.ndarray,
    is_error: Sequence[bool],
    stratum_pixels: Mapping[int, int],
    z: float = Z95,
) -> list[RateEstimate]:
    """Share of each domain's pixels that are errors, from a stratified sample (domain ratios).

    Args:
        unit_strata: stratum of each reviewed unit (all reviewed units, in a domain or not).
        domains: ``(units, m)`` booleans: whether the unit is in domain ``k`` (e.g. has a label of
            class c; all True for the whole reference).
        is_error: whether the unit is an error (counted only in its domains).
        stratum_pixels: ``N_h``.
        z: normal quantile.

    Returns:
        One estimate per domain (rate None for a domain without a unit; se and ci95 None when a
        single-unit stratum leaves the variance unknown).
    """
    strata = Strata.of(unit_strata, stratum_pixels)
    x = np.asarray(domains, dtype=np.float64).reshape(len(strata.index), -1)
    y = x * np.asarray(is_error, dtype=np.float64)[:, None]
    ratio, se = stratified_ratio(strata, y, x)
    out = []
    for k in range(x.shape[1]):
        rate, error = float(ratio[k]), float(se[k])
        if x[:, k].sum() == 0:
            out.append(RateEstimate(None, None, None, STRATIFIED_RATIO_METHOD))
        elif math.isnan(error):
            out.append(RateEstimate(rate, None, None, STRATIFIED_RATIO_METHOD))
        elif rate in (0.0, 1.0):
            # No error (or only errors) in the domain: the normal interval has zero width; the
            # Wilson interval on the domain's units says how far the truth may still be.
            out.append(
                RateEstimate(
                    rate,
                    error,
                    wilson_interval(int(y[:, k].sum()), int(x[:, k].sum()), z),
                    STRATIFIED_RATIO_METHOD + "; Wilson on the domain's units at 0 % or 100 %",
                )
            )
        else:
            interval = (max(0.0, rate - z * error), min(1.0, rate + z * error))
            out.append(RateEstimate(rate, error, interval, STRATIFIED_RATIO_METHOD))
    return out


def domain_rates(
    unit_strata: Sequence[int],
    domains: np.ndarray,
    is_error: Sequence[bool],
    stratum_pixels: Mapping[int, int],
    level: float = CONFIDENCE,
) -> list[Interval]:
    """Share of each domain's pixels that are errors, with Korn-Graubard intervals (:mod:`.intervals`).

    The same estimate and standard error as :func:`stratified_rates` (a stratified domain ratio,
    Stehman 2014), with the interval that holds where errors are rare; the review report's
    label-error rates (every probability design; ``random``/``grid`` as one stratum).

    Args:
        unit_strata: stratum of each reviewed unit (all reviewed units, in a domain or not).
        domains: ``(units, m)`` booleans: whether the unit is in domain ``k``.
        is_error: whether the unit is an error (counted only in its domains).
        stratum_pixels: ``N_h``.
        level: confidence level.

    Returns:
        One interval per domain: estimate NaN and no bounds for a domain without a unit, no
        bounds (with a note) where a single-unit stratum leaves the variance unknown.
    """
    strata = Strata.of(unit_strata, stratum_pixels)
    x = np.asarray(domains, dtype=np.float64).reshape(len(strata.index), -1)
    y = x * np.asarray(is_error, dtype=np.float64)[:, None]
    ratio, se = stratified_ratio(strata, y, x)
    return list(proportion_intervals(strata, ratio, se, x, None, level, y))


THIN_CELL_SHARE = 0.05
THIN_CELL_ITEMS = 5


def thin_label_classes(
    cell_pixels: Mapping[tuple[int, int], int],
    cell_items: Mapping[tuple[int, int], int],
    share: float = THIN_CELL_SHARE,
    min_items: int = THIN_CELL_ITEMS,
) -> dict[int, str]:
    """Label classes whose error rate must be withheld: a (stratum x label class) cell holds more
    than ``share`` of the class's pixels but fewer than ``min_items`` reviewed items.

    Why: a label class split across strata is estimated as a ratio whose denominator rests on the
    class's items in each stratum; where a stratum holding much of the class has almost none, the
    rate is the other strata's (issue 34: truth 0.410, mean estimate 0.302, every interval
    covering 0.38). The pixel counts per cell are known from the rasters at sampling time.

    Args:
        cell_pixels: ``(stratum, label class) -> pixels`` of the whole map.
        cell_items: ``(stratum, label class) -> reviewed items`` (missing: 0).
        share, min_items: the rule's thresholds.

    Returns:
        ``label class -> note`` for each class to withhold.
    """
    totals: dict[int, int] = {}
    for (_stratum, label), pixels in cell_pixels.items():
        totals[label] = totals.get(label, 0) + pixels
    out: dict[int, str] = {}
    for (stratum, label), pixels in sorted(cell_pixels.items()):
        items = cell_items.get((stratum, label), 0)
        if totals[label] > 0 and pixels > share * totals[label] and items < min_items and label not in out:
            out[label] = (
                f"no rate: stratum {stratum} holds {100 * pixels / totals[label]:.0f} % of this label class's pixels "
                f"but {items} reviewed items (fewer than {min_items})"
            )
    return out
