"""Publish a scoring report: the JSON, the per-class CSV and the confusion picture beside it.

:func:`publish_report` is the one publish step of ``flair:evaluate``, the dock's "Export
report", ``flair:benchmark`` and the demo. Every file goes through
:func:`flair_qgis.core.atomic.write_atomic` (complete or absent), and when a later file fails the
earlier ones of the same call are removed: a report is published whole or not at all.

JSON: NaN and infinities become ``null`` (JSON has no NaN), numpy scalars and arrays plain
numbers and lists, errors their message. The picture is drawn by a ``chart`` callable given by
the caller (Qt lives in ``adapters/``; ``core`` has no Qt import).

Public API: :func:`publish_report`, :class:`Published`, :func:`report_json`, :func:`report_csv`,
:func:`report_paths`.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from ..atomic import check_output_path, write_atomic, write_text_atomic
from ..paths import check_outputs_not_inputs, check_sidecars_not_input
from .result import ScoreReport, Scores

CSV_FIELDS = ("value", "name", "iou", "precision", "recall", "f1", "support")
SIDECAR_SUFFIXES = (".csv", ".png")
"""What :func:`publish_report` writes beside ``report.json``: ``report.csv``, ``report.png``."""


@dataclass(frozen=True)
class Published:
    """The files a report was published to (None: not written)."""

    json_path: str
    csv_path: str | None = None
    chart_path: str | None = None


def report_paths(json_path: str) -> tuple[str, str, str]:
    """``(json, csv, png)`` paths of a report: ``.json`` added when missing, sidecars beside it."""
    if not json_path.lower().endswith(".json"):
        json_path += ".json"
    stem = os.path.splitext(json_path)[0]
    return json_path, stem + SIDECAR_SUFFIXES[0], stem + SIDECAR_SUFFIXES[1]


def _plain(value: object) -> object:
    """``value`` with NaN -> None and numpy types -> Python types, recursively."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return [_plain(v) for v in value.tolist()]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, Exception):
        return str(value)
    return value


def report_json(report: dict) -> str:
    """The report as JSON text (NaN -> null, indented, one trailing newline)."""
    return json.dumps(_plain(report), indent=2, allow_nan=False) + "\n"


def _cell(value: object) -> object:
    return "" if value is None or (isinstance(value, float) and math.isnan(value)) else value


def report_csv(report: dict) -> str:
    """Per-class figures as CSV text (one row per evaluated class, then mIoU and OA rows)."""
    buffer = io.StringIO()
    out = csv.writer(buffer, lineterminator="\n")
    out.writerow(CSV_FIELDS)
    for row in report["classes"]:
        out.writerow([_cell(row[k]) for k in CSV_FIELDS])
    pixels = report["pixels_evaluated"]
    out.writerow(["", "mIoU", _cell(report["miou"]), "", "", "", pixels])
    out.writerow(["", "OA", _cell(report["oa"]), "", "", "", pixels])
    return buffer.getvalue()


def publish_report(
    report: ScoreReport | Scores | dict,
    json_path: str,
    *,
    csv_path: str | None = None,
    chart_path: str | None = None,
    chart: Callable[[dict, str], None] | None = None,
    inputs: Mapping[str, str | None] | None = None,
    name: str = "OUTPUT_REPORT",
) -> Published:
    """Write the report JSON and, when asked, its per-class CSV and confusion picture.

    Args:
        report: a scoring's typed report (:class:`~.result.ScoreReport`, :class:`~.result.Scores`),
            or a report JSON document (:func:`.metrics.build_report`'s, plus anything added).
        json_path: the JSON file.
        csv_path: the per-class CSV, or None for none.
        chart_path: the picture, or None for none (needs ``chart``).
        chart: ``chart(document, path)`` draws the picture of the report JSON document into ``path``
            (a temporary file).
        inputs: the files the report was computed from, by name (the dock's export names the
            class map and the reference): neither the report nor a file beside it may be one.
        name: what the refusal calls the report.

    Returns:
        The files written.

    Raises:
        InputError: a folder is missing or cannot be written, or the report or its CSV or picture
            would overwrite one of ``inputs`` (nothing written then).
    """
    if inputs:
        check_outputs_not_inputs({name: json_path}, inputs)
        check_sidecars_not_input(name, json_path, SIDECAR_SUFFIXES, inputs)
    json_path = check_output_path(json_path, "report")
    csv_path = check_output_path(csv_path, "CSV report") if csv_path else None
    chart_path = check_output_path(chart_path, "confusion picture") if chart_path and chart else None
    document = report if isinstance(report, dict) else report.to_report()
    text, csv_text = report_json(document), report_csv(document) if csv_path else None
    written: list[str] = []
    try:
        write_text_atomic(json_path, text)
        written.append(json_path)
        if csv_path and csv_text is not None:
            write_text_atomic(csv_path, csv_text)
            written.append(csv_path)
        if chart_path and chart is not None:
            write_atomic(chart_path, lambda tmp: chart(document, tmp), suffix=".png")
    except BaseException:
        for path in written:
            if os.path.exists(path):
                os.remove(path)
        raise
    return Published(json_path, csv_path, chart_path)
