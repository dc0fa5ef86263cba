"""How long a writer thread finishing its GeoTIFFs keeps Python's main thread waiting (issue 32).

QGIS's main thread runs the dock's Python (its table model, its signal handlers) and must get the
GIL every few milliseconds. A thread writes a 4096² class map (real FLAIR labels, tiled) and its
float32 confidence in tiles of 448 px, then finishes them, while the main thread ticks every 2 ms;
the figure is the longest gap between two ticks, with GDAL's cache at its default size (as in QGIS):

- "close compresses": ZSTD GeoTIFFs closed by rasterio, which compresses the cached blocks in
  ``close()`` without releasing the GIL (what :class:`AtomicGeoTiff` did before);
- ``AtomicGeoTiff``: written uncompressed, flushed every ``FLUSH_BYTES``, compressed at commit by
  ``rasterio.shutil.copy``, which releases it.

Prints figures, asserts nothing.
"""

from __future__ import annotations

import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import rasterio
import rasterio.crs
from affine import Affine
from common import REPO, line

from flair_qgis.core.engine.geotiff import AtomicGeoTiff
from flair_qgis.core.engine.grid import Grid

EDGE = 4096
CORE = 448


def longest_gap_ms(work) -> tuple[float, float]:
    """``(longest main-thread gap, work time)`` in ms while ``work`` runs in another thread."""
    done = threading.Event()
    elapsed = [0.0]

    def run() -> None:
        started = time.perf_counter()
        try:
            work()
        finally:
            elapsed[0] = (time.perf_counter() - started) * 1000
            done.set()

    thread = threading.Thread(target=run)
    last, longest = time.perf_counter(), 0.0
    thread.start()
    while not done.is_set():
        time.sleep(0.002)
        now = time.perf_counter()
        longest, last = max(longest, (now - last) * 1000), now
    thread.join()
    return longest, elapsed[0]


def rasters() -> dict[str, np.ndarray]:
    """A class map tiled from the real FLAIR label patches, and a confidence in [0.3, 1)."""
    labels = []
    for path in sorted((REPO / "tests" / "data" / "flair").glob("MSK_*.tif")):
        with rasterio.open(path) as src:
            labels.append(src.read(1)[:512, :512])
    classes = np.zeros((EDGE, EDGE), dtype=np.uint8)
    for k, (row, col) in enumerate((r, c) for r in range(0, EDGE, 512) for c in range(0, EDGE, 512)):
        classes[row : row + 512, col : col + 512] = labels[k % len(labels)]
    confidence = np.random.default_rng(0).uniform(0.3, 1.0, (EDGE, EDGE)).astype(np.float32)
    return {"uint8": classes, "float32": confidence}


def main() -> None:
    arrays = rasters()
    transform = Affine(0.2, 0, 800000.0, 0, -0.2, 6500000.0)
    grid = Grid(transform, EDGE, EDGE, rasterio.crs.CRS.from_epsg(2154).to_wkt())
    with tempfile.TemporaryDirectory() as folder:

        def close_compresses() -> None:
            for dtype, array in arrays.items():
                profile = {
                    "driver": "GTiff", "width": EDGE, "height": EDGE, "count": 1, "dtype": dtype,
                    "transform": transform, "tiled": True, "blockxsize": CORE, "blockysize": CORE,
                    "compress": "zstd", "zstd_level": 1 if dtype == "float32" else 3,
                    "predictor": 3 if dtype == "float32" else 1,
                }  # fmt: skip
                with rasterio.open(Path(folder) / f"before_{dtype}.tif", "w", **profile) as dataset:
                    dataset.write(array, 1)

        def atomic() -> None:
            for dtype, array in arrays.items():
                writer = AtomicGeoTiff(str(Path(folder) / f"now_{dtype}.tif"), grid, dtype, None, CORE)
                writer.open()
                for row in range(0, EDGE, CORE):
                    for col in range(0, EDGE, CORE):
                        writer.write(array[row : row + CORE, col : col + CORE], row, col)
                writer.commit()

        for name, work in (("close compresses (before)", close_compresses), ("AtomicGeoTiff", atomic)):
            gaps = [longest_gap_ms(work) for _ in range(3)]
            shown = ", ".join(f"{gap:.0f}" for gap, _ in gaps)
            line(f"{EDGE}² class map + confidence, {name}: longest gap", f"{shown} ms (work {gaps[-1][1]:.0f} ms)")


if __name__ == "__main__":
    main()
