"""Real Dask processes and inputs for the distributed-run tests and benchmark.

A :class:`DaskProcesses` starts ``.venv/bin/dask scheduler`` and ``dask worker`` processes on
127.0.0.1 (random ports, written to a scheduler file) and kills every one of them on close, even
when a test fails. :func:`run_cli` runs ``python -m flair_qgis.cli`` as a user would.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import numpy as np
import onnx
from onnx import helper, numpy_helper
from rasters import write_raster
from toy_models import OPSET, _io, save

REPO = Path(__file__).resolve().parents[1]
VENV_BIN = Path(sys.executable).parent
DASK = VENV_BIN / "dask"


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class DaskProcesses:
    """A scheduler and workers as separate processes, like a user starts them by hand."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.procs: list[subprocess.Popen] = []
        self.workers: dict[str, subprocess.Popen] = {}
        self.address = ""

    def start_scheduler(self, timeout_s: float = 60.0) -> str:
        scheduler_file = self.folder / "scheduler.json"
        proc = self._popen(
            [
                str(DASK),
                "scheduler",
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--no-dashboard",
                "--scheduler-file",
                str(scheduler_file),
            ],
            "scheduler",
        )
        deadline = time.monotonic() + timeout_s
        while not scheduler_file.exists() or not scheduler_file.read_text().strip():
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"dask scheduler did not start: {self._log('scheduler')}")
            time.sleep(0.1)
        self.address = json.loads(scheduler_file.read_text())["address"]
        return self.address

    def start_worker(
        self, name: str, env: Mapping[str, str] | None = None, nthreads: int = 1, extra: Sequence[str] = ()
    ) -> subprocess.Popen:
        """A worker without nanny (killing it kills it), with the repository on PYTHONPATH by default."""
        cwd = self.folder / name
        cwd.mkdir(exist_ok=True)
        environment = {**os.environ, "PYTHONPATH": str(REPO), **(env or {})}
        proc = self._popen(
            [
                str(DASK),
                "worker",
                self.address,
                "--name",
                name,
                "--nthreads",
                str(nthreads),
                "--no-nanny",
                "--no-dashboard",
                "--local-directory",
                str(cwd),
                *extra,
            ],
            name,
            env=environment,
            cwd=cwd,
        )
        self.workers[name] = proc
        return proc

    def wait_for_workers(self, count: int, timeout_s: float = 90.0) -> dict[str, str]:
        """Worker name -> address once ``count`` workers are connected."""
        from distributed import Client

        with Client(self.address, timeout=30) as client:
            client.wait_for_workers(count, timeout=timeout_s)
            return {w["name"]: addr for addr, w in client.scheduler_info(n_workers=-1)["workers"].items()}

    def kill(self, name: str) -> None:
        proc = self.workers[name]
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)

    def close(self) -> None:
        for proc in reversed(self.procs):
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)

    def _popen(self, cmd: Sequence[str], name: str, **kwargs) -> subprocess.Popen:
        log = open(self.folder / f"{name}.log", "wb")
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, **kwargs)
        log.close()
        self.procs.append(proc)
        return proc

    def _log(self, name: str) -> str:
        path = self.folder / f"{name}.log"
        return path.read_text(errors="replace")[-2000:] if path.exists() else ""


@contextlib.contextmanager
def running_cluster(folder: Path, workers: Sequence[str] = ("w1", "w2")) -> Iterator[DaskProcesses]:
    """A scheduler and named workers, all connected; ``.addresses`` maps worker name -> address."""
    procs = DaskProcesses(folder)
    try:
        procs.start_scheduler()
        for name in workers:
            procs.start_worker(name)
        procs.addresses = procs.wait_for_workers(len(workers))  # type: ignore[attr-defined]
        yield procs
    finally:
        procs.close()


def cli_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "flair_qgis.cli", "segment", *args]


def run_cli(*args: str, timeout_s: float = 300.0) -> subprocess.CompletedProcess:
    """``python -m flair_qgis.cli segment ARGS`` from the repository, output captured."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        cli_command(*args), cwd=REPO, env=env, capture_output=True, text=True, timeout=timeout_s, check=False
    )


def run_segment_cli(image: object, model: object, out: object, *args: str, timeout_s: float = 300.0):
    """``segment --input IMAGE --model MODEL --output-dir OUT ARGS`` through :func:`run_cli`."""
    return run_cli("--input", str(image), "--model", str(model), "--output-dir", str(out), *args, timeout_s=timeout_s)


def tiled_vrt(folder: Path, image: np.ndarray, pieces: int = 4, res: float = 0.2) -> Path:
    """``image`` cut into ``pieces`` x ``pieces`` GeoTIFFs and a VRT over them (like ortho deliveries)."""
    from osgeo import gdal

    folder.mkdir(parents=True, exist_ok=True)
    _, rows, cols = image.shape
    step_r, step_c = rows // pieces, cols // pieces
    files = []
    for i in range(pieces):
        for j in range(pieces):
            r1 = rows if i == pieces - 1 else (i + 1) * step_r
            c1 = cols if j == pieces - 1 else (j + 1) * step_c
            origin = (600000.0 + j * step_c * res, 6800000.0 - i * step_r * res)
            path = folder / f"tile_{i}_{j}.tif"
            write_raster(path, np.ascontiguousarray(image[:, i * step_r : r1, j * step_c : c1]), res=res, origin=origin)
            files.append(str(path))
    vrt = folder / "mosaic.vrt"
    gdal.BuildVRT(str(vrt), files).FlushCache()
    return vrt


def conv_stack_model(
    path: Path,
    channels: int,
    classes: int,
    width: int,
    layers: int,
    seed: int = 0,
    metadata: Mapping[str, object] | None = None,
) -> Path:
    """``layers`` 3x3 convolutions of ``width`` channels with ReLU, then a 1x1 to ``classes``.

    A model of tunable cost: a stand-in for a real network's arithmetic (receptive field radius
    ``layers``).
    """
    rng = np.random.default_rng(seed)
    nodes, inits = [], []
    previous, in_c = "x", channels
    for k in range(layers):
        w = rng.normal(scale=1.0 / np.sqrt(9 * in_c), size=(width, in_c, 3, 3)).astype(np.float32)
        inits.append(numpy_helper.from_array(w, f"w{k}"))
        nodes.append(helper.make_node("Conv", [previous, f"w{k}"], [f"c{k}"], pads=[1, 1, 1, 1]))
        nodes.append(helper.make_node("Relu", [f"c{k}"], [f"r{k}"]))
        previous, in_c = f"r{k}", width
    head = rng.normal(size=(classes, in_c, 1, 1)).astype(np.float32)
    inits.append(numpy_helper.from_array(head, "head"))
    nodes.append(helper.make_node("Conv", [previous, "head"], ["scores"]))
    graph = helper.make_graph(nodes, "conv_stack", [_io("x", channels, None)], [_io("scores", classes, None)], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
    return save(model, path, metadata)


def manifest(output_dir: Path) -> dict:
    return json.loads((output_dir / "run.json").read_text())


__all__ = [
    "DaskProcesses",
    "conv_stack_model",
    "free_port",
    "manifest",
    "onnx",
    "run_cli",
    "running_cluster",
    "tiled_vrt",
]
