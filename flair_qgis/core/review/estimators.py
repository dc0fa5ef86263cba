"""Design-based estimators of a reviewed sample: stratified means, totals and ratios (Cochran 1977,
Stehman 2014), map accuracy and area (Olofsson et al. 2014), and the Wilson interval.

Stratified random sampling, strata ``h`` with ``N_h`` pixels, ``n_h`` reviewed units, sampling
fraction ``f_h = n_h / N_h`` and weight ``W_h = N_h / N``. For a unit variable ``y`` with stratum
sample mean ``ybar_h`` and sample variance ``s2_h`` (``n_h - 1`` in the denominator):

* mean (a proportion when ``y`` is 0/1): ``Ybar = sum_h W_h ybar_h``,
  ``V = sum_h W_h^2 (1 - f_h) s2_h / n_h`` (Cochran 1977, eq. 5.6, with the finite-population
  correction ``1 - f_h``; for a 0/1 variable ``s2_h / n_h = p_h (1 - p_h) / (n_h - 1)``, the
  Olofsson et al. (2014) term);
* ratio of two population totals (Stehman 2014, eqs. 27-28): ``R = sum_h N_h ybar_h / sum_h N_h
  xbar_h``, ``V = sum_h N_h^2 (1 - f_h) s2_{e,h} / n_h / X^2`` where ``e = y - R x`` and ``X =
  sum_h N_h xbar_h`` (Taylor linearisation). A producer's accuracy, a user's accuracy when strata
  are not the map classes, and a label-error rate in a domain are ratios.

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
:func:`domain_rates`); the UA of a class mapped in one stratum only the exact interval on that
stratum's items; areas in m² the normal interval truncated to ``[0, map area]``. The review report
reads these (:mod:`.report_figures`); the ``_se`` fields are the standard errors it also prints, and
:func:`stratified_rates` (normal interval, Wilson at 0/1) is kept only for the tests that measure
the old interval beside the new one.
"""

from __future__ import annotations

import dataclasses
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
    normal_interval,
)

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
class Strata:
    """The sampled strata of a set of reviewed units.

    Attributes:
        values: stratum values, in the order of every per-stratum array.
        finite_population: apply the finite-population correction ``1 - n_h / N_h`` (Olofsson et al.
            2014 leave it out; with ``n_h << N_h`` it changes nothing visible).
        index: ``(units,)`` position in ``values`` of each unit's stratum.
        population: ``(strata,)`` ``N_h`` (pixels).
        sampled: ``(strata,)`` ``n_h`` (reviewed units).
    """

    values: tuple[int, ...]
    index: np.ndarray
    population: np.ndarray
    sampled: np.ndarray
    finite_population: bool = True

    @classmethod
    def of(
        cls, unit_strata: Sequence[int], stratum_pixels: Mapping[int, int], finite_population: bool = True
    ) -> Strata:
        """The strata holding at least one unit.

        Raises:
            ValueError: a unit's stratum has no ``N_h``, or fewer pixels than units.
        """
        unique, index = np.unique(np.asarray(unit_strata, dtype=np.int64), return_inverse=True)
        values = tuple(int(v) for v in unique)
        missing = [v for v in values if v not in stratum_pixels]
        if missing:
            raise ValueError(f"units in strata {missing} without a pixel count")
        index = index.astype(np.int64).ravel()
        sampled = np.bincount(index, minlength=len(values)).astype(np.float64)
        population = np.array([float(stratum_pixels[v]) for v in values])
        if np.any(sampled > population):
            raise ValueError("a stratum has more units than pixels")
        return cls(values, index, population, sampled, finite_population)

    @property
    def single(self) -> np.ndarray:
        """``(strata,)`` True where one unit stands for more than one pixel (no variance estimate)."""
        return (self.sampled == 1) & (self.population > 1)

    def domain_sizes(
        self, domain: np.ndarray, fixed: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """What a Korn-Graubard interval of a figure over ``domain`` needs (:mod:`.intervals`).

        Args:
            domain: ``(units, m)`` 0/1: the units in each figure's domain (all ones for a mean).
            fixed: as in :func:`stratified_mean`: strata that add nothing to figure ``k``.

        Returns:
            ``(kish, cap, census)``, each ``(m,)``: Kish's effective size of the domain's units in
            strata not reviewed in full; ``kish / (1 - n_d / N_d)`` with ``n_d`` the domain's units
            and ``N_d = sum_h N_h xbar_h``; True where every stratum the figure rests on is a census.
        """
        x = np.asarray(domain, dtype=np.float64).reshape(len(self.index), -1)
        active = np.ones((len(self.values), x.shape[1]), bool) if fixed is None else ~fixed
        census = self.sampled >= self.population
        inside = x * active[self.index]
        weights = (self.population / self.sampled)[self.index][:, None] * inside * ~census[self.index][:, None]
        with np.errstate(invalid="ignore", divide="ignore"):
            kish = np.nan_to_num(weights.sum(axis=0) ** 2 / (weights**2).sum(axis=0))
            items = inside.sum(axis=0)
            fraction = items / (self.population @ (self.moments(x)[0] * active))
            cap = np.where(fraction < 1, kish / (1 - fraction), np.inf)
        return kish, cap, np.all(census[:, None] | ~active, axis=0)

    def moments(self, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per-stratum sample means and the variance terms ``(1 - f_h) s2_h / n_h``.

        Args:
            values: ``(units, m)`` unit variables.

        Returns:
            ``(means, terms)``, both ``(strata, m)``; a term is 0 for a census stratum and NaN for
            a single-unit stratum (where not a census).
        """
        k = len(self.values)
        onehot = np.zeros((len(self.index), k))
        onehot[np.arange(len(self.index)), self.index] = 1.0
        n = self.sampled[:, None]
        means = onehot.T @ values / n
        squares = onehot.T @ (values - means[self.index]) ** 2
        with np.errstate(invalid="ignore", divide="ignore"):
            variance = squares / (n - 1)
        census = n >= self.population[:, None]
        fpc = 1.0 - n / self.population[:, None] if self.finite_population else np.ones_like(n)
        terms = np.where(census, 0.0, fpc * variance / n)
        return means, np.where(self.single[:, None], np.nan, terms)


def _variance(terms: np.ndarray, weights: np.ndarray, fixed: np.ndarray | None) -> np.ndarray:
    """``sum_h weights_h^2 terms_h`` over strata whose term is not known to be zero."""
    terms = terms if fixed is None else np.where(fixed, 0.0, terms)
    return (weights[:, None] ** 2 * terms).sum(axis=0)


def stratified_mean(
    strata: Strata, values: np.ndarray, fixed: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Stratified estimate of population means and their standard errors (module docstring).

    Args:
        strata: the sampled strata.
        values: ``(units, m)`` unit variables.
        fixed: optional ``(strata, m)``: True where the variable is constant over the stratum's
            whole population (its term adds no variance, even from a single unit).

    Returns:
        ``(means, standard errors)``, both ``(m,)``.
    """
    weights = strata.population / strata.population.sum()
    means, terms = strata.moments(values)
    return weights @ means, np.sqrt(_variance(terms, weights, fixed))


def stratified_total(
    strata: Strata, values: np.ndarray, unit_size: np.ndarray, fixed: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Stratified estimate of ``sum_h N_h a_h Ybar_h`` (e.g. an area in m²) and its standard errors.

    Args:
        strata: the sampled strata.
        values: ``(units, m)`` unit variables.
        unit_size: ``(strata,)`` the size ``a_h`` of one population unit (mean pixel area).
        fixed: as in :func:`stratified_mean`.
    """
    weights = strata.population * unit_size
    means, terms = strata.moments(values)
    return weights @ means, np.sqrt(_variance(terms, weights, fixed))


def stratified_ratio(
    strata: Strata, numerator: np.ndarray, denominator: np.ndarray, fixed: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Combined ratio estimate ``Y / X`` of population totals (Stehman 2014 eqs. 27-28).

    Args:
        strata: the sampled strata.
        numerator, denominator: ``(units, m)`` unit variables ``y`` and ``x``.
        fixed: optional ``(strata, m)``: True where ``y`` and ``x`` are both constant over the
            stratum's population (its residual term is zero).

    Returns:
        ``(ratios, standard errors)``, ``(m,)``; NaN where the estimated ``X`` is 0.
    """
    y_means, _ = strata.moments(numerator)
    x_means, _ = strata.moments(denominator)
    y_total = strata.population @ y_means
    x_total = strata.population @ x_means
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = np.where(x_total > 0, y_total / x_total, np.nan)
    residual = numerator - np.nan_to_num(ratio)[None, :] * denominator
    _, terms = strata.moments(residual)
    with np.errstate(invalid="ignore", divide="ignore"):
        se = np.sqrt(_variance(terms, strata.population, fixed)) / x_total
    return ratio, np.where(x_total > 0, se, np.nan)


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
        area_m2_interval: per class, the normal interval truncated to ``[0, map area]``; its note
            flags an area resting on fewer than :data:`AREA_MIN_ITEMS` items of the class.
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
) -> tuple[Interval, ...]:
    """Korn-Graubard intervals of stratified proportions or domain ratios (:mod:`.intervals`).

    Args:
        strata: the sampled strata.
        estimate, se: ``(m,)`` the figures and their design standard errors.
        domain: ``(units, m)`` 0/1 domain of each figure (all ones for a stratified mean).
        fixed: as in :func:`stratified_mean`.
        level: confidence level.
    """
    kish, cap, census = strata.domain_sizes(domain, fixed)
    factor = degrees_of_freedom_factor(len(strata.index), len(strata.values), level)
    return tuple(korn_graubard(estimate, np.asarray(se) ** 2, kish, cap, census, factor, level))


def _users_intervals(
    strata: Strata, hit: np.ndarray, mapped: np.ndarray, users: np.ndarray, users_se: np.ndarray,
    fixed: np.ndarray | None, level: float,
) -> tuple[Interval, ...]:  # fmt: skip
    """Exact on the one stratum where a class is mapped in one stratum only, else Korn-Graubard."""
    ratio = proportion_intervals(strata, users, users_se, mapped, fixed, level)
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
    area_m2: np.ndarray, area_m2_se: np.ndarray, total_m2: float, items: np.ndarray, z: float
) -> tuple[Interval, ...]:
    """Normal intervals of the areas, truncated to ``[0, map area]``, flagged below AREA_MIN_ITEMS items."""
    return tuple(
        normal_interval(float(a), float(s), z, 0.0, total_m2,
                        f"rests on {n} reviewed items of the class (< {AREA_MIN_ITEMS})" if n < AREA_MIN_ITEMS else "")
        for a, s, n in zip(area_m2, area_m2_se, items.astype(int).tolist())
    )  # fmt: skip


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
) -> StratifiedEstimate:
    """OA, UA, PA and areas from a stratified (or simple random: one stratum) sample of pixels.

    Args:
        unit_strata: stratum of each reviewed unit.
        map_classes: map class of each unit.
        reference_classes: the true class of each unit, same order.
        stratum_pixels: ``N_h`` per stratum (only strata with units are used: the caller must
            refuse an estimate while a stratum with pixels has none).
        pixel_area_m2: area of one pixel (m²), one value or the mean per stratum.
        stratum_map_class: the one map class of each stratum where strata split the map classes
            (then a stratum adds no variance to the user's accuracy of another class).
        z: normal quantile of the area interval.
        finite_population: apply the finite-population correction (census strata add no
            variance either way).
        level: confidence level of the proportions' intervals.

    Returns:
        The estimates; classes: every map and reference class met, sorted.
    """
    strata = Strata.of(unit_strata, stratum_pixels, finite_population)
    maps = np.asarray(map_classes, dtype=np.int64)
    refs = np.asarray(reference_classes, dtype=np.int64)
    classes = tuple(sorted({int(v) for v in maps} | {int(v) for v in refs}))
    mapped, truth = _indicators(maps, classes), _indicators(refs, classes)
    hit, k, everyone = mapped * truth, len(classes), np.ones((len(maps), 1))
    fixed = _owned_elsewhere(strata, stratum_map_class, classes)
    overall, overall_se = stratified_mean(strata, (maps == refs).astype(np.float64)[:, None])
    area, area_se = stratified_mean(strata, truth)
    sizes = np.array([_area_of(pixel_area_m2, v) for v in strata.values])
    area_m2, area_m2_se = stratified_total(strata, truth, sizes)
    users, users_se = stratified_ratio(strata, hit, mapped, fixed)
    producers, producers_se = stratified_ratio(strata, hit, truth)
    cells, _ = stratified_mean(strata, (mapped[:, :, None] * truth[:, None, :]).reshape(len(maps), k * k))
    return StratifiedEstimate(
        classes, float(overall[0]), float(overall_se[0]), users, users_se, producers, producers_se, area, area_se,
        area_m2, z * area_m2_se, cells.reshape(k, k),
        single_item_strata=tuple(v for v, s in zip(strata.values, strata.single) if s),
        overall_accuracy_interval=proportion_intervals(strata, overall, overall_se, everyone, None, level)[0],
        users_accuracy_interval=_users_intervals(strata, hit, mapped, users, users_se, fixed, level),
        producers_accuracy_interval=proportion_intervals(strata, producers, producers_se, truth, None, level),
        area_proportion_interval=proportion_intervals(strata, area, area_se, np.repeat(everyone, k, 1), None, level),
        area_m2_interval=_area_intervals(area_m2, area_m2_se, float(strata.population @ sizes), truth.sum(0), z),
        reference_items=tuple(int(v) for v in truth.sum(axis=0)),
    )  # fmt: skip


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
        strata, strata, reference_classes, stratum_pixels, pixel_area_m2, {v: v for v in set(strata)}, z,
        finite_population,
    )  # fmt: skip


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
    return list(proportion_intervals(strata, ratio, se, x, None, level))


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
