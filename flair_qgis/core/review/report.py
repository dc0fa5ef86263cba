"""Figures from a review: label-error rates (Wilson intervals) and map accuracy (Olofsson et al. 2014).

Public entry points: :func:`review_report` (the JSON content), :func:`write_review_report`
(JSON + CSV beside it).

* ``label_errors``: over items with a label whose verdict is ``correct`` or ``wrong``: the share
  whose ``label_class`` differs from the reviewed ``true_class``, overall and per label class, with
  Wilson 95 % intervals. This is a plain proportion over the reviewed items: with the
  ``suspicious`` design it describes the items reviewed, not the whole reference.
* ``map_accuracy`` (stratified design only): the prediction (``map_class``, the stratum) against
  ``true_class`` with :func:`flair_qgis.core.estimators.stratified_estimate`, weights
  ``W_h = N_h / N`` from ``review_strata``. Strata with no reviewed item are listed in
  ``strata_without_reviewed_items`` and left out of the weights.
* Items marked ``unsure`` are left out of both and counted in ``unsure``.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os

from ..atomic import check_output_path, write_text_atomic
from ..paths import check_outputs_not_inputs, check_sidecars_not_input
from .estimators import Z95, stratified_estimate, wilson_interval
from .store import ReviewItem, ReviewStore

CSV_FIELDS = (
    "value", "name", "label_reviewed", "label_wrong", "label_error_rate", "users_accuracy",
    "producers_accuracy", "area_proportion", "area_proportion_se", "area_ha", "area_ha_ci95",
)  # fmt: skip


def _number(value: float) -> float | None:
    return None if value is None or math.isnan(value) else float(value)


def class_names(store: ReviewStore) -> dict[int, str]:
    """Class names recorded by ``flair:sample`` (value -> name)."""
    try:
        return {int(c["value"]): str(c["name"]) for c in json.loads(store.design.get("classes", "[]"))}
    except (ValueError, KeyError, TypeError):
        return {}


def _label_errors(items: list[ReviewItem], names: dict[int, str]) -> dict:
    judged = [i for i in items if i.verdict in ("correct", "wrong") and i.label_class is not None]
    judged = [i for i in judged if i.true_class is not None]
    wrong = sum(1 for i in judged if i.label_class != i.true_class)
    per_class = []
    for value in sorted({int(i.label_class) for i in judged if i.label_class is not None}):
        mine = [i for i in judged if i.label_class == value]
        bad = sum(1 for i in mine if i.label_class != i.true_class)
        per_class.append(
            {"value": value, "name": names.get(value, f"class {value}"), "reviewed": len(mine), "wrong": bad,
             "rate": bad / len(mine), "ci95": list(wilson_interval(bad, len(mine)) or ())}
        )  # fmt: skip
    interval = wilson_interval(wrong, len(judged))
    return {
        "reviewed": len(judged),
        "wrong": wrong,
        "rate": wrong / len(judged) if judged else None,
        "ci95": list(interval) if interval else None,
        "per_class": per_class,
    }


def _map_accuracy(store: ReviewStore, items: list[ReviewItem], names: dict[int, str]) -> dict | None:
    if store.design.get("design") != "stratified":
        return None
    units = [i for i in items if i.verdict in ("correct", "wrong") and i.true_class is not None]
    missing = sorted(set(store.strata) - {i.stratum for i in units})
    out: dict = {"reviewed": len(units), "strata_without_reviewed_items": missing, "z": Z95}
    if not units:
        return {**out, "overall_accuracy": None, "overall_accuracy_se": None, "classes": []}
    est = stratified_estimate(
        [i.stratum for i in units], [int(i.true_class) for i in units if i.true_class is not None],
        store.strata, store.pixel_area_m2,
    )  # fmt: skip
    classes = [
        {
            "value": value,
            "name": names.get(value, f"class {value}"),
            "users_accuracy": _number(est.users_accuracy[k]),
            "producers_accuracy": _number(est.producers_accuracy[k]),
            "area_proportion": _number(est.area_proportion[k]),
            "area_proportion_se": _number(est.area_proportion_se[k]),
            "area_ha": _number(est.area_m2[k] / 1e4),
            "area_ha_ci95": _number(est.area_m2_ci95[k] / 1e4),
        }
        for k, value in enumerate(est.classes)
    ]
    return {
        **out,
        "overall_accuracy": _number(est.overall_accuracy),
        "overall_accuracy_se": _number(est.overall_accuracy_se),
        "classes": classes,
    }


def review_report(store: ReviewStore, items: list[ReviewItem] | None = None) -> dict:
    """The report of a review (see the module docstring for the keys).

    Args:
        store: the open review.
        items: the items as already read (default: read them now).
    """
    items = store.items() if items is None else items
    names = class_names(store)
    return {
        "review": store.path,
        "design": store.design.get("design", ""),
        "items": len(items),
        "reviewed": sum(1 for i in items if i.reviewed),
        "unsure": sum(1 for i in items if i.verdict == "unsure"),
        "label_errors": _label_errors(items, names),
        "map_accuracy": _map_accuracy(store, items, names),
    }


def report_csv(report: dict) -> str:
    """Per-class figures as CSV text (label errors and map accuracy side by side)."""
    rows: dict[int, dict] = {}
    for entry in report["label_errors"]["per_class"]:
        rows.setdefault(entry["value"], {"value": entry["value"], "name": entry["name"]}).update(
            label_reviewed=entry["reviewed"], label_wrong=entry["wrong"], label_error_rate=entry["rate"]
        )
    for entry in (report["map_accuracy"] or {}).get("classes", []):
        rows.setdefault(entry["value"], {}).update(entry)
    buffer = io.StringIO()
    out = csv.DictWriter(buffer, CSV_FIELDS, extrasaction="ignore", lineterminator="\n")
    out.writeheader()
    for value in sorted(rows):
        out.writerow({k: ("" if v is None else v) for k, v in rows[value].items()})
    return buffer.getvalue()


def write_review_report(report: dict, json_path: str | os.PathLike[str], review_path: str | None = None) -> str:
    """Write the JSON report and a per-class CSV beside it (same name, ``.csv``); returns the CSV path.

    Args:
        report: from :func:`review_report`.
        json_path: the JSON file.
        review_path: the review GeoPackage (default: the report's), never overwritten.

    Raises:
        InputError: the folder cannot be written, or a file written is the review itself.
    """
    json_path = check_output_path(os.fspath(json_path), "report")
    review_path = review_path or report.get("review")
    check_outputs_not_inputs({"OUTPUT_REPORT": json_path}, {"REVIEW": review_path})
    check_sidecars_not_input("OUTPUT_REPORT", json_path, (".csv",), {"REVIEW": review_path})
    csv_path = os.path.splitext(json_path)[0] + ".csv"
    write_text_atomic(json_path, json.dumps(report, indent=2, allow_nan=False) + "\n")
    write_text_atomic(csv_path, report_csv(report))
    return csv_path
