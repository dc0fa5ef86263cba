"""core.describe.wire: an ONNX file copied with its metadata replaced, its tensors streamed as bytes;
onnx itself reads the copy back and finds the same graph with the new metadata only."""

from __future__ import annotations

import io

import numpy as np
import onnx
import pytest
from toy_models import conv_model

from flair_qgis.core.describe.wire import WireFormatError, copy_with_metadata, metadata_entry, top_level_fields
from flair_qgis.core.errors import Canceled


def _copy(source, entries, is_canceled=lambda: False) -> bytes:
    out = io.BytesIO()
    copy_with_metadata(str(source), out.write, entries, is_canceled)
    return out.getvalue()


@pytest.fixture
def model_path(tmp_path):
    weights = np.random.default_rng(5).normal(size=(13, 5, 1, 1)).astype(np.float32)
    return conv_model(tmp_path / "m.onnx", weights, metadata={"author": "Élodie", "mean": [1, 2, 3, 4, 5]})


def test_the_copy_is_the_same_model_with_only_the_new_metadata(model_path):
    original = onnx.load(str(model_path))
    long_value = "x" * 300  # a length of two varint bytes
    entries = [("author", "Élodie"), ("classes", '[{"value": 1}]'), ("tile_size", long_value)]
    copy = onnx.load_from_string(_copy(model_path, entries))
    assert [(p.key, p.value) for p in copy.metadata_props] == entries
    assert copy.graph.SerializeToString() == original.graph.SerializeToString()
    assert copy.ir_version == original.ir_version and list(copy.opset_import) == list(original.opset_import)
    del original.metadata_props[:]
    for key, value in entries:
        original.metadata_props.add(key=key, value=value)
    assert copy == original


def test_metadata_anywhere_in_the_file_is_dropped(model_path, tmp_path):
    """Another tool may write ``metadata_props`` before the graph: the copy drops it there too."""
    model = onnx.load(str(model_path))
    del model.metadata_props[:]
    odd = tmp_path / "odd.onnx"
    odd.write_bytes(metadata_entry("old", "1") + model.SerializeToString() + metadata_entry("older", "2"))
    assert [p.key for p in onnx.load(str(odd)).metadata_props] == ["old", "older"]
    with open(odd, "rb") as handle:
        assert [field for field, _start, _end in top_level_fields(handle)].count(14) == 2
    copy = onnx.load_from_string(_copy(odd, [("new", "3")]))
    assert [(p.key, p.value) for p in copy.metadata_props] == [("new", "3")]
    assert copy.graph == model.graph


def test_a_truncated_file_and_a_cancel(model_path, tmp_path):
    cut = tmp_path / "cut.onnx"
    cut.write_bytes(model_path.read_bytes()[:-7])
    with pytest.raises(WireFormatError):
        _copy(cut, [])
    with pytest.raises(Canceled):
        _copy(model_path, [], lambda: True)
