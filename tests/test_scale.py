"""Distributed runs (scripts/flair segment) on a real Dask scheduler and two worker processes.

Every expectation is the in-process ``flair:segment`` output, run through processing.run on the
same input with the same tiling: the mosaic must equal it to the pixel.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import rasterio
from rasters import random_image, write_raster
from scale_helpers import (
    REPO,
    DaskProcesses,
    cli_command,
    conv_stack_model,
    free_port,
    manifest,
    run_cli,
    run_segment_cli,
    tiled_vrt,
)
from toy_models import box3x3_model

TILING = ["--tile-size", "64", "--overlap", "16", "--chunk-tiles", "3"]
META = {"mean": [0] * 5, "std": [1] * 5, "classes": [{"value": v, "name": f"class {v}"} for v in (1, 2, 3, 4)]}
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    folder = tmp_path_factory.mktemp("scale-data")
    image = random_image(384, 400, 5, seed=3)
    vrt = tiled_vrt(folder / "tiles", image)
    model, _ = box3x3_model(folder / "box.onnx", 5, 4, seed=1, metadata=META)
    other, _ = box3x3_model(folder / "box2.onnx", 5, 4, seed=2, metadata=META)
    return {"folder": folder, "image": image, "vrt": vrt, "model": model, "other": other}


def reference(run_alg, tmp_path: Path, input_path, model, extent: str | None = None, tile="64", overlap="16"):
    """flair:segment's class map for the same input and tiling."""
    params = {"INPUT": str(input_path), "MODEL": str(model), "TILE_SIZE": tile, "OVERLAP": overlap}
    params["OUTPUT"] = str(tmp_path / f"ref-{Path(model).stem}-{abs(hash(extent))}.tif")
    if extent:
        params["EXTENT"] = extent
    out = run_alg("flair:segment", params)["OUTPUT"]
    with rasterio.open(out) as src:
        return src.read(1), src.transform


def wait_for_port(port: int, timeout_s: float = 20.0) -> None:
    """Wait until a server listens (GDAL caches a failed /vsicurl/ lookup, so never ask it first)."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def mosaic(output_dir: Path):
    with rasterio.open(output_dir / "classes.vrt") as src:
        return src.read(1), src.transform


def chunk_mtimes(output_dir: Path) -> dict[str, int]:
    return {p.name: p.stat().st_mtime_ns for p in (output_dir / "chunks").glob("r*.tif")}


@pytest.mark.parametrize("extent", [None, (600010.3, 6799935.1, 600071.9, 6799990.7)])
def test_mosaic_equals_flair_segment(cluster, data, run_alg, tmp_path, extent):
    out = tmp_path / "run"
    args = ["--input", str(data["vrt"]), "--model", str(data["model"]), "--output-dir", str(out), *TILING]
    qgis_extent = None
    if extent:
        args += ["--extent", ",".join(map(str, extent))]
        qgis_extent = f"{extent[0]},{extent[2]},{extent[1]},{extent[3]} [EPSG:2154]"
    done = run_cli(*args, "--scheduler", cluster.address)
    assert done.returncode == 0, done.stderr
    expected, expected_transform = reference(run_alg, tmp_path, data["vrt"], data["model"], qgis_extent)
    got, transform = mosaic(out)
    assert got.shape == expected.shape and transform.almost_equals(expected_transform)
    np.testing.assert_array_equal(got, expected)
    assert set(np.unique(got)) <= {1, 2, 3, 4}
    run = manifest(out)
    assert {c["state"] for c in run["chunks"].values()} == {"done"}
    if extent is None:
        assert len(run["chunks"]) == 9  # 8 x 9 tiles of 48 px cores, in chunks of 3 x 3 tiles
    # One onnxruntime session per worker process, reused by every chunk it ran.
    per_worker = {}
    for entry in run["chunks"].values():
        per_worker.setdefault(entry["worker"], []).append(entry)
    assert set(per_worker) <= set(cluster.addresses.values())
    assert max(len(v) for v in per_worker.values()) >= 2
    for address, info in run["workers"].items():
        assert info["provider"] == "CPUExecutionProvider"
        assert info["sessions_built"] == 1, address
    assert "tiles/s" in done.stderr and "ETA" in done.stderr


def test_cog_over_vsicurl(cluster, data, run_alg, tmp_path):
    served = tmp_path / "www"
    served.mkdir()
    cog = served / "ortho.tif"
    write_raster(cog, data["image"], driver="COG", blocksize=128, compress="deflate")
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, str(REPO / "tests" / "range_http_server.py"), str(port), str(served)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        url = f"/vsicurl/http://127.0.0.1:{port}/ortho.tif"
        wait_for_port(port)
        out = tmp_path / "run"
        done = run_segment_cli(
            url,
            str(data["model"]),
            str(out),
            *TILING,
            "--scheduler",
            cluster.address,
        )
        assert done.returncode == 0, done.stderr
    finally:
        server.terminate()
        server.wait(10)
    expected, _ = reference(run_alg, tmp_path, cog, data["model"])
    np.testing.assert_array_equal(mosaic(out)[0], expected)
    assert manifest(out)["identity"]["input"]["path"] == url


def test_resume_computes_only_missing_chunks(cluster, data, tmp_path):
    out = tmp_path / "run"
    args = [
        "--input",
        str(data["vrt"]),
        "--model",
        str(data["model"]),
        "--output-dir",
        str(out),
        *TILING,
        "--scheduler",
        cluster.address,
    ]
    assert run_cli(*args).returncode == 0
    first, _ = mosaic(out)
    before = chunk_mtimes(out)
    (out / "chunks" / "r0001_c0001.tif").unlink()
    partial = out / "chunks" / ".r0002_c0000.tif.x1y2.partial.tif"
    partial.write_bytes(b"half a chunk from an interrupted run")
    again = run_cli(*args)
    assert again.returncode == 0, again.stderr
    after = chunk_mtimes(out)
    assert set(after) == set(before)
    changed = {name for name in before if after[name] != before[name]}
    assert changed == {"r0001_c0001.tif"}
    assert not partial.exists()
    last = manifest(out)["runs"][-1]
    assert (last["chunks_run"], last["chunks_skipped"]) == (1, 8)
    np.testing.assert_array_equal(mosaic(out)[0], first)
    assert "1 chunk(s) computed, 8 already done" in again.stderr
    third = run_cli(*args)
    assert third.returncode == 0 and chunk_mtimes(out) == after
    assert manifest(out)["runs"][-1]["chunks_run"] == 0


def test_changed_model_refused_without_force(cluster, data, run_alg, tmp_path):
    out = tmp_path / "run"
    common = ["--input", str(data["vrt"]), "--output-dir", str(out), *TILING, "--scheduler", cluster.address]
    assert run_cli("--model", str(data["model"]), *common).returncode == 0
    first, _ = mosaic(out)
    before = chunk_mtimes(out)
    refused = run_cli("--model", str(data["other"]), *common)
    assert refused.returncode == 2
    assert "holds a run with another model" in refused.stderr and "--force" in refused.stderr
    assert chunk_mtimes(out) == before
    np.testing.assert_array_equal(mosaic(out)[0], first)
    forced = run_cli("--model", str(data["other"]), *common, "--force")
    assert forced.returncode == 0, forced.stderr
    expected, _ = reference(run_alg, tmp_path, data["vrt"], data["other"])
    np.testing.assert_array_equal(mosaic(out)[0], expected)
    assert not np.array_equal(expected, first)


@pytest.mark.parametrize("keep_mtime", [False, True], ids=["mtime-advanced", "mtime-kept"])
def test_a_rewritten_source_tile_of_the_vrt_is_refused_on_resume_without_force(
    cluster, data, run_alg, tmp_path, flair_data, keep_mtime
):
    """Resume refuses (exit 2, one line naming the file) when one GeoTIFF behind the VRT was
    rewritten in place since the run started, same size, time kept or advanced; --force recomputes."""
    from mosaic_helpers import flair_mosaic, rewrite_in_place

    vrt, pieces = flair_mosaic(flair_data, tmp_path / "mosaic")
    out = tmp_path / "run"
    common = ["--input", str(vrt), "--model", str(data["model"]), "--output-dir", str(out), *TILING]
    common += ["--scheduler", cluster.address]
    assert run_cli(*common).returncode == 0
    first, _ = mosaic(out)
    before = chunk_mtimes(out)
    assert manifest(out)["identity"]["input"]["files"].keys() >= {str(p) for p in pieces.values()}
    changed = pieces[(0, 1)]
    rewrite_in_place(changed, keep_mtime)
    refused = run_cli(*common)
    assert refused.returncode == 2
    lines = refused.stderr.strip().splitlines()
    assert len(lines) == 1 and str(changed) in lines[0] and "--force" in lines[0], refused.stderr
    assert chunk_mtimes(out) == before
    forced = run_cli(*common, "--force")
    assert forced.returncode == 0, forced.stderr
    expected, _ = reference(run_alg, tmp_path, vrt, data["model"])
    np.testing.assert_array_equal(mosaic(out)[0], expected)
    assert not np.array_equal(expected, first)
    assert run_cli(*common).returncode == 0  # the new stamps are the run's now: a plain resume


def test_chunk_on_bad_data_is_reported_and_others_finish(cluster, data, tmp_path):
    broken = tiled_vrt(tmp_path / "tiles", data["image"])
    (tmp_path / "tiles" / "tile_3_3.tif").write_bytes(b"not a GeoTIFF any more")
    out = tmp_path / "run"
    done = run_segment_cli(
        str(broken),
        str(data["model"]),
        str(out),
        *TILING,
        "--scheduler",
        cluster.address,
    )
    assert done.returncode == 1, done.stderr
    chunks = manifest(out)["chunks"]
    failed = {name for name, c in chunks.items() if c["state"] == "failed"}
    assert failed and "r0002_c0002" in failed
    assert all(chunks[name]["error"] for name in failed)
    assert {c["state"] for name, c in chunks.items() if name not in failed} == {"done"}
    assert "r0000_c0000" not in failed
    assert not (out / "classes.vrt").exists()
    assert "no mosaic written" in done.stderr


def test_worker_killed_mid_run_gives_the_same_result(data, run_alg, tmp_path):
    image = random_image(576, 576, 5, seed=5)
    vrt = tiled_vrt(tmp_path / "tiles", image)
    model = conv_stack_model(tmp_path / "stack.onnx", 5, 4, width=24, layers=3, metadata=META)
    procs = DaskProcesses(tmp_path / "dask")
    out = tmp_path / "run"
    try:
        procs.start_scheduler()
        procs.start_worker("w1")
        procs.start_worker("w2")
        addresses = procs.wait_for_workers(2)
        cli = subprocess.Popen(
            cli_command(
                "--input",
                str(vrt),
                "--model",
                str(model),
                "--output-dir",
                str(out),
                "--tile-size",
                "64",
                "--overlap",
                "16",
                "--chunk-tiles",
                "1",
                "--scheduler",
                procs.address,
            ),
            cwd=REPO,
            env={**os.environ, "PYTHONPATH": str(REPO)},
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        killed_while_running = False
        deadline = time.monotonic() + 240
        while cli.poll() is None and time.monotonic() < deadline:
            # A few chunks finished: both workers are busy and hold queued chunks.
            if len(list((out / "chunks").glob("r*.tif"))) >= 4:
                procs.kill("w2")
                killed_while_running = cli.poll() is None
                break
            time.sleep(0.02)
        log, _ = cli.communicate(timeout=240)
    finally:
        procs.close()
    assert killed_while_running, "the run ended before a worker could be killed: make it longer"
    assert cli.returncode == 0, log
    chunks = manifest(out)["chunks"].values()
    assert {c["state"] for c in chunks} == {"done"}
    finished_after = [c for c in chunks if c["worker"] == addresses["w1"]]
    assert len(finished_after) > len(chunks) / 2  # w1 took over what w2 had queued
    expected, _ = reference(run_alg, tmp_path, vrt, model)
    np.testing.assert_array_equal(mosaic(out)[0], expected)


def test_processing_scheduler_runs_the_distributed_engine(cluster, data, run_alg, tmp_path):
    from conftest import RecordingFeedback

    expected, _ = reference(run_alg, tmp_path, data["vrt"], data["model"])
    params = {"INPUT": str(data["vrt"]), "MODEL": str(data["model"]), "TILE_SIZE": 64, "OVERLAP": 16}
    feedback = RecordingFeedback()
    remote = run_alg(
        "flair:segment", {**params, "SCHEDULER": cluster.address, "OUTPUT": str(tmp_path / "remote.tif")}, feedback
    )
    assert remote["OUTPUT"] == str(tmp_path / "remote" / "classes.vrt")
    assert remote["PROVIDER"] == "CPUExecutionProvider" and remote["TILES"] == 72
    np.testing.assert_array_equal(mosaic(tmp_path / "remote")[0], expected)
    assert any("2 Dask worker(s) ready" in info for info in feedback.infos)
    local = run_alg("flair:segment", {**params, "SCHEDULER": "local:2", "OUTPUT": str(tmp_path / "local.tif")})
    assert local["OUTPUT"] == str(tmp_path / "local" / "classes.vrt")
    np.testing.assert_array_equal(mosaic(tmp_path / "local")[0], expected)
    assert len(manifest(tmp_path / "local")["workers"]) <= 2
    again = run_alg("flair:segment", {**params, "SCHEDULER": cluster.address, "OUTPUT": str(tmp_path / "remote.tif")})
    assert again["TILES"] == 0  # resumed: every chunk was done
    from qgis.core import QgsRasterLayer

    layer = QgsRasterLayer(remote["OUTPUT"], "classes")
    assert layer.isValid() and layer.width() == 400 and layer.height() == 384


def test_processing_scheduler_cancel_keeps_finished_chunks(cluster, data, run_alg, tmp_path):
    from conftest import RecordingFeedback
    from qgis.core import QgsProcessingException

    image = write_raster(tmp_path / "big.tif", random_image(1200, 1200, 5, seed=9))  # 16 chunks of 8x8 tiles
    feedback = RecordingFeedback()
    feedback.progressChanged.connect(lambda percent: percent > 0 and feedback.cancel())
    params = {"INPUT": str(image), "MODEL": str(data["model"]), "TILE_SIZE": 64, "OVERLAP": 16}
    with pytest.raises(QgsProcessingException, match="Canceled"):
        run_alg("flair:segment", {**params, "SCHEDULER": cluster.address, "OUTPUT": str(tmp_path / "c.tif")}, feedback)
    assert not (tmp_path / "c" / "classes.vrt").exists()
    states = [c["state"] for c in manifest(tmp_path / "c")["chunks"].values()]
    assert "done" in states and "pending" in states
    # Chunks running at the cancel finish on their workers; resuming with the same OUTPUT completes the run.
    resumed = run_alg("flair:segment", {**params, "SCHEDULER": cluster.address, "OUTPUT": str(tmp_path / "c.tif")})
    assert 0 < resumed["TILES"] < 625
    expected, _ = reference(run_alg, tmp_path, image, data["model"])
    np.testing.assert_array_equal(mosaic(tmp_path / "c")[0], expected)


@pytest.mark.parametrize(
    ("scheduler", "message"),
    [
        ("nowhere", "SCHEDULER must be empty, local:N or an address"),
        ("local:zero", "local:N needs a number"),
        ("local:2 + CACHE", "CACHE is not used by distributed runs"),
    ],
)
def test_processing_bad_scheduler(data, run_alg, tmp_path, scheduler, message):
    from qgis.core import QgsProcessingException

    params = {"INPUT": str(data["vrt"]), "MODEL": str(data["model"]), "SCHEDULER": scheduler.split(" + ")[0]}
    if "CACHE" in scheduler:
        params["CACHE"] = str(tmp_path / "cache")
    with pytest.raises(QgsProcessingException, match=message):
        run_alg("flair:segment", {**params, "OUTPUT": str(tmp_path / "x.tif")})
    assert not (tmp_path / "x").exists()


def test_processing_scheduler_without_dask_says_what_to_install(data, run_alg, tmp_path, monkeypatch):
    from qgis.core import QgsProcessingException

    monkeypatch.setitem(sys.modules, "distributed", None)  # as in a QGIS whose Python lacks it
    params = {"INPUT": str(data["vrt"]), "MODEL": str(data["model"]), "SCHEDULER": "local:2"}
    with pytest.raises(QgsProcessingException, match=r"pip install 'dask\[distributed\]'"):
        run_alg("flair:segment", {**params, "OUTPUT": str(tmp_path / "x.tif")})
    plain = run_alg("flair:segment", {**params, "SCHEDULER": "", "OUTPUT": str(tmp_path / "y.tif")})
    assert plain["OUTPUT"] == str(tmp_path / "y.tif")


def test_cuda_runs_only_on_workers_declaring_a_gpu(data, tmp_path):
    procs = DaskProcesses(tmp_path / "dask")
    out = tmp_path / "run"
    try:
        procs.start_scheduler()
        procs.start_worker("gpu0", extra=["--resources", "GPU=1"])
        procs.start_worker("cpu")
        addresses = procs.wait_for_workers(2)
        done = run_segment_cli(
            data["vrt"], data["model"], out, *TILING, "--device", "cuda", "--scheduler", procs.address
        )
    finally:
        procs.close()
    assert done.returncode == 0, done.stderr
    assert {c["worker"] for c in manifest(out)["chunks"].values()} == {addresses["gpu0"]}
    import onnxruntime

    if "CUDAExecutionProvider" not in onnxruntime.get_available_providers():
        assert "warning: CUDA was asked for but" in done.stderr
