"""The report's figures: label-error rates (:func:`label_errors`) and map accuracy
(:func:`map_accuracy`), each with the interval of :mod:`.intervals` that holds where errors are rare.

* Label-error rates, overall and per label class (domains), of every probability design are
  stratified domain ratios (Stehman 2014) with Korn-Graubard intervals (:func:`.rates.domain_rates`);
  ``random`` and ``grid`` are one stratum ``{0: N}``. Each figure carries ``rate``, ``se``,
  ``ci95`` (the interval's bounds), ``interval`` (its method) and its ``note``.
* Map accuracy: OA, UA, PA and area shares with their intervals (``*_ci95``, ``*_interval``,
  ``*_note``), areas (ha) with the Korn-Graubard interval of the class's share of the map's area
  times the map's area (:data:`AREA_NOTE`, ``area_ha_interval``).
* Withheld: where too few items back an interval (a stratum with a single reviewed item, no item
  in the domain, scipy missing) the figure stays and its bounds are null, with a note. A label
  class split across strata whose (stratum x label class) cell holds more than 5 % of its pixels
  with fewer than 5 reviewed items loses its rate (:func:`.rates.thin_label_classes`).
* ``grid``: a systematic sample stands for the whole map only when complete: every figure is null
  and ``complete`` false while an item has no verdict (:func:`grid_pending`).
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from ..vocabulary import STRATIFIED_DESIGNS
from .estimators import Z95, design_estimate
from .intervals import Interval
from .label_strata import stratum_label, stratum_map_class
from .rates import THIN_CELL_ITEMS, domain_rates, thin_label_classes
from .report_types import ClassAccuracy, ClassLabelErrors, LabelErrors, MapAccuracy
from .schema import ReviewItem
from .store import ReviewStore

RATIO_ESTIMATOR = (
    "stratified combined ratio (Stehman 2014 eqs. 27-28), Taylor-linearised SE, Korn-Graubard 95 % interval "
    "(Korn & Graubard 1998)"
)
SRS_ESTIMATOR = "simple random sample proportion (one stratum), Korn-Graubard 95 % interval (Korn & Graubard 1998)"
NOT_PROBABILITY = "not a probability sample: counts of the reviewed items only, no rate for the reference"
GRID_NOTE = "systematic sample treated as a simple random sample"
AREA_NOTE = "areas: Korn-Graubard 95 % interval on the class's share of the map's area, times the map's area"
STEHMAN_NOTE = "strata are map class x confidence band, not the map classes: Stehman (2014) estimators"
NO_CELLS_NOTE = (
    "per-class rates not checked for label classes split across strata: this review does not record the "
    "pixels of each stratum x label class (made before they were recorded)"
)

ACCURACY_ESTIMATORS = {
    "stratified": "stratified (Olofsson et al. 2014; Stehman 2014 ratios), finite-population correction",
    "stratified_confidence": "Stehman (2014): strata differ from the map classes; stratified means and "
    "combined ratios, finite-population correction",
    "stratified_label": "Stehman (2014): strata are map class x label class; stratified means and "
    "combined ratios, finite-population correction",
}
"""The map-accuracy estimator of each stratified design, as the report names it (others: one stratum)."""


def number(value: float | None) -> float | None:
    """A float, or None for None/NaN."""
    return None if value is None or math.isnan(value) else float(value)


def units_of(items: list[ReviewItem]) -> list[ReviewItem]:
    """The reviewed units: items decided ``correct`` or ``wrong`` with a true class."""
    return [i for i in items if i.verdict in ("correct", "wrong") and i.true_class is not None]


def strata_of(store: ReviewStore, design: str) -> dict[int, int]:
    """``N_h`` of the design's strata, or one stratum 0 for random and grid."""
    return dict(store.strata) if design in STRATIFIED_DESIGNS else {0: sum(store.strata.values())}


def missing_strata(strata: dict[int, int], units: list[ReviewItem]) -> list[int]:
    """Strata with pixels and no reviewed unit."""
    return sorted(h for h, n in strata.items() if n > 0 and h not in {i.stratum for i in units})


def grid_pending(design: str, items: list[ReviewItem]) -> str:
    """Why a ``grid`` review gives no figure yet ("" when it may: every item decided).

    A systematic sample's items run over the whole map; a review stopped part-way holds a part of
    the map only (issue 34: 160 of 400 items gave OA 0.9125 against a truth of 0.840). An item
    marked ``unsure`` is not decided either (issue 42: the first 40 % decided and the rest unsure
    gave OA 0.925 [0.872, 0.961] against 0.840, marked complete): the figures wait for it.
    """
    if design != "grid":
        return ""
    waiting = sum(1 for i in items if not i.verdict)
    unsure = len(items) - waiting - len(units_of(items))
    if not waiting and not unsure:
        return ""
    parts = [f"{waiting} without a verdict" if waiting else "", f"{unsure} marked unsure" if unsure else ""]
    return (
        f"incomplete: of {len(items)} grid items, {' and '.join(p for p in parts if p)}; a systematic sample "
        "stands for the whole map only once every item is decided (correct or wrong)"
    )


def _join(*notes: str) -> str:
    return "; ".join(dict.fromkeys(n for n in notes if n))


def _rate_figures(interval: Interval) -> dict:
    return {
        "rate": number(interval.estimate),
        "se": interval.se,
        "ci95": interval.bounds,
        "interval": interval.method,
        "note": interval.note,
    }


def _cells(store: ReviewStore, units: list[ReviewItem], design: str) -> tuple[dict[int, str], str]:
    """Label classes to withhold (``thin_label_classes``) and a note where the cells are not recorded.

    A review made before the cells were recorded withholds, from its items alone, the rate of a label
    class met in two strata or more with fewer than ``THIN_CELL_ITEMS`` items in one of them (issue
    42: their rates covered 0.670); a class met in one stratum keeps its rate, under the note.
    """
    if design not in STRATIFIED_DESIGNS:
        return {}, ""
    counts: dict[tuple[int, int], int] = {}
    for i in units:
        if i.label_class is not None:
            key = (i.stratum, int(i.label_class))
            counts[key] = counts.get(key, 0) + 1
    cells = store.label_cells
    if cells is not None:
        return thin_label_classes(cells, counts), ""
    met: dict[int, list[int]] = {}
    for (_stratum, label), n in sorted(counts.items()):
        met.setdefault(label, []).append(n)
    split = {
        label: f"no rate: this label class is split across {len(n)} strata, one with {min(n)} reviewed items "
        f"(fewer than {THIN_CELL_ITEMS}), and this review does not record its pixels per stratum"
        for label, n in met.items()
        if len(n) > 1 and min(n) < THIN_CELL_ITEMS
    }
    return split, NO_CELLS_NOTE


def label_errors(store: ReviewStore, items: list[ReviewItem], names: dict[int, str]) -> LabelErrors:
    """The report's ``label_errors`` (module docstring)."""
    design = store.design.get("design", "")
    units = units_of(items)
    labelled = [i for i in units if i.label_class is not None]
    wrong = sum(1 for i in labelled if i.label_class != i.true_class)
    values = sorted({int(i.label_class) for i in labelled if i.label_class is not None})
    counts = dict(reviewed=len(labelled), wrong=wrong, probability_sample=design != "suspicious")
    per_class = [
        ClassLabelErrors(
            v,
            names.get(v, f"class {v}"),
            sum(1 for i in labelled if i.label_class == v),
            sum(1 for i in labelled if i.label_class == v and i.true_class != v),
        )
        for v in values
    ]
    if design == "suspicious":
        note = f"{wrong} of {len(labelled)} reviewed items wrong; {NOT_PROBABILITY}"
        return LabelErrors(**counts, estimator="none", note=note, per_class=tuple(per_class))
    stratified = design in STRATIFIED_DESIGNS
    estimator = RATIO_ESTIMATOR if stratified else SRS_ESTIMATOR
    strata = strata_of(store, design)
    missing = missing_strata(strata, units) if stratified else []
    waiting = grid_pending(design, items)
    complete = True if stratified or design == "grid" else None
    if missing or waiting or not units:
        note = waiting or (f"incomplete: strata {missing} have no reviewed item" if units else "no reviewed item")
        return LabelErrors(
            **counts, estimator=estimator, complete=False if complete else None, note=note, per_class=tuple(per_class)
        )
    labels = np.array([-1 if i.label_class is None else int(i.label_class) for i in units])
    domains = np.column_stack([labels >= 0, labels[:, None] == np.array(values, dtype=np.int64)[None, :]])
    errors = [i.label_class is not None and i.label_class != i.true_class for i in units]
    rates = domain_rates([i.stratum if stratified else 0 for i in units], domains, errors, strata)
    thin, cells_note = _cells(store, units, design)
    sizes = {h: sum(1 for i in units if i.stratum == h) for h in {i.stratum for i in units}} if stratified else {}
    single = sorted(h for h, n in sizes.items() if n == 1 and strata[h] > 1)
    single_note = f"no standard error: strata {single} have a single reviewed item" if single else ""
    classes = []
    for entry, rate in zip(per_class, rates[1:]):
        figures = _rate_figures(rate)
        if entry.value in thin:
            figures = {**figures, "rate": None, "se": None, "ci95": None, "note": thin[entry.value]}
        classes.append(dataclasses.replace(entry, **figures))
    overall = _rate_figures(rates[0])
    note = _join(single_note, overall.pop("note"), GRID_NOTE if design == "grid" else "", cells_note)
    return LabelErrors(**counts, **overall, estimator=estimator, complete=complete, note=note, per_class=tuple(classes))


def _bounds(interval: Interval | None, scale: float = 1.0) -> tuple[float, float] | None:
    bounds = interval.bounds if interval is not None else None
    return None if bounds is None else (bounds[0] * scale, bounds[1] * scale)


def _class_accuracy(
    est, k: int, value: int, names: dict[int, str], store: ReviewStore, design: str, counts: dict[int, int]
) -> ClassAccuracy:
    users, producers = est.users_accuracy_interval[k], est.producers_accuracy_interval[k]
    share, area = est.area_proportion_interval[k], est.area_m2_interval[k]
    return ClassAccuracy(
        value=value,
        name=names.get(value, f"class {value}"),
        users_accuracy=number(est.users_accuracy[k]),
        users_accuracy_se=number(est.users_accuracy_se[k]),
        producers_accuracy=number(est.producers_accuracy[k]),
        producers_accuracy_se=number(est.producers_accuracy_se[k]),
        area_proportion=number(est.area_proportion[k]),
        area_proportion_se=number(est.area_proportion_se[k]),
        area_ha=number(est.area_m2[k] / 1e4),
        area_ha_ci95=number(est.area_m2_ci95[k] / 1e4),
        stratum_pixels=store.strata.get(value) if design == "stratified" else None,
        stratum_reviewed=counts.get(value) if design == "stratified" else None,
        users_accuracy_ci95=_bounds(users),
        users_accuracy_interval=users.method,
        users_accuracy_note=users.note,
        producers_accuracy_ci95=_bounds(producers),
        producers_accuracy_interval=producers.method,
        producers_accuracy_note=producers.note,
        area_proportion_ci95=_bounds(share),
        area_proportion_interval=share.method,
        area_proportion_note=share.note,
        area_ha_bounds=_bounds(area, 1e-4),
        area_ha_interval=area.method,
        area_ha_note=area.note,
        reference_items=est.reference_items[k],
    )


def _map_class_of_strata(design: str, strata: dict[int, int]) -> dict[int, int] | None:
    """The one map class each stratum holds, where the design's strata split the map classes.

    Args:
        design: the review's design.
        strata: ``N_h`` of the design's strata (:func:`strata_of`).

    Returns:
        ``stratum -> map class`` (a stratum is its map class for ``stratified``, a map class x
        confidence band or x label class for the other two); None for one-stratum designs, whose
        stratum holds every map class.
    """
    return {
        "stratified": {h: h for h in strata},
        "stratified_confidence": {h: h // 2 for h in strata},
        "stratified_label": {h: stratum_map_class(h) for h in strata},
    }.get(design)


def map_accuracy(store: ReviewStore, items: list[ReviewItem], names: dict[int, str]) -> MapAccuracy | None:
    """The report's ``map_accuracy`` (module docstring); None for designs that are not probability samples."""
    design = store.design.get("design", "")
    if design not in ("stratified", "random", "grid", "stratified_confidence", "stratified_label"):
        return None
    units = units_of(items)
    strata = strata_of(store, design)
    missing = missing_strata(
        strata, [i if design in STRATIFIED_DESIGNS else dataclasses.replace(i, stratum=0) for i in units]
    )
    waiting = grid_pending(design, items)
    base_notes = (GRID_NOTE,) if design == "grid" else (STEHMAN_NOTE,) if design == "stratified_confidence" else ()
    out = MapAccuracy(
        reviewed=len(units),
        strata_without_reviewed_items=tuple(missing),
        z=Z95,
        estimator=ACCURACY_ESTIMATORS.get(design, "simple random sample (one stratum)"),
        complete=not missing and bool(units) and not waiting,
        strata_names={str(h): stratum_name(design, h) for h in missing} if design in STRATIFIED_DESIGNS else {},
        notes=base_notes + ((waiting,) if waiting else ()),
    )
    if not out.complete:
        return out
    areas = store.stratum_pixel_area_m2 if design in STRATIFIED_DESIGNS else store.pixel_area_m2
    owner = _map_class_of_strata(design, strata)
    unit_strata = [i.stratum if design in STRATIFIED_DESIGNS else 0 for i in units]
    est = design_estimate(
        unit_strata,
        [int(i.map_class or 0) for i in units],
        [int(i.true_class or 0) for i in units],
        strata,
        areas,
        owner,
        extra_classes=_classes_of_map(design, dict(store.strata), names),
    )
    notes = (
        *out.notes,
        AREA_NOTE,
        *(
            f"stratum {h} has a single reviewed item: standard errors that need its variance are null"
            for h in est.single_item_strata
        ),
    )
    counts = {h: sum(1 for i in units if i.stratum == h) for h in strata}
    classes = tuple(_class_accuracy(est, k, v, names, store, design, counts) for k, v in enumerate(est.classes))
    overall = est.overall_accuracy_interval
    return dataclasses.replace(
        out,
        notes=notes,
        overall_accuracy=number(est.overall_accuracy),
        overall_accuracy_se=number(est.overall_accuracy_se),
        classes=classes,
        overall_accuracy_ci95=_bounds(overall),
        overall_accuracy_interval=overall.method if overall else None,
        overall_accuracy_note=overall.note if overall else "",
    )


def _classes_of_map(design: str, strata: dict[int, int], names: dict[int, str]) -> list[int]:
    """The classes a report lists even where no item is of them: the declared ones and the map
    classes with pixels (``strata``: the review's stratum pixel counts, per map class for
    ``random`` and ``grid``)."""
    owner = _map_class_of_strata(design, strata) or {h: h for h in strata}
    return sorted(set(names) | {owner[h] for h, n in strata.items() if n > 0 and h in owner})


def stratum_name(design: str, stratum: int) -> str:
    """A stratum as a reader names it: ``class 5``, ``class 5, low confidence``, ``class 5, label 3``."""
    if design == "stratified_confidence":
        return f"class {stratum // 2}, {'low' if stratum % 2 == 0 else 'high'} confidence"
    if design == "stratified_label":
        label = stratum_label(stratum)
        return f"class {stratum_map_class(stratum)}, " + ("no label" if label is None else f"label {label}")
    return f"class {stratum}"
