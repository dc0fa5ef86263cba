"""flair:quantize through processing.run on real FLAIR patches with the bundled demo model."""

from __future__ import annotations

import onnx
import pytest
from conftest import FLAIR_DATA, REPO, RecordingFeedback
from qgis.core import QgsProcessingException, QgsProject, QgsRasterLayer

from flair_qgis.core.quantize.cpu import int8_capability
from flair_qgis.core.quantize.int8 import file_sha256, quantization_record

DEMO = REPO / "resources" / "models" / "flair-demo-unet.onnx"


@pytest.fixture
def layers():
    added = []
    for patch in ("000473", "002115", "034217"):
        layer = QgsRasterLayer(str(FLAIR_DATA / f"IMG_{patch}.tif"), f"IMG_{patch}")
        assert layer.isValid()
        added.append(layer)
    QgsProject.instance().addMapLayers(added)
    yield added
    QgsProject.instance().removeMapLayers([layer.id() for layer in added])


def test_quantize_through_processing(run_alg, layers, tmp_path):
    feedback = RecordingFeedback()
    params = {
        "MODEL": str(DEMO),
        "CALIBRATION": [layer.id() for layer in layers],
        "CALIBRATION_TILES": 2,
        "VALIDATION_TILES": 1,
        "SEED": 3,
        "OUTPUT": str(tmp_path / "demo_int8.onnx"),
    }
    result = run_alg("flair:quantize", params, feedback)
    assert result["OUTPUT"] == str(tmp_path / "demo_int8.onnx")
    assert result["SHA256"] == file_sha256(result["OUTPUT"])
    assert result["CALIBRATION_TILES_USED"] == 2 and result["VALIDATION_TILES_USED"] == 1
    assert 0.9 < result["AGREEMENT"] <= 1.0
    record = quantization_record({p.key: p.value for p in onnx.load(result["OUTPUT"]).metadata_props})
    assert record["calibration_source"] == [layer.name() for layer in layers]
    log = "\n".join(feedback.infos)
    assert "INT8 agrees with FP32 on" in log and "IoU" in log
    capability = int8_capability()
    little_gain = [w for w in feedback.warnings if "expect little gain" in w]
    assert bool(little_gain) is capability.little_gain
    slower_path = [i for i in feedback.infos if "integer path (still typically faster than FP32)" in i]
    expected = f"INT8: no VNNI on this CPU; onnxruntime uses the slower {capability.integer_path} integer path"
    assert [i.startswith(expected) for i in slower_path] == ([True] if capability.integer_path else [])
    again = run_alg("flair:quantize", {**params, "OUTPUT": str(tmp_path / "again.onnx")})
    assert again["SHA256"] == result["SHA256"]


def test_refusals_through_processing(run_alg, layers, tmp_path):
    params = {"MODEL": str(DEMO), "CALIBRATION": [layers[0].id()], "OUTPUT": str(DEMO)}
    with pytest.raises(QgsProcessingException, match="OUTPUT is the FP32 MODEL"):
        run_alg("flair:quantize", params)
    first = run_alg(
        "flair:quantize", {**params, "METHOD": "dynamic", "VALIDATION_TILES": 0, "OUTPUT": str(tmp_path / "q.onnx")}
    )
    with pytest.raises(QgsProcessingException, match="already quantised"):
        run_alg("flair:quantize", {**params, "MODEL": first["OUTPUT"], "OUTPUT": str(tmp_path / "qq.onnx")})
