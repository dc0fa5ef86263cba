"""Figures from a review: label-error rates and map accuracy that follow the sampling design.

Public entry points: :func:`review_report` (a :class:`~.report_types.ReviewReport`; its
``as_json()`` is the JSON content), :func:`write_review_report` (JSON + CSV beside it).
The estimators and their formulas: :mod:`flair_qgis.core.review.estimators`
and ``docs/review.md``.

Reviewed units are the items decided ``correct`` or ``wrong`` with a true class. ``unsure`` items
are left out and counted (nonresponse: see ``response``).

* ``label_errors``: the share of the reference's labelled pixels whose label differs from the true
  class, overall and per label class (a domain). ``estimator`` names the method:

  - ``stratified``: stratified domain ratio, weights ``N_h / n_h`` (Stehman 2014), normal interval;
  - ``random`` and ``grid``: the share of the reviewed items with the Wilson interval (a grid is
    treated as a simple random sample);
  - ``suspicious``: not a probability sample: counts only (``wrong`` of ``reviewed``), no rate.

* ``map_accuracy`` (``stratified``, ``random``, ``grid``): OA, UA, PA, area proportions and areas
  (ha, 95 % half-width) with :func:`~flair_qgis.core.review.estimators.design_estimate`. While a
  stratum with pixels has no reviewed item, ``complete`` is false and every figure is null
  (``strata_without_reviewed_items`` names them). A stratum with a single reviewed item (of more
  pixels) nulls the standard errors that need it, each with a note.
* ``response``: whether the reviewed items are a prefix of the review order, else how many were
  skipped (or marked unsure) before the last reviewed one, with a warning.
* ``stratified_confidence``: the strata (map class x confidence band) are not the map classes;
  the same estimators then are Stehman's (2014): OA and areas as stratified means, UA, PA and
  label-error rates as combined ratios (``estimator`` says so).
* Two interpreters: an item's true class is the adjudicated one where there is one, else the
  first interpreter's. ``agreement`` gives Cohen's kappa and Gwet's AC1 on the true classes of
  the double-reviewed items (:mod:`flair_qgis.core.review.agreement`), ``disagreements`` the
  items whose two classes differ, ``seconds`` the median time per verdict per reviewer and per
  true class.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import math
import os
import statistics

import numpy as np

from ..atomic import check_output_path, write_text_atomic
from ..paths import check_outputs_not_inputs, check_sidecars_not_input
from ..vocabulary import STRATIFIED_DESIGNS
from .agreement import agreement
from .estimators import (
    STRATIFIED_RATIO_METHOD,
    WILSON_METHOD,
    Z95,
    design_estimate,
    stratified_rates,
    wilson_interval,
)
from .report_types import (
    Agreement,
    ClassAccuracy,
    ClassLabelErrors,
    LabelErrors,
    MapAccuracy,
    Response,
    ReviewReport,
    Seconds,
)
from .schema import ReviewItem
from .store import ReviewStore

CSV_FIELDS = (
    "value", "name", "label_reviewed", "label_wrong", "label_error_rate", "label_error_ci95_low",
    "label_error_ci95_high", "users_accuracy", "producers_accuracy", "area_proportion", "area_proportion_se",
    "area_ha", "area_ha_ci95", "stratum_pixels", "stratum_reviewed", "note",
)  # fmt: skip
NOT_PROBABILITY = "not a probability sample: counts of the reviewed items only, no rate for the reference"
GRID_NOTE = "systematic sample treated as a simple random sample"


def _number(value: float | None) -> float | None:
    return None if value is None or math.isnan(value) else float(value)


def class_names(store: ReviewStore) -> dict[int, str]:
    """Class names recorded by ``flair:sample`` (value -> name)."""
    try:
        return {int(c["value"]): str(c["name"]) for c in json.loads(store.design.get("classes", "[]"))}
    except (ValueError, KeyError, TypeError):
        return {}


def _units(items: list[ReviewItem]) -> list[ReviewItem]:
    return [i for i in items if i.verdict in ("correct", "wrong") and i.true_class is not None]


STEHMAN_NOTE = "strata are map class x confidence band, not the map classes: Stehman (2014) estimators"


def _strata_of(store: ReviewStore, design: str) -> dict[int, int]:
    """``N_h`` of the design's strata: the map classes (or class x confidence band), or one stratum
    0 for random and grid."""
    return dict(store.strata) if design in STRATIFIED_DESIGNS else {0: sum(store.strata.values())}


def stratum_name(design: str, stratum: int) -> str:
    """A stratum as a reader names it: ``class 5``, or ``class 5, low confidence``."""
    if design == "stratified_confidence":
        return f"class {stratum // 2}, {'low' if stratum % 2 == 0 else 'high'} confidence"
    return f"class {stratum}"


def adjudicated(store: ReviewStore, items: list[ReviewItem]) -> list[ReviewItem]:
    """The items with the adjudicated true class where the two interpreters' classes were settled."""
    decided = store.adjudications()
    if not decided:
        return items
    return [
        dataclasses.replace(i, true_class=decided[i.item_id][0]) if i.item_id in decided and i.true_class is not None
        else i
        for i in items
    ]  # fmt: skip


def _missing(strata: dict[int, int], units: list[ReviewItem]) -> list[int]:
    return sorted(h for h, n in strata.items() if n > 0 and h not in {i.stratum for i in units})


def _label_errors(store: ReviewStore, items: list[ReviewItem], names: dict[int, str]) -> LabelErrors:
    design = store.design.get("design", "")
    units = _units(items)
    labelled = [i for i in units if i.label_class is not None]
    wrong = sum(1 for i in labelled if i.label_class != i.true_class)
    values = sorted({int(i.label_class) for i in labelled if i.label_class is not None})
    counts = dict(reviewed=len(labelled), wrong=wrong, probability_sample=design != "suspicious")
    per_class = [
        ClassLabelErrors(v, names.get(v, f"class {v}"), sum(1 for i in labelled if i.label_class == v),
                         sum(1 for i in labelled if i.label_class == v and i.true_class != v))
        for v in values
    ]  # fmt: skip
    if design == "suspicious":
        note = f"{wrong} of {len(labelled)} reviewed items wrong; {NOT_PROBABILITY}"
        return LabelErrors(**counts, estimator="none", note=note, per_class=tuple(per_class))
    if design not in STRATIFIED_DESIGNS:

        def wilson(bad: int, n: int) -> dict:
            return {"rate": bad / n if n else None, "ci95": wilson_interval(bad, n)}

        return LabelErrors(
            **counts, **wilson(wrong, len(labelled)), estimator=WILSON_METHOD,
            note=GRID_NOTE if design == "grid" else "",
            per_class=tuple(dataclasses.replace(c, **wilson(c.wrong, c.reviewed)) for c in per_class),
        )  # fmt: skip
    strata = _strata_of(store, design)
    missing = _missing(strata, units)
    if missing or not units:
        note = f"incomplete: strata {missing} have no reviewed item" if units else "no reviewed item"
        return LabelErrors(**counts, estimator=STRATIFIED_RATIO_METHOD, complete=False, note=note,
                           per_class=tuple(per_class))  # fmt: skip
    labels = np.array([-1 if i.label_class is None else int(i.label_class) for i in units])
    domains = np.column_stack([labels >= 0, labels[:, None] == np.array(values, dtype=np.int64)[None, :]])
    errors = [i.label_class is not None and i.label_class != i.true_class for i in units]
    rates = stratified_rates([i.stratum for i in units], domains, errors, strata)
    single = sorted(
        h for h in {i.stratum for i in units} if strata[h] > 1 and sum(1 for i in units if i.stratum == h) == 1
    )

    def figures(rate) -> dict:
        return {"rate": rate.rate, "se": rate.se, "ci95": rate.ci95, "interval": rate.method}

    note = f"no standard error: strata {single} have a single reviewed item" if single else ""
    per_class = [dataclasses.replace(c, **figures(r)) for c, r in zip(per_class, rates[1:])]
    return LabelErrors(**counts, **figures(rates[0]), estimator=rates[0].method, complete=True, note=note,
                       per_class=tuple(per_class))  # fmt: skip


def _map_accuracy(store: ReviewStore, items: list[ReviewItem], names: dict[int, str]) -> MapAccuracy | None:
    design = store.design.get("design", "")
    if design not in ("stratified", "random", "grid", "stratified_confidence"):
        return None
    units = _units(items)
    strata = _strata_of(store, design)
    missing = _missing(strata, units)
    out = MapAccuracy(
        reviewed=len(units), strata_without_reviewed_items=tuple(missing), z=Z95,
        estimator={
            "stratified": "stratified (Olofsson et al. 2014; Stehman 2014 ratios), finite-population correction",
            "stratified_confidence": "Stehman (2014): strata differ from the map classes; stratified means and "
            "combined ratios, finite-population correction",
        }.get(design, "simple random sample (one stratum)"),
        complete=not missing and bool(units),
        strata_names={str(h): stratum_name(design, h) for h in missing} if design in STRATIFIED_DESIGNS else {},
        notes=(GRID_NOTE,) if design == "grid" else (STEHMAN_NOTE,) if design == "stratified_confidence" else (),
    )  # fmt: skip
    if missing or not units:
        return out
    areas = store.stratum_pixel_area_m2 if design in STRATIFIED_DESIGNS else store.pixel_area_m2
    owner = {"stratified": {h: h for h in strata}, "stratified_confidence": {h: h // 2 for h in strata}}.get(design)
    est = design_estimate(
        [i.stratum for i in units], [int(i.map_class or 0) for i in units], [int(i.true_class or 0) for i in units],
        strata, areas, owner,
    )  # fmt: skip
    notes = out.notes + tuple(
        f"stratum {h} has a single reviewed item: standard errors that need its variance are null"
        for h in est.single_item_strata
    )
    counts = {h: sum(1 for i in units if i.stratum == h) for h in strata}
    classes = tuple(
        ClassAccuracy(
            value=value,
            name=names.get(value, f"class {value}"),
            users_accuracy=_number(est.users_accuracy[k]),
            users_accuracy_se=_number(est.users_accuracy_se[k]),
            producers_accuracy=_number(est.producers_accuracy[k]),
            producers_accuracy_se=_number(est.producers_accuracy_se[k]),
            area_proportion=_number(est.area_proportion[k]),
            area_proportion_se=_number(est.area_proportion_se[k]),
            area_ha=_number(est.area_m2[k] / 1e4),
            area_ha_ci95=_number(est.area_m2_ci95[k] / 1e4),
            stratum_pixels=store.strata.get(value) if design == "stratified" else None,
            stratum_reviewed=counts.get(value) if design == "stratified" else None,
        )
        for k, value in enumerate(est.classes)
    )
    return dataclasses.replace(
        out, notes=notes, overall_accuracy=_number(est.overall_accuracy),
        overall_accuracy_se=_number(est.overall_accuracy_se), classes=classes,
    )  # fmt: skip


def _response(store: ReviewStore, items: list[ReviewItem]) -> Response:
    """Whether the decided items are the first ones of the review order (no skipping)."""
    design = store.design.get("design", "")
    order = {"suspicious": "most suspicious first", "grid": "row by row"}.get(design, "random, fixed at sampling")
    decided = [k for k, i in enumerate(items) if i.verdict in ("correct", "wrong")]
    last = decided[-1] if decided else -1
    skipped = sum(1 for i in items[: last + 1] if not i.verdict)
    unsure = sum(1 for i in items[: last + 1] if i.verdict == "unsure")
    prefix = skipped == 0 and unsure == 0
    warning = "" if prefix else (
        f"{skipped} items skipped and {unsure} marked unsure before the last reviewed one: if they were "
        "harder than the others, skipping biases the figures. Review items in order."
    )  # fmt: skip
    return Response(order, prefix, skipped, unsure, warning)


def _agreement(store: ReviewStore, items: list[ReviewItem]) -> Agreement:
    """Kappa and AC1 on the true classes of the items both interpreters decided."""
    second = store.second_reviews()
    pairs = [
        (int(i.true_class), int(second[i.item_id].true_class))  # type: ignore[arg-type]
        for i in items
        if i.item_id in second and i.verdict in ("correct", "wrong") and i.true_class is not None
        and second[i.item_id].verdict in ("correct", "wrong") and second[i.item_id].true_class is not None
    ]  # fmt: skip
    coefficients = agreement([a for a, _ in pairs], [b for _, b in pairs])
    return Agreement(coefficients, len(store.doubles()), len(second), len(store.adjudications()))


def _seconds(store: ReviewStore, items: list[ReviewItem]) -> Seconds:
    """Median seconds per verdict, per reviewer and per true class (first and second reviews)."""
    times = store.seconds()
    rows = [(i.reviewer, i.true_class, times[i.item_id]) for i in items if i.item_id in times and i.verdict]
    rows += [(r.reviewer, r.true_class, r.seconds) for r in store.second_reviews().values() if r.seconds is not None]

    def medians(key: int) -> dict[str, float]:
        groups: dict[str, list[float]] = {}
        for row in rows:
            groups.setdefault(str(row[key] if row[key] is not None else ""), []).append(float(row[2]))
        return {k: statistics.median(v) for k, v in sorted(groups.items())}

    return Seconds(len(rows), medians(0), medians(1))


def review_report(store: ReviewStore, items: list[ReviewItem] | None = None) -> ReviewReport:
    """The report of a review (see the module docstring; :meth:`ReviewReport.as_json` gives the JSON).

    Args:
        store: the open review.
        items: the items as already read (default: read them now).
    """
    first = store.items() if items is None else items
    items = adjudicated(store, first)
    names = class_names(store)
    return ReviewReport(
        review=store.path,
        design=store.design.get("design", ""),
        items=len(items),
        reviewed=sum(1 for i in items if i.reviewed),
        unsure=sum(1 for i in items if i.verdict == "unsure"),
        label_errors=_label_errors(store, items, names),
        map_accuracy=_map_accuracy(store, items, names),
        response=_response(store, items),
        agreement=_agreement(store, first),
        disagreements=tuple(store.disagreements(first)),
        seconds=_seconds(store, first),
    )


def report_csv(report: ReviewReport) -> str:
    """Per-class figures as CSV text (label errors and map accuracy side by side).

    A first row ``all`` carries the overall label-error rate and the notes (estimator, "not a
    probability sample", incomplete strata); strata without a reviewed item get a row saying so.
    """
    errors, accuracy = report.label_errors, report.map_accuracy
    rows: dict[int, dict] = {}
    for entry in errors.per_class:
        ci = entry.ci95 or (None, None)
        rows.setdefault(entry.value, {"value": entry.value, "name": entry.name}).update(
            label_reviewed=entry.reviewed, label_wrong=entry.wrong, label_error_rate=entry.rate,
            label_error_ci95_low=ci[0], label_error_ci95_high=ci[1],
        )  # fmt: skip
    for figures in accuracy.classes if accuracy else ():
        rows.setdefault(figures.value, {}).update(dataclasses.asdict(figures))
    by_band = report.design == "stratified_confidence"
    for stratum in accuracy.strata_without_reviewed_items if accuracy else ():
        value = stratum // 2 if by_band else stratum
        row = rows.setdefault(value, {"value": value, "name": f"class {value}"})
        what = f"no reviewed item ({stratum_name(report.design, stratum)} stratum)" if by_band else ""
        row["note"] = "; ".join(n for n in (row.get("note", ""), what or "no reviewed item") if n)
    notes = [f"label errors: {errors.estimator}"] + [errors.note] * bool(errors.note)
    if accuracy and not accuracy.complete:
        missing = list(accuracy.strata_without_reviewed_items)
        notes.append(f"map accuracy incomplete: strata {missing} without a reviewed item")
    notes += [*(accuracy.notes if accuracy else ()), report.response.warning]
    ci = errors.ci95 or (None, None)
    first = {"value": "all", "name": "all", "label_reviewed": errors.reviewed, "label_wrong": errors.wrong,
             "label_error_rate": errors.rate, "label_error_ci95_low": ci[0], "label_error_ci95_high": ci[1],
             "note": "; ".join(n for n in notes if n)}  # fmt: skip
    buffer = io.StringIO()
    out = csv.DictWriter(buffer, CSV_FIELDS, extrasaction="ignore", lineterminator="\n")
    out.writeheader()
    out.writerow({k: ("" if v is None else v) for k, v in first.items()})
    for value in sorted(rows):
        out.writerow({k: ("" if v is None else v) for k, v in rows[value].items()})
    return buffer.getvalue()


def write_review_report(report: ReviewReport, json_path: str | os.PathLike[str], review_path: str | None = None) -> str:
    """Write the JSON report and a per-class CSV beside it (same name, ``.csv``); returns the CSV path.

    Args:
        report: from :func:`review_report`.
        json_path: the JSON file.
        review_path: the review GeoPackage (default: the report's), never overwritten.

    Raises:
        InputError: the folder cannot be written, or a file written is the review itself.
    """
    json_path = check_output_path(os.fspath(json_path), "report")
    review_path = review_path or report.review
    check_outputs_not_inputs({"OUTPUT_REPORT": json_path}, {"REVIEW": review_path})
    check_sidecars_not_input("OUTPUT_REPORT", json_path, (".csv",), {"REVIEW": review_path})
    csv_path = os.path.splitext(json_path)[0] + ".csv"
    write_text_atomic(json_path, json.dumps(report.as_json(), indent=2, allow_nan=False) + "\n")
    write_text_atomic(csv_path, report_csv(report))
    return csv_path
