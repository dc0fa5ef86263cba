"""What scripts/gpu-check.sh checks on a machine with NVIDIA GPUs (no QGIS needed).

1. The driver lists the GPUs (``list_gpus``: the dock's "CUDA — <name>").
2. CUDA's libraries load (``prepare_cuda``) and a session of the demo model runs on
   ``CUDAExecutionProvider`` with no warning.
3. ``flair segment --gpus all`` starts one Dask worker per GPU, each reporting the GPU it is pinned
   to (``CUDA_VISIBLE_DEVICES``), and every chunk runs on CUDA.
4. In each worker process, a CUDA session sees exactly one GPU, device 0 of its own view.
5. ``--gpus`` naming a GPU the machine does not have is a one-line refusal (exit 2).

Prints one ``PASS``/``FAIL`` line per check and a JSON report (to ``$OUT/gpu-check.json`` when
``$OUT`` is set); exits 1 when a check failed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
MODEL = REPO / "resources" / "models" / "flair-demo-unet.onnx"
IMAGE = REPO / "tests" / "data" / "flair" / "IMG_000473.tif"
RESULTS: dict[str, dict] = {}


def check(name: str, ok: bool, **facts) -> None:
    RESULTS[name] = {"ok": bool(ok), **facts}
    print(f"{'PASS' if ok else 'FAIL'} {name}: {json.dumps(facts, default=str)[:600]}", flush=True)


def worker_view() -> dict:
    """Run in each worker process: its CUDA_VISIBLE_DEVICES and what a CUDA session there uses."""
    import numpy as np

    from flair_qgis.core.engine.sessions import create_session

    session, info = create_session(str(MODEL), "cuda", 1)
    spec = session.get_inputs()[0]  # (batch, bands, rows, cols), the sizes free but for the bands
    shape = [1, spec.shape[1] if isinstance(spec.shape[1], int) else 5, 256, 256]
    feed = {spec.name: np.zeros(shape, np.float32)}
    session.run(None, feed)
    options = session.get_provider_options().get("CUDAExecutionProvider", {})
    try:  # the worker's own pid among the GPU's processes (not in every container's pid namespace)
        apps = subprocess.run(["nvidia-smi", "--query-compute-apps=pid,used_memory", "--format=csv,noheader"],
                              capture_output=True, text=True, timeout=10, check=False).stdout  # fmt: skip
    except OSError as err:
        apps = f"nvidia-smi: {err}"
    return {"pid": os.getpid(), "cuda_visible_devices": os.environ.get("CUDA_VISIBLE_DEVICES"),
            "provider": info.provider, "warning": info.warning, "device_id": options.get("device_id"),
            "gpu_apps": apps.strip().splitlines()}  # fmt: skip


def check_session() -> None:
    from flair_qgis.core.cuda import failure_reason, list_gpus, prepare_cuda
    from flair_qgis.core.engine.sessions import create_session

    gpus = list_gpus()
    check("driver lists the GPUs", bool(gpus), gpus=[f"{g.index}: {g.name}" for g in gpus])
    cuda = prepare_cuda()
    check("CUDA libraries load", not cuda.missing, reason=failure_reason(cuda), loaded=cuda.loaded,
          driver_cuda=cuda.driver_cuda, built_cuda=cuda.built_cuda)  # fmt: skip
    started = time.perf_counter()
    _session, info = create_session(str(MODEL), "cuda")
    check("demo model session on CUDA", info.provider == "CUDAExecutionProvider" and not info.warning,
          provider=info.provider, warning=info.warning, seconds=round(time.perf_counter() - started, 2))  # fmt: skip


def check_cli(out_dir: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    base = [sys.executable, "-m", "flair_qgis.cli", "segment", "--input", str(IMAGE), "--model", str(MODEL),
            "--output-dir", str(out_dir), "--tile-size", "256", "--overlap", "32", "--chunk-tiles", "1"]  # fmt: skip
    done = subprocess.run([*base, "--gpus", "all"], capture_output=True, text=True, env=env, timeout=400, check=False)
    pinned = [line for line in done.stderr.splitlines() if " uses GPU " in line]
    run = json.loads((out_dir / "run.json").read_text()) if (out_dir / "run.json").exists() else {}
    providers = sorted({w.get("provider") for w in run.get("workers", {}).values()})
    check("flair segment --gpus all: one pinned worker per GPU, chunks on CUDA",
          done.returncode == 0 and len(pinned) == len(RESULTS["driver lists the GPUs"]["gpus"])
          and "CUDA was asked for" not in done.stderr and providers == ["CUDAExecutionProvider"],
          exit=done.returncode, pinned=pinned, providers=providers, stderr_tail=done.stderr[-1500:])  # fmt: skip
    missing = str(len(RESULTS["driver lists the GPUs"]["gpus"]) + 7)
    refused = subprocess.run([*base, "--gpus", missing], capture_output=True, text=True, env=env, timeout=120,
                             check=False)  # fmt: skip
    lines = refused.stderr.strip().splitlines()
    check(f"--gpus {missing} refused in one line", refused.returncode == 2 and len(lines) == 1, stderr=lines)


def check_workers() -> None:
    from flair_qgis.scale.cluster import available_gpus, open_client, ship_by_value

    gpus = available_gpus()
    ship_by_value()
    with open_client(None, None, gpus=gpus) as client:
        views = client.run(worker_view)
    by_gpu = sorted((v["cuda_visible_devices"], v["provider"], str(v["device_id"])) for v in views.values())
    check("each worker sees its own GPU as device 0 and runs CUDA",
          by_gpu == [(g, "CUDAExecutionProvider", "0") for g in sorted(gpus)], views=views)  # fmt: skip


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="gpu-check-") as tmp:
        for step in (check_session, lambda: check_cli(Path(tmp) / "run"), check_workers):
            try:
                step()
            except Exception as err:  # a check that crashes is a failed check, reported with the others
                check(getattr(step, "__name__", "step"), False, error=f"{type(err).__name__}: {err}")
    out = os.environ.get("OUT")
    if out:
        Path(out, "gpu-check.json").write_text(json.dumps(RESULTS, indent=2, default=str))
    failed = [name for name, result in RESULTS.items() if not result["ok"]]
    print(f"gpu-check: {len(RESULTS) - len(failed)}/{len(RESULTS)} passed" + (f"; failed: {failed}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
