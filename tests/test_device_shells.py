"""The dock, Processing and ``scripts/flair`` show the engine's device decision (decide_device), never their own.

CUDA is not available on the test machines, so each shell's view of "CUDA available" is switched
by replacing the ``cuda_available`` it calls; the decision itself stays the engine's.
"""

from __future__ import annotations

import pytest
from qgis.core import QgsProcessingContext, QgsProcessingException, QgsRasterLayer
from rasters import random_image, write_raster

from flair_qgis import cli
from flair_qgis.core.engine import CUDA, decide_device
from flair_qgis.core.errors import InputError
from flair_qgis.gui.segment import segment_panel
from flair_qgis.processing import segment_algorithm

CASES = [(device, cuda) for device in ("auto", "cuda", "cpu") for cuda in (True, False)]


@pytest.mark.parametrize(("device", "cuda"), CASES)
def test_the_dock_shows_the_engine_decision(device, cuda, plugin, monkeypatch):
    monkeypatch.setattr(segment_panel, "cuda_available", lambda: cuda)
    panel = plugin.dock.segment
    combo = panel.run_section.device_combo
    combo.setCurrentIndex(combo.findData(device))
    panel._on_device_changed()
    decision = decide_device(device, "fp32", cuda=cuda)
    assert panel.provider_label() == decision.provider
    missing = "CUDA is not available in this onnxruntime" in panel.run_section.device_warning.text()
    assert missing is decision.cuda_missing


@pytest.mark.parametrize(("device", "cuda"), CASES)
@pytest.mark.parametrize("gpus", [[], ["0"]])
def test_the_command_line_asks_for_the_engine_decision(device, cuda, gpus, monkeypatch):
    monkeypatch.setattr(cli, "cuda_available", lambda: cuda)
    assert cli.run_device(device, gpus) == decide_device(device, cuda=cuda, pinned_gpu=bool(gpus)).device
    assert cli.run_device("auto", ["0"]) == "cuda"
    assert cli.run_device("auto", []) == "auto"


@pytest.mark.parametrize(("device", "cuda"), CASES)
@pytest.mark.parametrize("precision", ["fp32", "fp16"])
def test_processing_segment_takes_the_engine_decision(device, cuda, precision, flair_provider, monkeypatch, tmp_path):
    monkeypatch.setattr(segment_algorithm, "cuda_available", lambda: cuda)
    algorithm = segment_algorithm.SegmentAlgorithm()
    algorithm.initAlgorithm()
    parameters = {"DEVICE": device, "PRECISION": precision, "OUTPUT": str(tmp_path / "out.tif")}
    image = write_raster(tmp_path / "in.tif", random_image(16, 16, bands=3), crs="EPSG:2154")
    layers = [QgsRasterLayer(str(image), "in")]
    decision = decide_device(device, precision, cuda=cuda)
    if decision.refusal is not None:
        with pytest.raises(InputError) as caught:
            algorithm._request(parameters, QgsProcessingContext(), layers)
        assert caught.value.key == decision.refusal.key == "fp16_cpu"
        return
    request = algorithm._request(parameters, QgsProcessingContext(), layers)
    assert (request.device, request.precision) == (decision.device, decision.precision)
    assert (decision.provider == CUDA) is (cuda and device != "cpu")


def test_processing_benchmark_refuses_an_unknown_device_in_its_own_words(run_alg, tmp_path):
    with pytest.raises(QgsProcessingException, match=r"DEVICE must be auto, cuda or cpu, got 'tpu'\."):
        run_alg(
            "flair:benchmark",
            {
                "DATASET": str(tmp_path),
                "MODEL": str(tmp_path / "m.onnx"),
                "PROTOCOL": "flair1",
                "OUTPUT_REPORT": str(tmp_path / "r.json"),
                "DEVICE": "TPU",
            },
        )
