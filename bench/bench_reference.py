"""Scoring against a département-scale polygon reference (issue 17): a million 10 m squares.

* ``flair:evaluate`` on a real 512² FLAIR patch against the million squares (GeoPackage with its
  R-tree, and the same table in a real PostGIS server with a GiST index) vs against the squares
  over the patch alone: time and peak RSS, each case in its own process.
* ``flair:rank_labels`` and ``flair:sample DESIGN=suspicious`` on a 3072² class map (6 x 6 patches)
  against the million squares vs against the squares over the mosaic alone.
* The longest main-thread block while the dock's scoring task ("Score this view": capture on the
  main thread, read and score in a QgsTask) runs against the million squares, by a 10 ms heartbeat.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from common import BUILD, REPO

CASE = BUILD / "million"

CHILD = r"""
import json, resource, sys, time
sys.path[:0] = [sys.argv[1], sys.argv[1] + "/scripts"]
from headless import start_qgis
app = start_qgis()
import processing
from qgis.core import QgsProcessingFeedback
params = json.loads(sys.argv[3])
started = time.perf_counter()
processing.run(sys.argv[2], params, feedback=QgsProcessingFeedback())
seconds = time.perf_counter() - started
print(json.dumps({"seconds": seconds, "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def child(code: str, *args: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", code, str(REPO), *args], capture_output=True, text=True, check=False, cwd=REPO
    )
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-3000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def evaluate(prediction: str, reference: str) -> dict:
    params = {"PREDICTION": prediction, "REFERENCE": reference, "REFERENCE_FIELD": "code", "PROTOCOL": "flair1",
              "OUTPUT_REPORT": str(CASE / "report.json")}  # fmt: skip
    return child(CHILD, "flair:evaluate", json.dumps(params))


def squares_over(case: dict, bounds: tuple, name: str) -> str:
    """The squares over ``bounds`` alone, cut with OGR's own spatial filter."""
    from osgeo import ogr

    small = CASE / f"labels_{name}.gpkg"
    if not small.exists():
        source = ogr.Open(str(case["gpkg"]))
        layer = source.GetLayer("labels")
        layer.SetSpatialFilterRect(*bounds)
        out = ogr.GetDriverByName("GPKG").CreateDataSource(str(small))
        out.CopyLayer(layer, "labels")
        out = source = None
    return f"{small}|layername=labels"


def mosaic_class_map(case: dict) -> tuple[Path, tuple]:
    """A 3072² class map: the perturbed patch 6 x 6 times, from the patch's upper-left corner."""
    import numpy as np
    import rasterio

    path = CASE / "mosaic_pred.tif"
    with rasterio.open(case["prediction"]) as src:
        profile, array = src.profile, src.read(1)
    profile.update(width=3072, height=3072, tiled=True, blockxsize=512, blockysize=512, compress="deflate")
    if not path.exists():
        with rasterio.open(path, "w", **profile) as dst:
            dst.write(np.tile(array, (6, 6)), 1)
    with rasterio.open(path) as src:
        return path, tuple(src.bounds)


def main() -> None:
    import shutil

    import conftest  # the test helpers read a copy of tests/data where conftest says
    from bigref_helpers import million_squares_case

    CASE.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    shutil.copytree(REPO / "tests" / "data", conftest.FLAIR_DATA.parents[1] / "data", dirs_exist_ok=True)
    try:
        case = million_squares_case(CASE)
    finally:
        shutil.rmtree(conftest.FLAIR_DATA.parents[1], ignore_errors=True)
    print(f"million-square GeoPackage made in {time.perf_counter() - started:.0f} s")
    prediction = str(case["prediction"])
    million = f"{case['gpkg']}|layername=labels"
    rows = {
        "patch's own squares (GeoPackage)": evaluate(prediction, squares_over(case, case["bounds"], "patch")),
        "1,000,000 squares (GeoPackage)": evaluate(prediction, million),
    }
    from postgis_server import postgres_bin, start_server

    if postgres_bin() is None:
        print("PostGIS: not installed (run make setup); that line is skipped")
    else:
        server = start_server()
        try:
            server.load(str(case["gpkg"]), "labels")
            rows["1,000,000 squares (PostGIS, GiST)"] = evaluate(prediction, "postgres://" + server.uri("labels"))
        finally:
            server.stop()
    small = rows["patch's own squares (GeoPackage)"]
    print(f"{'flair:evaluate, 512² FLAIR patch, reference':48s} {'seconds':>8s} {'peak RSS':>9s}  vs patch's own")
    for name, row in rows.items():
        print(
            f"{name:48s} {row['seconds']:8.2f} {row['rss_mb']:7.0f} MB  "
            f"{row['seconds'] / small['seconds']:.2f}x time, {row['rss_mb'] - small['rss_mb']:+.0f} MB"
        )
    mosaic, bounds = mosaic_class_map(case)
    own = squares_over(case, bounds, "mosaic")
    print(f"{'3072² class map (6 x 6 patches)':48s} {'1M squares':>10s} {'its own':>10s}  ratio")
    for algorithm, extra in (
        ("flair:rank_labels", {"OUTPUT": str(CASE / "ranked.gpkg")}),
        ("flair:sample", {"DESIGN": "suspicious", "SAMPLES": 100, "OUTPUT": str(CASE / "review.gpkg")}),
    ):
        times = []
        for reference in (million, own):
            params = {"PREDICTION": str(mosaic), "REFERENCE": reference, "REFERENCE_FIELD": "code", **extra}
            for path in CASE.glob(Path(extra["OUTPUT"]).name + "*"):
                path.unlink()
            times.append(child(CHILD, algorithm, json.dumps(params))["seconds"])
        print(f"{algorithm:48s} {times[0]:8.2f} s {times[1]:8.2f} s  {times[0] / times[1]:.2f}x")
    probe = REPO / "tests" / "main_thread_probe.py"
    done = subprocess.run(
        [sys.executable, str(probe), str(REPO), prediction, million, str(CASE), "3"],
        capture_output=True, text=True, check=True, cwd=REPO,
    )  # fmt: skip
    beats = json.loads(done.stdout.strip().splitlines()[-1])
    print("dock scoring task against 1,000,000 squares (click = capture on the main thread; 3 runs):")
    for k, beat in enumerate(beats, 1):
        print(
            f"  run {k}: click {beat['click_ms']:.1f} ms, longest main-thread block {beat['longest_ms']:.0f} ms, "
            f"click to scores {beat['total_s']:.2f} s"
        )


if __name__ == "__main__":
    main()
