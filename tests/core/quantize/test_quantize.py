"""core.quantize on real FLAIR patches and the bundled demo model: real onnxruntime, no mocks.

Covers metadata kept, determinism (the same graph twice), each refusal, the tile draw, the
validation figures against an independent numpy computation, pre-processing (biases that are not
initializers get quantised), the speed-up measured and recorded, the warning when INT8 is slower,
and the CPU's identity and INT8 format.
"""

from __future__ import annotations

import json
import logging

import numpy as np
import onnx
import onnxruntime as ort
import pytest
import rasterio
from conftest import FLAIR_DATA, REPO
from onnx import helper
from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
from toy_models import OPSET, _io, conv_model, save

from core.quantize.int8_graphs import bias_not_initializer_model, convolutions_fully_quantized, slower_int8_model
from flair_qgis.core.engine.pixel_sources import capture_file
from flair_qgis.core.errors import InputError, ModelError, NotSupportedError
from flair_qgis.core.quantize.cpu import (
    LITTLE_GAIN_MESSAGE,
    MEASURED_AVX2,
    MEASURED_VNNI,
    SLOWER_PATH_MESSAGE,
    UNMEASURED_AMX,
    UNMEASURED_AVX_VNNI,
    UNMEASURED_OTHER,
    CpuIdentity,
    choose_format,
    cpu_identity,
    int8_capability,
)
from flair_qgis.core.quantize.int8 import QUANTIZATION_KEY, check_quantizable, file_sha256, quantization_record
from flair_qgis.core.quantize.job import QuantizeRequest, quantize
from flair_qgis.core.quantize.speed import WORTH_IT, measure_speedup
from flair_qgis.core.quantize.tiles import draw_tiles

DEMO = REPO / "resources" / "models" / "flair-demo-unet.onnx"
TRAIN = ["000473", "002115", "034217", "036294"]
MEAN = [105.08, 110.87, 101.82, 106.38, 53.26]
STD = [52.17, 45.38, 44.0, 39.69, 79.3]


def _rasters(patches=TRAIN):
    return [capture_file(FLAIR_DATA / f"IMG_{p}.tif") for p in patches]


@pytest.fixture(scope="module")
def demo_int8(tmp_path_factory):
    out = tmp_path_factory.mktemp("int8") / "demo_int8.onnx"
    request = QuantizeRequest(str(DEMO), str(out), calibration_tiles=2, validation_tiles=2, seed=7, threads=2)
    return request, quantize(request, _rasters())


def test_metadata_kept_and_quantization_recorded(demo_int8):
    _request, result = demo_int8
    before = {p.key: p.value for p in onnx.load(str(DEMO)).metadata_props}
    after = {p.key: p.value for p in onnx.load(result.output_path).metadata_props}
    assert {k: after[k] for k in before} == before
    assert set(after) == set(before) | {QUANTIZATION_KEY}
    record = quantization_record(after)
    assert record["method"] == "static" and record["format"] == "QDQ"
    assert record["calibration_tiles"] == 2 and record["seed"] == 7
    assert record["calibration_source"] == [f"IMG_{p}" for p in TRAIN]
    assert record["onnxruntime"] == ort.__version__
    assert record["fp32_sha256"] == file_sha256(str(DEMO))
    ops = {n.op_type for n in onnx.load(result.output_path).graph.node}
    assert {"QuantizeLinear", "DequantizeLinear"} <= ops
    assert result.sha256 == file_sha256(result.output_path)
    # The speed-up measured here, with the threads asked for, and the CPU it holds for.
    here = cpu_identity()
    assert record["preprocessed"] is True
    assert record["threads"] == 2 and record["timing_tiles"] == 2 and record["timing_rounds"] >= 3
    assert record["speedup"] == pytest.approx(result.speed.speedup, abs=1e-3) and record["speedup"] > 0
    assert record["fp32_s_per_tile"] > 0 and record["int8_s_per_tile"] > 0
    assert record["cpu"] == here.name and record["cpu_flags"] == list(here.flags)
    assert here.same_as(record["cpu"], record["cpu_flags"])
    assert record["format"] == result.int8_format.quant_format == "QDQ"
    assert record["format_reason"] == choose_format(int8_capability()).reason
    slower = [w for w in result.warnings if w.startswith("INT8 is slower than FP32 on this CPU with 2 threads")]
    assert bool(slower) is (record["speedup"] < WORTH_IT)


def test_same_seed_same_file_other_seed_other_tiles(demo_int8, tmp_path):
    request, first = demo_int8
    again = quantize(
        QuantizeRequest(request.model_path, str(tmp_path / "again.onnx"), 2, 2, seed=7, threads=2), _rasters()
    )
    # Only the timings differ between two runs: the graph and the rest of the metadata are the same.
    graphs = [onnx.load(path) for path in (first.output_path, again.output_path)]
    assert graphs[0].graph.SerializeToString(deterministic=True) == graphs[1].graph.SerializeToString(
        deterministic=True
    )
    timing = {"speedup", "fp32_s_per_tile", "int8_s_per_tile"}
    untimed = [
        {k: v for k, v in quantization_record({p.key: p.value for p in g.metadata_props}).items() if k not in timing}
        for g in graphs
    ]
    assert untimed[0] == untimed[1]
    assert again.sha256 == file_sha256(str(tmp_path / "again.onnx"))
    assert again.draw == first.draw
    other = draw_tiles([1, 1, 1, 1], 2, 2, seed=8)
    assert other != first.draw  # another seed draws other tiles (checked for these two seeds)


def test_validation_figures_match_an_independent_computation(demo_int8):
    """Read the held-out patches with rasterio, normalise, run both models with plain sessions, compare."""
    _request, result = demo_int8
    patches = [TRAIN[ref.layer] for ref in result.draw.validation]
    assert not {ref.layer for ref in result.draw.validation} & {ref.layer for ref in result.draw.calibration}
    maps = {}
    for name, path in (("fp32", str(DEMO)), ("int8", result.output_path)):
        session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
        out = []
        for patch in patches:
            with rasterio.open(FLAIR_DATA / f"IMG_{patch}.tif") as src:
                pixels = src.read().astype(np.float64)
            x = ((pixels - np.array(MEAN)[:, None, None]) / np.array(STD)[:, None, None]).astype(np.float32)
            out.append(np.argmax(session.run(None, {"input": x[None]})[0][0], axis=0))
        maps[name] = np.stack(out)
    fp32, int8 = maps["fp32"], maps["int8"]
    validation = result.validation
    assert validation.pixels == fp32.size
    assert validation.agreement == pytest.approx(np.mean(fp32 == int8), abs=1e-4)
    for item in validation.classes:
        tp = np.sum((fp32 == item.index) & (int8 == item.index))
        union = np.sum((fp32 == item.index) | (int8 == item.index))
        assert item.fp32_pixels == np.sum(fp32 == item.index)
        assert item.int8_pixels == np.sum(int8 == item.index)
        if union == 0:
            assert item.iou is None
        else:
            assert item.iou == pytest.approx(tp / union, abs=1e-3)
    assert validation.agreement > 0.9


def test_draw_is_deterministic_and_holds_validation_out():
    draw = draw_tiles([30, 10, 25], 32, 8, seed=3)
    assert draw == draw_tiles([30, 10, 25], 32, 8, seed=3)
    assert len(draw.calibration) == 32 and len(draw.validation) == 8
    assert not set(draw.calibration) & set(draw.validation)
    assert len(set(draw.calibration)) == 32
    small = draw_tiles([3], 32, 8, seed=0)
    assert len(small.validation) == 1 and len(small.calibration) == 2 and small.warnings
    with pytest.raises(InputError):
        draw_tiles([], 4, 1, seed=0)


@pytest.fixture
def toy(tmp_path):
    weights = np.random.default_rng(0).normal(size=(4, 5, 3, 3)).astype(np.float32)
    return conv_model(tmp_path / "toy.onnx", weights, metadata={"mean": MEAN, "std": STD, "tile_size": 256})


def test_refuses_output_equal_to_model(toy):
    with pytest.raises(InputError, match="OUTPUT is the FP32 MODEL"):
        check_quantizable(str(toy), str(toy))
    with pytest.raises(InputError, match="OUTPUT is the FP32 MODEL"):
        quantize(QuantizeRequest(str(toy), str(toy.parent / "." / toy.name)), _rasters())


def test_refuses_an_already_quantised_model(toy, tmp_path):
    first = quantize(
        QuantizeRequest(str(toy), str(tmp_path / "q.onnx"), 2, 1, method="dynamic", threads=2), _rasters()[:2]
    )
    with pytest.raises(ModelError, match=r"already quantised.*choose its FP32 model"):
        quantize(QuantizeRequest(first.output_path, str(tmp_path / "qq.onnx")), _rasters())
    assert not (tmp_path / "qq.onnx").exists()


def test_refuses_unknown_operators_and_names_them(tmp_path):
    w = helper.make_tensor("w", onnx.TensorProto.FLOAT, [2, 5, 1, 1], np.ones(10, dtype=np.float32))
    nodes = [
        helper.make_node("Conv", ["x", "w"], ["c"], name="conv"),
        helper.make_node("Mystery", ["c"], ["scores"], domain="com.example", name="custom"),
    ]
    graph = helper.make_graph(nodes, "custom", [_io("x", 5, None)], [_io("scores", 2, None)], [w])
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", OPSET), helper.make_opsetid("com.example", 1)]
    )
    model.ir_version = 8
    path = tmp_path / "custom.onnx"
    onnx.save(model, str(path))
    with pytest.raises(ModelError, match=r"cannot handle: com\.example\.Mystery"):
        check_quantizable(str(path), str(tmp_path / "out.onnx"))


def test_refuses_a_model_without_weights(tmp_path):
    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["scores"])], "relu", [_io("x", 5, None)], [_io("scores", 5, None)]
    )
    path = save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)]), tmp_path / "r.onnx")
    with pytest.raises(ModelError, match="nothing to quantise"):
        check_quantizable(str(path), str(tmp_path / "out.onnx"))


def test_refuses_multi_input_models_with_a_message(tmp_path):
    w = helper.make_tensor("w", onnx.TensorProto.FLOAT, [2, 5, 1, 1], np.ones(10, dtype=np.float32))
    nodes = [helper.make_node("Add", ["a", "b"], ["s"]), helper.make_node("Conv", ["s", "w"], ["scores"])]
    graph = helper.make_graph(nodes, "two", [_io("a", 5, None), _io("b", 5, None)], [_io("scores", 2, None)], [w])
    path = save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)]), tmp_path / "two.onnx")
    with pytest.raises(NotSupportedError, match="single-input models only"):
        quantize(QuantizeRequest(str(path), str(tmp_path / "out.onnx")), _rasters())


def test_dynamic_method_keeps_metadata_and_validates(toy, tmp_path):
    result = quantize(
        QuantizeRequest(str(toy), str(tmp_path / "dyn.onnx"), 4, 2, method="dynamic", threads=2), _rasters()
    )
    record = quantization_record({p.key: p.value for p in onnx.load(result.output_path).metadata_props})
    assert record["method"] == "dynamic" and record["calibration_tiles"] == 0
    assert json.loads({p.key: p.value for p in onnx.load(result.output_path).metadata_props}["mean"]) == MEAN
    assert result.validation is not None and result.validation.tiles == 2


@pytest.mark.parametrize(
    ("flags", "fast", "found", "summary"),
    [
        ("flags : fpu sse avx2 avx512f avx512_vnni", True, ("avx512_vnni",), "INT8: VNNI (avx512_vnni)"),
        ("flags : fpu sse avx2 avx_vnni", True, ("avx_vnni",), "INT8: VNNI (avx_vnni)"),
        # This project's AMD EPYC: AVX2, no VNNI; INT8 ran 1.7x to 1.9x faster than FP32 there (docs/int8.md).
        ("flags : fpu sse avx2 fma", False, (), SLOWER_PATH_MESSAGE.format(isa="AVX2")),
        ("flags : fpu sse avx2 avx512f avx512bw", False, (), SLOWER_PATH_MESSAGE.format(isa="AVX-512BW")),
        ("flags : fpu sse sse4_2 avx", False, (), LITTLE_GAIN_MESSAGE),
        ("Features : fp asimd evtstrm asimddp i8mm", True, ("asimddp", "i8mm"), "INT8: dot product (asimddp, i8mm)"),
        ("Features : fp asimd evtstrm", False, (), LITTLE_GAIN_MESSAGE),
    ],
)
def test_cpu_capability_from_flags(flags, fast, found, summary):
    capability = int8_capability(f"processor : 0\n{flags}\n")
    assert capability.fast is fast and capability.flags == found
    assert capability.summary == summary
    assert capability.little_gain is (summary == LITTLE_GAIN_MESSAGE)
    assert "expect little gain" not in SLOWER_PATH_MESSAGE
    unknown = int8_capability("")
    assert unknown.known is False and unknown.little_gain is False


class _Tiles(CalibrationDataReader):
    def __init__(self, tiles):
        self.items = iter({"x": tile[None]} for tile in tiles)

    def get_next(self):
        return next(self.items, None)


def test_preprocessing_quantises_convolutions_whose_bias_is_not_an_initializer(tmp_path, caplog):
    """The FLAIR baseline's case: biases from Constant / Identity nodes (torch.onnx.export, dynamo=False)."""
    fp32 = bias_not_initializer_model(tmp_path / "bias.onnx")
    tiles = np.random.default_rng(0).normal(size=(2, 5, 64, 64)).astype(np.float32)
    # The premise: onnxruntime's quantiser alone warns and leaves both biases in FP32.
    with caplog.at_level(logging.WARNING):
        quantize_static(
            str(fp32), str(tmp_path / "raw.onnx"), _Tiles(tiles), quant_format=QuantFormat.QDQ, per_channel=True,
            activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
        )  # fmt: skip
    assert "Expected bias 'b1' to be an initializer" in caplog.text
    assert "Expected bias 'b2' to be an initializer" in caplog.text
    assert convolutions_fully_quantized(onnx.load(str(tmp_path / "raw.onnx"))) == [False, False]
    # flair:quantize pre-processes first: both convolutions are quantised, input, weight and bias.
    result = quantize(QuantizeRequest(str(fp32), str(tmp_path / "int8.onnx"), 2, 1, threads=1), _rasters()[:2])
    written = onnx.load(result.output_path)
    assert convolutions_fully_quantized(written) == [True, True]
    before = {p.key: p.value for p in onnx.load(str(fp32)).metadata_props}
    after = {p.key: p.value for p in written.metadata_props}
    assert {k: after[k] for k in before} == before and set(after) == set(before) | {QUANTIZATION_KEY}


def test_int8_slower_than_fp32_is_recorded_and_warned(tmp_path):
    """A model whose INT8 copy is slower on any CPU (see int8_graphs): the measured speed-up says so."""
    fp32 = slower_int8_model(tmp_path / "slow.onnx")
    result = quantize(QuantizeRequest(str(fp32), str(tmp_path / "int8.onnx"), 2, 2, threads=1), _rasters())
    record = quantization_record({p.key: p.value for p in onnx.load(result.output_path).metadata_props})
    assert record["threads"] == 1 and record["speedup"] < WORTH_IT
    assert not result.speed.worth_it
    warning = [w for w in result.warnings if w.startswith("INT8 is slower than FP32 on this CPU with 1 thread:")]
    assert warning == [result.speed.warning]
    assert "keep the FP32 model" in warning[0] and f"{result.speed.speedup:.2f}x FP32" in warning[0]


def test_measure_speedup_alternates_and_takes_the_median():
    """Work, not time, differs: INT8 runs the same loop a third as long, so the ratio is near 3 and
    the order alternates FP32-first, INT8-first."""
    calls = []

    def work(name, n):
        def run():
            calls.append(name)
            sum(range(n))

        return run

    speed = measure_speedup(work("fp32", 300_000), work("int8", 100_000), threads=1, tiles=4, rounds=4)
    assert calls == ["fp32", "int8"] + ["fp32", "int8", "int8", "fp32"] * 2
    assert speed.rounds == 4 and speed.tiles == 4 and speed.threads == 1
    assert speed.speedup > 1 and speed.fp32_s > speed.int8_s
    assert speed.record()["speedup"] == round(speed.speedup, 3)


@pytest.mark.parametrize(
    ("cpuinfo", "name", "flags", "reason", "measured"),
    [
        (
            "model name\t: AMD EPYC\nflags\t: fpu avx2 fma avx512f avx512bw avx512_vnni\n",
            "AMD EPYC", ("avx2", "fma", "avx512f", "avx512bw", "avx512_vnni"), MEASURED_VNNI, True,
        ),
        (
            "model name\t: Intel(R) Xeon(R) Platinum 8480+\nflags\t: avx2 avx512bw avx512_vnni amx_tile amx_int8\n",
            "Intel(R) Xeon(R) Platinum 8480+", ("avx2", "avx512bw", "avx512_vnni", "amx_tile", "amx_int8"),
            UNMEASURED_AMX, False,
        ),
        (
            "model name\t: 12th Gen Intel(R) Core(TM) i7-12700\nflags\t: avx2 fma avx_vnni\n",
            "12th Gen Intel(R) Core(TM) i7-12700", ("avx2", "fma", "avx_vnni"), UNMEASURED_AVX_VNNI, False,
        ),
        ("model name\t: AMD EPYC 7B12\nflags\t: sse avx2 fma\n", "AMD EPYC 7B12", ("avx2", "fma"), MEASURED_AVX2, True),
        ("Hardware\t: BCM2835\nFeatures\t: fp asimd\n", "BCM2835", ("asimd",), UNMEASURED_OTHER, False),
    ],
)  # fmt: skip
def test_cpu_identity_and_format(cpuinfo, name, flags, reason, measured):
    identity = cpu_identity(cpuinfo)
    assert identity == CpuIdentity(name, flags)
    assert identity.same_as(name, list(flags)) and not identity.same_as(name + " v2", list(flags))
    assert not identity.same_as(name, list(flags[:-1]))
    fmt = choose_format(int8_capability(cpuinfo))
    assert (fmt.quant_format, fmt.activations, fmt.weights) == ("QDQ", "uint8", "int8")
    assert fmt.reason == reason and fmt.measured is measured


def test_fp32_ends_are_named_after_preprocessing(tmp_path):
    """FP32_ENDS reads the first and last Conv in the pre-processed graph, and records them."""
    fp32 = slower_int8_model(tmp_path / "chain.onnx")
    result = quantize(
        QuantizeRequest(str(fp32), str(tmp_path / "ends.onnx"), 2, 0, keep_ends_fp32=True, threads=1), _rasters()[:2]
    )
    written = onnx.load(result.output_path)
    assert quantization_record({p.key: p.value for p in written.metadata_props})["fp32_nodes"] == ["conv0", "conv7"]
    assert convolutions_fully_quantized(written) == [False] + [True] * 6 + [False]
