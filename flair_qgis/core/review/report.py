"""Figures from a review: label-error rates and map accuracy that follow the sampling design.

Public entry points: :func:`review_report` (a :class:`~.report_types.ReviewReport`; its
``as_json()`` is the JSON content), :func:`write_review_report` (JSON + CSV beside it).
The estimators and their formulas: :mod:`flair_qgis.core.review.estimators`
and ``docs/review.md``.

Reviewed units are the items decided ``correct`` or ``wrong`` with a true class. ``unsure`` items
are left out and counted (nonresponse: see ``response``).

* ``label_errors``: the share of the reference's labelled pixels whose label differs from the true
  class, overall and per label class (a domain). ``estimator`` names the method:

  - ``stratified`` (and ``stratified_confidence``): stratified domain ratio, weights ``N_h / n_h``
    (Stehman 2014), Korn-Graubard interval (``interval``: its method, ``note``: what it rests on);
  - ``random`` and ``grid``: the same with one stratum (a grid is treated as a simple random
    sample, and gives figures only once every grid item has a verdict: ``complete``);
  - ``suspicious``: not a probability sample: counts only (``wrong`` of ``reviewed``), no rate.

* ``map_accuracy`` (``stratified``, ``random``, ``grid``): OA, UA, PA, area proportions and areas
  (ha, 95 % half-width) with :func:`~flair_qgis.core.review.estimators.design_estimate`, each
  proportion with its interval (``*_ci95``, ``*_interval``, ``*_note``; :mod:`.report_figures`).
  While a stratum with pixels has no reviewed item (or a grid item no verdict), ``complete`` is
  false and every figure is null (``strata_without_reviewed_items`` names them). A stratum with a
  single reviewed item (of more pixels) nulls the standard errors and withholds the intervals that
  need it, each with a note.
* ``response``: whether the reviewed items are a prefix of the review order, else how many were
  skipped (or marked unsure) before the last reviewed one, with a warning.
* ``stratified_confidence``: the strata (map class x confidence band) are not the map classes;
  the same estimators then are Stehman's (2014): OA and areas as stratified means, UA, PA and
  label-error rates as combined ratios (``estimator`` says so).
* Two interpreters: an item's true class is the adjudicated one where there is one, else the
  first interpreter's. ``agreement`` gives Cohen's kappa and Gwet's AC1 on the true classes of
  the double-reviewed items (:mod:`flair_qgis.core.review.agreement`; AC1's ``q`` is the review's
  class list; ``basis`` says the figures are on the reviewed items, unweighted), ``disagreements`` the
  items whose two classes differ, ``seconds`` the median time per verdict per reviewer and per
  true class.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import os
import statistics

from ..atomic import check_output_path, write_text_atomic
from ..paths import check_outputs_not_inputs, check_sidecars_not_input
from ..score import Crosswalk
from .agreement import agreement
from .code_writeback import codes_summary
from .label_strata import stratum_map_class
from .report_figures import GRID_NOTE, NOT_PROBABILITY, STEHMAN_NOTE, label_errors, map_accuracy, stratum_name
from .report_types import Agreement, ClassAccuracy, Response, ReviewReport, Seconds
from .schema import ReviewItem
from .store import ReviewStore

CSV_FIELDS = (
    "value",
    "name",
    "label_reviewed",
    "label_wrong",
    "label_error_rate",
    "label_error_ci95_low",
    "label_error_ci95_high",
    "users_accuracy",
    "producers_accuracy",
    "area_proportion",
    "area_proportion_se",
    "area_ha",
    "area_ha_ci95",
    "stratum_pixels",
    "stratum_reviewed",
    "note",
    # issue 34, appended: the intervals' methods and bounds
    "label_error_interval",
    "label_error_note",
    "users_accuracy_ci95_low",
    "users_accuracy_ci95_high",
    "producers_accuracy_ci95_low",
    "producers_accuracy_ci95_high",
    "area_ha_low",
    "area_ha_high",
)
__all__ = [
    "GRID_NOTE",
    "NOT_PROBABILITY",
    "STEHMAN_NOTE",
    "report_csv",
    "review_report",
    "stratum_name",
    "write_review_report",
]


def class_names(store: ReviewStore) -> dict[int, str]:
    """Class names recorded by ``flair:sample`` (value -> name)."""
    try:
        return {int(c["value"]): str(c["name"]) for c in json.loads(store.design.get("classes", "[]"))}
    except (ValueError, KeyError, TypeError):
        return {}


def adjudicated(store: ReviewStore, items: list[ReviewItem]) -> list[ReviewItem]:
    """The items with the adjudicated true class where the two interpreters' classes were settled."""
    decided = store.adjudications()
    if not decided:
        return items
    return [
        dataclasses.replace(i, true_class=decided[i.item_id][0])
        if i.item_id in decided and i.true_class is not None
        else i
        for i in items
    ]


def _response(store: ReviewStore, items: list[ReviewItem]) -> Response:
    """Whether the decided items are the first ones of the review order (no skipping)."""
    design = store.design.get("design", "")
    grid_order = "random, fixed at sampling" if store.design.get("review_order") == "shuffled" else "row by row"
    order = {"suspicious": "most suspicious first", "grid": grid_order}.get(design, "random, fixed at sampling")
    decided = [k for k, i in enumerate(items) if i.verdict in ("correct", "wrong")]
    last = decided[-1] if decided else -1
    skipped = sum(1 for i in items[: last + 1] if not i.verdict)
    unsure = sum(1 for i in items[: last + 1] if i.verdict == "unsure")
    prefix = skipped == 0 and unsure == 0
    warning = (
        ""
        if prefix
        else (
            f"{skipped} items skipped and {unsure} marked unsure before the last reviewed one: if they were "
            "harder than the others, skipping biases the figures. Review items in order."
        )
    )
    return Response(order, prefix, skipped, unsure, warning)


def _agreement(store: ReviewStore, items: list[ReviewItem]) -> Agreement:
    """Kappa and AC1 on the true classes of the items both interpreters decided."""
    second = store.second_reviews()
    pairs = [
        (int(i.true_class), int(second[i.item_id].true_class))  # type: ignore[arg-type]
        for i in items
        if i.item_id in second
        and i.verdict in ("correct", "wrong")
        and i.true_class is not None
        and second[i.item_id].verdict in ("correct", "wrong")
        and second[i.item_id].true_class is not None
    ]
    # AC1's q: the classes the interpreters could choose from (the review's class list), not those used.
    coefficients = agreement([a for a, _ in pairs], [b for _, b in pairs], classes=sorted(class_names(store)) or None)
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


def review_report(
    store: ReviewStore, items: list[ReviewItem] | None = None, crosswalk: Crosswalk | None = None
) -> ReviewReport:
    """The report of a review (see the module docstring; :meth:`ReviewReport.as_json` gives the JSON).

    Args:
        store: the open review.
        items: the items as already read (default: read them now).
        crosswalk: the reference's codes (``CROSSWALK``; default: the one the review was drawn with),
            for the verdicts per reference code.
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
        label_errors=label_errors(store, items, names),
        map_accuracy=map_accuracy(store, items, names),
        response=_response(store, items),
        agreement=_agreement(store, first),
        disagreements=tuple(store.disagreements(first)),
        seconds=_seconds(store, first),
        crosswalk=codes_summary(store, items, crosswalk),
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
            label_reviewed=entry.reviewed,
            label_wrong=entry.wrong,
            label_error_rate=entry.rate,
            label_error_ci95_low=ci[0],
            label_error_ci95_high=ci[1],
            label_error_interval=entry.interval,
            label_error_note=entry.note,
        )
    for figures in accuracy.classes if accuracy else ():
        rows.setdefault(figures.value, {}).update(dataclasses.asdict(figures), **_bounds_columns(figures))
    by_band = report.design in ("stratified_confidence", "stratified_label")
    for stratum in accuracy.strata_without_reviewed_items if accuracy else ():
        value = (
            (stratum // 2 if report.design == "stratified_confidence" else stratum_map_class(stratum))
            if by_band
            else stratum
        )
        row = rows.setdefault(value, {"value": value, "name": f"class {value}"})
        what = f"no reviewed item ({stratum_name(report.design, stratum)} stratum)" if by_band else ""
        row["note"] = "; ".join(n for n in (row.get("note", ""), what or "no reviewed item") if n)
    notes = [f"label errors: {errors.estimator}"] + [errors.note] * bool(errors.note)
    if accuracy and not accuracy.complete:
        missing = list(accuracy.strata_without_reviewed_items)
        notes.append(f"map accuracy incomplete: strata {missing} without a reviewed item")
    notes += [*(accuracy.notes if accuracy else ()), report.response.warning]
    ci = errors.ci95 or (None, None)
    first = {
        "value": "all",
        "name": "all",
        "label_reviewed": errors.reviewed,
        "label_wrong": errors.wrong,
        "label_error_rate": errors.rate,
        "label_error_ci95_low": ci[0],
        "label_error_ci95_high": ci[1],
        "label_error_interval": errors.interval,
        "note": "; ".join(n for n in notes if n),
    }
    buffer = io.StringIO()
    out = csv.DictWriter(buffer, CSV_FIELDS, extrasaction="ignore", lineterminator="\n")
    out.writeheader()
    out.writerow({k: ("" if v is None else v) for k, v in first.items()})
    for value in sorted(rows):
        out.writerow({k: ("" if v is None else v) for k, v in rows[value].items()})
    return buffer.getvalue()


def _bounds_columns(figures: ClassAccuracy) -> dict[str, float | None]:
    """The CSV columns of a class's UA, PA and area bounds (empty where withheld)."""
    out: dict[str, float | None] = {}
    for name, bounds in (
        ("users_accuracy_ci95", figures.users_accuracy_ci95),
        ("producers_accuracy_ci95", figures.producers_accuracy_ci95),
        ("area_ha", figures.area_ha_bounds),
    ):
        out[f"{name}_low"], out[f"{name}_high"] = bounds or (None, None)
    return out


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
