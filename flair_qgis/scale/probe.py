"""A check run on every worker before any chunk: can it import what a chunk needs?

This module is shipped to workers by value (cloudpickle), so it runs even on a worker that
lacks flair_qgis itself, and says so. Keep it free of flair_qgis imports at module level.
"""

from __future__ import annotations

from typing import Any

NEEDED = ("numpy", "rasterio", "onnxruntime", "flair_qgis.scale.worker")


def probe_worker() -> dict[str, Any]:
    """``{missing: [...], python, pid, onnxruntime}`` of the process running it."""
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
    return {"missing": missing, "python": sys.executable, "pid": os.getpid(), "versions": versions}
