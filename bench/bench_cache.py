"""Tile cache and "Follow the view" benchmarks (issue 11). Prints figures; asserts nothing.

1. flair:segment over a 3x3-patch extent of a real-imagery mosaic with the demo model: no cache,
   cold cache, warm revisit (target: warm <= 0.1 x cold), then a half-tile pan over the cached
   area (target: only the new tiles cost model time).
2. The dock's "Follow the view" on one FLAIR patch with the demo model, CPU: view settled ->
   live layer and scores shown, first view (target <= 1.5 s) and revisit (target <= 0.3 s).

Run through `make bench` or `.venv/bin/python bench/bench_cache.py`.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

from common import BUILD, FLAIR_DATA, REPO, extent_of, line, mosaic_raster, run_segment, start_qgis

DEMO_MODEL = REPO / "resources" / "models" / "flair-demo-unet.onnx"
PATCH = 512


def _extent(col0_px: int, size_px: int, res: float = 0.2) -> str:
    x0, y1 = 800000.0 + col0_px * res, 6500000.0
    return f"{x0},{x0 + size_px * res},{y1 - size_px * res},{y1} [EPSG:2154]"


def bench_segment_cache(work: Path) -> None:
    raster = mosaic_raster(BUILD / "mosaic_2048.tif", 4)
    size = 3 * PATCH
    cache = work / "cache"
    base = {"INPUT": str(raster), "MODEL": str(DEMO_MODEL), "DEVICE": "cpu", "BATCH_SIZE": 4}

    def run(name: str, **params) -> tuple[float, dict]:
        return run_segment({**base, "OUTPUT": str(work / f"{name}.tif"), **params})

    run("warmup", EXTENT=extent_of(PATCH))  # onnxruntime and GDAL first-use costs out of the figures
    plain_s, plain = run("plain", EXTENT=extent_of(size))
    cold_s, cold = run("cold", EXTENT=extent_of(size), CACHE=str(cache))
    warm_s, warm = run("warm", EXTENT=extent_of(size), CACHE=str(cache))
    print(f"flair:segment, demo model, CPU, {size} x {size} px extent (3 x 3 FLAIR patches)")
    line("no cache", f"{plain_s:.2f} s, {plain['TILES']} tiles")
    line("cold cache (every tile computed and stored)", f"{cold_s:.2f} s, {cold['CACHED_TILES']} from cache")
    line("warm revisit (every tile from the cache)", f"{warm_s:.2f} s, {warm['CACHED_TILES']} from cache")
    line("warm / cold (target <= 0.1)", f"{warm_s / cold_s:.3f}")
    cache_bytes = sum(p.stat().st_size for p in cache.rglob("*.tile"))
    line("cache size", f"{cache_bytes / 1e6:.1f} MB for {cold['TILES']} tiles")

    tile = 512  # demo model: 512 px tiles, 64 px overlap (cores every 448 px)
    per_tile = (cold_s - warm_s) / cold["TILES"]  # model (+ read) cost of one tile
    for label, shift in (("half-tile pan (256 px east)", tile // 2), ("one-patch pan (512 px east)", PATCH)):
        pan_s, pan = run(f"pan{shift}", EXTENT=_extent(shift, size), CACHE=str(cache))
        new = pan["TILES"] - pan["CACHED_TILES"]
        print(f"{label} over the cached area (a run without cache: {plain_s:.2f} s)")
        line("tiles from the cache / new tiles", f"{pan['CACHED_TILES']} / {new}")
        predicted = warm_s * pan["CACHED_TILES"] / warm["TILES"] + new * per_tile
        line("time", f"{pan_s:.2f} s")
        line("if only the new tiles cost model time", f"{predicted:.2f} s ({new} x {per_tile:.3f} s + cached share)")


class _Iface:
    """What the dock asks of QGIS's interface: the map canvas and the message bar."""

    def __init__(self) -> None:
        from qgis.gui import QgsMapCanvas, QgsMessageBar

        self.canvas = QgsMapCanvas()
        self.canvas.resize(800, 600)
        self.bar = QgsMessageBar()

    def mapCanvas(self):
        return self.canvas

    def messageBar(self):
        return self.bar


def _wait(app, done, timeout_s: float = 60.0) -> None:
    deadline = time.perf_counter() + timeout_s
    while not done():
        if time.perf_counter() > deadline:
            raise TimeoutError("the follow view did not finish")
        app.processEvents()
        time.sleep(0.002)


def bench_follow_view(app, work: Path) -> None:
    from qgis.core import QgsProject, QgsRasterLayer

    from flair_qgis.adapters import settings

    settings.set_value("cache_folder", str(work / "dock-cache"))
    settings.set_value("output_folder", str(work / "dock-out"))
    (work / "dock-out").mkdir()
    image = QgsRasterLayer(str(shutil.copy(FLAIR_DATA / "IMG_000473.tif", work)), "patch")
    reference = QgsRasterLayer(str(shutil.copy(FLAIR_DATA / "MSK_000473.tif", work)), "reference")
    QgsProject.instance().addMapLayers([image, reference])
    from flair_qgis.gui.dock import FlairDock

    iface = _Iface()
    dock = FlairDock(iface)
    dock.set_model(str(DEMO_MODEL))
    dock.layer_combo.setLayer(image)
    dock.segment.run_section.device_combo.setCurrentIndex(max(0, dock.segment.run_section.device_combo.findData("cpu")))
    dock.qa.reference_combo.setLayer(reference)
    dock.qa.protocol_combo.setCurrentIndex(dock.qa.protocol_combo.findData("flair1"))
    canvas, follow, qa = iface.canvas, dock.follow, dock.qa
    canvas.setDestinationCrs(image.crs())
    canvas.setExtent(image.extent())

    def shown(view: int) -> float:
        """Seconds from the view settling (the debounce firing) to the live layer and scores shown."""
        previous = qa.report
        started = time.perf_counter()
        follow.run_view()
        _wait(app, lambda: follow.task is None and qa.task is None and qa.report is not previous)
        return time.perf_counter() - started

    follow.toggle.blockSignals(True)  # drive run_view directly: the debounce delay is not a cost
    follow.toggle.setChecked(True)
    first = shown(1)
    revisit = shown(2)
    print("Follow the view, one FLAIR patch (512 x 512 px), demo model, CPU, reference set")
    line("first view: settled -> live layer and scores (<= 1.5 s)", f"{first:.2f} s")
    line("revisit:    settled -> live layer and scores (<= 0.3 s)", f"{revisit:.2f} s")
    line("mIoU shown", qa.summary_label.text().split("\n")[0][:40])
    dock.shutdown()


def main() -> None:
    app = start_qgis()
    work = Path(tempfile.mkdtemp(prefix="flair-bench-cache-"))
    try:
        bench_segment_cache(work)
        bench_follow_view(app, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
