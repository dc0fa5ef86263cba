"""Speed and memory of flair:vectorize's core against ``gdal_polygonize.py``, uncleaned.

A 3072² class map is built from the real FLAIR masks (6 x 6 patches of 512 px, rotated), and a
12288² one by repeating it 4 x 4. Each run is its own process (so its peak RSS is its own):

* ``gdal_polygonize.py`` on the 3072² map to a GeoPackage (4-connected, as ours);
* ``core.vectorize`` on the 3072² map, and on the 12288² one: Mpx/s and peak RSS. The ratio of
  the two peaks shows that memory does not grow with the raster (streaming by row bands).

The maps are made in a child process too: on Linux a child's peak RSS starts from its parent's
RSS at the fork, so a parent that had built (and cached) the maps would floor every figure.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TILE_PX = 512

CHILD = """
import resource, sys, time
sys.path.insert(0, {repo!r})
from flair_qgis.core.vectorize.inputs import VectorizeRequest
from flair_qgis.core.vectorize.job import vectorize
start = time.perf_counter()
result = vectorize(VectorizeRequest({src!r}, {out!r}))
print(result.polygons, time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def make_map(path: Path, tiles: int, base=None):
    """A class map of ``tiles`` x ``tiles`` FLAIR masks (or ``base`` repeated), tiled GeoTIFF."""
    import numpy as np
    import rasterio
    from rasterio.windows import Window

    masks = []
    for p in sorted((REPO / "tests" / "data" / "flair").glob("MSK_*.tif")):
        with rasterio.open(p) as src:
            masks.append(src.read(1))
    if base is None:
        rows = []
        for r in range(tiles):
            row = [
                np.rot90(masks[(r * tiles + c) % len(masks)], k=(r * tiles + c) // len(masks) % 4) for c in range(tiles)
            ]
            rows.append(np.hstack(row))
        base = np.vstack(rows)
    size = base.shape[0] * (1 if tiles <= 6 else tiles // 6)
    profile = dict(driver="GTiff", width=size, height=size, count=1, dtype="uint8", tiled=True, blockxsize=TILE_PX,
                   blockysize=TILE_PX, compress="zstd", crs="EPSG:2154", nodata=0,
                   transform=rasterio.Affine(0.2, 0, 800000.0, 0, -0.2, 6500000.0))  # fmt: skip
    with rasterio.open(path, "w", **profile) as dst:
        n = size // base.shape[0]
        for r in range(n):
            for c in range(n):
                dst.write(base, 1, window=Window(c * base.shape[1], r * base.shape[0], *base.shape[::-1]))
    return base


def run_child(args: list[str]) -> tuple[float, int, str]:
    """Wall seconds, peak RSS (KiB) and stdout of a child process."""
    start = time.perf_counter()
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    out = proc.stdout.read() if proc.stdout else ""
    if status != 0:
        raise RuntimeError(f"{args[0]} failed: {proc.stderr.read() if proc.stderr else ''}")
    return seconds, usage.ru_maxrss, out


def ours(src: Path, out: Path) -> tuple[float, int, int]:
    _, _, text = run_child([sys.executable, "-c", CHILD.format(repo=str(REPO), src=str(src), out=str(out))])
    polygons, seconds, rss = text.split()
    return float(seconds), int(rss), int(polygons)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        small, big = folder / "map3072.tif", folder / "map12288.tif"
        run_child([sys.executable, __file__, "--make", str(small), str(big)])
        px = 3072 * 3072
        seconds, rss, _ = run_child(["gdal_polygonize.py", "-q", str(small), "-f", "GPKG", str(folder / "gdal.gpkg")])
        print(
            f"gdal_polygonize.py 3072²: {px / seconds / 1e6:.2f} Mpx/s ({seconds:.1f} s), peak RSS {rss / 1024:.0f} MiB"
        )
        s1, r1, n1 = ours(small, folder / "ours.gpkg")
        rate = px / s1 / 1e6
        print(f"flair:vectorize     3072²: {rate:.2f} Mpx/s ({s1:.1f} s, {n1} polygons), peak RSS {r1 / 1024:.0f} MiB")
        print(f"speed vs gdal_polygonize: {seconds / s1:.2f}x; peak RSS ratio (gdal / ours): {rss / r1:.2f}")
        s2, r2, n2 = ours(big, folder / "ours_big.gpkg")
        rate = 16 * px / s2 / 1e6
        print(f"flair:vectorize    12288²: {rate:.2f} Mpx/s ({s2:.1f} s, {n2} polygons), peak RSS {r2 / 1024:.0f} MiB")
        print(f"peak RSS 12288² / 3072²: {r2 / r1:.2f} (goal: within 1.3)")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--make"]:
        make_map(Path(sys.argv[3]), 24, make_map(Path(sys.argv[2]), 6))
    else:
        main()
