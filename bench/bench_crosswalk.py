"""Text codes through a crosswalk at IGN scale (issue 40): a million polygons in PostGIS.

The million 10 m squares of ``bench_reference`` (a 10 km x 10 km label layer) are loaded into a real
PostgreSQL + PostGIS server twice: with integer classes (``code``) and with OCS GE-like text codes
(``cs`` = ``'CS-' || code``, a GiST index on each). ``flair:evaluate`` scores a class map that covers
the whole layer (2 m pixels, 5000 x 5000, seeded random classes) against each, so that every one of
the million polygons is read, recoded and rasterised: integer codes, then text codes through a
``CROSSWALK`` of 13 lines. Each run is its own process; the figures are printed (target: text within
1.5x the integer time), nothing is asserted. ``BENCH_CROSSWALK_SIDE`` makes the layer smaller
(side x side squares) for a quick look.
"""

from __future__ import annotations

import json
import os
import sys
import time

from bench_reference import CHILD, child
from common import BUILD, REPO

CASE = BUILD / "crosswalk"
SIDE = int(os.environ.get("BENCH_CROSSWALK_SIDE", "1000"))
PIXEL_M = 2.0
SQUARE_M = 10.0


def class_map(x0: float, y0: float) -> str:
    """A seeded random class map (1..13) covering the squares, 2 m pixels, EPSG:2154."""
    import numpy as np
    import rasterio
    from rasterio.transform import from_origin

    path = CASE / f"classes_{SIDE}.tif"
    if path.exists():
        return str(path)
    size = int(SIDE * SQUARE_M / PIXEL_M)
    rng = np.random.default_rng(40)
    profile = {"driver": "GTiff", "width": size, "height": size, "count": 1, "dtype": "uint8", "crs": "EPSG:2154",
               "transform": from_origin(x0, y0 + SIDE * SQUARE_M, PIXEL_M, PIXEL_M), "tiled": True,
               "blockxsize": 512, "blockysize": 512, "compress": "deflate"}  # fmt: skip
    with rasterio.open(path, "w", **profile) as dst:
        for row in range(0, size, 512):
            rows = min(512, size - row)
            block = rng.integers(1, 14, size=(rows, size), dtype=np.uint8)
            dst.write(block, 1, window=rasterio.windows.Window(0, row, size, rows))
    return str(path)


def evaluate(prediction: str, reference: str, field: str, **extra: str) -> dict:
    params = {"PREDICTION": prediction, "REFERENCE": reference, "REFERENCE_FIELD": field, "PROTOCOL": "flair1",
              "OUTPUT_REPORT": str(CASE / f"report_{field}.json"), **extra}  # fmt: skip
    figures = child(CHILD, "flair:evaluate", json.dumps(params))
    report = json.loads((CASE / f"report_{field}.json").read_text())
    return {**figures, "miou": report["miou"], "pixels": report["pixels_evaluated"]}


def main() -> int:
    from bigref_helpers import square_grid_gpkg
    from postgis_server import postgres_bin, start_server

    if postgres_bin() is None:
        print("PostGIS: not installed (run make setup); skipped")
        return 0
    CASE.mkdir(parents=True, exist_ok=True)
    gpkg = CASE / f"labels_{SIDE}.gpkg"
    center = (700000.0, 6600000.0)
    started = time.perf_counter()
    if gpkg.exists():
        gpkg.unlink()
    x0, y0 = square_grid_gpkg(gpkg, center, SIDE, SQUARE_M)
    prediction = class_map(x0, y0)
    print(f"{SIDE * SIDE:,} squares and a {int(SIDE * SQUARE_M / PIXEL_M)}² class map made in "
          f"{time.perf_counter() - started:.0f} s")  # fmt: skip
    crosswalk = CASE / "codes.csv"
    crosswalk.write_text("reference,class\n" + "".join(f"CS-{c},{c}\n" for c in range(1, 14)), encoding="utf-8")
    server = start_server()
    try:
        server.load(str(gpkg), "labels")
        server.sql(
            "flair",
            "CREATE TABLE labels_text AS SELECT fid, 'CS-' || code AS cs, geom FROM labels ORDER BY fid; "
            "ALTER TABLE labels_text ADD PRIMARY KEY (fid); "
            "CREATE INDEX labels_text_geom ON labels_text USING gist (geom); ANALYZE labels_text;",
        )
        rows = {}
        for _ in range(2):  # the second round is what counts: the server's cache is warm
            rows["integer codes"] = evaluate(prediction, "postgres://" + server.uri("labels"), "code")
            rows["text codes + CROSSWALK"] = evaluate(
                prediction, "postgres://" + server.uri("labels_text", field="cs"), "cs", CROSSWALK=str(crosswalk)
            )
    finally:
        server.stop()
    base = rows["integer codes"]
    title = f"flair:evaluate, {SIDE * SIDE:,} PostGIS polygons"
    print(f"{title:44s} {'seconds':>8s} {'peak RSS':>9s}  vs integer")
    for name, row in rows.items():
        print(f"{name:44s} {row['seconds']:8.2f} {row['rss_mb']:7.0f} MB  {row['seconds'] / base['seconds']:.2f}x "
              f"(mIoU {row['miou']:.6f}, {row['pixels']:,} px)")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(REPO / "bench"))
    sys.exit(main())
