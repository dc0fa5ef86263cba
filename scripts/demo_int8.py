"""The demo model in INT8: quantised on its training patches, scored on its held-out patches.

Shared by ``make demo`` (scripts/demo.py prints INT8's mIoU beside FP32's) and ``make bench``
(bench/bench_quantize.py). Everything goes through the Processing algorithms: ``flair:quantize``
calibrated on the six training patches the model's metadata names, then ``flair:segment`` and
``flair:evaluate`` (FLAIR #1 protocol, one confusion matrix summed over the patches).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from headless import REPO

DATA = REPO / "tests" / "data" / "flair"


def _copy(patch: str, kind: str, folder: Path) -> Path:
    """A copy of a patch file (QGIS writes .aux.xml statistics beside the rasters it opens)."""
    folder.mkdir(parents=True, exist_ok=True)
    return Path(shutil.copy(DATA / f"{kind}_{patch}.tif", folder))


def quantize_demo(model: Path, out: Path, feedback=None, seed: int = 0) -> dict:
    """``flair:quantize`` of the demo model calibrated on every training patch (no tile held out:
    the held-out patches are the test)."""
    import processing
    from qgis.core import QgsRasterLayer

    from flair_qgis.core.engine.model import read_model_info

    patches = json.loads(read_model_info(model).metadata.get("training_patches", "[]"))
    layers = [QgsRasterLayer(str(_copy(p, "IMG", out / "calibration")), f"IMG_{p}") for p in patches]
    params = {"MODEL": str(model), "CALIBRATION": layers, "CALIBRATION_TILES": 32, "VALIDATION_TILES": 0,
              "SEED": seed, "OUTPUT": str(out / f"{model.stem}-int8.onnx")}  # fmt: skip
    return processing.run("flair:quantize", params, feedback=feedback)


def score_held_out(model: Path, patches: list[str], out: Path, feedback=None) -> tuple[dict, list[Path]]:
    """FLAIR #1 report of ``model`` over the patches (one confusion matrix), and its class maps."""
    import processing
    import rasterio

    from flair_qgis.core.score.metrics import ConfusionMatrix, build_report
    from flair_qgis.core.score.protocols import get_protocol

    total = ConfusionMatrix()
    maps = []
    for patch in patches:
        image, mask = _copy(patch, "IMG", out / "inputs"), _copy(patch, "MSK", out / "inputs")
        seg = processing.run(
            "flair:segment",
            {"INPUT": str(image), "MODEL": str(model), "OUTPUT": str(out / f"CLASSES_{patch}.tif"), "DEVICE": "cpu"},
            feedback=feedback,
        )
        processing.run(
            "flair:evaluate",
            {"PREDICTION": seg["OUTPUT"], "REFERENCE": str(mask), "PROTOCOL": "flair1",
             "OUTPUT_REPORT": str(out / f"report_{patch}.json")},
            feedback=feedback,
        )  # fmt: skip
        with rasterio.open(seg["OUTPUT"]) as p, rasterio.open(mask) as m:
            total.update(m.read(1), p.read(1))
        maps.append(Path(seg["OUTPUT"]))
    return build_report(total, get_protocol("flair1")), maps


def agreement(maps_a: list[Path], maps_b: list[Path]) -> float:
    """Share of pixels where two sets of class maps give the same class."""
    import numpy as np
    import rasterio

    same = total = 0
    for a, b in zip(maps_a, maps_b):
        with rasterio.open(a) as ra, rasterio.open(b) as rb:
            x, y = ra.read(1), rb.read(1)
        same += int(np.sum(x == y))
        total += x.size
    return same / total
