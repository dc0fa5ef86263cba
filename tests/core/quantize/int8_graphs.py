"""ONNX graphs built with onnx.helper for the INT8 tests: each shows one situation of the quantiser.

* :func:`bias_not_initializer_model`: two convolutions whose biases are not initializers, as
  ``torch.onnx.export(..., dynamo=False)`` writes them: one from a ``Constant`` node, one through an
  ``Identity`` of an initializer. onnxruntime's quantiser warns "Expected bias ... to be an
  initializer" and leaves those biases in FP32 unless the graph is pre-processed first.
* :func:`slower_int8_model`: a chain of 3x3 convolutions one channel wide. Each gains nothing from
  integer arithmetic (one input channel, nothing to vectorise) but pays for the quantise,
  dequantise and layout work around it: on this project's CPUs its INT8 copy ran at about 0.3x to
  0.5x FP32 (1 and 2 threads, 512 px tiles), far under the 1.1x flair:quantize asks for.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
from onnx import helper, numpy_helper
from toy_models import OPSET, _io, save

MEAN = [105.08, 110.87, 101.82, 106.38, 53.26]
STD = [52.17, 45.38, 44.0, 39.69, 79.3]
METADATA = {"mean": MEAN, "std": STD, "tile_size": 512, "class_names": {"0": "a", "1": "b"}}


def bias_not_initializer_model(path: Path) -> Path:
    """5 bands -> Conv 3x3 (8) -> Relu -> Conv 3x3 (2); biases from a Constant and an Identity."""
    rng = np.random.default_rng(0)
    constant_bias = numpy_helper.from_array(rng.normal(size=8).astype(np.float32), "b1_value")
    inits = [
        numpy_helper.from_array((0.2 * rng.normal(size=(8, 5, 3, 3))).astype(np.float32), "w1"),
        numpy_helper.from_array((0.2 * rng.normal(size=(2, 8, 3, 3))).astype(np.float32), "w2"),
        numpy_helper.from_array(rng.normal(size=2).astype(np.float32), "b2_stored"),
    ]
    nodes = [
        helper.make_node("Constant", [], ["b1"], value=constant_bias, name="bias_constant"),
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1], name="conv1"),
        helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
        helper.make_node("Identity", ["b2_stored"], ["b2"], name="bias_identity"),
        helper.make_node("Conv", ["r1", "w2", "b2"], ["scores"], pads=[1, 1, 1, 1], name="conv2"),
    ]
    graph = helper.make_graph(nodes, "bias_not_initializer", [_io("x", 5, None)], [_io("scores", 2, None)], inits)
    return save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)]), path, METADATA)


def slower_int8_model(path: Path, convolutions: int = 8) -> Path:
    """5 bands -> ``convolutions`` chained 3x3 Conv, 1 channel wide, the last one with 2 output classes."""
    rng = np.random.default_rng(1)
    inits, nodes, previous, channels = [], [], "x", 5
    for i in range(convolutions):
        out = 2 if i == convolutions - 1 else 1
        inits.append(
            numpy_helper.from_array((0.3 * rng.normal(size=(out, channels, 3, 3))).astype(np.float32), f"w{i}")
        )
        inits.append(numpy_helper.from_array((0.1 * rng.normal(size=out)).astype(np.float32), f"b{i}"))
        name = "scores" if i == convolutions - 1 else f"c{i}"
        nodes.append(helper.make_node("Conv", [previous, f"w{i}", f"b{i}"], [name], pads=[1, 1, 1, 1], name=f"conv{i}"))
        previous, channels = name, out
    graph = helper.make_graph(nodes, "slower_int8", [_io("x", 5, None)], [_io("scores", 2, None)], inits)
    return save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)]), path, METADATA)


def convolutions_fully_quantized(model: onnx.ModelProto) -> list[bool]:
    """For each Conv node in graph order: True when its input, weight and bias all come out of a
    DequantizeLinear, the QDQ pattern onnxruntime fuses into one integer convolution. A bias left in
    FP32 breaks the pattern."""
    producers = {output: node for node in model.graph.node for output in node.output}
    return [
        all(name in producers and producers[name].op_type == "DequantizeLinear" for name in node.input if name)
        for node in model.graph.node
        if node.op_type == "Conv"
    ]
