"""core.describe: a model with no metadata described once, in a copy; the copy segments a real FLAIR
patch with the normalisation and classes it was given, and the original file is left byte for byte."""

from __future__ import annotations

import hashlib
import json
import os

import numpy as np
import onnx
import pytest
import rasterio
from conftest import FLAIR_DATA
from onnx import TensorProto, helper, numpy_helper
from toy_models import conv_model

from flair_qgis.core.describe import (
    DescribeRequest,
    check_output,
    describe,
    description,
    guessed_note,
    parse_bands,
    parse_classes,
    parse_numbers,
)
from flair_qgis.core.engine import capture_file, read_model_info
from flair_qgis.core.errors import Canceled, InputError, ModelError
from flair_qgis.core.model_presets import PRESETS
from flair_qgis.core.segment import SegmentRequest, segment_job

PATCH = FLAIR_DATA / "IMG_000473.tif"
FLAIR1 = PRESETS["flair1"]


def _sha(path) -> str:
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


@pytest.fixture
def plain(tmp_path):
    """A 1x1 convolution from FLAIR's 5 bands to 13 scores, with no metadata at all."""
    rng = np.random.default_rng(7)
    weights = rng.normal(size=(13, 5, 1, 1)).astype(np.float32)
    bias = rng.normal(size=13).astype(np.float32)
    return conv_model(tmp_path / "plain.onnx", weights, bias), weights[:, :, 0, 0].astype(np.float64), bias


def _expected(weights, bias, mean, std, values):
    """The class map computed here in float64, and where its best two scores are too close to call."""
    with rasterio.open(PATCH) as src:
        pixels = src.read().astype(np.float64)
    normalised = (pixels - np.asarray(mean)[:, None, None]) / np.asarray(std)[:, None, None]
    scores = np.einsum("oc,crw->orw", weights, normalised) + bias[:, None, None]
    top = np.sort(scores, axis=0)
    close = (top[-1] - top[-2]) < 1e-3
    return np.asarray(values)[scores.argmax(axis=0)], close


def _segment(model_path, output):
    model = read_model_info(model_path)
    result = segment_job(SegmentRequest(str(output), tile_size_px=512, overlap_px=0), model, (capture_file(PATCH),))
    with rasterio.open(result.segment.output_path) as written:
        return model, written.read(1)


def test_a_described_copy_segments_a_flair_patch_with_the_preset_and_the_original_is_unchanged(plain, tmp_path):
    path, weights, bias = plain
    before = _sha(path)
    guessed_model, guessed_map = _segment(path, tmp_path / "guessed.tif")
    assert guessed_model.guessed == {"normalisation", "classes"}
    note = guessed_note(guessed_model)
    assert note is not None and note.key == "guessed_normalisation_classes"
    assert note.startswith("plain declares neither its normalisation nor its classes")
    assert "pixels / 255 and classes 0..12" in note
    expected, close = _expected(weights, bias, [0.0] * 5, [255.0] * 5, range(13))
    assert np.array_equal(guessed_map[~close], expected[~close])

    result = describe(DescribeRequest(str(path), str(tmp_path / "described.onnx"), description("flair1")))

    assert _sha(path) == before  # the original is only read
    assert result.source_sha256 == before and result.sha256 == _sha(result.output_path)
    assert result.guessed == frozenset() and result.model.path == result.output_path
    model, class_map = _segment(result.output_path, tmp_path / "described.tif")
    assert guessed_note(model) is None
    spec = model.input
    assert spec.band_names == ("R", "G", "B", "NIR", "ELEV")
    assert spec.mean == (105.08, 110.87, 101.82, 106.38, 53.26) and spec.std == (52.17, 45.38, 44.0, 39.69, 79.3)
    assert spec.resolution_m == pytest.approx(0.2)
    classes = model.segmentation_outputs()[0].classes
    assert [(c.value, c.name, c.color) for c in classes[:3]] == [
        (1, "building", "#db0e9a"),
        (2, "pervious surface", "#938e7b"),
        (3, "impervious surface", "#f80c00"),
    ]
    assert (classes[-1].value, classes[-1].name) == (13, "other")
    expected, close = _expected(weights, bias, FLAIR1.mean, FLAIR1.std, range(1, 14))
    assert close.mean() < 0.001
    assert np.array_equal(class_map[~close], expected[~close])
    assert set(np.unique(class_map)) <= set(range(1, 14)) and len(np.unique(class_map)) > 3
    assert not np.array_equal(class_map, guessed_map)
    record = json.loads(model.metadata["described"])
    assert record == {"source": "plain.onnx", "source_sha256": before, "preset": "flair1"}
    assert sorted(f for f in os.listdir(tmp_path) if f.endswith(".onnx")) == ["described.onnx", "plain.onnx"]


def _cancel_at(poll: int):
    """A cancel hook that answers True at its ``poll``-th call (never for 0); ``calls`` counts them."""
    calls: list[int] = []

    def is_canceled() -> bool:
        calls.append(1)
        return len(calls) == poll

    is_canceled.calls = calls  # type: ignore[attr-defined]
    return is_canceled


def test_a_cancel_at_any_step_leaves_no_file_and_the_last_one_removes_the_written_copy(plain, tmp_path):
    path, _w, _b = plain
    before = _sha(path)
    output = tmp_path / "described.onnx"
    request = DescribeRequest(str(path), str(output), description("flair1"))
    never, progress = _cancel_at(0), []
    describe(request, never, progress.append)
    assert progress == sorted(progress) and progress[-1] == 100.0
    polls = len(never.calls)
    assert polls >= 5  # read, hash, serialise, write, and once more after the copy is in place
    output.unlink()
    for poll in range(1, polls + 1):
        with pytest.raises(Canceled) as err:
            describe(request, _cancel_at(poll))
        # Only the last poll, after the copy was renamed into place, finds a file to remove.
        assert err.value.removed == ((str(output),) if poll == polls else ())
        assert os.listdir(tmp_path) == ["plain.onnx"]  # no copy, no temporary file
    assert _sha(path) == before


def test_typed_values_describe_bands_scale_classes_and_tile(plain, tmp_path):
    path, _weights, _bias = plain
    classes = parse_classes(";".join(f"{v}:c{v}" for v in range(10, 23)) + "")
    typed = description(
        bands=parse_bands("4,1,2,3,5"), scale=parse_numbers("1000", "SCALE")[0], classes=classes, tile_size_px=256
    )
    result = describe(DescribeRequest(str(path), str(tmp_path / "typed.onnx"), typed))
    model = result.model
    assert model is not None and model.guessed == frozenset()
    assert model.input.band_names == ("4", "1", "2", "3", "5")
    assert model.input.mean == (0.0,) * 5 and model.input.std == (1000.0,) * 5
    assert model.tile_size_px == 256 and model.input.resolution_m is None
    assert [c.value for c in model.outputs[0].classes] == list(range(10, 23))
    assert model.outputs[0].classes[0].name == "c10"


def test_a_preset_with_a_modality_declares_the_input_and_typed_values_win(tmp_path):
    weights = np.ones((19, 3, 1, 1), dtype=np.float32)
    path = conv_model(tmp_path / "hub.onnx", weights)
    result = describe(
        DescribeRequest(str(path), str(tmp_path / "hub_described.onnx"), description("flairhub-landcover"))
    )
    entry = json.loads(result.metadata["inputs"])[0]
    assert entry["modality"] == "AERIAL_RGBI" and entry["bands"] == [4, 1, 2] and entry["name"] == "x"
    assert result.model.input.modality == "AERIAL_RGBI"
    assert result.model.outputs[0].classes[0].name == "building" and result.model.outputs[0].classes[0].value == 0
    override = description("flairhub-landcover", resolution_cm=50)
    second = describe(DescribeRequest(str(path), str(tmp_path / "hub50.onnx"), override))
    assert second.model.input.resolution_m == pytest.approx(0.5)


def test_a_description_that_does_not_fit_the_graph_is_refused_by_name(plain, tmp_path):
    path, _w, _b = plain
    out = tmp_path / "bad.onnx"
    with pytest.raises(InputError) as err:
        describe(DescribeRequest(str(path), str(out), description("flair1-19")))
    assert err.value.key == "describe_class_mismatch"
    assert str(err.value).startswith("plain.onnx has 13 output channel(s) but 19 class(es) were given")
    with pytest.raises(InputError) as err:
        describe(DescribeRequest(str(path), str(out), description("flair-inc-rgb")))
    assert err.value.key == "describe_band_mismatch" and err.value.params["what"] == "BANDS"
    assert str(err.value).startswith("plain.onnx takes 5 band(s) but BANDS has 3 value(s)")
    with pytest.raises(InputError) as err:
        describe(DescribeRequest(str(path), str(out), description(mean=(1.0, 2.0), std=(3.0, 4.0))))
    assert err.value.params == {"file": "plain.onnx", "channels": 5, "what": "MEAN", "count": 2}
    fixed = conv_model(tmp_path / "fixed.onnx", np.ones((13, 5, 1, 1), np.float32), tile=512)
    with pytest.raises(InputError) as err:
        describe(DescribeRequest(str(fixed), str(out), description("flair1", tile_size_px=256)))
    assert err.value.key == "describe_tile_mismatch"
    assert not out.exists()


def test_the_original_is_never_the_output(plain, tmp_path):
    path, _w, _b = plain
    before = _sha(path)
    for output in (str(path), str(tmp_path / "." / "plain.onnx")):
        with pytest.raises(InputError) as err:
            describe(DescribeRequest(str(path), output, description("flair1")))
        assert err.value.key == "describe_output_is_model"
    with pytest.raises(InputError) as err:
        check_output(str(path), "")
    assert err.value.key == "describe_no_output"
    assert _sha(path) == before


def test_bad_typed_values_are_refused_with_their_entry(tmp_path):
    for text, key in (
        ("1:building:red", "describe_bad_class"),
        ("x:y", "describe_bad_class"),
        ("1:a;1:b", "describe_duplicate_class"),
        ("building", "describe_bad_class"),
    ):
        with pytest.raises(InputError) as err:
            parse_classes(text)
        assert err.value.key == key, text
    with pytest.raises(InputError) as err:
        parse_numbers("1,two", "MEAN")
    assert str(err.value) == "MEAN must be numbers separated by commas (e.g. 105.08,110.87,101.82), got '1,two'."
    for kwargs, key in (
        ({"mean": (1.0,)}, "describe_mean_without_std"),
        ({"scale": 255.0, "mean": (1.0,), "std": (2.0,)}, "describe_scale_and_std"),
        ({"scale": 0.0}, "describe_bad_scale"),
        ({"mean": (0.0,), "std": (0.0,)}, "describe_bad_std"),
        ({}, "describe_nothing"),
    ):
        with pytest.raises(InputError) as err:
            description(**kwargs)
        assert err.value.key == key
    with pytest.raises(InputError) as err:
        description("flair2")
    assert err.value.key == "describe_unknown_preset" and "flairhub-croptype" in str(err.value)


def test_classes_from_a_csv_table(tmp_path):
    table = tmp_path / "classes.csv"
    table.write_text('value,name,color\n1,bâti,#DB0E9A\n2,"eau, lac",#1553ae\n3,other,\n', encoding="utf-8")
    classes = parse_classes(str(table))
    assert [(c.value, c.name, c.color) for c in classes[:2]] == [(1, "bâti", "#db0e9a"), (2, "eau, lac", "#1553ae")]
    assert classes[2].name == "other" and classes[2].color.startswith("#")
    (tmp_path / "bad.csv").write_text("code;label\n1;a\n")
    with pytest.raises(InputError) as err:
        parse_classes(str(tmp_path / "bad.csv"))
    assert err.value.key == "describe_bad_classes_csv"


def test_deepness_keys_are_replaced_not_left_to_contradict(tmp_path):
    meta = {
        "model_type": "Segmentor",
        "class_names": {"0": "a", "1": "b", "2": "c"},
        "standardization_mean": [0.5] * 3,
        "standardization_std": [0.2] * 3,
        "resolution": 5,
        "tiles_size": 256,
    }
    path = conv_model(tmp_path / "deep.onnx", np.ones((3, 3, 1, 1), np.float32), metadata=meta)
    assert read_model_info(path).guessed == frozenset()  # a Deepness model declares its conventions
    typed = description(classes=parse_classes("5:x,6:y,7:z"), mean=(10.0,), std=(20.0,), resolution_cm=20)
    result = describe(DescribeRequest(str(path), str(tmp_path / "d.onnx"), typed))
    keys = set(result.model.metadata)
    assert {"class_names", "standardization_mean", "standardization_std", "resolution"}.isdisjoint(keys)
    assert {"model_type", "tiles_size", "classes", "mean", "std", "resolution_cm", "described"} <= keys
    assert result.model.input.mean == (10.0,) * 3 and result.model.input.resolution_m == pytest.approx(0.2)


def test_a_model_with_external_data_is_copied_whole(tmp_path):
    weights = numpy_helper.from_array(np.eye(3, dtype=np.float32).reshape(3, 3, 1, 1) * 2, "w")
    graph = helper.make_graph(
        [helper.make_node("Conv", ["x", "w"], ["scores"])],
        "ext",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3, "H", "W"])],
        [helper.make_tensor_value_info("scores", TensorProto.FLOAT, ["N", 3, "H", "W"])],
        [weights],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    folder = tmp_path / "src"
    folder.mkdir()
    onnx.save(
        model,
        str(folder / "ext.onnx"),
        save_as_external_data=True,
        all_tensors_to_one_file=True,
        location="ext.data",
        size_threshold=0,
    )
    rgb = description(bands=("R", "G", "B"), scale=255.0)
    result = describe(DescribeRequest(str(folder / "ext.onnx"), str(tmp_path / "copy.onnx"), rgb))
    assert sorted(os.listdir(tmp_path)) == ["copy.onnx", "src"] and sorted(os.listdir(folder)) == [
        "ext.data",
        "ext.onnx",
    ]
    copied = onnx.load(str(tmp_path / "copy.onnx"), load_external_data=False)
    assert not any(t.data_location == TensorProto.EXTERNAL for t in copied.graph.initializer)
    assert result.model.input.band_names == ("R", "G", "B")
    os.remove(folder / "ext.data")
    with pytest.raises(ModelError):
        describe(DescribeRequest(str(folder / "ext.onnx"), str(tmp_path / "again.onnx"), rgb))
    assert not (tmp_path / "again.onnx").exists()


def test_a_multi_input_model_is_refused(tmp_path):
    from toy_models import two_input_model

    path = two_input_model(tmp_path / "two.onnx", 3)
    with pytest.raises(ModelError) as err:
        describe(DescribeRequest(str(path), str(tmp_path / "out.onnx"), description("flair-inc-rgb")))
    assert err.value.key == "describe_multi_input"


def test_a_model_whose_band_count_only_the_metadata_can_say_is_described(tmp_path):
    graph = helper.make_graph(
        [helper.make_node("Identity", ["x"], ["scores"])],
        "symbolic",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", "C", "H", "W"])],
        [helper.make_tensor_value_info("scores", TensorProto.FLOAT, ["N", "C", "H", "W"])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(tmp_path / "symbolic.onnx"))
    with pytest.raises(ModelError) as err:
        read_model_info(tmp_path / "symbolic.onnx")
    assert err.value.key == "input_without_channels"  # the engine cannot run it as it is
    typed = description(bands=("R", "G", "B"), scale=255.0, classes=parse_classes("1:a,2:b,3:c"))
    result = describe(DescribeRequest(str(tmp_path / "symbolic.onnx"), str(tmp_path / "rgb.onnx"), typed))
    assert result.model.input.channels == 3 and result.model.input.std == (255.0,) * 3
    assert [c.value for c in result.model.outputs[0].classes] == [1, 2, 3]
    with pytest.raises(ModelError) as err:
        describe(DescribeRequest(str(tmp_path / "nothing.onnx"), str(tmp_path / "x.onnx"), typed))
    assert err.value.key == "model_not_found"
    (tmp_path / "weights.onnx").write_bytes(b"\x80\x04pickle")
    with pytest.raises(ModelError) as err:
        describe(DescribeRequest(str(tmp_path / "weights.onnx"), str(tmp_path / "x.onnx"), typed))
    assert err.value.key == "model_is_pickle" and not (tmp_path / "x.onnx").exists()
