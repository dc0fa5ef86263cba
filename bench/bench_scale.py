"""Distributed runs (issue 12): scaling over Dask workers, overhead against in-process flair:segment.

Prints figures; asserts nothing. The machine's cores are shared: each measurement runs four times,
interleaved, and every figure is printed (the best is used for the ratios). Run through `make bench` or
`.venv/bin/python bench/bench_scale.py`.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import time
from pathlib import Path

import numpy as np
from common import BUILD, line, mosaic_raster, run_segment, start_qgis

TILE_PX, OVERLAP_PX, CHUNK_TILES, TILES_PER_SIDE = 256, 32, 5, 4
REPEATS = 4


def medium_model(path: Path) -> Path:
    """4 convolutions of 32 channels (about 3.8 GFLOP per 256 px tile): cost dominated by the model."""
    from scale_helpers import conv_stack_model

    meta = {"mean": [105.08, 110.87, 101.82, 106.38, 53.26], "std": [52.17, 45.38, 44.0, 39.69, 79.3]}
    return conv_stack_model(path, 5, 13, width=32, layers=4, metadata=meta)


def cpu_seconds() -> float:
    """User + system CPU time of the calling process, all threads (run on each worker too)."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@contextlib.contextmanager
def cores(count: int):
    """Run what starts inside (the local cluster's worker processes inherit it) on ``count`` cores.

    A worker's single onnxruntime thread is not all it runs: the tile pipeline reads and writes in
    two more threads. Unpinned, a lone worker spreads those onto the idle second core, so "1 worker"
    would measure about 1.15 cores against 2. Pinning makes the comparison 1 core against 2.
    """
    everything = os.sched_getaffinity(0)
    os.sched_setaffinity(0, sorted(everything)[:count])
    try:
        yield
    finally:
        os.sched_setaffinity(0, everything)


def distributed_run(image: Path, model: Path, out: Path, workers: int) -> tuple[float, float, int, float]:
    """``(seconds of the chunks, seconds with cluster start, tiles, worker CPU s)`` of a fresh local-cluster run."""
    from flair_qgis.core.segment import SegmentRequest
    from flair_qgis.scale.cluster import check_workers, open_client
    from flair_qgis.scale.manifest import open_output_dir
    from flair_qgis.scale.plan import plan_job
    from flair_qgis.scale.runner import execute

    shutil.rmtree(out, ignore_errors=True)
    started = time.perf_counter()
    request = SegmentRequest(str(out / "classes.vrt"), tile_size_px=TILE_PX, overlap_px=OVERLAP_PX)
    job, info, _ = plan_job(str(image), str(model), str(out), request, chunk_tiles=CHUNK_TILES)
    manifest = open_output_dir(job, force=False)
    with cores(workers), open_client(None, workers, threads_per_worker=1) as client:
        check_workers(client)
        cpu_before = sum(client.run(cpu_seconds).values())
        result = execute(job, info, manifest, client)
        cpu = sum(client.run(cpu_seconds).values()) - cpu_before
    return result.seconds, time.perf_counter() - started, result.tiles_run, cpu


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
        cpu_before = cpu_seconds()
        seconds = run_segment({**params, "OUTPUT": str(folder / f"inprocess_{k}.tif")})[0]
        inproc.append((seconds, cpu_seconds() - cpu_before))
    tiles = one[0][2]
    for label, runs in (("1 worker x 1 thread", one), ("2 workers x 1 thread", two)):
        line(f"{label}: chunks s (runs)", ", ".join(f"{r[0]:.2f}" for r in runs))
        line(f"{label}: tiles/s (best)", f"{tiles / min(r[0] for r in runs):.2f}")
        line(f"{label}: s with cluster start (runs)", ", ".join(f"{r[1]:.2f}" for r in runs))
        line(f"{label}: worker CPU ms per tile (best)", f"{1000 * min(r[3] for r in runs) / tiles:.1f}")
    line(f"in-process flair:segment, {cores} threads: s (runs)", ", ".join(f"{r[0]:.2f}" for r in inproc))
    line(f"in-process flair:segment, {cores} threads: tiles/s (best)", f"{tiles / min(r[0] for r in inproc):.2f}")
    line(
        f"in-process flair:segment, {cores} threads: CPU ms per tile (best)",
        f"{1000 * min(r[1] for r in inproc) / tiles:.1f}",
    )
    ratio = min(r[0] for r in one) / min(r[0] for r in two)
    line("scaling 2 workers / 1 worker (target >= 1.7)", f"{ratio:.2f}")
    cpu_ratio = min(r[3] for r in one) / min(r[3] for r in two)
    line("  CPU time per tile, 1 worker / 2 workers (1.0 = no cost of parallelism)", f"{cpu_ratio:.2f}")
    overhead = min(r[0] for r in two) / min(r[0] for r in inproc) - 1.0
    line("distributed (2 x 1 thread) overhead vs in-process (target <= 10 %)", f"{100 * overhead:+.1f} %")
    with_start = min(r[1] for r in two) / min(r[0] for r in inproc) - 1.0
    line("  the same, counting the local cluster's start", f"{100 * with_start:+.1f} %")
    line("machine load after the runs (1 min average)", f"{os.getloadavg()[0]:.2f}")
    import rasterio

    with rasterio.open(folder / "w2" / "classes.vrt") as a, rasterio.open(folder / "inprocess_0.tif") as b:
        same = bool(np.array_equal(a.read(1), b.read(1)))
    line("mosaic identical to flair:segment", str(same))
    km2 = (TILES_PER_SIDE * 512 * 0.2) ** 2 / 1e6
    line("area per hour, 2 workers (km²/h, this model)", f"{km2 / min(r[0] for r in two) * 3600:.1f}")


if __name__ == "__main__":
    main()
