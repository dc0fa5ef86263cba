"""A PyTorch file given as MODEL on the command line gets the dock's message, not QGIS's generic one.

Through ``processing.run`` and through ``scripts/qgis-process``: exit status not 0, the message
says to convert with scripts/export-onnx, no traceback, no output file, and the file is never
unpickled (the pickles here would create a marker file if they were).
"""

from __future__ import annotations

import os
import pickle
import subprocess
from pathlib import Path

import pytest
from conftest import REPO
from qgis.core import QgsProcessingException
from rasters import random_image, write_raster

from flair_qgis.core.engine.model import read_model_info
from flair_qgis.core.errors import ModelError
from flair_qgis.processing.base import model_file_error

PYTORCH_NAMES = ["model.pt", "model.pth", "epoch=3.ckpt", "weights.pkl", "model.safetensors", "MODEL.PT"]


class _Marker:
    """Unpickling this creates a file: the proof that a pickle was loaded."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self):
        return (open, (str(self.path), "w"))


@pytest.fixture
def marker(tmp_path) -> Path:
    return tmp_path / "unpickled.txt"


def _pytorch_file(folder: Path, name: str, marker: Path) -> Path:
    path = folder / name
    path.write_bytes(pickle.dumps(_Marker(marker)))
    return path


def _expected(name: str) -> str:
    return f"{name} is a PyTorch/pickle file, not ONNX. Convert it with scripts/export-onnx"


def test_message_is_the_docks(tmp_path, marker):
    """The dock reads models with core.engine.model.read_model_info: the CLI says the same."""
    pickled = _pytorch_file(tmp_path, "model.pt", marker)
    with pytest.raises(ModelError) as err:
        read_model_info(pickled)
    assert model_file_error(str(pickled)) == str(err.value)
    assert not marker.exists()


@pytest.mark.parametrize("name", PYTORCH_NAMES)
def test_pytorch_names(name):
    assert model_file_error(f"/m/{name}").startswith(_expected(name))


@pytest.mark.parametrize("path", ["", "/m/model.onnx", "/m/MODEL.ONNX"])
def test_onnx_names_pass(path):
    assert model_file_error(path) is None


def test_other_extension_says_onnx():
    assert model_file_error("/m/model.tflite") == "MODEL must be an ONNX model (.onnx); model.tflite is not one."


@pytest.mark.parametrize("name", ["model.pt", "weights.safetensors"])
def test_segment_refuses_pytorch_model(run_alg, tmp_path, marker, name):
    image = write_raster(tmp_path / "img.tif", random_image(32, 32))
    model = _pytorch_file(tmp_path, name, marker)
    out = tmp_path / "classes.tif"
    with pytest.raises(QgsProcessingException, match=_expected(name)):
        run_alg("flair:segment", {"INPUT": str(image), "MODEL": str(model), "OUTPUT": str(out)})
    assert not out.exists() and not marker.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["img.tif", name])


def test_benchmark_refuses_pytorch_model(run_alg, tmp_path, marker):
    dataset = tmp_path / "dataset"
    dataset.mkdir()
    model = _pytorch_file(tmp_path, "model.pth", marker)
    report = tmp_path / "report.json"
    with pytest.raises(QgsProcessingException, match=_expected("model.pth")):
        run_alg("flair:benchmark", {"DATASET": str(dataset), "MODEL": str(model), "OUTPUT_REPORT": str(report)})
    assert not report.exists() and not marker.exists()


@pytest.mark.slow
@pytest.mark.parametrize("algorithm", ["flair:segment", "flair:benchmark"])
def test_qgis_process_refuses_pytorch_model(tmp_path, marker, algorithm):
    image = write_raster(tmp_path / "img.tif", random_image(32, 32))
    model = _pytorch_file(tmp_path, "model.pt", marker)
    if algorithm == "flair:segment":
        outputs = {"OUTPUT": tmp_path / "classes.tif"}
        arguments = [f"INPUT={image}", f"MODEL={model}", f"OUTPUT={outputs['OUTPUT']}"]
    else:
        outputs = {"OUTPUT_REPORT": tmp_path / "report.json"}
        arguments = [f"DATASET={tmp_path}", f"MODEL={model}", f"OUTPUT_REPORT={outputs['OUTPUT_REPORT']}"]
    env = dict(os.environ, QGIS_CUSTOM_CONFIG_PATH=str(tmp_path / "profile"))
    done = subprocess.run(
        [str(REPO / "scripts" / "qgis-process"), "run", algorithm, "--", *arguments],
        capture_output=True, text=True, env=env, timeout=300, check=False,
    )  # fmt: skip
    text = done.stdout + done.stderr
    assert done.returncode != 0, text
    assert _expected("model.pt") in text, text
    assert "Incorrect parameter value for MODEL" not in text
    assert "Traceback" not in text
    assert not any(path.exists() for path in outputs.values()) and not marker.exists()
