"""Pre- and post-processing inside the model's graph, so the device does them and the host moves bytes.

At session creation the model's ONNX graph is wrapped in memory (the file is never touched):

* each input takes the raw pixels (uint8, int8, uint16, int16 or float32, as the raster holds
  them) and a boolean validity plane; the graph casts them to float32, applies the per-band
  ``pixel * scale + offset`` of :func:`.stages.normalisation` and, in a batch that has any,
  zeroes invalid pixels: the same float32 operations the host does, so the model sees
  bit-identical inputs;
* each segmentation head with a fixed channel count above one is reduced in the graph: ArgMax
  over the channels (ties to the lowest index, like :func:`.postprocess.argmax_channels`), cast
  to uint8 (uint16 above 256 classes), and when a confidence is asked for, the winner's value
  (probability heads) or its softmax probability (logit heads); ``auto`` heads also return every
  16th pixel of their scores, from which :class:`.postprocess.Postprocess` detects the activation.

Single-channel (sigmoid/threshold) heads, regression and per-image heads come back as the model
returns them and are post-processed on the host as before: a threshold after a sigmoid must give
the host's exact classes, and onnxruntime's sigmoid is not numpy's to the last bit (docs/gpu.md).
Output shapes come from ONNX shape inference (onnxruntime's, read into :class:`.model.ModelInfo`,
and onnx's, run on the graph before it is wrapped), never from the declared shapes alone: a
legal model may declare none, or a symbolic channel axis. A segmentation head whose channel
count no inference finds is post-processed on the host. A model that cannot be wrapped, for
whatever reason, runs the host path; :attr:`Fusion.notices` say why in the run's log.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import FlairError
from .half_precision import fp16_model_bytes, refuse_fp16_on_cpu
from .heads import HeadPlan
from .messages import Note
from .model import TASK_SEGMENTATION, ModelInfo, OutputSpec
from .postprocess import GraphScores
from .sessions import CUDA, SessionInfo, create_session
from .stages import normalisation

#: Raster pixel types whose ``pixel * scale + offset`` numpy computes in float32 (exactly as the graph).
RAW_DTYPES = ("uint8", "int8", "uint16", "int16", "float32")
#: Every SAMPLE_STEP-th pixel of an ``auto`` head's scores comes back for the activation detection.
SAMPLE_STEP = 16
_MIN_OPSET = 10  # Slice with steps as inputs
_PREFIX = "flair_fused."


@dataclass(frozen=True)
class FusedInput:
    """A model input fed raw: its feeds' names and the raw pixel type."""

    name: str
    raw: str
    valid: str
    dtype: str


@dataclass(frozen=True)
class FusedHead:
    """A segmentation head reduced in the graph: the names of its outputs ("" when not asked)."""

    name: str
    index: str
    best: str = ""
    softmax: str = ""
    sample: str = ""
    channels: int = 0  # as onnxruntime's shape inference gives it; 0: onnx's inference, at wrap time

    @property
    def outputs(self) -> list[str]:
        return [n for n in (self.index, self.best, self.softmax, self.sample) if n]


@dataclass(frozen=True)
class Fusion:
    """What the wrapped graph takes and returns.

    Attributes:
        inputs: the inputs fed raw (empty: the host normalises, as without a wrap).
        heads: the heads reduced in the graph.
        raw_heads: the outputs fetched as the model returns them.
        note: for the run's log: what runs in the graph, or why nothing does.
        failed: why a graph that should have been wrapped was not ("" when it was, or when
            nothing needed wrapping).
        notices: for the run's log, as warnings: what is not fused and what it costs
            (catalogued :class:`.messages.Note`).
    """

    inputs: tuple[FusedInput, ...] = ()
    heads: tuple[FusedHead, ...] = ()
    raw_heads: tuple[str, ...] = ()
    note: str = ""
    failed: str = ""
    notices: tuple[str, ...] = ()

    @property
    def wraps(self) -> bool:
        """True when the graph changes at all."""
        return bool(self.inputs or self.heads)

    @property
    def output_names(self) -> list[str]:
        """The outputs to fetch, in a fixed order."""
        return [*(n for h in self.heads for n in h.outputs), *self.raw_heads]

    def unpack(self, outputs: Mapping[str, np.ndarray]) -> dict[str, np.ndarray | GraphScores]:
        """Fetched outputs -> head name -> scores (raw heads) or :class:`GraphScores` (reduced heads)."""
        unpacked: dict[str, np.ndarray | GraphScores] = {name: outputs[name] for name in self.raw_heads}
        for head in self.heads:
            unpacked[head.name] = GraphScores(
                outputs[head.index],
                outputs[head.best] if head.best else None,
                outputs[head.softmax] if head.softmax else None,
                outputs[head.sample] if head.sample else None,
            )
        return unpacked


def _class_scores(head: OutputSpec) -> bool:
    """A per-pixel segmentation head of float scores (rank 4, or a rank no inference found)."""
    return head.task == TASK_SEGMENTATION and head.rank in (0, 4) and head.dtype in ("float32", "float16", "float64")


def _reducible(head: OutputSpec) -> bool:
    return _class_scores(head) and head.rank == 4 and head.channels is not None and head.channels > 1


def plan_fusion(model: ModelInfo, heads: HeadPlan, raw_dtypes: Sequence[str | None], want_confidence: bool) -> Fusion:
    """Decide what the wrapped graph does (nothing is built here).

    Args:
        model: the model.
        heads: what each output becomes; only the primary head may want a confidence.
        raw_dtypes: the pixel type each input's source reads (None when unknown).
        want_confidence: the primary head's confidence is written or cached.

    Returns:
        The fusion; with neither inputs nor heads when nothing can move into the graph.
    """
    notes = []
    inputs: tuple[FusedInput, ...] = ()
    if len(raw_dtypes) == len(model.inputs) and all(d in RAW_DTYPES for d in raw_dtypes):
        inputs = tuple(
            FusedInput(s.name, f"{_PREFIX}{s.name}.raw", f"{_PREFIX}{s.name}.valid", str(d))
            for s, d in zip(model.inputs, raw_dtypes)
        )
        notes.append("pixels normalised in the graph")
    else:
        shown = ", ".join(str(d) for d in raw_dtypes)
        notes.append(f"pixels normalised on the host (source pixel types: {shown})")
    reduced, raw, notices = [], [], []
    for head in heads.all:
        if not _reducible(head):
            raw.append(head.name)
            if _class_scores(head) and head.channels is None:
                notices.append(Note.of("graph_no_channel_count", name=head.name))
            continue
        confidence = want_confidence and head is heads.primary
        p = f"{_PREFIX}{head.name}."
        activation = head.activation
        reduced.append(
            FusedHead(
                head.name,
                index=p + "index",
                best=p + "best" if confidence and activation != "logits" else "",
                softmax=p + "softmax" if confidence and activation in ("logits", "auto") else "",
                sample=p + "sample" if confidence and activation == "auto" else "",
                channels=head.channels or 0,
            )
        )
    if reduced:
        notes.append(f"argmax in the graph ({', '.join(h.name for h in reduced)})")
    if raw:
        notes.append(f"host post-processing ({', '.join(raw)})")
    return Fusion(inputs, tuple(reduced), tuple(raw), "; ".join(notes), notices=tuple(notices))


def host_only(reason: str, heads: HeadPlan, notice: Note | None = None) -> Fusion:
    """The fusion of a model that runs unwrapped: every head fetched as it is.

    ``notice``, for a graph that should have been wrapped and was not, says so in the run's log.
    """
    note = f"pre- and post-processing on the host: {reason}"
    failed = reason if notice is not None else ""
    return Fusion(
        raw_heads=tuple(h.name for h in heads.all), note=note, failed=failed, notices=(notice,) if notice else ()
    )


@dataclass(frozen=True)
class WrappedModel:
    """A wrapped graph, serialised, and how its session should be laid out.

    Attributes:
        data: the model for ``onnxruntime.InferenceSession``.
        blocked_layout: onnxruntime's blocked (NCHWc) CPU layout pays here (:func:`blocked_layout_pays`).
    """

    data: bytes
    blocked_layout: bool


def blocked_layout_pays(graph: object) -> bool:
    """False for a graph whose convolutions are all 1x1 (pointwise), True otherwise.

    onnxruntime's CPU provider rewrites convolutions to a blocked channel layout and reorders
    tensors where the graph leaves it. Over 3x3 kernels that wins (1.7-1.8x on the demo U-Net
    and on 2-4 layer chains); a pointwise classifier only pays the reorders: 4-5x slower for one
    1x1 convolution, even for two (``make bench``, docs/gpu.md).
    """
    for node in graph.node:  # type: ignore[attr-defined]
        if node.op_type not in ("Conv", "ConvTranspose"):
            continue
        shape = next((list(a.ints) for a in node.attribute if a.name == "kernel_shape"), None)
        if shape is None:
            weight = next((w for w in graph.initializer if w.name == node.input[1]), None)  # type: ignore[attr-defined]
            shape = list(weight.dims[2:]) if weight is not None else [0]
        if any(k != 1 for k in shape):
            return True
    return False


def fused_model(path: str, model: ModelInfo, fusion: Fusion, model_bytes: bytes | None = None) -> WrappedModel:
    """The wrapped model, serialised for ``onnxruntime.InferenceSession``.

    ``model_bytes``, when given, is wrapped instead of the file (an FP16 conversion of it).

    Raises:
        ValueError: the graph cannot be wrapped (the message says why).
    """
    import onnx  # only inside: the plugin runs without it (create_run_session then stays on the host)

    from .graph_nodes import wrap_inputs, wrap_outputs

    proto = onnx.load_from_string(model_bytes) if model_bytes is not None else onnx.load(path)
    opset = next((o.version for o in proto.opset_import if o.domain in ("", "ai.onnx")), 0)
    if opset < _MIN_OPSET:
        raise ValueError(f"opset {opset} is older than {_MIN_OPSET}")
    graph = proto.graph
    if fusion.inputs:
        affine = {s.name: normalisation(s.mean, s.std) for s in model.inputs}
        dtypes = {s.name: s.dtype for s in model.inputs}
        wrap_inputs(graph, fusion.inputs, affine, dtypes)
    if fusion.heads:
        wrap_outputs(graph, fusion.heads, opset, SAMPLE_STEP, inferred_outputs(proto))
    data = proto.SerializeToString()
    if len(data) >= 2**31 - 1:
        raise ValueError("the model is over 2 GB")
    return WrappedModel(data, blocked_layout_pays(graph))


def inferred_outputs(proto: Any) -> dict[str, list[int | str | None] | None]:
    """Graph output name -> its dims after onnx's shape inference (ints, symbols or None; None
    for an output of unknown rank); {} when the inference itself fails (the declared shapes, and
    onnxruntime's inference in :class:`.model.ModelInfo`, are then all there is)."""
    from onnx import shape_inference

    try:
        inferred = shape_inference.infer_shapes(proto)  # a copy: the graph being wrapped is not touched
    except Exception:  # onnx raises assorted errors (and refuses graphs over 2 GB)
        return {}
    dims: dict[str, list[int | str | None] | None] = {}
    for value in inferred.graph.output:
        tensor = value.type.tensor_type
        dims[value.name] = (
            [d.dim_value if d.HasField("dim_value") else (d.dim_param or None) for d in tensor.shape.dim]
            if tensor.HasField("shape")
            else None
        )
    return dims


def onnx_available() -> bool:
    """Whether the ``onnx`` package can be imported (looked up, not imported)."""
    try:
        return importlib.util.find_spec("onnx") is not None
    except (ImportError, ValueError):  # ValueError: sys.modules["onnx"] is None (blocked)
        return False


def default_readers() -> int:
    """Reader threads by default: the usable cores minus one (onnxruntime and the writer need some)."""
    from .sessions import default_threads

    return max(1, default_threads() - 1)


def create_run_session(
    model: ModelInfo,
    heads: HeadPlan,
    raw_dtypes: Sequence[str | None],
    want_confidence: bool,
    device: str,
    threads: int | None,
    fuse: bool = True,
    precision: str = "fp32",
) -> tuple[object, SessionInfo, Fusion]:
    """The session of a run, on the wrapped graph when the model can be wrapped.

    Args:
        model, heads: the model and what its outputs become.
        raw_dtypes: each input source's pixel type (None when unknown).
        want_confidence: the primary head's confidence is written or cached.
        device, threads: as :func:`.sessions.create_session`.
        fuse: False keeps the graph as it is.
        precision: ``fp16`` converts the model first (:mod:`.half_precision`); it must run on CUDA.

    Returns:
        ``(session, info, fusion)``; ``fusion.note`` says what runs in the graph, or why nothing.

    Raises:
        InputError, ModelError: as :func:`.sessions.create_session` for the unwrapped model; fp16
            on the CPU provider (key ``fp16_cpu``); a model the fp16 converter refuses.
    """
    converted = fp16_model_bytes(model.path) if precision == "fp16" else None
    if not fuse:
        fusion = host_only("asked for", heads)
    else:
        fusion = plan_fusion(model, heads, raw_dtypes, want_confidence)
    if fusion.wraps and not onnx_available():
        fusion = host_only("the onnx package is not installed", heads, Note.of("graph_needs_onnx"))
    elif fusion.wraps:
        try:
            wrapped = fused_model(model.path, model, fusion, converted)
            session, info = create_session(
                model.path, device, threads, model_bytes=wrapped.data, blocked_layout=wrapped.blocked_layout
            )
            return _on_cuda(session, info, precision), info, fusion
        except Exception as err:  # any failure to wrap runs the host path: it never ends the run
            if isinstance(err, FlairError) and err.key in _NOT_A_WRAP_FAILURE:
                raise
            reason = _first_line(err)
            fusion = host_only(
                f"the graph could not be wrapped ({reason})", heads, Note.of("graph_not_fused", reason=reason)
            )
    session, info = create_session(model.path, device, threads, model_bytes=converted)
    return _on_cuda(session, info, precision), info, fusion


#: Errors of the session itself, not of the wrap: the unwrapped session would raise them too.
_NOT_A_WRAP_FAILURE = ("bad_device", "fp16_cpu")


def _first_line(err: BaseException) -> str:
    """What went wrong, in one short line: the error's first line, else its type."""
    text = str(err).strip().splitlines()
    return (text[0] if text else type(err).__name__)[:200]


def _on_cuda(session: object, info: SessionInfo, precision: str) -> object:
    """The session; an fp16 one that fell back to the CPU provider is refused."""
    if precision == "fp16" and info.provider != CUDA:
        refuse_fp16_on_cpu()
    return session
