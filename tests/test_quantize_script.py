"""scripts/quantize.py (what scripts/export-onnx --quantize runs): the core of flair:quantize without QGIS."""

from __future__ import annotations

import subprocess
import sys

from conftest import FLAIR_DATA, REPO

DEMO = REPO / "resources" / "models" / "flair-demo-unet.onnx"
SCRIPT = REPO / "scripts" / "quantize.py"


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, check=False)


def test_script_writes_int8_model_and_reports_agreement(tmp_path):
    out = tmp_path / "demo-int8.onnx"
    images = [str(FLAIR_DATA / f"IMG_{p}.tif") for p in ("000473", "002115")]
    done = _run(str(DEMO), "-o", str(out), "--calibration", *images, "--calibration-tiles", "1",
                "--validation-tiles", "1")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert out.exists() and "agreement with FP32 on 1 held-out tile(s)" in done.stdout


def test_script_refusal_is_one_line_exit_2(tmp_path):
    done = _run(str(DEMO), "-o", str(DEMO), "--calibration", str(FLAIR_DATA / "IMG_000473.tif"))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "quantize: OUTPUT is the FP32 MODEL itself: choose another file for the INT8 model."
    ]
