"""``scripts/flair segment --gpus``: one local Dask worker per GPU, each pinned with CUDA_VISIBLE_DEVICES.

This machine has no GPU: the CLI runs take the GPU list from ``FLAIR_GPUS_FOR_TESTS`` (read by
:func:`flair_qgis.scale.cluster.available_gpus` in place of the driver's list) and run on CPU
workers; the driver's list itself is read from a real ``nvidia-smi`` executable put on ``PATH``.
Each worker process's ``CUDA_VISIBLE_DEVICES`` is read back with a real Dask call.
"""

from __future__ import annotations

import os
import stat

import pytest
from rasters import random_image, write_raster
from scale_helpers import manifest, run_segment_cli
from toy_models import box3x3_model

from flair_qgis.core.cuda import Gpu, list_gpus, parse_gpu_query
from flair_qgis.core.errors import InputError
from flair_qgis.scale.cluster import GPUS_FOR_TESTS, available_gpus, open_client, parse_gpus, pinned_gpus

META = {"mean": [0] * 5, "std": [1] * 5}
TILING = ["--tile-size", "64", "--overlap", "16", "--chunk-tiles", "2"]
pytestmark = pytest.mark.slow


@pytest.fixture
def data(tmp_path):
    image = write_raster(tmp_path / "in.tif", random_image(200, 200, 5, seed=4))
    model, _ = box3x3_model(tmp_path / "box.onnx", 5, 4, metadata=META)
    return image, model


def test_each_worker_process_sees_its_own_gpu():
    with open_client(None, None, gpus=["0", "1"]) as client:
        seen = client.run(lambda: os.environ.get("CUDA_VISIBLE_DEVICES"))
        workers = client.scheduler_info(n_workers=-1)["workers"].values()
        from flair_qgis.scale.cluster import check_workers

        lines = pinned_gpus(check_workers(client), ["0", "1"])
    assert sorted(seen.values()) == ["0", "1"]
    assert {w["name"]: w["resources"] for w in workers} == {"gpu0": {"GPU": 1}, "gpu1": {"GPU": 1}}
    assert sorted(line.split(" uses ")[1] for line in lines) == ["GPU 0 (CUDA_VISIBLE_DEVICES=0)",
                                                                 "GPU 1 (CUDA_VISIBLE_DEVICES=1)"]  # fmt: skip


def test_workers_not_pinned_are_refused():
    with pytest.raises(InputError, match="not pinned one per GPU"):
        pinned_gpus({"tcp://a": {"gpu": "0"}, "tcp://b": {"gpu": "0"}}, ["0", "1"])
    with pytest.raises(InputError, match="not pinned one per GPU"):
        pinned_gpus({"tcp://a": {"gpu": None}}, ["0"])


def test_gpus_all_runs_one_pinned_worker_per_gpu_and_resumes(data, tmp_path, monkeypatch):
    image, model = data
    out = tmp_path / "run"
    monkeypatch.setenv(GPUS_FOR_TESTS, "0,1")
    done = run_segment_cli(image, model, out, *TILING, "--gpus", "all")
    assert done.returncode == 0, done.stderr
    assert "flair: 2 worker(s) ready" in done.stderr
    pinned = sorted(line.split(" uses ")[1] for line in done.stderr.splitlines() if " uses GPU " in line)
    assert pinned == ["GPU 0 (CUDA_VISIBLE_DEVICES=0)", "GPU 1 (CUDA_VISIBLE_DEVICES=1)"]
    assert (out / "classes.vrt").exists()
    import onnxruntime

    if "CUDAExecutionProvider" not in onnxruntime.get_available_providers():  # --device auto became cuda
        assert "warning: CUDA was asked for but" in done.stderr
    first = manifest(out)["chunks"]
    again = run_segment_cli(image, model, out, *TILING, "--gpus", "0,1")
    assert again.returncode == 0, again.stderr
    assert f"0 chunk(s) computed, {len(first)} already done" in again.stderr
    assert manifest(out)["chunks"] == first


@pytest.mark.parametrize(
    ("given", "gpus", "message"),
    [
        ("", "all", "error: --gpus needs an NVIDIA GPU, and nvidia-smi lists none on this machine"),
        ("0,1", "2", "error: --gpus must be 'all' or distinct GPU indices among 0,1"),
        ("0", "0,0", "error: --gpus must be 'all' or distinct GPU indices among 0"),
    ],
)
def test_gpus_refused_in_one_line(data, tmp_path, monkeypatch, given, gpus, message):
    image, model = data
    monkeypatch.setenv(GPUS_FOR_TESTS, given)
    done = run_segment_cli(image, model, tmp_path / "run", *TILING, "--gpus", gpus)
    assert done.returncode == 2
    assert done.stderr.startswith(message) and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert not (tmp_path / "run").exists()


def test_gpus_with_device_cpu_is_refused(data, tmp_path, monkeypatch):
    image, model = data
    monkeypatch.setenv(GPUS_FOR_TESTS, "0")
    done = run_segment_cli(image, model, tmp_path / "run", "--gpus", "0", "--device", "cpu")
    assert done.returncode == 2 and "drop --device cpu" in done.stderr


def test_the_driver_lists_the_gpus(tmp_path, monkeypatch):
    """The production path: a real ``nvidia-smi`` on PATH (a script answering as the driver does)."""
    smi = tmp_path / "bin" / "nvidia-smi"
    smi.parent.mkdir()
    smi.write_text(
        '#!/bin/sh\n[ "$1" = --query-gpu=index,name ] || exit 4\nprintf "0, NVIDIA H200\\n1, NVIDIA H200\\n"\n'
    )
    smi.chmod(smi.stat().st_mode | stat.S_IXUSR)
    monkeypatch.delenv(GPUS_FOR_TESTS, raising=False)
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES", raising=False)
    monkeypatch.setenv("PATH", f"{smi.parent}:/usr/bin:/bin")
    list_gpus.cache_clear()
    try:
        assert list_gpus() == (Gpu("0", "NVIDIA H200"), Gpu("1", "NVIDIA H200"))
        assert available_gpus() == ["0", "1"]
        monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "1")  # this process was given GPU 1 only
        assert available_gpus() == ["1"]
        assert parse_gpus("all", available_gpus()) == ["1"]
        monkeypatch.setenv("PATH", "/usr/bin:/bin")
        list_gpus.cache_clear()
        assert list_gpus() == () and available_gpus() == []
    finally:
        list_gpus.cache_clear()
    assert parse_gpu_query("No devices were found\n") == ()
