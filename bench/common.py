"""Benchmark plumbing: a headless QGIS with the flair provider, a big real-imagery raster, timers."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
import rasterio
from rasterio.windows import Window

REPO = Path(__file__).resolve().parents[1]
BUILD = REPO / "build" / "bench"
FLAIR_DATA = REPO / "tests" / "data" / "flair"
sys.path[:0] = [str(REPO), str(REPO / "tests"), str(REPO / "scripts")]


from headless import start_qgis  # noqa: E402,F401 - re-exported for the benchmarks


def run_segment(params: dict) -> tuple[float, dict]:
    """``(seconds, results)`` of one flair:segment run through processing.run."""
    import processing
    from qgis.core import QgsProcessingFeedback

    started = time.perf_counter()
    result = processing.run("flair:segment", params, feedback=QgsProcessingFeedback())
    return time.perf_counter() - started, result


def mosaic_raster(path: Path, tiles_per_side: int) -> Path:
    """A large 5-band raster made of the real FLAIR patches (flipped and rotated so no two
    neighbours repeat), tiled and DEFLATE-compressed like an orthophoto delivery."""
    if path.exists():
        return path
    patches = []
    for p in sorted(FLAIR_DATA.glob("IMG_*.tif")):
        with rasterio.open(p) as src:
            patches.append(src.read())
    n = tiles_per_side * 512
    profile = dict(
        driver="GTiff",
        width=n,
        height=n,
        count=5,
        dtype="uint8",
        tiled=True,
        blockxsize=512,
        blockysize=512,
        compress="deflate",
        crs="EPSG:2154",
        transform=rasterio.Affine(0.2, 0, 800000.0, 0, -0.2, 6500000.0),
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".partial.tif")
    with rasterio.open(tmp, "w", **profile) as dst:
        for r in range(tiles_per_side):
            for c in range(tiles_per_side):
                k = r * tiles_per_side + c
                patch = np.rot90(patches[k % len(patches)], k=(k // len(patches)) % 4, axes=(1, 2))
                dst.write(np.ascontiguousarray(patch), window=Window(c * 512, r * 512, 512, 512))
    tmp.rename(path)
    return path


def read_windows(path: Path, size_px: int, tile_px: int = 512) -> float:
    """Seconds for a plain rasterio read of every tile_px window of the top-left size_px square."""
    started = time.perf_counter()
    with rasterio.open(path) as src:
        for r in range(0, size_px, tile_px):
            for c in range(0, size_px, tile_px):
                src.read(window=Window(c, r, tile_px, tile_px))
    return time.perf_counter() - started


def extent_of(size_px: int, res: float = 0.2) -> str:
    x0, y1 = 800000.0, 6500000.0
    return f"{x0},{x0 + size_px * res},{y1 - size_px * res},{y1} [EPSG:2154]"


def line(label: str, value: str) -> None:
    print(f"  {label:<58} {value}", flush=True)
