"""Exact toy ONNX models built with ``onnx.helper``: their outputs are known to the pixel.

Each builder returns the path of a written ``.onnx`` file. Shapes are dynamic unless ``tile`` is
given. Metadata values are JSON strings, as in real models.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17


def _io(
    name: str,
    channels: int | None,
    tile: int | None,
    batch: int | None = None,
    rank: int = 4,
    elem: int = TensorProto.FLOAT,
) -> onnx.ValueInfoProto:
    dims: list[Any] = [batch or "N", channels if channels else "C", tile or "H", tile or "W"]
    if rank == 3:
        dims = [dims[0], dims[2], dims[3]]
    return helper.make_tensor_value_info(name, elem, dims)


def save(model: onnx.ModelProto, path: Path, metadata: Mapping[str, Any] | None = None) -> Path:
    for key, value in (metadata or {}).items():
        entry = model.metadata_props.add()
        entry.key = key
        entry.value = value if isinstance(value, str) else json.dumps(value)
    model.ir_version = 8
    onnx.checker.check_model(model)
    path.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(path))
    return path


def identity_model(
    path: Path,
    channels: int,
    *,
    tile: int | None = None,
    batch: int | None = None,
    metadata: Mapping[str, Any] | None = None,
) -> Path:
    """scores = normalised input: the class is the argmax of the normalised bands."""
    graph = helper.make_graph(
        [helper.make_node("Identity", ["x"], ["scores"])],
        "identity",
        [_io("x", channels, tile, batch)],
        [_io("scores", channels, tile, batch)],
    )
    return save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)]), path, metadata)


def conv_model(
    path: Path,
    weights: np.ndarray,
    bias: np.ndarray | None = None,
    *,
    tile: int | None = None,
    metadata: Mapping[str, Any] | None = None,
    softmax: bool = False,
) -> Path:
    """One convolution ``(out, in, k, k)`` with zero 'same' padding, optionally a softmax."""
    out_c, in_c, k, _ = weights.shape
    inits = [numpy_helper.from_array(weights.astype(np.float32), "w")]
    inputs = ["x", "w"]
    if bias is not None:
        inits.append(numpy_helper.from_array(bias.astype(np.float32), "b"))
        inputs.append("b")
    pad = k // 2
    nodes = [helper.make_node("Conv", inputs, ["conv" if softmax else "scores"], pads=[pad] * 4)]
    if softmax:
        nodes.append(helper.make_node("Softmax", ["conv"], ["scores"], axis=1))
    graph = helper.make_graph(nodes, "conv", [_io("x", in_c, tile)], [_io("scores", out_c, tile)], inits)
    return save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)]), path, metadata)


def sigmoid_model(path: Path, channels: int, *, rank: int = 4, metadata: Mapping[str, Any] | None = None) -> Path:
    """One-channel sigmoid of the first normalised band: ``(N, 1, H, W)`` or ``(N, H, W)``."""
    axes = numpy_helper.from_array(np.array([1], dtype=np.int64), "axes")
    starts = numpy_helper.from_array(np.array([0], dtype=np.int64), "starts")
    ends = numpy_helper.from_array(np.array([1], dtype=np.int64), "ends")
    nodes = [
        helper.make_node("Slice", ["x", "starts", "ends", "axes"], ["first"]),
        helper.make_node("Sigmoid", ["first"], ["sig" if rank == 3 else "scores"]),
    ]
    if rank == 3:
        nodes.append(helper.make_node("Squeeze", ["sig", "axes"], ["scores"]))
    out = _io("scores", 1, None, rank=rank)
    graph = helper.make_graph(nodes, "sigmoid", [_io("x", channels, None)], [out], [axes, starts, ends])
    return save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)]), path, metadata)


def two_output_model(path: Path, channels: int) -> Path:
    """Two identical outputs (Deepness' several-heads convention)."""
    graph = helper.make_graph(
        [helper.make_node("Identity", ["x"], ["a"]), helper.make_node("Identity", ["x"], ["b"])],
        "two",
        [_io("x", channels, None)],
        [_io("a", channels, None), _io("b", channels, None)],
    )
    return save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)]), path)


def two_input_model(path: Path, channels: int) -> Path:
    """scores = a + b."""
    graph = helper.make_graph(
        [helper.make_node("Add", ["a", "b"], ["scores"])],
        "two_in",
        [_io("a", channels, None), _io("b", channels, None)],
        [_io("scores", channels, None)],
    )
    return save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)]), path)


def box3x3_model(
    path: Path, in_channels: int, out_channels: int, seed: int = 0, *, metadata: Mapping[str, Any] | None = None
) -> tuple[Path, np.ndarray]:
    """A random 3x3 convolution: receptive field radius 1, for the seam test."""
    rng = np.random.default_rng(seed)
    weights = rng.normal(size=(out_channels, in_channels, 3, 3)).astype(np.float32)
    return conv_model(path, weights, metadata=metadata), weights


def flair_metadata(classes: Sequence[Any] | None = None, **extra: Any) -> dict[str, Any]:
    meta: dict[str, Any] = {"model_type": "Segmentor"}
    if classes is not None:
        meta["classes"] = list(classes)
    meta.update(extra)
    return meta
