"""Stratified estimation primitives: the mean, total and ratio of a stratified random sample.

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
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

Z95 = 1.96
"""Normal quantile of a two-sided 95 % interval, rounded as in Olofsson et al. (2014) and Newcombe (1998)."""


@dataclass(frozen=True)
class DomainSizes:
    """The sizes a Korn-Graubard interval of each figure rests on (:meth:`Strata.domain_sizes`).

    Attributes:
        kish: ``(m,)`` Kish's effective size of the domain's units in strata not reviewed in full.
        cap: ``(m,)`` ``n_d / (1 - n_d / N_d)``: the domain's items with the finite-population
            correction, ``N_d = sum_h N_h xbar_h``; inf for a census.
        census: ``(m,)`` True where every stratum the figure rests on is a census.
        items: ``(m,)`` ``n_d``, the domain's units.
        strata: ``(m,)`` ``H_d``, the strata holding a unit of the domain (its degrees of freedom
            are ``n_d - H_d``, as R's ``subset()`` of the design counts them).
        shares: ``(strata, m)`` per stratum ``w_h^2 (1 - f_h) / n_hd``, ``w_h`` its share of the
            domain (0 for a census stratum): the variance each stratum would add if its units
            varied as ``p (1 - p)``.
    """

    kish: np.ndarray
    cap: np.ndarray
    census: np.ndarray
    items: np.ndarray
    strata: np.ndarray
    shares: np.ndarray


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

    def domain_sizes(self, domain: np.ndarray, fixed: np.ndarray | None = None) -> DomainSizes:
        """What a Korn-Graubard interval of a figure over ``domain`` needs (:mod:`.intervals`).

        Args:
            domain: ``(units, m)`` 0/1: the units in each figure's domain (all ones for a mean).
            fixed: as in :func:`stratified_mean`: strata that add nothing to figure ``k``.

        Returns:
            :class:`DomainSizes`, each field ``(m,)``.
        """
        x = np.asarray(domain, dtype=np.float64).reshape(len(self.index), -1)
        active = np.ones((len(self.values), x.shape[1]), bool) if fixed is None else ~fixed
        census = self.sampled >= self.population
        inside = x * active[self.index]
        weights = (self.population / self.sampled)[self.index][:, None] * inside * ~census[self.index][:, None]
        per_stratum = np.zeros((len(self.values), x.shape[1]))
        np.add.at(per_stratum, self.index, inside)
        with np.errstate(invalid="ignore", divide="ignore"):
            kish = np.nan_to_num(weights.sum(axis=0) ** 2 / (weights**2).sum(axis=0))
            items = inside.sum(axis=0)
            size = self.population @ (self.moments(x)[0] * active)
            fraction = items / size
            cap = np.where(fraction < 1, items / (1 - fraction), np.inf)
        return DomainSizes(
            kish,
            cap,
            np.all(census[:, None] | ~active, axis=0),
            items,
            (per_stratum > 0).sum(axis=0),
            self._shares(active, per_stratum, size),
        )

    def silent_strata(self, values: np.ndarray, domain: np.ndarray) -> np.ndarray:
        """``(strata, m)`` True where the domain's units of a stratum (two or more, not a census) all
        have the same value: the sample shows no variation there, whatever the stratum holds."""
        x = np.asarray(domain, dtype=np.float64).reshape(len(self.index), -1)
        y = np.asarray(values, dtype=np.float64).reshape(len(self.index), -1) * x
        k = (len(self.values), x.shape[1])
        count, low, high = np.zeros(k), np.full(k, np.inf), np.full(k, -np.inf)
        np.add.at(count, self.index, x)
        np.minimum.at(low, self.index, np.where(x > 0, y, np.inf))
        np.maximum.at(high, self.index, np.where(x > 0, y, -np.inf))
        return (count >= 2) & (low == high) & (self.sampled < self.population)[:, None]

    def _shares(self, active: np.ndarray, per_stratum: np.ndarray, size: np.ndarray) -> np.ndarray:
        """``(strata, m)`` ``w_h^2 (1 - f_h) / n_hd`` (:attr:`DomainSizes.shares`), ``w_h = N_h n_hd /
        n_h / N_d`` the stratum's estimated share of the domain, ``n_hd`` its units in the domain."""
        census = (self.sampled >= self.population)[:, None]
        with np.errstate(invalid="ignore", divide="ignore"):
            share = self.population[:, None] * per_stratum / self.sampled[:, None] / size[None, :]
            fpc = (1 - self.sampled / self.population)[:, None] if self.finite_population else 1.0
            terms = np.where((per_stratum > 0) & active & ~census, share**2 * fpc / per_stratum, 0.0)
        return np.nan_to_num(terms)

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
