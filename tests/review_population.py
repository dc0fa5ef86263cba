"""A population for Monte-Carlo tests of the review estimators: real FLAIR reference masks as the
truth, a map and a label layer made from them with spatially clustered, class-dependent errors.

Every figure the estimators target is computed from the full rasters (the truth); samples are drawn
with the ranks, allocation and grid plan of :mod:`flair_qgis.core.review.sampling` (the code
``flair:sample`` runs), found in memory instead of in a GeoTIFF so that hundreds of draws take a
few seconds.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import rasterio
from conftest import REPO

from flair_qgis.core.review.sampling import confidence_strata, grid_plan, plan_ranks

PATCHES = ("024577", "036294", "050549", "000687")
"""Four real patches: classes 1..10, from 516 to 300,000 pixels each."""
MASKS = REPO / "tests" / "data" / "flair"  # read only


@dataclass(frozen=True)
class Population:
    """Full rasters (flattened, row-major) of the truth, the map and the labels.

    Attributes:
        truth, map, label: ``(pixels,)`` class values.
        width: columns of the mosaic (for the systematic design).
        strata: ``N_h`` per map class.
    """

    truth: np.ndarray
    map: np.ndarray
    label: np.ndarray
    width: int
    strata: dict[int, int]
    confidence: np.ndarray | None = None

    def confidence_strata(self, threshold: float) -> np.ndarray:
        """``(pixels,)`` ``stratified_confidence`` stratum of every pixel (the sampling module's rule)."""
        assert self.confidence is not None
        return confidence_strata(self.map, self.confidence, np.ones(self.map.shape, bool), threshold)

    def classes(self) -> list[int]:
        return sorted(set(np.unique(self.truth).tolist()) | set(self.strata))

    # -- the truth ---------------------------------------------------------------------------------
    def overall_accuracy(self) -> float:
        return float(np.mean(self.map == self.truth))

    def users_accuracy(self, c: int) -> float:
        return float(np.mean(self.truth[self.map == c] == c))

    def producers_accuracy(self, c: int) -> float:
        return float(np.mean(self.map[self.truth == c] == c))

    def area_proportion(self, c: int) -> float:
        return float(np.mean(self.truth == c))

    def label_error_rate(self, c: int | None = None) -> float:
        domain = np.ones(self.truth.shape, bool) if c is None else self.label == c
        return float(np.mean(self.label[domain] != self.truth[domain]))


def _blocky(rng: np.random.Generator, shape: tuple[int, int], block: int) -> np.ndarray:
    """Uniform noise constant over ``block`` x ``block`` squares (errors come in patches)."""
    rows, cols = -(-shape[0] // block), -(-shape[1] // block)
    coarse = rng.random((rows, cols))
    return np.kron(coarse, np.ones((block, block)))[: shape[0], : shape[1]]


def population(seed: int = 3) -> Population:
    """The mosaic of :data:`PATCHES` (512 x 2048 px) with a 120-pixel class 11 and a 12-pixel class 12
    (a census stratum), the map (class-dependent error 4-35 %, in 16 px patches) and the labels
    (3 % errors on common classes, 20-30 % on rare ones, in 8 px patches)."""
    truth = np.concatenate([_read(MASKS / f"MSK_{p}.tif") for p in PATCHES], axis=1).astype(np.int64)
    truth[100:110, 300:312] = 11
    truth[400:403, 900:904] = 12
    rng = np.random.default_rng(seed)
    common = (1, 2, 3, 4, 5, 6, 7, 8, 10)
    shift = {c: common[(k + 1) % len(common)] for k, c in enumerate(common)} | {11: 3, 12: 5}
    other = np.vectorize(shift.get)(truth)
    map_error = {1: 0.05, 2: 0.2, 3: 0.1, 4: 0.04, 5: 0.08, 6: 0.3, 7: 0.25, 8: 0.06, 10: 0.15, 11: 0.35, 12: 0.0}
    rate = np.vectorize(map_error.get)(truth)
    wrong_map = (_blocky(rng, truth.shape, 16) < rate) | (rng.random(truth.shape) < 0.01)
    mapped = np.where(wrong_map, other, truth)
    label_error = {1: 0.03, 2: 0.03, 3: 0.2, 4: 0.03, 5: 0.03, 6: 0.3, 7: 0.2, 8: 0.03, 10: 0.1, 11: 0.3, 12: 0.25}
    wrong_label = _blocky(rng, truth.shape, 8) < np.vectorize(label_error.get)(truth)
    label = np.where(wrong_label, np.vectorize(shift.get)(other), truth)
    values, counts = np.unique(mapped, return_counts=True)
    # The model's confidence: lower where the map is wrong, in 16 px patches (its own stream, so the
    # map and labels above stay those of the seed). At threshold 0.7: 77 % of the map is "high"
    # with 5 % errors (the model is sometimes confidently wrong), 23 % "low" with 36 % errors.
    noise = _blocky(np.random.default_rng(seed + 100), truth.shape, 16)
    confidence = np.clip(0.9 - 0.3 * wrong_map + 0.6 * (noise - 0.5), 0.0, 1.0)
    return Population(
        truth.ravel(), mapped.ravel(), label.ravel(), truth.shape[1], dict(zip(values.tolist(), counts.tolist())),
        confidence.ravel(),
    )  # fmt: skip


def _read(path) -> np.ndarray:
    with rasterio.open(path) as src:
        return src.read(1)


class Sampler:
    """Draws pixel samples of a :class:`Population` with the sampling module's own plans."""

    def __init__(self, pop: Population, threshold: float | None = None, by_label: bool = False) -> None:
        """``threshold``: sample the ``stratified_confidence`` strata instead of the map classes;
        ``by_label``: the ``stratified_label`` strata (map class x label class)."""
        from flair_qgis.core.review.label_strata import label_strata

        self.pop = pop
        self.stratum = pop.map if threshold is None else pop.confidence_strata(threshold)
        if by_label:
            self.stratum = label_strata(pop.map, pop.label, np.ones(pop.map.shape, bool))
        values, counts = np.unique(self.stratum, return_counts=True)
        self.strata = dict(zip(values.tolist(), counts.tolist()))
        order = np.argsort(self.stratum, kind="stable")
        bounds = np.searchsorted(self.stratum[order], sorted(self.strata))
        # Pixels of each stratum in raster order: rank r of stratum h is pixel members[h][r].
        self.members = {h: order[b : b + self.strata[h]] for h, b in zip(sorted(self.strata), bounds.tolist())}

    def draw(
        self, design: str, samples: int, min_per_class: int, rng: np.random.Generator, low_share: float = 0.5
    ) -> np.ndarray:
        """Flat pixel indices of one sample."""
        if design == "grid":
            step, (row0, col0) = grid_plan(self.pop.strata, samples, rng)
            rows = np.arange(row0, self.pop.truth.size // self.pop.width, step)
            cols = np.arange(col0, self.pop.width, step)
            return (rows[:, None] * self.pop.width + cols[None, :]).ravel()
        ranks = plan_ranks(self.strata, design, samples, min_per_class, rng, low_share)
        if design == "random":
            return ranks[None]
        return np.concatenate([self.members[h][r] for h, r in ranks.items() if h is not None])


def stratum_population(
    sizes: dict[int, int],
    label_error: dict[int, float],
    map_error: dict[int, float] | None = None,
    seed: int = 0,
) -> Population:
    """A population laid out stratum by stratum (map class = stratum) with exact error counts, for
    the hard cases of the intervals (rare errors, near-census strata, UA close to 1).

    Args:
        sizes: ``N_h`` per map class.
        label_error: share of each stratum's pixels whose label differs from the truth
            (``round(share * N_h)`` pixels, placed at random).
        map_error: share of each stratum's pixels whose true class is not the map class
            (default none).
        seed: where the errors fall.

    Returns:
        A :class:`Population` of one row (``width`` = all pixels); the truth of any figure is
        computed from its arrays.
    """
    rng = np.random.default_rng(seed)
    classes = sorted(sizes)
    other = {c: classes[(k + 1) % len(classes)] for k, c in enumerate(classes)}
    maps, truths, labels = [], [], []
    for c in classes:
        n = sizes[c]
        mapped = np.full(n, c, dtype=np.int64)
        truth = mapped.copy()
        wrong_map = rng.permutation(n) < round((map_error or {}).get(c, 0.0) * n)
        truth[wrong_map] = other[c]
        label = truth.copy()
        wrong_label = rng.permutation(n) < round(label_error.get(c, 0.0) * n)
        label[wrong_label] = np.vectorize(other.get)(truth[wrong_label]) if wrong_label.any() else label[wrong_label]
        maps.append(mapped)
        truths.append(truth)
        labels.append(label)
    mapped = np.concatenate(maps)
    return Population(np.concatenate(truths), mapped, np.concatenate(labels), mapped.size, dict(sizes))
