"""The dock's model card of an INT8 model made by flair:quantize (issues 20 and 33): its FP32 origin,
the speed-up measured when it was made, and where it was measured (this CPU or another), EN and FR."""

from __future__ import annotations

import json
import shutil
import subprocess

import onnx
import pytest
from conftest import FLAIR_DATA, REPO
from qgis.core import QgsSettings

from flair_qgis import i18n
from flair_qgis.core.engine.pixel_sources import capture_file
from flair_qgis.core.quantize.cpu import CpuIdentity, cpu_identity, int8_capability
from flair_qgis.core.quantize.int8 import QUANTIZATION_KEY, quantization_record
from flair_qgis.core.quantize.job import QuantizeRequest, quantize
from flair_qgis.i18n.model_texts import int8_speed_text

DEMO = REPO / "resources" / "models" / "flair-demo-unet.onnx"
TS = REPO / "flair_qgis" / "i18n" / "flair_qgis_fr.ts"
XEON = "Intel(R) Xeon(R) Platinum 8480+"


@pytest.fixture(scope="module")
def demo_int8(tmp_path_factory):
    out = tmp_path_factory.mktemp("card") / "demo_int8.onnx"
    quantize(
        QuantizeRequest(str(DEMO), str(out), calibration_tiles=1, validation_tiles=1, threads=2),
        [capture_file(FLAIR_DATA / "IMG_000473.tif")],
    )
    return out


def _measured_elsewhere(path, out):
    """A copy of an INT8 model whose speed-up was measured on another CPU with 16 threads."""
    model = onnx.load(str(path))
    for prop in model.metadata_props:
        if prop.key == QUANTIZATION_KEY:
            record = json.loads(prop.value)
            record.update(cpu=XEON, cpu_flags=["avx2", "avx512bw", "avx512_vnni", "amx_tile", "amx_int8"], threads=16)
            prop.value = json.dumps(record, sort_keys=True)
    onnx.save(model, str(out))
    return out


def test_model_card_says_int8_and_its_fp32_model(plugin, demo_int8):
    dock = plugin.dock
    assert dock.set_model(str(demo_int8))
    text = dock.segment.model_section.model_card.summary.text()
    assert "INT8 (from FLAIR demo U-Net (6 patches))" in text
    capability = int8_capability()
    assert ("expect little gain" in text) is capability.little_gain
    slower = f"INT8: no VNNI on this CPU; onnxruntime uses the slower {capability.integer_path} integer path"
    assert (slower in text) is bool(capability.integer_path)
    assert dock.set_model(str(DEMO))
    assert "INT8" not in dock.segment.model_section.model_card.summary.text()


def test_model_card_says_where_the_speedup_was_measured(plugin, demo_int8, tmp_path):
    dock = plugin.dock
    record = quantization_record({p.key: p.value for p in onnx.load(str(demo_int8)).metadata_props})
    ratio = f"{record['speedup']:.1f}"
    assert dock.set_model(str(demo_int8))
    assert f"INT8: {ratio}× FP32 on this CPU (2 threads)" in dock.segment.model_section.model_card.summary.text()
    assert dock.set_model(str(_measured_elsewhere(demo_int8, tmp_path / "elsewhere.onnx")))
    text = dock.segment.model_section.model_card.summary.text()
    assert f"INT8: {ratio}× FP32 measured on {XEON} (16 threads)" in text
    assert "on this CPU (" not in text


@pytest.fixture
def french(tmp_path, monkeypatch):
    """The plugin's French translator, compiled from the .ts as make package compiles it."""
    lrelease = shutil.which("lrelease") or shutil.which("/usr/lib/qt5/bin/lrelease")
    if lrelease is None:
        pytest.skip("lrelease (qttools5-dev-tools) is not installed; make setup installs it")
    subprocess.run([lrelease, "-silent", str(TS), "-qm", str(tmp_path / "flair_qgis_fr.qm")], check=True)
    monkeypatch.setattr(i18n, "QM_FOLDER", str(tmp_path))
    settings = QgsSettings()
    before = settings.value("locale/userLocale", None)
    settings.setValue("locale/userLocale", "fr_FR")  # numbers follow QGIS's locale: "1,4"
    assert i18n.install_translator("fr_FR") == "fr"
    yield
    i18n.remove_translator()
    if before is None:
        settings.remove("locale/userLocale")
    else:
        settings.setValue("locale/userLocale", before)


HERE = CpuIdentity("AMD EPYC", ("avx2", "fma", "avx512f", "avx512bw", "avx512_vnni"))
SAME = {"speedup": 1.436, "threads": 16, "cpu": HERE.name, "cpu_flags": list(HERE.flags)}
OTHER = {**SAME, "cpu": XEON, "cpu_flags": ["avx2", "avx512bw", "avx512_vnni", "amx_tile", "amx_int8"]}


def test_speed_text_in_english():
    assert int8_speed_text(SAME, HERE) == "INT8: 1.4× FP32 on this CPU (16 threads)"
    assert int8_speed_text(OTHER, HERE) == f"INT8: 1.4× FP32 measured on {XEON} (16 threads)"
    # The same name with other INT8 flags (a VM hiding VNNI) is another CPU for the speed-up.
    assert int8_speed_text({**SAME, "cpu_flags": ["avx2"]}, HERE) == "INT8: 1.4× FP32 measured on AMD EPYC (16 threads)"
    assert int8_speed_text({**SAME, "threads": 1, "speedup": 0.46}, HERE) == "INT8: 0.5× FP32 on this CPU (1 thread)"
    assert int8_speed_text({**SAME, "speedup": None}, HERE) is None
    assert int8_speed_text(None, HERE) is None
    assert int8_speed_text(SAME, cpu_identity()) in (
        "INT8: 1.4× FP32 on this CPU (16 threads)",
        "INT8: 1.4× FP32 measured on AMD EPYC (16 threads)",
    )


def test_speed_text_in_french(french):
    assert int8_speed_text(SAME, HERE) == "INT8 : 1,4× FP32 sur ce processeur (16 fils d'exécution)"
    assert int8_speed_text(OTHER, HERE) == f"INT8 : 1,4× FP32 mesuré sur {XEON} (16 fils d'exécution)"
    assert int8_speed_text({**SAME, "threads": 1}, HERE) == "INT8 : 1,4× FP32 sur ce processeur (1 fil d'exécution)"
