"""What travels to the scheduler and the workers by value (cloudpickle), not by import.

Recent Dask schedulers unpickle the task graph: a task naming ``flair_qgis`` functions would
need the package on the scheduler too. Every chunk task therefore runs the small function
:func:`chunk_task` returns, shipped by value, on one plain JSON string (the entry's name, the job
with its request whole, the chunk: :func:`flair_qgis.scale.worker.task_payload`): the scheduler
sees a string and a function that imports nothing of ours until it runs on a worker, so a bare
``dask scheduler`` is enough. The worker reads the JSON (no code runs from it, unlike unpickling:
the plugin never unpickles) and runs the named entry. The probe runs on every worker before any
chunk and says what it lacks, even flair_qgis itself. Keep this module free of flair_qgis imports.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

NEEDED = ("numpy", "rasterio", "onnxruntime", "flair_qgis.scale.worker")


def probe_worker() -> dict[str, Any]:
    """``{missing: [...], python, pid, versions, gpu}`` of the process running it.

    ``gpu`` is the process's ``CUDA_VISIBLE_DEVICES`` (None when unset: it sees every GPU).
    """
    import importlib
    import os
    import sys

    missing = []
    versions = {}
    for name in NEEDED:
        try:
            module = importlib.import_module(name)
            versions[name] = getattr(module, "__version__", "")
        except Exception as err:  # any import failure is reported, not raised: the driver names the worker
            missing.append(f"{name} ({type(err).__name__}: {str(err)[:120]})")
    gpu = os.environ.get("CUDA_VISIBLE_DEVICES")
    return {"missing": missing, "python": sys.executable, "pid": os.getpid(), "versions": versions, "gpu": gpu}


class ChunkError(Exception):
    """A chunk failed on a worker; the text names the original error."""


def chunk_task() -> Callable[[str], object]:
    """The function every chunk task runs: import the worker module on the worker, run the task.

    It is a closure on purpose: pickle cannot reference it by name, so Dask falls back to
    cloudpickle, which ships it by value; the scheduler never imports flair_qgis.
    """

    def run_json_task(payload: str) -> object:
        import importlib

        worker = importlib.import_module("flair_qgis.scale.worker")
        try:
            return worker.run_task(payload)
        except Exception as err:  # every failure of a chunk is reported per chunk, not raised further
            raise ChunkError(f"{type(err).__name__}: {err}") from None

    return run_json_task
