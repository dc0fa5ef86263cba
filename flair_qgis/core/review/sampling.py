"""Sampling designs for the label review: which pixels (or polygons) a person looks at.

Designs (``DESIGNS``):

* ``stratified``: stratified random pixel sample, strata = predicted classes (Olofsson et al.
  2014). Allocation: every stratum gets ``min(MIN_PER_CLASS, N_h)`` pixels (a stratum smaller
  than ``MIN_PER_CLASS`` gives all its pixels; never fewer than ``min(2, N_h)``), the rest of
  ``SAMPLES`` is shared in proportion to ``N_h`` (largest remainders).
* ``random``: simple random sample of the valid pixels.
* ``grid``: systematic sample: pixel centres every ``step = round(sqrt(N / SAMPLES))`` pixels in
  both directions from a random offset in ``[0, step)`` (about ``SAMPLES`` points).
* ``suspicious``: reference polygons in decreasing suspicion (:func:`flair_qgis.core.score.labels.rank_labels`).
* ``stratified_confidence``: stratified random pixel sample whose strata are map class x
  confidence band (:func:`confidence_strata`: confidence below ``CONFIDENCE_THRESHOLD``, or
  missing, is band 0 "low", the rest band 1 "high"). ``LOW_CONFIDENCE_SHARE`` of ``SAMPLES`` goes
  to the low strata and the rest to the high strata, each share in proportion to ``N_h`` with
  ``MIN_PER_CLASS`` per stratum (:func:`allocate_confidence`). The strata are not the map classes:
  the estimates are Stehman's (2014).
* ``stratified_label``: stratified random pixel sample whose strata are map class x label class
  (:mod:`.label_strata`), allocated as ``stratified``: for reviews whose aim is the labels.

Memory: two passes over windows of the class map; the first counts pixels per class, the second
draws the chosen ranks per class in each window. Nothing is held but counts and the sample.

Items of the random designs are shuffled (seeded): a review stopped halfway is still a random
sample of every stratum. Grid items are shuffled too (issue 34; they ran row by row before, a
systematic sweep as in ThRasE): the set of points is the systematic sample either way, so the
design is kept, but a review stopped part-way has seen the whole map rather than its top rows.
The report still gives a grid's figures only once every item has a verdict.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

import numpy as np

from ..engine.grid import Grid
from ..errors import Canceled, InputError
from ..score import ClassRasterSource, prediction_grid, windows
from ..vocabulary import DESIGN_STRATIFIED_LABEL, PIXEL_DESIGNS
from .label_strata import LabelSplit, label_strata

CONFIDENCE_BANDS = ("low", "high")
"""Band 0 and 1 of ``stratified_confidence``."""


def confidence_strata(classes: np.ndarray, confidence: np.ndarray, known: np.ndarray, threshold: float) -> np.ndarray:
    """Stratum of each pixel under ``stratified_confidence``: ``2 * map class + band``.

    Args:
        classes: map class values.
        confidence: confidence values, same shape.
        known: where the confidence is valid (elsewhere the pixel is in the low band: the model
            gave no confidence, so it is not known to be sure).
        threshold: band 1 ("high") is ``confidence >= threshold``.
    """
    high = known & (np.nan_to_num(confidence.astype(np.float64), nan=-np.inf) >= threshold)
    return 2 * classes.astype(np.int64) + high.astype(np.int64)


def stratum_map_class(stratum: int) -> int:
    """The map class of a ``stratified_confidence`` stratum."""
    return stratum // 2


def stratum_band(stratum: int) -> str:
    """The confidence band (``low`` or ``high``) of a ``stratified_confidence`` stratum."""
    return CONFIDENCE_BANDS[stratum % 2]


@dataclass(frozen=True)
class ConfidenceSplit:
    """How ``stratified_confidence`` reads the confidence raster: its path, the threshold and the
    share of the sample given to the low band."""

    path: str
    threshold: float = 0.7
    low_share: float = 0.5


Progress = Callable[[float], None] | None
CancelCheck = Callable[[], bool] | None
Split = ConfidenceSplit | LabelSplit | None
"""What splits the map classes into strata: the confidence bands, the label classes, or nothing."""


def window_reads(
    grid: Grid,
    prediction_path: str,
    is_canceled: CancelCheck,
    on_progress: Progress,
    share: tuple[float, float],
    split: Split = None,
) -> Iterator[tuple[int, int, np.ndarray, np.ndarray]]:
    """``(row, col, values, valid)`` for each window, in a fixed order; progress in ``share``.

    ``values`` are the map classes, or with ``split`` the ``stratified_confidence`` or
    ``stratified_label`` strata.
    """
    plan = windows(grid)
    with contextlib.ExitStack() as stack:
        reader = stack.enter_context(ClassRasterSource(prediction_path, grid).open())
        other = None
        if isinstance(split, ConfidenceSplit):
            other = stack.enter_context(_confidence_source(split.path, grid).open())
        elif isinstance(split, LabelSplit):
            other = stack.enter_context(split.source(grid).open())
        for done, (row, col, rows, cols) in enumerate(plan):
            if is_canceled is not None and is_canceled():
                raise Canceled()
            values, valid = reader.read(row, col, rows, cols)
            if other is not None:
                level, known = other.read(row, col, rows, cols)
                values = (
                    confidence_strata(values, level, known, split.threshold)
                    if isinstance(split, ConfidenceSplit)
                    else label_strata(values, level, known)
                )
            yield row, col, values, valid
            if on_progress is not None:
                on_progress(share[0] + (share[1] - share[0]) * (done + 1) / len(plan))


def _confidence_source(path: str, grid: Grid) -> ClassRasterSource:
    from ..crs import same_crs
    from ..score import raster_info

    return ClassRasterSource(path, grid, assume_grid_crs=same_crs(grid.crs_wkt, raster_info(path).crs_wkt))


def count_classes(
    prediction_path: str,
    grid: Grid,
    *,
    is_canceled: CancelCheck = None,
    on_progress: Progress = None,
    split: Split = None,
) -> dict[int, int]:
    """Valid pixels per class value of the class map on ``grid`` (``N_h``); per
    ``stratified_confidence`` stratum with ``split``.

    Raises:
        InputError: no valid pixel at all (nothing to stratify).
        Canceled: on cancel.
    """
    totals: dict[int, int] = {}
    reads = window_reads(grid, prediction_path, is_canceled, on_progress, (0.0, 50.0), split)
    for _row, _col, values, valid in reads:
        classes, counts = np.unique(values[valid], return_counts=True)
        for value, count in zip(classes.tolist(), counts.tolist()):
            totals[int(value)] = totals.get(int(value), 0) + int(count)
    if not totals:
        raise InputError.of("prediction_all_nodata")
    return totals


def class_pixel_areas_m2(
    prediction_path: str,
    grid: Grid,
    strata: Mapping[int, int],
    *,
    is_canceled: CancelCheck = None,
    split: Split = None,
) -> dict[int, float]:
    """Mean pixel area (m²) per stratum (one more pass over the map only for a geographic CRS)."""
    from ..areas import stratum_pixel_areas_m2

    def windows_read():
        for row, _col, values, valid in window_reads(grid, prediction_path, is_canceled, None, (0.0, 0.0), split):
            yield row, values, valid

    return stratum_pixel_areas_m2(grid, strata, windows_read)


MIN_ITEMS_PER_STRATUM = 2
"""Every stratum gets at least ``min(2, N_h)`` items whatever ``MIN_PER_CLASS`` says: a stratum with
no item leaves the review incomplete for ever, one with a single item has no variance (issue 34)."""


def allocate(strata: Mapping[int, int], samples: int, min_per_class: int) -> dict[int, int]:
    """Sample size per stratum: ``min(max(min_per_class, 2), N_h)`` each, the rest proportional to ``N_h``.

    The total is ``samples`` unless the minimums alone exceed it (then it is their sum) or the
    map has fewer pixels.
    """
    floor = max(MIN_ITEMS_PER_STRATUM, min_per_class)
    sizes = {h: min(floor, n) for h, n in strata.items()}
    left = samples - sum(sizes.values())
    room = {h: strata[h] - sizes[h] for h in strata}
    while left > 0 and any(room.values()):
        weight = sum(strata[h] for h in strata if room[h] > 0)
        quota = {h: left * strata[h] / weight if room[h] > 0 else 0.0 for h in strata}
        extra = {h: min(room[h], int(np.floor(q))) for h, q in quota.items()}
        given = sum(extra.values())
        # Largest remainders take the units the floors left over.
        for h in sorted(strata, key=lambda h: (-(quota[h] - np.floor(quota[h])), h)):
            if given >= left:
                break
            if room[h] - extra[h] > 0 and quota[h] > 0:
                extra[h] += 1
                given += 1
        if given == 0:
            break
        for h in strata:
            sizes[h] += extra[h]
            room[h] -= extra[h]
        left -= given
    return sizes


def _choose_ranks(rng: np.random.Generator, population: int, size: int) -> np.ndarray:
    """``size`` distinct sorted ranks in ``[0, population)``."""
    size = min(size, population)
    if size <= 0:
        return np.zeros(0, dtype=np.int64)
    return np.sort(rng.choice(population, size=size, replace=False).astype(np.int64))


def draw_pixels(
    prediction_path: str,
    grid: Grid,
    ranks: Mapping[int | None, np.ndarray],
    *,
    is_canceled: CancelCheck = None,
    on_progress: Progress = None,
    split: Split = None,
) -> np.ndarray:
    """The pixels holding the chosen ranks, counted in window order.

    Args:
        ranks: per class value (per stratum with ``split``), sorted ranks among that class's
            valid pixels; key None: ranks among all valid pixels.

    Returns:
        ``(n, 3)`` int64 array of ``row, col, class`` (or stratum) in grid pixels.
    """
    seen = dict.fromkeys(ranks, 0)
    found: list[np.ndarray] = []
    reads = window_reads(grid, prediction_path, is_canceled, on_progress, (50.0, 90.0), split)
    for row, col, values, valid in reads:
        cols = values.shape[1]
        flat, flat_valid = values.ravel(), valid.ravel()
        for key, chosen in ranks.items():
            mask = flat_valid if key is None else flat_valid & (flat == key)
            count = int(mask.sum())
            low = seen[key]
            first, last = np.searchsorted(chosen, [low, low + count])
            if last > first:
                position = np.flatnonzero(mask)[chosen[first:last] - low]
                found.append(np.stack([row + position // cols, col + position % cols, flat[position]], axis=1))
            seen[key] = low + count
    return np.concatenate(found).astype(np.int64) if found else np.zeros((0, 3), dtype=np.int64)


def draw_grid(
    prediction_path: str,
    grid: Grid,
    step_px: int,
    offset_px: tuple[int, int],
    *,
    is_canceled: CancelCheck = None,
    on_progress: Progress = None,
) -> np.ndarray:
    """Valid pixels on the systematic grid ``offset + k * step``, row by row: ``(n, 3)`` row, col, class."""
    found: list[np.ndarray] = []
    for row, col, values, valid in window_reads(grid, prediction_path, is_canceled, on_progress, (50.0, 90.0)):
        rows_here = np.arange(row + (offset_px[0] - row) % step_px, row + values.shape[0], step_px)
        cols_here = np.arange(col + (offset_px[1] - col) % step_px, col + values.shape[1], step_px)
        if rows_here.size == 0 or cols_here.size == 0:
            continue
        rr, cc = np.meshgrid(rows_here, cols_here, indexing="ij")
        keep = valid[rr - row, cc - col]
        found.append(np.stack([rr[keep], cc[keep], values[rr - row, cc - col][keep]], axis=1))
    if not found:
        return np.zeros((0, 3), dtype=np.int64)
    pixels = np.concatenate(found).astype(np.int64)
    return pixels[np.lexsort((pixels[:, 1], pixels[:, 0]))]


def sample_pixels(
    prediction_path: str,
    design: str,
    samples: int,
    *,
    min_per_class: int = 0,
    seed: int = 0,
    extent: tuple[float, float, float, float] | None = None,
    is_canceled: CancelCheck = None,
    on_progress: Progress = None,
    split: Split = None,
) -> tuple[Grid, dict[int, int], np.ndarray]:
    """Draw a pixel sample of a class map.

    Args:
        prediction_path: the class map.
        design: ``stratified``, ``random``, ``grid`` or ``stratified_confidence``.
        samples: total sample size wanted (> 0).
        min_per_class: stratified designs only: the minimum per stratum.
        seed: random seed (same seed, same sample).
        extent: only this area (prediction CRS).
        split: ``stratified_confidence`` only: the confidence raster, threshold and low share.

    Returns:
        ``(grid, N_h per stratum, pixels)`` with pixels an ``(n, 3)`` array of row, col, stratum
        (the map class, except under ``stratified_confidence``) in review order.

    Raises:
        InputError: samples <= 0, unknown design, no valid pixel, unreadable raster.
        Canceled: on cancel.
    """
    if samples <= 0:
        raise InputError.of("too_few_samples", samples=samples)
    if design not in PIXEL_DESIGNS:
        raise InputError.of("unknown_pixel_design", design=design, choices=", ".join(PIXEL_DESIGNS))
    if design == "stratified_confidence" and not isinstance(split, ConfidenceSplit):
        raise InputError.of("confidence_design_needs_confidence")
    if design == DESIGN_STRATIFIED_LABEL and not isinstance(split, LabelSplit):
        raise InputError.of("label_design_needs_labels")
    split = split if design in ("stratified_confidence", DESIGN_STRATIFIED_LABEL) else None
    grid = prediction_grid(prediction_path, extent)
    strata = count_classes(prediction_path, grid, is_canceled=is_canceled, on_progress=on_progress, split=split)
    rng = np.random.default_rng(seed)
    if design == "grid":
        step_px, offset = grid_plan(strata, samples, rng)
        points = draw_grid(prediction_path, grid, step_px, offset, is_canceled=is_canceled, on_progress=on_progress)
        # Shuffled after the offset is drawn: the same points for a seed, in a random review order.
        return grid, strata, points[rng.permutation(len(points))]
    low_share = split.low_share if isinstance(split, ConfidenceSplit) else 0.5
    ranks = plan_ranks(strata, design, samples, min_per_class, rng, low_share)
    pixels = draw_pixels(prediction_path, grid, ranks, is_canceled=is_canceled, on_progress=on_progress, split=split)
    return grid, strata, pixels[rng.permutation(len(pixels))]


def grid_plan(strata: Mapping[int, int], samples: int, rng: np.random.Generator) -> tuple[int, tuple[int, int]]:
    """Step and random offset (rows, cols) of the systematic design: ``step = round(sqrt(N / samples))``."""
    step_px = max(1, round(float(np.sqrt(sum(strata.values()) / samples))))
    return step_px, (int(rng.integers(step_px)), int(rng.integers(step_px)))


def allocate_confidence(
    strata: Mapping[int, int], samples: int, min_per_class: int, low_share: float
) -> dict[int, int]:
    """``stratified_confidence`` allocation: ``round(low_share * samples)`` to the low-band strata,
    the rest to the high band, each with :func:`allocate` (``MIN_PER_CLASS`` per stratum, the rest in
    proportion to ``N_h``). A band without pixels, or with fewer pixels than its share, gives what it
    cannot use to the other (issue 34: a low band of 12 px kept its share of 100 and 112 of 200
    items were drawn).
    """
    low = {h: n for h, n in strata.items() if h % 2 == 0}
    high = {h: n for h, n in strata.items() if h % 2 == 1}
    to_low = round(min(max(low_share, 0.0), 1.0) * samples) if low and high else (samples if low else 0)
    low_sizes = allocate(low, to_low, min_per_class)
    high_sizes = allocate(high, samples - sum(low_sizes.values()), min_per_class)
    short = samples - sum(low_sizes.values()) - sum(high_sizes.values())
    if short != 0:  # the high band could not take its share, or took its minimum beyond it (issue 42:
        # low share 1.0 drew 204 of 200): the low band takes what is left
        low_sizes = allocate(low, sum(low_sizes.values()) + short, min_per_class)
    return {**low_sizes, **high_sizes}


def plan_ranks(
    strata: Mapping[int, int],
    design: str,
    samples: int,
    min_per_class: int,
    rng: np.random.Generator,
    low_share: float = 0.5,
) -> dict[int | None, np.ndarray]:
    """The ranks drawn by the random designs, before they are found in the map.

    Args:
        strata: ``N_h`` per stratum.
        design: ``stratified`` and ``stratified_label`` (ranks per stratum, :func:`allocate`), ``stratified_confidence``
            (ranks per stratum, :func:`allocate_confidence`) or ``random`` (ranks among all
            valid pixels, key None).
        low_share: ``stratified_confidence`` only.
        samples: sample size wanted.
        min_per_class: stratified only.
        rng: the seeded generator (its state moves on: the caller shuffles with it next).

    Returns:
        Per class value (None: all valid pixels), sorted distinct ranks.
    """
    if design in ("stratified", "stratified_confidence", DESIGN_STRATIFIED_LABEL):
        sizes = (
            allocate_confidence(strata, samples, min_per_class, low_share)
            if design == "stratified_confidence"
            else allocate(strata, samples, min_per_class)
        )
        return {h: _choose_ranks(rng, strata[h], sizes[h]) for h in sorted(strata)}
    return {None: _choose_ranks(rng, sum(strata.values()), samples)}
