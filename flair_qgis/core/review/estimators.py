"""Design-based estimators of a reviewed sample: stratified means, totals and ratios (Cochran 1977,
Stehman 2014), map accuracy and area (Olofsson et al. 2014). Label-error rates over domains: :mod:`.rates`.

The stratified mean, total and ratio with their variances are in :mod:`.stratified`.

Per figure:

* overall accuracy: the mean of ``y = [map = reference]``;
* area proportion of class ``j``: the mean of ``y = [reference = j]``; the area in m² is the total
  ``sum_h N_h a_h ybar_h`` with ``a_h`` the mean pixel area of stratum ``h`` (m², see
  :mod:`flair_qgis.core.areas`), its variance ``sum_h (N_h a_h)^2 (1 - f_h) s2_h / n_h``;
* user's accuracy of map class ``i``: the ratio ``y = [map = i = reference]`` over ``x = [map = i]``
  (for strata = map classes this is ``n_ii / n_i.`` with ``V = (1 - f_i) U_i (1 - U_i) / (n_i - 1)``);
* producer's accuracy of class ``j``: the ratio ``y = [map = j = reference]`` over ``x = [reference
  = j]``; for strata = map classes its variance is Olofsson et al. (2014) eq. 7 with the FPC.

Variance rules: a census stratum (``n_h = N_h``) adds no variance. A stratum with a single unit
out of ``N_h > 1`` has no variance estimate: the figures whose variance needs that stratum get a
NaN standard error (and the report a note naming it); a stratum whose contribution is zero by
design (e.g. stratum "map class 3" for the user's accuracy of class 5, whose ``x`` and ``y`` are 0
for every pixel of the stratum) does not count.

Intervals (:mod:`flair_qgis.core.review.intervals`): proportions (OA, PA, area shares, UA as a
ratio, label-error rates) get the Korn-Graubard interval (:func:`proportion_intervals`,
:func:`.rates.domain_rates`); the UA of a class mapped in one stratum only the exact interval on that
stratum's items; areas in m² the Korn-Graubard interval of the class's share of the map's area
(``A_k / A``, a stratified mean in ``[0, 1]``) times the map's area ``A``: never of zero width
between 0 and ``A`` unless every stratum was reviewed in full (issue 42: the normal interval on
the total covered 0.32-0.93 in the hard cases, zero-width where the class's strata showed no
variation). The review report
reads these (:mod:`.report_figures`); the ``_se`` fields are the standard errors it also prints, and
:func:`.rates.stratified_rates` (normal interval, Wilson at 0/1) is kept only for the tests that measure
the old interval beside the new one.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from .intervals import (
    CONFIDENCE,
    Interval,
    degrees_of_freedom_factor,
    exact_proportion,
    korn_graubard,
)
from .stratified import Z95, Strata, stratified_mean, stratified_ratio, stratified_total


@dataclass(frozen=True)
class StratifiedEstimate:
    """Map accuracy and area estimated from a stratified sample.

    Attributes:
        classes: class values, in the order of every per-class array.
        overall_accuracy, overall_accuracy_se: OA and its standard error.
        users_accuracy, users_accuracy_se: per class (NaN for a class never mapped in the sample).
        producers_accuracy, producers_accuracy_se: per class (NaN where the class has no estimated area).
        area_proportion, area_proportion_se: estimated share of the map's pixels per class.
        area_m2, area_m2_ci95: estimated area and the half-width of its 95 % interval.
        proportions: ``(classes, classes)`` estimated cell proportions ``p_ij`` (rows map, columns reference).
        single_item_strata: strata with one unit out of more pixels (no variance estimate).
        overall_accuracy_interval: Korn-Graubard (:mod:`.intervals`).
        users_accuracy_interval: per class: exact (Clopper-Pearson, hypergeometric where the
            sampling fraction is material) where the class is mapped in one stratum only, else
            Korn-Graubard on the ratio.
        producers_accuracy_interval, area_proportion_interval: per class, Korn-Graubard.
        area_m2_interval: per class, Korn-Graubard on the share of the map's area times the map's
            area (:func:`_area_intervals`); its note flags an area resting on fewer than
            :data:`AREA_MIN_ITEMS` items of the class.
        reference_items: per class, the reviewed items whose true class it is.
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
    single_item_strata: tuple[int, ...] = ()
    overall_accuracy_interval: Interval | None = None
    users_accuracy_interval: tuple[Interval, ...] = ()
    producers_accuracy_interval: tuple[Interval, ...] = ()
    area_proportion_interval: tuple[Interval, ...] = ()
    area_m2_interval: tuple[Interval, ...] = ()
    reference_items: tuple[int, ...] = ()


AREA_MIN_ITEMS = 10
"""An area estimate resting on fewer reviewed items of its class is flagged."""


def _indicators(values: np.ndarray, classes: tuple[int, ...]) -> np.ndarray:
    """``(units, classes)`` 0/1 matrix ``[value = class]``."""
    return (values[:, None] == np.array(classes)[None, :]).astype(np.float64)


def proportion_intervals(
    strata: Strata,
    estimate: np.ndarray,
    se: np.ndarray,
    domain: np.ndarray,
    fixed: np.ndarray | None = None,
    level: float = CONFIDENCE,
    values: np.ndarray | None = None,
) -> tuple[Interval, ...]:
    """Korn-Graubard intervals of stratified proportions or domain ratios (:mod:`.intervals`).

    Args:
        strata: the sampled strata.
        estimate, se: ``(m,)`` the figures and their design standard errors.
        domain: ``(units, m)`` 0/1 domain of each figure (all ones for a stratified mean).
        fixed: as in :func:`stratified_mean`.
        level: confidence level.
        values: ``(units, m)`` the 0/1 variable whose share it is (the strata where it does not
            vary get the floor of :func:`.intervals.korn_graubard`); None: no floor.
    """
    sizes = strata.domain_sizes(domain, fixed)
    factor = np.array(
        [degrees_of_freedom_factor(int(n), int(h), level) for n, h in zip(sizes.items, sizes.strata)], dtype=float
    )
    silent = 0.0
    if values is not None:
        silent = (sizes.shares * strata.silent_strata(values, domain)).sum(axis=0)
    variance = np.asarray(se) ** 2
    return tuple(korn_graubard(estimate, variance, sizes.kish, sizes.cap, sizes.census, factor, level, silent))


def _users_intervals(
    strata: Strata,
    hit: np.ndarray,
    mapped: np.ndarray,
    users: np.ndarray,
    users_se: np.ndarray,
    fixed: np.ndarray | None,
    level: float,
) -> tuple[Interval, ...]:
    """Exact on the one stratum where a class is mapped in one stratum only, else Korn-Graubard."""
    ratio = proportion_intervals(strata, users, users_se, mapped, fixed, level, hit)
    if fixed is None:
        return ratio
    out = list(ratio)
    for k in range(hit.shape[1]):
        owned = np.flatnonzero(~fixed[:, k])
        if len(owned) == 1 and mapped[:, k].any():
            h = owned[0]
            units = strata.index == h
            exact = exact_proportion(int(hit[units, k].sum()), int(units.sum()), int(strata.population[h]), level)
            out[k] = dataclasses.replace(exact, se=None if math.isnan(users_se[k]) else float(users_se[k]))
    return tuple(out)


def _area_intervals(
    strata: Strata, truth: np.ndarray, area_m2: np.ndarray, area_m2_se: np.ndarray, total_m2: float, level: float
) -> tuple[Interval, ...]:
    """Korn-Graubard intervals of each class's share of the map's area, times the map's area (m²);
    flagged below AREA_MIN_ITEMS reviewed items of the class.

    Without the floor for strata showing no variation (:func:`.intervals.korn_graubard`): nearly
    every stratum is "silent" for a class's share (no item of the class outside a few strata),
    where the floor cost up to 1.7 times the width; without it the shares and areas covered
    >= 0.98 in every hard case (``docs/review.md``).
    """
    everyone = np.ones(truth.shape)
    with np.errstate(invalid="ignore", divide="ignore"):
        shares = proportion_intervals(strata, area_m2 / total_m2, area_m2_se / total_m2, everyone, None, level)
    out = []
    for interval, n in zip(shares, truth.sum(0).astype(int).tolist()):
        flag = f"rests on {n} reviewed items of the class (< {AREA_MIN_ITEMS})" if n < AREA_MIN_ITEMS else ""
        flag = "no item of the class reviewed" if n == 0 else flag
        bounds = interval.bounds
        out.append(
            dataclasses.replace(
                interval,
                estimate=interval.estimate * total_m2,
                lower=None if bounds is None else bounds[0] * total_m2,
                upper=None if bounds is None else bounds[1] * total_m2,
                se=None if interval.se is None else interval.se * total_m2,
                note="; ".join(t for t in (interval.note, flag) if t),
            )
        )
    return tuple(out)


def _owned_elsewhere(
    strata: Strata, stratum_map_class: Mapping[int, int] | None, classes: tuple[int, ...]
) -> np.ndarray | None:
    """``(strata, classes)`` True where the stratum holds another map class only (see :func:`stratified_mean`)."""
    if stratum_map_class is None:
        return None
    owner = np.array([stratum_map_class.get(v, -1) for v in strata.values])
    return owner[:, None] != np.array(classes)[None, :]


def design_estimate(
    unit_strata: Sequence[int],
    map_classes: Sequence[int],
    reference_classes: Sequence[int],
    stratum_pixels: Mapping[int, int],
    pixel_area_m2: float | Mapping[int, float],
    stratum_map_class: Mapping[int, int] | None = None,
    z: float = Z95,
    finite_population: bool = True,
    level: float = CONFIDENCE,
    extra_classes: Sequence[int] = (),
) -> StratifiedEstimate:
    """OA, UA, PA and areas from a stratified (or simple random: one stratum) sample of pixels.

    Args:
        unit_strata: stratum of each reviewed unit.
        map_classes, reference_classes: map class and true class of each unit.
        stratum_pixels: ``N_h`` per stratum (the caller refuses an estimate while one has no unit).
        pixel_area_m2: area of one pixel (m²), one value or the mean per stratum.
        stratum_map_class: the one map class of each stratum, where strata split the map classes.
        z: normal quantile of ``area_m2_ci95``.
        finite_population: apply the finite-population correction (not to census strata).
        level: confidence level of the intervals.
        extra_classes: classes listed though no item is of them (issue 42).

    Returns:
        The estimates; classes: every class met or extra, sorted.
    """
    strata = Strata.of(unit_strata, stratum_pixels, finite_population)
    classes, mapped, truth, correct = _class_indicators(map_classes, reference_classes, extra_classes)
    hit, k, everyone = mapped * truth, len(classes), np.ones((len(correct), 1))
    interval = functools.partial(proportion_intervals, strata, level=level)  # (estimate, se, domain, values)
    overall, overall_se = stratified_mean(strata, correct)
    area, area_se = stratified_mean(strata, truth)
    area_m2, area_m2_ci95, area_m2_interval = _class_areas_m2(strata, truth, pixel_area_m2, z, level)
    users, users_se, users_interval = _users_accuracy(strata, hit, mapped, stratum_map_class, classes, level)
    producers, producers_se = stratified_ratio(strata, hit, truth)
    cells, _ = stratified_mean(strata, (mapped[:, :, None] * truth[:, None, :]).reshape(len(correct), k * k))
    return StratifiedEstimate(
        classes,
        float(overall[0]),
        float(overall_se[0]),
        users,
        users_se,
        producers,
        producers_se,
        area,
        area_se,
        area_m2,
        area_m2_ci95,
        cells.reshape(k, k),
        single_item_strata=tuple(v for v, s in zip(strata.values, strata.single) if s),
        overall_accuracy_interval=interval(overall, overall_se, everyone, values=correct)[0],
        users_accuracy_interval=users_interval,
        producers_accuracy_interval=interval(producers, producers_se, truth, values=hit),
        area_proportion_interval=interval(area, area_se, np.repeat(everyone, k, 1)),  # no floor: see _area_intervals
        area_m2_interval=area_m2_interval,
        reference_items=tuple(int(v) for v in truth.sum(axis=0)),
    )


def _users_accuracy(
    strata: Strata,
    hit: np.ndarray,
    mapped: np.ndarray,
    stratum_map_class: Mapping[int, int] | None,
    classes: tuple[int, ...],
    level: float,
) -> tuple[np.ndarray, np.ndarray, tuple[Interval, ...]]:
    """The user's accuracy of each class, a ratio in which a stratum holding another map class only
    adds no variance, and its intervals.

    Args:
        strata: the sampled strata.
        hit: ``(units, classes)`` 0/1 ``[map = class = reference]``.
        mapped: ``(units, classes)`` 0/1 ``[map = class]``.
        stratum_map_class: as in :func:`design_estimate`.
        classes: the class values, in the order of the columns.
        level: confidence level.

    Returns:
        ``(users, users_se, intervals)`` (intervals: :func:`_users_intervals`).
    """
    fixed = _owned_elsewhere(strata, stratum_map_class, classes)
    users, users_se = stratified_ratio(strata, hit, mapped, fixed)
    return users, users_se, _users_intervals(strata, hit, mapped, users, users_se, fixed, level)


def _class_indicators(
    map_classes: Sequence[int], reference_classes: Sequence[int], extra_classes: Sequence[int] = ()
) -> tuple[tuple[int, ...], np.ndarray, np.ndarray, np.ndarray]:
    """The classes met, and which of them each unit is mapped as and truly is.

    Args:
        map_classes: map class of each unit.
        reference_classes: the true class of each unit, same order.
        extra_classes: classes to keep though no unit is of them.

    Returns:
        ``(classes, mapped, truth, correct)``: every map and reference class met, sorted; the
        ``(units, classes)`` 0/1 matrices ``[map = class]`` and ``[reference = class]``; the
        ``(units, 1)`` 0/1 column ``[map = reference]``.
    """
    maps = np.asarray(map_classes, dtype=np.int64)
    refs = np.asarray(reference_classes, dtype=np.int64)
    classes = tuple(sorted({int(v) for v in maps} | {int(v) for v in refs} | {int(v) for v in extra_classes}))
    correct = (maps == refs).astype(np.float64)[:, None]
    return classes, _indicators(maps, classes), _indicators(refs, classes), correct


def _class_areas_m2(
    strata: Strata, truth: np.ndarray, pixel_area_m2: float | Mapping[int, float], z: float, level: float
) -> tuple[np.ndarray, np.ndarray, tuple[Interval, ...]]:
    """The area of each class in m² (a stratified total of the pixel areas) and its intervals.

    Args:
        strata: the sampled strata.
        truth: ``(units, classes)`` 0/1 ``[reference = class]``.
        pixel_area_m2: area of one pixel (m²), one value or the mean per stratum.
        z: normal quantile of the half-width ``area_m2_ci95`` (kept for the report's ``area_ha_ci95``).
        level: confidence level of the intervals.

    Returns:
        ``(area_m2, area_m2_ci95, intervals)``: the areas, the half-widths ``z SE`` and the
        Korn-Graubard intervals of the area shares times the map's area (:func:`_area_intervals`).
    """
    sizes = np.array([_area_of(pixel_area_m2, v) for v in strata.values])
    area_m2, area_m2_se = stratified_total(strata, truth, sizes)
    intervals = _area_intervals(strata, truth, area_m2, area_m2_se, float(strata.population @ sizes), level)
    return area_m2, z * area_m2_se, intervals


def _area_of(pixel_area_m2: float | Mapping[int, float], stratum: int) -> float:
    return float(pixel_area_m2[stratum]) if isinstance(pixel_area_m2, Mapping) else float(pixel_area_m2)


def stratified_estimate(
    map_classes: Sequence[int],
    reference_classes: Sequence[int],
    stratum_pixels: Mapping[int, int],
    pixel_area_m2: float | Mapping[int, float],
    z: float = Z95,
    finite_population: bool = True,
) -> StratifiedEstimate:
    """Olofsson et al. (2014) estimators: the strata are the map classes.

    Args:
        map_classes: map class (= stratum) of each reviewed unit.
        reference_classes: the true class of each unit, same order.
        stratum_pixels: ``N_i`` per map class.
        pixel_area_m2: area of one pixel (m²), one value or the mean per stratum.
        z: normal quantile of the interval.
        finite_population: apply the finite-population correction (the paper does not).
    """
    strata = [int(v) for v in map_classes]
    return design_estimate(
        strata,
        strata,
        reference_classes,
        stratum_pixels,
        pixel_area_m2,
        {v: v for v in set(strata)},
        z,
        finite_population,
    )
