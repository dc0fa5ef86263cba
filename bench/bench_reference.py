"""Scoring against a département-scale polygon reference (issue 17): a million 10 m squares.

* ``flair:evaluate`` on a real 512² FLAIR patch against the million squares (GeoPackage with its
  R-tree, and the same table in a real PostGIS server with a GiST index) vs against the squares
  over the patch alone: time and peak RSS, each case in its own process.
* The longest main-thread block while the dock's scoring task ("Score this view": capture on the
  main thread, read and score in a QgsTask) runs against the million squares, by a 10 ms heartbeat.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

from common import BUILD, REPO

CASE = BUILD / "million"

CHILD = r"""
import json, resource, sys, time
sys.path[:0] = [sys.argv[1], sys.argv[1] + "/scripts"]
from headless import start_qgis
app = start_qgis()
import processing
from qgis.core import QgsProcessingFeedback
started = time.perf_counter()
processing.run("flair:evaluate", {"PREDICTION": sys.argv[2], "REFERENCE": sys.argv[3], "REFERENCE_FIELD": "code",
               "PROTOCOL": "flair1", "OUTPUT_REPORT": sys.argv[4]}, feedback=QgsProcessingFeedback())
seconds = time.perf_counter() - started
print(json.dumps({"seconds": seconds, "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

HEARTBEAT = r"""
import json, sys, time
sys.path[:0] = [sys.argv[1], sys.argv[1] + "/scripts"]
from headless import start_qgis
app = start_qgis()
from qgis.core import QgsApplication, QgsCoordinateReferenceSystem, QgsProject, QgsVectorLayer
from qgis.PyQt.QtCore import QEventLoop, QTimer
from flair_qgis.adapters.evaluate_task import EvaluateTask, prepare_evaluation
from qgis.core import QgsRasterLayer
prediction = QgsRasterLayer(sys.argv[2], "prediction")
labels = QgsVectorLayer(sys.argv[3], "labels", "ogr")
QgsProject.instance().addMapLayers([prediction, labels])
ticks, done = [], QEventLoop()
timer = QTimer(); timer.setInterval(10); timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
results = []
for run in range(3):
    ticks.clear(); timer.start(); ticks.append(time.perf_counter())
    started = time.perf_counter()
    prepared = prepare_evaluation(prediction, labels, "code", "flair1", prediction.extent(), prediction.crs(),
                                  suspicious=True, folder=sys.argv[4])
    click = time.perf_counter() - started
    task = EvaluateTask(prepared, lambda outcome: done.quit())
    QgsApplication.taskManager().addTask(task)
    done.exec()
    ticks.append(time.perf_counter()); timer.stop()
    gaps = [b - a for a, b in zip(ticks, ticks[1:])]
    results.append({"click_ms": 1000 * click, "longest_ms": 1000 * max(gaps), "total_s": ticks[-1] - started})
print(json.dumps(results))
"""


def child(code: str, *args: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", code, str(REPO), *args], capture_output=True, text=True, check=False, cwd=REPO
    )
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-3000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def patch_only(case: dict) -> str:
    """The squares over the patch alone, cut with OGR's own spatial filter."""
    from osgeo import ogr

    small = CASE / "labels_patch.gpkg"
    if not small.exists():
        source = ogr.Open(str(case["gpkg"]))
        layer = source.GetLayer("labels")
        layer.SetSpatialFilterRect(*case["bounds"])
        out = ogr.GetDriverByName("GPKG").CreateDataSource(str(small))
        out.CopyLayer(layer, "labels")
        out = source = None
    return f"{small}|layername=labels"


def main() -> None:
    from bigref_helpers import million_squares_case

    CASE.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    case = million_squares_case(CASE)
    print(f"million-square GeoPackage made in {time.perf_counter() - started:.0f} s")
    prediction = str(case["prediction"])
    rows = {}
    for name, reference in (
        ("patch's own squares (GeoPackage)", patch_only(case)),
        ("1,000,000 squares (GeoPackage)", f"{case['gpkg']}|layername=labels"),
    ):
        rows[name] = child(CHILD, prediction, reference, str(CASE / "report.json"))
    from postgis_server import postgres_bin, start_server

    if postgres_bin() is None:
        print("PostGIS: not installed (run make setup); that line is skipped")
    else:
        server = start_server()
        try:
            server.load(str(case["gpkg"]), "labels")
            rows["1,000,000 squares (PostGIS, GiST)"] = child(
                CHILD, prediction, "postgres://" + server.uri("labels"), str(CASE / "report.json")
            )
        finally:
            server.stop()
    small = rows["patch's own squares (GeoPackage)"]
    print(f"{'flair:evaluate, 512² FLAIR patch, reference':48s} {'seconds':>8s} {'peak RSS':>9s}  vs patch's own")
    for name, row in rows.items():
        print(
            f"{name:48s} {row['seconds']:8.2f} {row['rss_mb']:7.0f} MB  "
            f"{row['seconds'] / small['seconds']:.2f}x time, {row['rss_mb'] - small['rss_mb']:+.0f} MB"
        )
    beats = child(HEARTBEAT, prediction, f"{case['gpkg']}|layername=labels", str(CASE))
    print("dock scoring task against 1,000,000 squares (click = capture on the main thread; 3 runs):")
    for k, beat in enumerate(beats, 1):
        print(
            f"  run {k}: click {beat['click_ms']:.1f} ms, longest main-thread block {beat['longest_ms']:.0f} ms, "
            f"click to scores {beat['total_s']:.2f} s"
        )


if __name__ == "__main__":
    main()
