"""The dock's model card of an INT8 model made by flair:quantize (issue 20)."""

from __future__ import annotations

from conftest import FLAIR_DATA, REPO

from flair_qgis.core.quantize.cpu import int8_capability
from flair_qgis.core.quantize.job import QuantizeRequest, quantize
from flair_qgis.core.segment.sources import capture_file

DEMO = REPO / "resources" / "models" / "flair-demo-unet.onnx"


def test_model_card_says_int8_and_its_fp32_model(plugin, tmp_path):
    out = tmp_path / "demo_int8.onnx"
    quantize(
        QuantizeRequest(str(DEMO), str(out), calibration_tiles=1, validation_tiles=0, threads=2),
        [capture_file(FLAIR_DATA / "IMG_000473.tif")],
    )
    dock = plugin.dock
    assert dock.set_model(str(out))
    text = dock.segment.model_section.model_card.summary.text()
    assert "INT8 (from FLAIR demo U-Net (6 patches))" in text
    capability = int8_capability()
    assert ("expect little gain" in text) is capability.little_gain
    slower = f"INT8: no VNNI on this CPU; onnxruntime uses the slower {capability.integer_path} integer path"
    assert (slower in text) is bool(capability.integer_path)
    assert dock.set_model(str(DEMO))
    assert "INT8" not in dock.segment.model_section.model_card.summary.text()
