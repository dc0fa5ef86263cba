"""core.score.report: the one publish step (JSON with NaN -> null, CSV, picture), all or nothing."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

from flair_qgis.core.errors import InputError
from flair_qgis.core.score.metrics import ConfusionMatrix, build_report
from flair_qgis.core.score.protocols import get_protocol
from flair_qgis.core.score.report import publish_report, report_csv, report_json, report_paths


def _report() -> dict:
    matrix = ConfusionMatrix()
    ref = np.array([1, 1, 2, 2, 3, 13], dtype=np.uint8)
    pred = np.array([1, 2, 2, 2, 13, 13], dtype=np.uint8)
    matrix.update(ref, pred)
    report = build_report(matrix, get_protocol("flair1"))
    report.update(nan_value=float("nan"), numpy_nan=np.float32("nan"), numpy_int=np.int64(7), arr=np.arange(3))
    return report


def test_json_turns_nan_into_null_and_numpy_into_numbers():
    data = json.loads(report_json(_report()))
    assert data["nan_value"] is None and data["numpy_nan"] is None
    assert data["numpy_int"] == 7 and data["arr"] == [0, 1, 2]
    assert data["protocol"] == "flair1" and data["protocol_details"]["name"] == "flair1"
    # A class absent from both sides keeps a null IoU under flair1 (vineyard, 9, here).
    vineyard = next(c for c in data["classes"] if c["value"] == 9)
    assert vineyard["iou"] is None and vineyard["support"] == 0


def test_csv_rows_are_the_classes_then_miou_and_oa():
    report = _report()
    rows = list(csv.reader(report_csv(report).splitlines()))
    assert rows[0] == ["value", "name", "iou", "precision", "recall", "f1", "support"]
    assert len(rows) == 1 + len(report["classes"]) + 2
    assert rows[1][:2] == ["1", "building"] and float(rows[1][2]) == pytest.approx(0.5)
    assert rows[-2][1] == "mIoU" and float(rows[-2][2]) == pytest.approx(report["miou"])
    assert rows[-1][1] == "OA" and float(rows[-1][2]) == pytest.approx(report["oa"])
    vineyard = next(r for r in rows if r[1] == "vineyard")
    assert vineyard[2] == ""  # null IoU -> empty cell


def test_paths_beside_the_report():
    assert report_paths("/x/r") == ("/x/r.json", "/x/r.csv", "/x/r.png")
    assert report_paths("/x/r.JSON") == ("/x/r.JSON", "/x/r.csv", "/x/r.png")


def test_publish_writes_all_three(tmp_path):
    def chart(report: dict, path: str) -> None:
        with open(path, "wb") as handle:
            handle.write(b"\x89PNG " + str(report["pixels_evaluated"]).encode())

    json_path, csv_path, png_path = report_paths(str(tmp_path / "report"))
    published = publish_report(_report(), json_path, csv_path=csv_path, chart_path=png_path, chart=chart)
    assert published.json_path == json_path and published.chart_path == png_path
    assert json.loads(open(json_path).read())["pixels_evaluated"] == 6
    assert open(png_path, "rb").read() == b"\x89PNG 6"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.csv", "report.json", "report.png"]


def test_a_failing_picture_removes_the_json_and_csv(tmp_path):
    def broken(report: dict, path: str) -> None:
        raise InputError("Cannot write the confusion-matrix picture.")

    json_path, csv_path, png_path = report_paths(str(tmp_path / "report"))
    with pytest.raises(InputError, match="picture"):
        publish_report(_report(), json_path, csv_path=csv_path, chart_path=png_path, chart=broken)
    assert list(tmp_path.iterdir()) == []


def test_missing_folder_writes_nothing(tmp_path):
    with pytest.raises(InputError, match="does not exist"):
        publish_report(_report(), str(tmp_path / "json.json"), csv_path=str(tmp_path / "no" / "r.csv"))
    assert list(tmp_path.iterdir()) == []
