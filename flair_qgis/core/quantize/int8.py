"""FP32 -> INT8 with onnxruntime's quantiser, refusals first, metadata kept.

The FP32 graph first goes through onnxruntime's ``quant_pre_process`` (:func:`preprocess`): its
quantiser only quantises a convolution bias that is an initializer, and a torch export
(``dynamo=False``) computes many through ``Constant`` or ``Identity`` nodes, which left ~40
convolutions of a U-Net in FP32 between Quantize/Dequantize pairs (0.3x FP32 on 16 threads).

Static quantisation (the default) writes a QDQ model: weights INT8 per output channel
(symmetric), activations UINT8 with scales from the calibration tiles (``MinMax`` over them by
default; ``percentile`` clips the 0.01 % tails, ``entropy`` minimises the KL divergence).
onnxruntime's CPU provider fuses each ``DequantizeLinear -> Conv -> QuantizeLinear`` into an
integer convolution. Dynamic quantisation stores INT8 weights and quantises activations at run
time; onnxruntime runs it fast only for ``MatMul``, so segmentation networks (convolutions)
gain little from it. The format per CPU is decided in :func:`.cpu.choose_format`.

These defaults are the fastest setting measured on an AVX2 CPU without VNNI and on AVX-512 VNNI (docs/int8.md):
QDQ (QOperator is no faster), UINT8 activations with INT8 weights (onnxruntime's u8s8 kernels;
UINT8 weights were 25 % slower, INT8 activations 45 %), per channel (per tensor is no faster and
less accurate), full 8-bit weights (``reduce_range`` is no faster there and lost agreement), every
convolution in INT8: keeping the first and last ones in FP32 (``nodes_to_exclude``) was about 9 %
slower, since the FP32 islands add layout conversions around them.

Refused: a model that is already quantised, a model holding operators outside the ONNX standard
(the quantiser's shape inference does not know them), a model with nothing to quantise, and an
output that is the model itself. The output carries every metadata key of the input plus
``quantization`` (JSON: method, format, calibration source and tile count, seed, onnxruntime
version, the FP32 file's SHA-256 and name; :mod:`.job` adds the speed-up measured on this CPU).
The graph depends on nothing but the inputs and the seed: the same inputs give the same graph,
and only the measured timings differ between two runs.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from ..atomic import check_output_path, write_atomic
from ..errors import InputError, ModelError
from ..paths import same_path
from .cpu import Int8Format, choose_format, int8_capability

METHODS = ("static", "dynamic")
CALIBRATORS = ("minmax", "percentile", "entropy")
QUANTIZATION_KEY = "quantization"
QUANTIZED_OPS = frozenset(
    {
        "QuantizeLinear",
        "DequantizeLinear",
        "DynamicQuantizeLinear",
        "QLinearConv",
        "QLinearMatMul",
        "ConvInteger",
        "MatMulInteger",
        "QLinearAdd",
        "QLinearMul",
        "QGemm",
        "DynamicQuantizeMatMul",
    }
)
WEIGHT_OPS = frozenset({"Conv", "ConvTranspose", "MatMul", "Gemm"})
"""Operators whose weights the quantiser turns into INT8: without any, there is nothing to gain."""
SUBGRAPH_OPS = frozenset({"If", "Loop", "Scan"})
_STANDARD_DOMAINS = ("", "ai.onnx")


@dataclass(frozen=True)
class QuantizeOptions:
    """How to quantise.

    Attributes:
        method: ``static`` (calibrated, QDQ) or ``dynamic``.
        calibrator: ``minmax``, ``percentile`` or ``entropy`` (static only).
        nodes_to_exclude: node names kept in FP32.
        reduce_range: 7-bit weights, for CPUs without VNNI whose 16-bit accumulations can saturate
            (measured on AVX2: no faster, and lower agreement with FP32 than 8-bit weights).
        keep_ends_fp32: keep the first and the last Conv of the pre-processed graph in FP32 (added
            to ``nodes_to_exclude``; names are read after pre-processing).
        int8_format: the format for this CPU (:func:`.cpu.choose_format`).
    """

    method: str = "static"
    calibrator: str = "minmax"
    nodes_to_exclude: tuple[str, ...] = ()
    reduce_range: bool = False
    keep_ends_fp32: bool = False
    int8_format: Int8Format = field(default_factory=lambda: choose_format(int8_capability()))


def file_sha256(path: str) -> str:
    """Hex SHA-256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _load(path: str):
    import onnx

    try:
        return onnx.load(path)
    except Exception as err:  # onnx raises protobuf's untyped DecodeError
        raise ModelError.of("int8_model_unreadable", file=os.path.basename(path), error=str(err)[:200]) from err


def check_quantizable(model_path: str, output_path: str) -> str:
    """Refuse what cannot or should not be quantised; return the checked output path.

    Raises:
        InputError: OUTPUT is MODEL, or cannot be written.
        ModelError: the model is already quantised, holds operators the quantiser cannot handle
            (named), or has no operator with weights to quantise.
    """
    if not output_path:
        raise InputError.of("no_int8_output")
    if same_path(model_path, output_path):
        raise InputError.of("int8_output_is_model")
    output = check_output_path(output_path, "INT8 model")
    import onnx.defs

    model = _load(model_path)
    name = os.path.basename(model_path)
    nodes = list(model.graph.node)
    quantized = sorted({n.op_type for n in nodes if n.op_type in QUANTIZED_OPS})
    if quantized or any(m.key == QUANTIZATION_KEY for m in model.metadata_props):
        raise ModelError.of("already_quantised", name=name, evidence=", ".join(quantized) or "quantization metadata")
    unknown = sorted(
        {
            f"{n.domain}.{n.op_type}" if n.domain else n.op_type
            for n in nodes
            if n.domain not in _STANDARD_DOMAINS or not onnx.defs.has(n.op_type) or n.op_type in SUBGRAPH_OPS
        }
    )
    if unknown:
        raise ModelError.of("unquantisable_operators", name=name, operators=", ".join(unknown))
    if not any(n.op_type in WEIGHT_OPS for n in nodes):
        raise ModelError.of("nothing_to_quantise", name=name)
    return output


def end_convolutions(model_path: str) -> tuple[str, ...]:
    """Names of the first and the last ``Conv`` nodes (graph order), which one may keep in FP32.

    The first sees the raw normalised bands (a wide range for one scale), the last writes the
    logits whose ties decide the class: they cost little and matter most to accuracy.
    """
    convs = [n.name for n in _load(model_path).graph.node if n.op_type == "Conv"]
    if any(not name for name in convs):
        raise ModelError.of("unnamed_conv_nodes")
    return tuple(dict.fromkeys([convs[0], convs[-1]])) if convs else ()


class _TileReader:
    """onnxruntime's CalibrationDataReader over calibration tiles, one tile per call."""

    def __init__(self, input_name: str, tiles: np.ndarray) -> None:
        self.input_name = input_name
        self.tiles = tiles
        self.items: Iterator[dict[str, np.ndarray]] = iter(())
        self.rewind()

    def get_next(self) -> dict[str, np.ndarray] | None:
        return next(self.items, None)

    def rewind(self) -> None:
        self.items = iter([{self.input_name: self.tiles[i : i + 1]} for i in range(len(self.tiles))])

    def set_range(self, start_index: int, end_index: int) -> None:
        self.tiles = self.tiles[start_index:end_index]
        self.rewind()


def _reader(input_name: str, tiles: np.ndarray) -> Any:
    from onnxruntime.quantization import CalibrationDataReader

    class Reader(_TileReader, CalibrationDataReader):
        pass

    return Reader(input_name, tiles)


def _quantize_to(tmp: str, model_path: str, input_name: str, tiles: np.ndarray | None, options: QuantizeOptions):
    from onnxruntime.quantization import CalibrationMethod, QuantFormat, QuantType, quantize_dynamic, quantize_static

    excluded = list(options.nodes_to_exclude) or None
    if options.method == "dynamic":
        quantize_dynamic(
            model_path,
            tmp,
            per_channel=True,
            weight_type=QuantType.QInt8,
            nodes_to_exclude=excluded,
            reduce_range=options.reduce_range,
        )
        return
    if tiles is None or not len(tiles):
        raise InputError.of("no_calibration_tiles")
    fmt = options.int8_format
    quant_types = {"uint8": QuantType.QUInt8, "int8": QuantType.QInt8}
    calibrate_method = {
        "minmax": CalibrationMethod.MinMax,
        "percentile": CalibrationMethod.Percentile,
        "entropy": CalibrationMethod.Entropy,
    }[options.calibrator]
    quantize_static(
        model_path,
        tmp,
        _reader(input_name, tiles),
        quant_format=QuantFormat.QDQ if fmt.quant_format == "QDQ" else QuantFormat.QOperator,
        per_channel=True,
        reduce_range=options.reduce_range,
        activation_type=quant_types[fmt.activations],
        weight_type=quant_types[fmt.weights],
        nodes_to_exclude=excluded,
        calibrate_method=calibrate_method,
        calibration_providers=["CPUExecutionProvider"],
        extra_options={
            "ActivationSymmetric": fmt.activations == "int8",
            "WeightSymmetric": True,
            "CalibPercentile": 99.99,
        },
    )


def preprocess(model_path: str, prepared_path: str) -> None:
    """onnxruntime's ``quant_pre_process`` into ``prepared_path``: what its quantiser expects.

    Shape inference (a tensor of unknown shape is not quantised), then onnxruntime's basic graph
    optimisation: constants folded (a convolution bias computed by a ``Constant`` or an
    ``Identity`` node becomes an initializer, which the quantiser needs to quantise it),
    BatchNormalization fused into the preceding Conv. Symbolic shape inference, meant for
    transformers, is dropped when it fails.

    Raises:
        ModelError: pre-processing failed.
    """
    from onnxruntime.quantization.shape_inference import quant_pre_process

    try:
        quant_pre_process(model_path, prepared_path)
    except Exception:  # symbolic shape inference raises untyped errors on some graphs
        try:
            quant_pre_process(model_path, prepared_path, skip_symbolic_shape=True)
        except Exception as err:  # onnxruntime raises untyped errors
            raise ModelError.of(
                "quantise_preprocessing_failed", error_type=err.__class__.__name__, error=str(err)[:300]
            ) from err


def quantize_model(
    model_path: str, int8_path: str, input_name: str, calibration: np.ndarray | None, options: QuantizeOptions
) -> tuple[str, ...]:
    """Pre-process the FP32 model into a temporary copy (:func:`preprocess`), then quantise it.

    Args:
        model_path: the FP32 model.
        int8_path: where to write the INT8 graph (a working file; its metadata is set later by
            :func:`write_int8`).
        input_name: the model's ONNX input name.
        calibration: ``(tiles, channels, rows, cols)`` normalised calibration tiles (static).
        options: how to quantise.

    Returns:
        The names of the nodes kept in FP32.

    Raises:
        InputError: an unknown method or calibrator, no calibration tiles for static.
        ModelError: pre-processing or onnxruntime's quantiser failed.
    """
    if options.method not in METHODS:
        raise InputError.of("bad_quantize_method", choices=", ".join(METHODS), method=options.method)
    if options.calibrator not in CALIBRATORS:
        raise InputError.of("bad_calibrator", choices=", ".join(CALIBRATORS), calibrator=options.calibrator)
    with tempfile.TemporaryDirectory(prefix="flair_preprocess_") as folder:
        prepared = os.path.join(folder, "prepared.onnx")
        preprocess(model_path, prepared)
        excluded = end_convolutions(prepared) if options.keep_ends_fp32 else options.nodes_to_exclude
        try:
            _quantize_to(int8_path, prepared, input_name, calibration, replace(options, nodes_to_exclude=excluded))
        except (InputError, ModelError):
            raise
        except Exception as err:  # onnxruntime's quantiser raises untyped errors
            raise ModelError.of("quantiser_failed", error_type=err.__class__.__name__, error=str(err)[:300]) from err
    return excluded


def quantization_entry(model_path: str, options: QuantizeOptions, record: Mapping[str, Any]) -> dict[str, Any]:
    """The ``quantization`` metadata: how it was quantised, then ``record``, then the FP32 model's identity."""
    import onnxruntime

    static = options.method == "static"
    fmt = options.int8_format
    return {
        "method": options.method,
        "format": fmt.quant_format if static else "dynamic",
        "format_reason": fmt.reason if static else None,
        "weights": f"{fmt.weights} per channel",
        "activations": f"{fmt.activations} calibrated" if static else "uint8 at run time",
        "calibrator": options.calibrator if static else None,
        "reduce_range": options.reduce_range,
        "fp32_nodes": list(options.nodes_to_exclude),
        "preprocessed": True,
        **record,
        "onnxruntime": onnxruntime.__version__,
        "fp32_sha256": file_sha256(model_path),
        "fp32_file": os.path.basename(model_path),
    }


def write_int8(int8_path: str, model_path: str, output_path: str, entry: Mapping[str, Any]) -> str:
    """Write the INT8 graph to ``output_path`` with every metadata key of the FP32 model, plus ``quantization``.

    Returns:
        The SHA-256 of the file written.
    """
    import onnx

    source = _load(model_path)
    quantized = onnx.load(int8_path)
    del quantized.metadata_props[:]
    for prop in source.metadata_props:
        if prop.key != QUANTIZATION_KEY:
            quantized.metadata_props.add(key=prop.key, value=prop.value)
    quantized.metadata_props.add(key=QUANTIZATION_KEY, value=json.dumps(entry, sort_keys=True))
    payload = quantized.SerializeToString(deterministic=True)
    write_atomic(output_path, lambda tmp: _write_bytes(tmp, payload))
    return hashlib.sha256(payload).hexdigest()


def _write_bytes(path: str, payload: bytes) -> None:
    with open(path, "wb") as handle:
        handle.write(payload)


def quantization_record(metadata: Mapping[str, str]) -> dict[str, Any] | None:
    """The ``quantization`` metadata entry of a model as a dict, or None for an FP32 model."""
    raw = metadata.get(QUANTIZATION_KEY)
    if not raw:
        return None
    try:
        value = json.loads(raw)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def int8_origin(metadata: Mapping[str, str]) -> str | None:
    """The name of the FP32 model an INT8 model was made from; None for a model not made by quantising."""
    record = quantization_record(metadata)
    if record is None:
        return None
    return str(record.get("fp32_name") or record.get("fp32_file") or "?")


def calibration_names(names: Sequence[str]) -> list[str]:
    """Calibration layer names as recorded (duplicates kept once, order kept)."""
    return list(dict.fromkeys(names))
