"""The same 1x1-convolution segmenter written every legal way a tool may write it, with ``onnx.helper``.

:func:`build` writes one variant (output shape declared, absent, symbolic or unknown; input and
output element types; opset; static or dynamic batch and size; the head; further outputs;
external data) and returns a :class:`Toy` that computes, with numpy alone, the class map the
model gives: the 1x1 convolution's weights applied by hand to the normalised pixels, then the
head's decision (argmax, or the sigmoid's threshold).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

BANDS = 3
ELEM = {"float32": TensorProto.FLOAT, "float16": TensorProto.FLOAT16, "uint8": TensorProto.UINT8}
#: Output shape styles: declared in full, no shape at all, symbols, dims without value or symbol.
SHAPES = ("declared", "none", "symbolic", "unknown")
HEADS = ("logits", "softmax", "sigmoid", "argmax", "argmax_keepdims")


@dataclass(frozen=True)
class Variant:
    """How the segmenter is written (see :func:`build`)."""

    shape: str = "declared"
    input_dtype: str = "float32"
    output_dtype: str = "float32"
    opset: int = 17
    batch: int | None = None
    tile: int | None = None
    head: str = "logits"
    classes: int = 4
    extra_outputs: bool = False
    external_data: bool = False
    hidden_channels: bool = False  # the channel count is computed from the pixels: no inference finds it
    symbolic_input: bool = False  # the input's channel axis is a symbol too (its bands named in the metadata)
    declare_classes: bool = False  # the metadata lists the classes (an argmax-in-graph head needs them)

    @property
    def label(self) -> str:
        parts = [
            self.head,
            f"out-{self.shape}",
            f"in-{self.input_dtype}",
            f"out-{self.output_dtype}",
            f"op{self.opset}",
        ]
        parts += [f"batch{self.batch}"] if self.batch else []
        parts += [f"tile{self.tile}"] if self.tile else []
        parts += ["multi"] if self.extra_outputs else []
        parts += ["external"] if self.external_data else []
        parts += ["hidden-channels"] if self.hidden_channels else []
        parts += ["symbolic-input"] if self.symbolic_input else []
        parts += ["classes"] if self.declare_classes else []
        return "-".join(parts)


@dataclass
class Toy:
    """A written model and what it computes."""

    path: Path
    variant: Variant
    mean: np.ndarray
    std: np.ndarray
    weights: np.ndarray  # (classes, bands)
    bias: np.ndarray
    aux_weights: np.ndarray | None = None
    metadata: dict[str, Any] = field(default_factory=dict)

    def normalised(self, pixels: np.ndarray) -> np.ndarray:
        """The model's input for ``(bands, rows, cols)`` pixels, as the model's input type holds it."""
        x = (pixels.astype(np.float64) - self.mean[:, None, None]) / self.std[:, None, None]
        return x.astype(self.variant.input_dtype).astype(np.float64)

    def scores(self, pixels: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
        """``(classes, rows, cols)`` convolution scores, in float64."""
        w = self.weights if weights is None else weights
        b = self.bias if weights is None else np.zeros(len(w))
        return np.einsum("cb,bij->cij", w, self.normalised(pixels)) + b[:, None, None]

    def class_map(self, pixels: np.ndarray, weights: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """``(classes, sure)``: the class of each pixel, and where it is far from a tie (so that
        float16 or float32 rounding in the model cannot change it)."""
        s = self.scores(pixels, weights)
        if self.variant.head == "sigmoid":
            return (s[0] > 0).astype(np.uint8), np.abs(s[0]) > 1e-2
        top = np.sort(s, axis=0)
        margin = top[-1] - top[-2]
        return np.argmax(s, axis=0).astype(np.uint8), margin > 1e-2 * np.maximum(1.0, np.abs(top[-1]))


_HIDDEN = (
    ("zero", 0.0, np.float32),
    ("four", 4.0, np.float32),
    ("one_dim", [1], np.int64),
    ("start", [0], np.int64),
    ("axis", [1], np.int64),
)


def _dims(variant: Variant, channels: int | None, rank: int = 4) -> Any:
    """The declared shape of an output of the variant's style."""
    if variant.shape == "none":
        return None
    if variant.shape == "unknown":
        return [None] * rank
    if variant.shape == "symbolic":
        return ["N", "C", "H", "W"] if rank == 4 else ["N", "H", "W"]
    batch, tile = variant.batch or "N", variant.tile or "H"
    dims = [batch, channels or "C", tile, variant.tile or "W"]
    return dims if rank == 4 else [dims[0], dims[2], dims[3]]


def _head(variant: Variant, nodes: list, source: str) -> tuple[str, int, int]:
    """Nodes of the head after the float32 scores ``source``: ``(output tensor, rank, elem)``."""
    out_elem = ELEM[variant.output_dtype]
    if variant.head in ("argmax", "argmax_keepdims"):
        keep = int(variant.head == "argmax_keepdims")
        nodes.append(helper.make_node("ArgMax", [source], ["classes"], axis=1, keepdims=keep))
        return "classes", 4 if keep else 3, TensorProto.INT64
    last = source
    if variant.head == "softmax":
        nodes.append(helper.make_node("Softmax", [source], ["probabilities"], axis=1))
        last = "probabilities"
    elif variant.head == "sigmoid":
        nodes.append(helper.make_node("Sigmoid", [source], ["probabilities"]))
        last = "probabilities"
    if out_elem != TensorProto.FLOAT:
        nodes.append(helper.make_node("Cast", [last], ["scores_cast"], to=out_elem))
        last = "scores_cast"
    return last, 4, out_elem


def build(folder: Path, variant: Variant, seed: int = 0) -> Toy:
    """Write the variant's model in ``folder`` (its own file name) and return it with its maths."""
    rng = np.random.default_rng(seed)
    classes = 1 if variant.head == "sigmoid" else variant.classes
    weights = rng.normal(size=(classes, BANDS)).astype(np.float32)
    bias = rng.normal(scale=0.3, size=classes).astype(np.float32)
    integer = variant.input_dtype == "uint8"
    mean = np.zeros(BANDS) if integer else np.array([110.0, 120.0, 100.0])
    std = np.ones(BANDS) if integer else np.array([50.0, 45.0, 60.0])
    if integer:  # raw 0..255 values straight into the convolution: keep the scores small
        weights /= 64.0
    inits = [numpy_helper.from_array(weights[:, :, None, None], "w"), numpy_helper.from_array(bias, "b")]
    nodes = [helper.make_node("Cast", ["x"], ["x_float"], to=TensorProto.FLOAT)]
    nodes.append(helper.make_node("Conv", ["x_float", "w", "b"], ["conv"]))
    scores = "conv"
    if variant.hidden_channels:
        # The first 4 channels, 4 being computed from the pixels (0 * min + 4): no inference knows it.
        inits += [numpy_helper.from_array(np.array(v, dtype=t), n) for n, v, t in _HIDDEN]
        nodes += [
            helper.make_node("ReduceMin", ["x_float"], ["x_min"], keepdims=0),
            helper.make_node("Mul", ["x_min", "zero"], ["x_zero"]),
            helper.make_node("Add", ["x_zero", "four"], ["end_float"]),
            helper.make_node("Cast", ["end_float"], ["end_scalar"], to=TensorProto.INT64),
            helper.make_node("Reshape", ["end_scalar", "one_dim"], ["end"]),
            helper.make_node("Slice", ["conv", "start", "end", "axis"], ["sliced"]),
        ]
        scores = "sliced"
    out, rank, out_elem = _head(variant, nodes, scores)
    nodes.append(helper.make_node("Identity", [out], ["scores"]))
    in_dims = [variant.batch or "N", "C" if variant.symbolic_input else BANDS, variant.tile or "H", variant.tile or "W"]
    outputs = [helper.make_tensor_value_info("scores", out_elem, _dims(variant, classes, rank))]
    toy = Toy(Path(), variant, mean, std, weights.astype(np.float64), bias.astype(np.float64))
    if variant.extra_outputs:
        toy.aux_weights = _extra_outputs(variant, nodes, inits, outputs, rng)
    graph = helper.make_graph(
        nodes, "segmenter", [helper.make_tensor_value_info("x", ELEM[variant.input_dtype], in_dims)], outputs, inits
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", variant.opset)])
    model.ir_version = helper.find_min_ir_version_for(list(model.opset_import))
    toy.metadata = {"mean": mean.tolist(), "std": std.tolist(), "tile_size": variant.tile or 64, "overlap_px": 0}
    if variant.symbolic_input:
        toy.metadata["bands"] = ["R", "G", "B"]
    if variant.declare_classes:
        toy.metadata["classes"] = list(range(classes))
    for key, value in toy.metadata.items():
        model.metadata_props.add(key=key, value=json.dumps(value))
    if variant.shape != "none":  # onnx's checker asks graph outputs for a shape; onnxruntime and the standard do not
        onnx.checker.check_model(model)
    toy.path = folder / f"{variant.label}.onnx"
    folder.mkdir(parents=True, exist_ok=True)
    if variant.external_data:
        onnx.save(model, str(toy.path), save_as_external_data=True, location=toy.path.name + ".data", size_threshold=0)
    else:
        onnx.save(model, str(toy.path))
    return toy


def _extra_outputs(variant: Variant, nodes: list, inits: list, outputs: list, rng) -> np.ndarray:
    """A second segmentation head (another 1x1 convolution, logits) and a per-image head (the
    scores' global mean, ``(N, classes)``); returns the second head's weights."""
    aux = rng.normal(size=(3, BANDS)).astype(np.float32)
    inits.append(numpy_helper.from_array(aux[:, :, None, None], "w_aux"))
    nodes += [
        helper.make_node("Conv", ["x_float", "w_aux"], ["aux"]),
        helper.make_node("GlobalAveragePool", ["conv"], ["pooled"]),
        helper.make_node("Flatten", ["pooled"], ["per_image"], axis=1),
    ]
    outputs.append(helper.make_tensor_value_info("aux", TensorProto.FLOAT, _dims(variant, 3)))
    per_image = None if variant.shape == "none" else ["N", variant.classes]
    outputs.append(helper.make_tensor_value_info("per_image", TensorProto.FLOAT, per_image))
    return aux.astype(np.float64)


def identity(folder: Path, name: str, dims: list[Any], elem: int = TensorProto.FLOAT, opset: int = 17) -> Path:
    """A model returning its input as it is, of the given input shape (for signatures that are refused)."""
    graph = helper.make_graph(
        [helper.make_node("Identity", ["x"], ["scores"])],
        name,
        [helper.make_tensor_value_info("x", elem, dims)],
        [helper.make_tensor_value_info("scores", elem, None)],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = helper.find_min_ir_version_for(list(model.opset_import))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.onnx"
    onnx.save(model, str(path))
    return path
