"""Distributed runs (issue 12): scaling over Dask workers, overhead against in-process flair:segment.

Prints figures; asserts nothing. The machine's cores are shared: each measurement runs three times,
interleaved, and every figure is printed (the best is used for the ratios). Run through `make bench` or
`.venv/bin/python bench/bench_scale.py`.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import numpy as np
from common import BUILD, line, mosaic_raster, run_segment, start_qgis

TILE_PX, OVERLAP_PX, CHUNK_TILES, TILES_PER_SIDE = 256, 32, 5, 4
REPEATS = 3


def medium_model(path: Path) -> Path:
    """4 convolutions of 32 channels (about 3.8 GFLOP per 256 px tile): cost dominated by the model."""
    from scale_helpers import conv_stack_model

    meta = {"mean": [105.08, 110.87, 101.82, 106.38, 53.26], "std": [52.17, 45.38, 44.0, 39.69, 79.3]}
    return conv_stack_model(path, 5, 13, width=32, layers=4, metadata=meta)


def distributed_run(image: Path, model: Path, out: Path, workers: int) -> tuple[float, float, int]:
    """``(seconds of the chunks, seconds with cluster start, tiles)`` of a fresh run on a local cluster."""
    from flair_qgis.scale.cluster import check_workers, open_client
    from flair_qgis.scale.manifest import open_output_dir
    from flair_qgis.scale.plan import plan_job
    from flair_qgis.scale.runner import execute

    shutil.rmtree(out, ignore_errors=True)
    started = time.perf_counter()
    job, info, _ = plan_job(
        str(image), str(model), str(out), tile_size_px=TILE_PX, overlap_px=OVERLAP_PX, chunk_tiles=CHUNK_TILES
    )
    manifest = open_output_dir(job, force=False)
    with open_client(None, workers, threads_per_worker=1) as client:
        check_workers(client)
        result = execute(job, info, manifest, client)
    return result.seconds, time.perf_counter() - started, result.tiles_run


def main() -> None:
    folder = BUILD / "scale"
    folder.mkdir(parents=True, exist_ok=True)
    image = mosaic_raster(BUILD / f"mosaic_{TILES_PER_SIDE}x{TILES_PER_SIDE}.tif", TILES_PER_SIDE)
    model = medium_model(folder / "conv_stack.onnx")
    cores = len(os.sched_getaffinity(0))
    print(
        f"  input {image.name} ({TILES_PER_SIDE * 512} px square), {TILE_PX} px tiles, overlap {OVERLAP_PX} px, "
        f"chunks of {CHUNK_TILES}x{CHUNK_TILES} tiles; {cores} cores, load {os.getloadavg()[0]:.2f}",
        flush=True,
    )

    start_qgis()
    one, two, inproc = [], [], []
    # Interleaved, so that a burst of load from the machine's other users hits every variant alike.
    for k in range(REPEATS):
        one.append(distributed_run(image, model, folder / "w1", 1))
        two.append(distributed_run(image, model, folder / "w2", 2))
        params = {"INPUT": str(image), "MODEL": str(model), "TILE_SIZE": TILE_PX, "OVERLAP": OVERLAP_PX}
        inproc.append(run_segment({**params, "OUTPUT": str(folder / f"inprocess_{k}.tif")})[0])
    tiles = one[0][2]
    for label, runs in (("1 worker x 1 thread", one), ("2 workers x 1 thread", two)):
        line(f"{label}: chunks s (runs)", ", ".join(f"{s:.2f}" for s, _, _ in runs))
        line(f"{label}: tiles/s (best)", f"{tiles / min(s for s, _, _ in runs):.2f}")
        line(f"{label}: s with cluster start (runs)", ", ".join(f"{w:.2f}" for _, w, _ in runs))
    line(f"in-process flair:segment, {cores} threads: s (runs)", ", ".join(f"{s:.2f}" for s in inproc))
    line(f"in-process flair:segment, {cores} threads: tiles/s (best)", f"{tiles / min(inproc):.2f}")
    ratio = min(s for s, _, _ in one) / min(s for s, _, _ in two)
    line("scaling 2 workers / 1 worker (target >= 1.7)", f"{ratio:.2f}")
    overhead = min(s for s, _, _ in two) / min(inproc) - 1.0
    line("distributed (2 x 1 thread) overhead vs in-process (target <= 10 %)", f"{100 * overhead:+.1f} %")
    with_start = min(w for _, w, _ in two) / min(inproc) - 1.0
    line("  the same, counting the local cluster's start", f"{100 * with_start:+.1f} %")
    line("machine load after the runs (1 min average)", f"{os.getloadavg()[0]:.2f}")
    import rasterio

    with rasterio.open(folder / "w2" / "classes.vrt") as a, rasterio.open(folder / "inprocess_0.tif") as b:
        same = bool(np.array_equal(a.read(1), b.read(1)))
    line("mosaic identical to flair:segment", str(same))
    km2 = (TILES_PER_SIDE * 512 * 0.2) ** 2 / 1e6
    line("area per hour, 2 workers (km²/h, this model)", f"{km2 / min(s for s, _, _ in two) * 3600:.1f}")


if __name__ == "__main__":
    main()
