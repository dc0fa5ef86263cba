"""Speed and memory of flair:evaluate on two aligned 8192 x 8192 uint8 rasters (67 Mpx).

Prints:
* scikit-learn's ``confusion_matrix`` alone on the two arrays already in memory (the baseline);
* ``scripts/qgis-process run flair:evaluate`` end to end (QGIS start, reading both compressed
  rasters window by window, report, CSV, PNG), and the same without the QGIS start-up;
* the core's peak numpy memory (tracemalloc) against the size of one raster, and the peak RSS of
  the qgis_process child (which includes QGIS itself).

The rasters are generated once in a temporary folder from the real FLAIR masks (tiled 512 px,
DEFLATE), the prediction being the reference with 20 % of pixels changed.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import numpy as np
import rasterio
from rasterio.windows import Window

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
SIZE_PX = 8192
TILE_PX = 512


def make_rasters(folder: Path) -> tuple[Path, Path]:
    """Reference and prediction rasters of SIZE_PX², written tile by tile."""
    masks = []
    for p in sorted((REPO / "tests" / "data" / "flair").glob("MSK_*.tif")):
        with rasterio.open(p) as src:
            masks.append(src.read(1))
    profile = dict(driver="GTiff", width=SIZE_PX, height=SIZE_PX, count=1, dtype="uint8", tiled=True,
                   blockxsize=TILE_PX, blockysize=TILE_PX, compress="deflate", crs="EPSG:2154", nodata=None,
                   transform=rasterio.Affine(0.2, 0, 800000.0, 0, -0.2, 6500000.0))  # fmt: skip
    ref_path, pred_path = folder / "reference.tif", folder / "prediction.tif"
    rng = np.random.default_rng(0)
    n = SIZE_PX // TILE_PX
    with rasterio.open(ref_path, "w", **profile) as ref, rasterio.open(pred_path, "w", **profile) as pred:
        for r in range(n):
            for c in range(n):
                k = r * n + c
                tile = np.ascontiguousarray(np.rot90(masks[k % len(masks)], k=(k // len(masks)) % 4))
                changed = tile.copy()
                hit = rng.random(tile.shape) < 0.2
                changed[hit] = rng.integers(1, 14, int(hit.sum()), dtype=np.uint8)
                window = Window(c * TILE_PX, r * TILE_PX, TILE_PX, TILE_PX)
                ref.write(tile, 1, window=window)
                pred.write(changed, 1, window=window)
    return ref_path, pred_path


def bench_sklearn(ref_path: Path, pred_path: Path) -> float:
    from sklearn.metrics import confusion_matrix

    with rasterio.open(ref_path) as a, rasterio.open(pred_path) as b:
        ref, pred = a.read(1).ravel(), b.read(1).ravel()
    started = time.perf_counter()
    confusion_matrix(ref, pred, labels=list(range(1, 20)))
    return time.perf_counter() - started


def bench_core(ref_path: Path, pred_path: Path) -> tuple[float, int, float]:
    """``(seconds, tracemalloc peak bytes, mIoU)`` of the core evaluate_rasters."""
    from flair_qgis.core.score.evaluate import evaluate_rasters
    from flair_qgis.core.score.protocols import get_protocol

    tracemalloc.start()
    started = time.perf_counter()
    with rasterio.Env(GDAL_CACHEMAX=64):
        report = evaluate_rasters(pred_path, ref_path, get_protocol("flair1"))
    seconds = time.perf_counter() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return seconds, peak, report.scores.miou


def bench_qgis_process(ref_path: Path, pred_path: Path, folder: Path) -> tuple[float, float, int]:
    """``(end-to-end seconds, qgis_process start-up seconds, child peak RSS bytes)``."""
    tool = REPO / "scripts" / "qgis-process"
    subprocess.run([str(tool), "list"], check=True, capture_output=True)  # setup + plugin enabled, warm caches
    started = time.perf_counter()
    subprocess.run([str(tool), "help", "flair:evaluate"], check=True, capture_output=True)
    startup = time.perf_counter() - started
    # A wrapper process whose only child is the run, so its peak RSS is the run's alone.
    wrapper = (
        "import resource, subprocess, sys; r = subprocess.run(sys.argv[1:]); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr); sys.exit(r.returncode)"
    )
    started = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", wrapper, str(tool), "run", "flair:evaluate", "--", f"PREDICTION={pred_path}",
         f"REFERENCE={ref_path}", "PROTOCOL=flair1", f"OUTPUT_REPORT={folder / 'report.json'}"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    seconds = time.perf_counter() - started
    if out.returncode != 0:
        raise SystemExit(f"qgis_process failed:\n{out.stdout[-2000:]}\n{out.stderr[-2000:]}")
    rss = int(out.stderr.strip().splitlines()[-1]) * 1024
    return seconds, startup, rss


def main() -> int:
    mpx = SIZE_PX * SIZE_PX / 1e6
    raster_mb = SIZE_PX * SIZE_PX / 2**20
    with tempfile.TemporaryDirectory(prefix="flair-bench-eval-") as tmp:
        folder = Path(tmp)
        started = time.perf_counter()
        ref_path, pred_path = make_rasters(folder)
        print(
            f"generated 2 x {SIZE_PX}x{SIZE_PX} uint8 rasters ({mpx:.1f} Mpx each) "
            f"in {time.perf_counter() - started:.1f} s"
        )
        sk = bench_sklearn(ref_path, pred_path)
        print(f"sklearn confusion_matrix (arrays in memory):   {sk:7.2f} s  {mpx / sk:7.1f} Mpx/s")
        core_s, peak, miou = bench_core(ref_path, pred_path)
        print(f"core evaluate_rasters (read + count + report): {core_s:7.2f} s  {mpx / core_s:7.1f} Mpx/s  "
              f"mIoU {miou:.4f}")  # fmt: skip
        print(f"core peak numpy memory: {peak / 2**20:.1f} MiB (one raster: {raster_mb:.0f} MiB)")
        if os.environ.get("FLAIR_BENCH_NO_QGIS") != "1":
            e2e, startup, rss = bench_qgis_process(ref_path, pred_path, folder)
            print(f"qgis-process run flair:evaluate end to end:   {e2e:7.2f} s  {mpx / e2e:7.1f} Mpx/s  "
                  f"(qgis_process start-up alone {startup:.2f} s)")  # fmt: skip
            print(
                f"speed-up over sklearn: end to end {sk / e2e:.1f}x, "
                f"without QGIS start-up {sk / max(e2e - startup, 1e-9):.1f}x"
            )
            print(f"qgis_process peak RSS (QGIS included): {rss / 2**20:.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
