"""Label review: sampling an 8192 x 8192 class map by windows, and the Review tab's own time per item.

Prints:
* ``flair:sample``'s core (stratified, 1000 items) on a 67 Mpx uint8 class map: seconds and the
  peak numpy memory (tracemalloc) against the size of the raster (the sample is drawn window by
  window, never from the whole array);
* the Review tab's time per item for a verdict key (``C``: write to the GeoPackage, move on,
  card, progress, figures, zoom and highlight) and for ``N`` (move only), median / 95th
  percentile / max over a review of 200 and of 2000 items. Map rendering is not included: QGIS
  renders the canvas afterwards in its own threads.
"""

from __future__ import annotations

import statistics
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


def class_map(folder: Path) -> Path:
    """An 8192² class map tiled from the real FLAIR masks (EPSG:2154, 0.2 m), written tile by tile."""
    masks = []
    for p in sorted((REPO / "tests" / "data" / "flair").glob("MSK_*.tif")):
        with rasterio.open(p) as src:
            masks.append(src.read(1))
    path = folder / "classes.tif"
    profile = dict(
        driver="GTiff", width=SIZE_PX, height=SIZE_PX, count=1, dtype="uint8", tiled=True, blockxsize=TILE_PX,
        blockysize=TILE_PX, compress="deflate", crs="EPSG:2154", nodata=255,
        transform=rasterio.transform.from_origin(600000.0, 6800000.0, 0.2, 0.2),
    )  # fmt: skip
    with rasterio.open(path, "w", **profile) as dst:
        k = 0
        for row in range(0, SIZE_PX, TILE_PX):
            for col in range(0, SIZE_PX, TILE_PX):
                dst.write(
                    np.rot90(masks[k % len(masks)], k // len(masks) % 4), 1, window=Window(col, row, TILE_PX, TILE_PX)
                )
                k += 1
    return path


def bench_sampling(path: Path, folder: Path) -> None:
    from flair_qgis.core.review.create import SampleRequest, create_review

    request = SampleRequest(str(path), str(folder / "big.gpkg"), design="stratified", samples=1000, min_per_class=20)
    tracemalloc.start()
    started = time.perf_counter()
    summary = create_review(request)
    seconds = time.perf_counter() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(
        f"sample stratified, {summary['items']} items, {SIZE_PX}x{SIZE_PX} px ({SIZE_PX**2 / 1e6:.0f} MB uint8): "
        f"{seconds:.1f} s, peak numpy memory {peak / 1e6:.0f} MB ({peak / SIZE_PX**2:.2f} x the raster)"
    )


def _percentiles(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return f"median {statistics.median(ordered):.1f} ms, p95 {p95:.1f} ms, max {ordered[-1]:.1f} ms"


def bench_tab(path: Path, folder: Path, items: int) -> None:
    from qgis.gui import QgsMapCanvas
    from qgis.PyQt.QtCore import Qt
    from qgis.PyQt.QtWidgets import QMainWindow

    from flair_qgis.core.review.create import SampleRequest, create_review
    from flair_qgis.gui.review.review_panel import ReviewPanel

    review = folder / f"tab{items}.gpkg"
    create_review(SampleRequest(str(path), str(review), design="stratified", samples=items, min_per_class=5,
                                reference_raster=str(path)))  # fmt: skip
    window = QMainWindow()
    canvas = QgsMapCanvas(window)
    canvas.resize(1200, 800)

    class Iface:  # the panel asks QGIS's interface for its map canvas only
        @staticmethod
        def mapCanvas() -> QgsMapCanvas:
            return canvas

    iface = Iface()

    class Dock:  # and its dock to show messages
        @staticmethod
        def push(text: str, level: int = 0) -> None:
            print(f"message: {text}")

    panel = ReviewPanel(iface, Dock())
    panel.show()
    panel.open_review(str(review))
    timings: dict[str, list[float]] = {"C": [], "N": []}
    for k in range(min(items, 200)):
        key = "C" if k % 2 == 0 else "N"
        started = time.perf_counter()
        panel.handle_key(Qt.Key_C if key == "C" else Qt.Key_N, Qt.NoModifier)
        timings[key].append(1000 * (time.perf_counter() - started))
    panel.close_review()
    for key, label in (("C", "verdict + next"), ("N", "next only")):
        print(f"Review tab, {items} items, {label} ({key}): {_percentiles(timings[key])}")


def main() -> None:
    import os

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from qgis.core import QgsApplication

    app = QgsApplication([], True)  # widgets: a GUI application, drawn offscreen
    app.initQgis()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path = class_map(folder)
        bench_sampling(path, folder)
        for items in (200, 2000):
            bench_tab(path, folder, items)
    del app


if __name__ == "__main__":
    main()
