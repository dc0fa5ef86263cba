"""core.engine.half_precision: PRECISION=fp16 refused on the CPU provider, checked against fp32 like INT8."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from rasters import random_image, read, write_raster
from toy_models import conv_model

from flair_qgis.core.engine import capture_file, cuda_available, decide_device, read_model_info
from flair_qgis.core.engine.half_precision import MIN_AGREEMENT, check_agreement, fp16_model_bytes
from flair_qgis.core.errors import InputError
from flair_qgis.core.segment import SegmentRequest, plan_segment, segment_job

META = {"mean": [128.0] * 3, "std": [64.0] * 3, "tile_size": 32, "tiles_overlap": 0}


@pytest.fixture
def scene(tmp_path):
    image = write_raster(tmp_path / "in.tif", random_image(64, 64, bands=3))
    weights = np.random.default_rng(0).normal(size=(4, 3, 3, 3)).astype(np.float32)
    return image, conv_model(tmp_path / "conv.onnx", weights, metadata=META)


@pytest.mark.parametrize("device", ["cpu", "auto"])
def test_fp16_is_refused_where_the_cpu_provider_runs(device, scene, tmp_path):
    image, model = scene
    if device == "auto" and cuda_available():
        pytest.skip("auto picks CUDA here")
    request = SegmentRequest(str(tmp_path / "out.tif"), device=device, precision="fp16")
    with pytest.raises(InputError, match="fp16 runs on CUDA only") as caught:
        plan_segment(read_model_info(model), [capture_file(image)], request)
    assert caught.value.key == "fp16_cpu"


def test_unknown_precision_is_refused():
    with pytest.raises(InputError, match="PRECISION must be one of fp32, fp16"):
        decide_device("cuda", "int4", cuda=True).checked()
    assert decide_device("cpu", "FP32", cuda=False).checked().precision == "fp32"


def test_agreement_below_the_threshold_is_refused_with_the_figure():
    rng = np.random.default_rng(0)
    fp32 = rng.integers(0, 5, size=(2, 50, 50))
    valid = np.ones(fp32.shape, dtype=bool)
    near = fp32.copy()
    near[0, 0, :10] += 1  # 10 of 5000 pixels differ: 99.8 %
    assert check_agreement(near, fp32, valid) == pytest.approx(0.998)
    far = fp32.copy()
    far[0, :1, :] += 1  # 50 of 5000 differ: 99.0 %
    with pytest.raises(InputError, match=r"agrees with fp32 on 99\.00%") as caught:
        check_agreement(far, fp32, valid)
    assert caught.value.key == "fp16_agreement" and caught.value.params["required"] == MIN_AGREEMENT
    valid[0, :1, :] = False  # the differing pixels are nodata: they do not count
    assert check_agreement(far, fp32, valid) == 1.0


def test_fp16_conversion_keeps_float32_inputs_and_outputs(scene):
    _image, model = scene
    converted = onnx.load_from_string(fp16_model_bytes(str(model)))
    io = [*converted.graph.input, *converted.graph.output]
    assert {v.type.tensor_type.elem_type for v in io} == {onnx.TensorProto.FLOAT}
    weights = {init.data_type for init in converted.graph.initializer}
    assert onnx.TensorProto.FLOAT16 in weights


@pytest.mark.cuda
def test_fp16_on_cuda_gives_fp32_classes_and_says_its_agreement(flair_data, tmp_path):
    from pathlib import Path

    if not cuda_available():
        pytest.skip("no CUDA execution provider in this onnxruntime")
    demo = Path(__file__).resolve().parents[3] / "resources" / "models" / "flair-demo-unet.onnx"
    image = capture_file(flair_data / "IMG_000473.tif")
    maps = {}
    for precision in ("fp32", "fp16"):
        options = SegmentRequest(str(tmp_path / f"{precision}.tif"), device="cuda", precision=precision)
        result = segment_job(options, read_model_info(demo), (image,)).segment
        maps[precision] = read(result.output_path)
    assert "fp16 (agreement with fp32" in result.graph
    assert (maps["fp16"] == maps["fp32"]).mean() >= MIN_AGREEMENT


def test_the_fp16_check_compares_the_first_tiles_with_fp32(flair_data, tmp_path):
    """The agreement check itself, on CPU sessions (a run refuses fp16 there before reaching it)."""
    from pathlib import Path

    from flair_qgis.core.engine.sessions import create_session
    from flair_qgis.core.engine.wrapped_graph import fused_model, plan_fusion
    from flair_qgis.core.segment.fp16_check import fp16_agreement

    demo = Path(__file__).resolve().parents[3] / "resources" / "models" / "flair-demo-unet.onnx"
    model = read_model_info(demo)
    options = SegmentRequest(str(tmp_path / "out.tif"), tile_size_px=128, overlap_px=16, device="cpu")
    plan = plan_segment(model, [capture_file(flair_data / "IMG_000473.tif")], options)
    fusion = plan_fusion(model, plan.heads, ["uint8"], want_confidence=False)
    sessions = []
    for converted in (fp16_model_bytes(str(demo)), None):
        data = fused_model(str(demo), model, fusion, converted)
        sessions.append((create_session(str(demo), "cpu", 1, model_bytes=data.data)[0], fusion))
    note = fp16_agreement(plan, sessions[0], sessions[1])
    assert note.startswith("agreement with fp32 ") and float(note.split()[-1].rstrip("%")) >= 99.5
