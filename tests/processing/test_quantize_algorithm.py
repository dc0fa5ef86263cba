"""flair:quantize through processing.run on real FLAIR patches: the bundled demo model, and a graph
whose INT8 copy is slower than FP32 (the warning)."""

from __future__ import annotations

import re

import onnx
import pytest
from conftest import FLAIR_DATA, REPO, RecordingFeedback
from core.quantize.int8_graphs import slower_int8_model
from qgis.core import QgsProcessingException, QgsProject, QgsRasterLayer

from flair_qgis.core.engine.sessions import default_threads
from flair_qgis.core.quantize import LOW_AGREEMENT, NOT_TIMED, NOT_VALIDATED, Agreement, SpeedUp
from flair_qgis.core.quantize.cpu import cpu_identity, int8_capability
from flair_qgis.core.quantize.int8 import file_sha256, quantization_record
from flair_qgis.core.quantize.speed import WORTH_IT
from flair_qgis.processing.quantize_algorithm import warning_text

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
    # Timed with flair:segment's threads (all cores), on this CPU, and said in the log.
    here = cpu_identity()
    assert record["threads"] == default_threads() and record["timing_tiles"] == 1
    assert record["speedup"] == pytest.approx(result["SPEEDUP"], abs=1e-3)
    assert record["cpu"] == here.name and record["cpu_flags"] == list(here.flags)
    speed_line = next(i for i in feedback.infos if i.startswith("INT8 runs at "))
    assert f"× FP32 on this CPU ({here.name or '?'}; {' '.join(here.flags) or '?'}) with " in speed_line
    slower = [w for w in feedback.warnings if w.startswith("INT8 is slower than FP32 on this CPU with")]
    assert bool(slower) is (result["SPEEDUP"] < WORTH_IT)
    # The same seed gives the same graph (the timings differ).
    again = run_alg("flair:quantize", {**params, "OUTPUT": str(tmp_path / "again.onnx")})
    graphs = [
        onnx.load(path).graph.SerializeToString(deterministic=True) for path in (result["OUTPUT"], again["OUTPUT"])
    ]
    assert graphs[0] == graphs[1]


def test_refusals_through_processing(run_alg, layers, tmp_path):
    params = {"MODEL": str(DEMO), "CALIBRATION": [layers[0].id()], "OUTPUT": str(DEMO)}
    with pytest.raises(QgsProcessingException, match="OUTPUT is the FP32 MODEL"):
        run_alg("flair:quantize", params)
    first = run_alg(
        "flair:quantize", {**params, "METHOD": "dynamic", "VALIDATION_TILES": 0, "OUTPUT": str(tmp_path / "q.onnx")}
    )
    with pytest.raises(QgsProcessingException, match="already quantised"):
        run_alg("flair:quantize", {**params, "MODEL": first["OUTPUT"], "OUTPUT": str(tmp_path / "qq.onnx")})


def test_warns_when_int8_is_slower_on_this_cpu(run_alg, layers, tmp_path):
    """One-channel convolutions gain nothing from INT8 and pay for quantising (int8_graphs): with
    THREADS 1 the measured speed-up is under 1.1x, and the user is told in words."""
    feedback = RecordingFeedback()
    params = {
        "MODEL": str(slower_int8_model(tmp_path / "slow.onnx")),
        "CALIBRATION": [layer.id() for layer in layers],
        "CALIBRATION_TILES": 2,
        "VALIDATION_TILES": 1,
        "THREADS": 1,
        "OUTPUT": str(tmp_path / "slow_int8.onnx"),
    }
    result = run_alg("flair:quantize", params, feedback)
    record = quantization_record({p.key: p.value for p in onnx.load(result["OUTPUT"]).metadata_props})
    assert record["threads"] == 1 and record["speedup"] < WORTH_IT
    warnings = [w for w in feedback.warnings if w.startswith("INT8 is slower than FP32 on this CPU with 1 thread: ")]
    assert len(warnings) == 1 and "keep the FP32 model" in warnings[0]
    # The job's own words (SpeedUp.warning), not a Processing re-wording of them.
    assert re.fullmatch(
        r"INT8 is slower than FP32 on this CPU with 1 thread: keep the FP32 model \(INT8 ran at \d+\.\d\dx FP32 "
        rf"on 1 tile\(s\), less than the {WORTH_IT:g}x that makes it worth it\)\.",
        warnings[0],
    )
    assert "with 1 thread:" in next(i for i in feedback.infos if i.startswith("INT8 runs at "))


def test_the_jobs_warnings_are_shown_as_the_job_words_them(run_alg, layers, tmp_path):
    """No validation tile: the job's warning, verbatim, and no second one of Processing's own."""
    feedback = RecordingFeedback()
    params = {"MODEL": str(DEMO), "CALIBRATION": [layers[0].id()], "METHOD": "dynamic", "VALIDATION_TILES": 0}
    run_alg("flair:quantize", {**params, "OUTPUT": str(tmp_path / "q.onnx")}, feedback)
    assert feedback.warnings.count(NOT_VALIDATED) == 1
    assert not [w for w in feedback.warnings if "compared with FP32" in w and w != NOT_VALIDATED]


def test_warning_text_keeps_the_jobs_english_word_for_word():
    speed = SpeedUp(speedup=0.5, fp32_s=1.0, int8_s=2.0, threads=2, tiles=4, rounds=5)
    assert speed.warning and warning_text(speed.warning, speed) == speed.warning
    for text in (NOT_TIMED, NOT_VALIDATED, LOW_AGREEMENT, "Only 3 tiles: fewer than asked."):
        assert warning_text(text, speed) == text
    low = Agreement(agreement=0.5, pixels=10, tiles=1, classes=())
    assert low.warning == LOW_AGREEMENT and Agreement(0.99, 10, 1, ()).warning == ""
