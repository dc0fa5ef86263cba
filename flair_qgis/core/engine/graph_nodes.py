"""The nodes :mod:`.wrapped_graph` adds around a model's graph, written with ``onnx.helper``.

Operators are chosen for every opset from 10 on: reductions take their axes as an attribute or
an input depending on the opset (``ReduceSum`` from 13, ``ReduceMax`` from 18), ArgMax gets
``select_last_index=0`` (numpy's first maximum) where the attribute exists (12 on).
onnx is imported inside the functions: the plugin runs without it (segmentation then stays on
the host, :func:`.wrapped_graph.fused_model`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

GraphProto = Any  # onnx.GraphProto
NodeProto = Any  # onnx.NodeProto


def _elem(dtype: str) -> int:
    """The ONNX element type of a numpy dtype name."""
    from onnx import helper

    return int(helper.np_dtype_to_tensor_dtype(np.dtype(dtype)))


def _dims(graph: GraphProto, name: str, outputs: bool) -> tuple[int, list[Any]]:
    """``(position, dims)`` of a graph input or output; dims are ints, symbols or None."""
    values = graph.output if outputs else graph.input
    for position, value in enumerate(values):
        if value.name == name:
            dims = [
                d.dim_value if d.HasField("dim_value") else (d.dim_param or None)
                for d in value.type.tensor_type.shape.dim
            ]
            return position, dims
    raise ValueError(f"'{name}' is not a graph {'output' if outputs else 'input'}")


def _const(graph: GraphProto, name: str, array: np.ndarray) -> str:
    from onnx import numpy_helper

    graph.initializer.append(numpy_helper.from_array(array, name))
    return name


def wrap_inputs(
    graph: GraphProto,
    inputs: Sequence[Any],
    affine: Mapping[str, tuple[np.ndarray, np.ndarray]],
    model_dtypes: Mapping[str, str],
) -> None:
    """Replace each model input by raw pixels and a validity plane, normalised inside the graph.

    ``cast(raw) * scale + offset`` in float32 (then cast to the model's input type), as
    :func:`.tile_reads.read_batch` does on the host. Invalid pixels become 0 in a branch
    taken only when the batch has any: a batch of interior tiles (most of a large extent) skips
    that pass over every band, a fifth of a 1x1 convolution model's time on a CPU.
    """
    from onnx import TensorProto, helper

    nodes: list[NodeProto] = []
    for item in inputs:
        position, dims = _dims(graph, item.name, outputs=False)
        p = item.raw + "."
        scale, offset = affine[item.name]
        consts = (
            _const(graph, p + "scale", scale[None].astype(np.float32)),
            _const(graph, p + "offset", offset[None].astype(np.float32)),
            _const(graph, p + "zero", np.zeros((), dtype=np.float32)),
        )
        last = item.name if model_dtypes[item.name] == "float32" else p + "normalised"
        branches = {
            "then": _normalise(item, p + "then.", consts, masked=False),
            "else": _normalise(item, p + "else.", consts, masked=True),
        }
        nodes += [
            # All valid: min over the plane as int32 (a type every provider reduces), as a bool.
            helper.make_node("Cast", [item.valid], [p + "valid_int"], to=TensorProto.INT32),
            helper.make_node("ReduceMin", [p + "valid_int"], [p + "all_valid_int"], keepdims=0),
            helper.make_node("Cast", [p + "all_valid_int"], [p + "all_valid"], to=TensorProto.BOOL),
            helper.make_node(
                "If", [p + "all_valid"], [last], then_branch=branches["then"], else_branch=branches["else"]
            ),
        ]
        if last != item.name:
            nodes.append(helper.make_node("Cast", [last], [item.name], to=_elem(model_dtypes[item.name])))
        del graph.input[position]
        graph.input.insert(
            position, helper.make_tensor_value_info(item.valid, TensorProto.BOOL, [dims[0], 1, *dims[2:]])
        )
        graph.input.insert(position, helper.make_tensor_value_info(item.raw, _elem(item.dtype), dims))
    _prepend(graph, nodes)


def _normalise(item: Any, p: str, consts: tuple[str, str, str], masked: bool) -> GraphProto:
    """The subgraph of one If branch: the normalised pixels, zeroed where not valid when ``masked``.

    It reads the raw pixels, validity plane and constants from the enclosing graph. Masking is
    ``x * valid + 0`` rather than ``Where`` (twice as fast on onnxruntime's CPU provider) and
    gives the host's +0.0 exactly: ``x * 0`` may be -0.0, and ``-0.0 + 0.0`` is +0.0.
    """
    from onnx import TensorProto, helper

    scale, offset, zero = consts
    out = p + "out"
    shifted = p + "shifted" if masked else out
    nodes = [
        helper.make_node("Cast", [item.raw], [p + "float"], to=TensorProto.FLOAT),
        helper.make_node("Mul", [p + "float", scale], [p + "scaled"]),
        helper.make_node("Add", [p + "scaled", offset], [shifted]),
    ]
    if masked:
        nodes += [
            helper.make_node("Cast", [item.valid], [p + "valid"], to=TensorProto.FLOAT),
            helper.make_node("Mul", [shifted, p + "valid"], [p + "masked"]),
            helper.make_node("Add", [p + "masked", zero], [out]),
        ]
    return helper.make_graph(nodes, p + "branch", [], [helper.make_tensor_value_info(out, TensorProto.FLOAT, None)])


def _prepend(graph: GraphProto, nodes: list[NodeProto]) -> None:
    existing = list(graph.node)
    del graph.node[:]
    graph.node.extend(nodes + existing)


def _reduce(op: str, source: str, target: str, keepdims: int, opset: int, graph: GraphProto) -> NodeProto:
    """``op`` over axis 1, axes as an input from the opset that moved them there."""
    from onnx import helper

    moved = {"ReduceSum": 13, "ReduceMax": 18}[op]
    if opset >= moved:
        axes = _const(graph, target + ".axes", np.array([1], dtype=np.int64))
        return helper.make_node(op, [source, axes], [target], keepdims=keepdims)
    return helper.make_node(op, [source], [target], axes=[1], keepdims=keepdims)


def _head_dims(graph: GraphProto, head: Any, inferred: Mapping[str, list[Any] | None]) -> tuple[int, int, list[Any]]:
    """``(position, channels, dims)`` of a head's output, its shape from shape inference.

    The declared shape may be missing or symbolic: the channel count is the head's own (from
    onnxruntime's inference), else onnx's inferred one; the other dims are onnx's inferred ones,
    else the declared ones, else unknown.

    Raises:
        ValueError: the output is not of rank 4, or no inference gives its channel count.
    """
    position, declared = _dims(graph, head.name, outputs=True)
    dims = inferred.get(head.name) or declared or [None] * 4
    if len(dims) != 4:
        raise ValueError(f"output '{head.name}' has rank {len(dims)}, not 4")
    channels = head.channels or (dims[1] if isinstance(dims[1], int) and dims[1] > 0 else 0)
    if not channels:
        raise ValueError(f"output '{head.name}' has no channel count")
    return position, channels, [d if isinstance(d, str) or (isinstance(d, int) and d > 0) else None for d in dims]


def wrap_outputs(
    graph: GraphProto,
    heads: Sequence[Any],
    opset: int,
    sample_step: int,
    inferred: Mapping[str, list[Any] | None] | None = None,
) -> None:
    """Reduce each head in the graph: its class index, and the confidence outputs it asks for.

    ``inferred``: output name -> dims from onnx's shape inference (:func:`.wrapped_graph.inferred_outputs`).
    """
    from onnx import TensorProto, helper

    nodes: list[NodeProto] = []
    for head in heads:
        position, channels, dims = _head_dims(graph, head, inferred or {})
        elem = graph.output[position].type.tensor_type.elem_type
        del graph.output[position]
        plane = [dims[0], *dims[2:]]
        p = head.index + "."
        extra: dict[str, Any] = {"select_last_index": 0} if opset >= 12 else {}
        index_type = TensorProto.UINT8 if channels <= 256 else TensorProto.UINT16
        nodes += [
            helper.make_node("ArgMax", [head.name], [p + "int64"], axis=1, keepdims=0, **extra),
            helper.make_node("Cast", [p + "int64"], [head.index], to=index_type),
        ]
        graph.output.append(helper.make_tensor_value_info(head.index, index_type, plane))
        scores = head.name
        if (head.best or head.softmax) and elem != TensorProto.FLOAT:
            scores = p + "float"
            nodes.append(helper.make_node("Cast", [head.name], [scores], to=TensorProto.FLOAT))
        if head.best:
            nodes.append(_reduce("ReduceMax", scores, head.best, 0, opset, graph))
            graph.output.append(helper.make_tensor_value_info(head.best, TensorProto.FLOAT, plane))
        if head.softmax:
            # The winner's softmax probability: 1 / sum_c exp(s_c - s_max), as Postprocess computes it.
            nodes += [
                _reduce("ReduceMax", scores, p + "max", 1, opset, graph),
                helper.make_node("Sub", [scores, p + "max"], [p + "centred"]),
                helper.make_node("Exp", [p + "centred"], [p + "exp"]),
                _reduce("ReduceSum", p + "exp", p + "sum", 0, opset, graph),
                helper.make_node("Reciprocal", [p + "sum"], [head.softmax]),
            ]
            graph.output.append(helper.make_tensor_value_info(head.softmax, TensorProto.FLOAT, plane))
        if head.sample:
            big = np.iinfo(np.int64).max
            starts = _const(graph, p + "starts", np.zeros(2, dtype=np.int64))
            ends = _const(graph, p + "ends", np.full(2, big, dtype=np.int64))
            axes = _const(graph, p + "axes", np.array([2, 3], dtype=np.int64))
            steps = _const(graph, p + "steps", np.full(2, sample_step, dtype=np.int64))
            nodes.append(helper.make_node("Slice", [head.name, starts, ends, axes, steps], [head.sample]))
            graph.output.append(helper.make_tensor_value_info(head.sample, elem, [dims[0], channels, None, None]))
    graph.node.extend(nodes)
