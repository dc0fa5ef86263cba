"""onnxruntime sessions: execution provider choice and session options.

The provider is decided once, by :func:`decide_device`, from the device and precision asked for
and what the installed onnxruntime offers; the dock, Processing and ``scripts/flair`` show its
decision. onnxruntime-gpu on a machine without a usable CUDA logs an error and silently runs on
the CPU, so the provider that really runs is always read back from the session and reported.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..cuda import failure_reason, prepare_cuda
from ..errors import FlairError, InputError, ModelError
from .half_precision import PRECISIONS, fp16_cpu_error

DEVICES = ("auto", "cuda", "cpu")
CUDA = "CUDAExecutionProvider"
CPU = "CPUExecutionProvider"

#: CUDA provider options of every session. cuDNN's exhaustive algorithm search
#: (``cudnn_conv_algo_search``), NHWC kernels (``prefer_nhwc``) and CUDA graphs stay at
#: onnxruntime's defaults until ``bench/bench_gpu.py`` (which toggles them) measures a gain.
CUDA_OPTIONS: dict[str, str] = {"arena_extend_strategy": "kSameAsRequested"}


@dataclass(frozen=True)
class SessionInfo:
    """What was asked for and what runs.

    Attributes:
        device: the device asked for (``auto``, ``cuda``, ``cpu``).
        provider: the execution provider the session really uses.
        threads: intra-op threads of the CPU provider.
        warning: a message for the user when the run differs from the request, else ``""``.
    """

    device: str
    provider: str
    threads: int
    warning: str = ""

    @property
    def label(self) -> str:
        """Short name for messages: ``CUDA`` or ``CPU``."""
        return "CUDA" if self.provider == CUDA else "CPU"


@dataclass(frozen=True)
class DeviceDecision:
    """Which provider a run will use, decided before any session from what is asked and installed.

    Attributes:
        device: the device the run's sessions ask for (``auto``, ``cuda``, ``cpu``): the one asked,
            but ``cuda`` for ``auto`` on a worker pinned to a GPU.
        precision: the precision asked for (``fp32``, ``fp16``).
        provider: the execution provider that will run: CUDA when the device allows it and the
            installed onnxruntime offers it, else the CPU. CUDA may still fail to load: the
            :class:`SessionInfo` of the session says what ran.
        refusal: why the run cannot start as asked (an unknown device, key ``bad_device``; an
            unknown precision, key ``bad_precision``; fp16 on the CPU provider, key
            ``fp16_cpu``), else None.
    """

    device: str
    precision: str
    provider: str
    refusal: FlairError | None = None

    @property
    def label(self) -> str:
        """Short name for messages: ``CUDA`` or ``CPU``."""
        return "CUDA" if self.provider == CUDA else "CPU"

    @property
    def cuda_missing(self) -> bool:
        """CUDA was asked for by name and the CPU will run (the installed onnxruntime has no CUDA)."""
        return self.device == "cuda" and self.provider != CUDA

    @property
    def gpu_unused(self) -> bool:
        """The device allows CUDA and the CPU will run: a GPU on this machine would be left unused."""
        return self.device != "cpu" and self.provider != CUDA

    def checked(self) -> DeviceDecision:
        """This decision; its refusal raised when it has one.

        Raises:
            FlairError: :attr:`refusal`.
        """
        if self.refusal is not None:
            raise self.refusal
        return self


def decide_device(
    device: str | None, precision: str | None = "fp32", *, cuda: bool, pinned_gpu: bool = False
) -> DeviceDecision:
    """The provider a run with this device and precision will use, or why it cannot run (pure).

    Args:
        device: ``auto`` (CUDA when available), ``cuda`` or ``cpu``, any case; empty is ``auto``.
        precision: ``fp32`` or ``fp16``, any case; empty is ``fp32``.
        cuda: the installed onnxruntime offers the CUDA provider (:func:`cuda_available`).
        pinned_gpu: the run is a worker pinned to one GPU (``scripts/flair segment --gpus``),
            where ``auto`` asks for CUDA so that a CPU fallback is said, not silent.

    Returns:
        The decision; its ``refusal`` set when the run cannot start as asked.
    """
    device = (device or "auto").strip().lower()
    precision = (precision or "fp32").strip().lower()
    if pinned_gpu and device == "auto":
        device = "cuda"
    provider = CUDA if device in ("auto", "cuda") and cuda else CPU
    refusal: FlairError | None = None
    if device not in DEVICES:
        refusal = InputError.of("bad_device", choices=", ".join(DEVICES), device=device)
        provider = CPU
    elif precision not in PRECISIONS:
        refusal = InputError.of("bad_precision", choices=", ".join(PRECISIONS), precision=precision)
    elif precision == "fp16" and provider != CUDA:
        refusal = fp16_cpu_error()
    return DeviceDecision(device, precision, provider, refusal)


def cuda_available() -> bool:
    """True when the installed onnxruntime offers the CUDA provider (it may still fail to load)."""
    import onnxruntime as ort

    return CUDA in ort.get_available_providers()


def default_threads() -> int:
    """Threads for the CPU provider: every core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def create_session(
    model_path: str,
    device: str = "auto",
    threads: int | None = None,
    model_bytes: bytes | None = None,
    blocked_layout: bool = True,
):
    """Build an onnxruntime session on the requested device (options: :func:`_session_options`).

    Args:
        model_path: the ONNX file.
        device: ``auto`` (CUDA when it works, else CPU), ``cuda`` or ``cpu``.
        threads: intra-op threads for the CPU provider; default all cores.
        model_bytes: the model to load instead of the file (a graph wrapped in memory by
            :mod:`.wrapped_graph`); ``model_path`` then only names it in messages.
        blocked_layout: False turns off onnxruntime's NCHWc rewrite of CPU convolutions, which
            slows down a graph of 1x1 convolutions (:func:`.wrapped_graph.blocked_layout_pays`).

    Returns:
        ``(session, SessionInfo)``.

    Raises:
        InputError: unknown device.
        ModelError: onnxruntime cannot load the model.
    """
    import onnxruntime as ort

    decision = decide_device(device, cuda=cuda_available()).checked()
    device = decision.device
    threads = threads or default_threads()
    options = _session_options(threads)
    disabled = [] if blocked_layout else ["NchwcTransformer"]
    providers = _providers(decision)
    try:
        session = ort.InferenceSession(
            model_bytes or model_path, options, providers=providers, disabled_optimizers=disabled
        )
    except Exception as err:  # onnxruntime raises untyped errors
        raise ModelError.of("onnxruntime_cannot_load", file=os.path.basename(model_path), error=str(err)[:300]) from err
    provider = session.get_providers()[0]
    warning = _cpu_fallback_warning(device, provider)
    return session, SessionInfo(device=device, provider=provider, threads=threads, warning=warning)


def _session_options(threads: int) -> Any:
    """The options of every session, set on purpose.

    Full graph optimisation; intra-op threads on every core (the tile pipeline's own threads
    mostly wait on GDAL and queues, which release the GIL); one inter-op thread and sequential
    execution, since segmentation graphs are chains.
    """
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.log_severity_level = 3  # errors only; the provider actually used is reported by create_session
    # Idle intra-op threads sleep instead of spinning: the tile pipeline's reader and writer
    # threads need those cores between model calls.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return options


def _providers(decision: DeviceDecision) -> list:
    """The execution providers to ask for: CUDA first where the engine decided it runs, the CPU always."""
    if decision.provider == CUDA:
        prepare_cuda()  # CUDA's libraries from NVIDIA's wheels, before the first CUDA session
        return [(CUDA, dict(CUDA_OPTIONS)), CPU]
    return [CPU]


def _cpu_fallback_warning(device: str, provider: str) -> str:
    """Why a session asked for CUDA runs on the CPU; ``""`` when it runs what was asked for."""
    if provider == CUDA or not (device == "cuda" or (device == "auto" and cuda_available())):
        return ""
    reason = (
        "the installed onnxruntime has no CUDA provider (install onnxruntime-gpu)"
        if not cuda_available()
        else f"the CUDA provider failed to load: {failure_reason(prepare_cuda()) or 'check the NVIDIA driver'}"
    )
    return f"CUDA was asked for but {reason}. Running on the CPU."


def run_batch(
    session: Any, names: list[str], feeds: dict[str, np.ndarray], fixed_batch: int | None = None
) -> list[np.ndarray]:
    """``session.run`` on a batch, padded up to a model's fixed batch size and trimmed back.

    Args:
        session: the onnxruntime session.
        names: outputs to fetch.
        feeds: input name -> ``(n, ...)`` arrays, the same ``n`` for all.
        fixed_batch: the batch size a static input shape fixes, or None.

    Returns:
        The outputs, each with ``n`` items.
    """
    n = len(next(iter(feeds.values())))
    if fixed_batch is not None and n < fixed_batch:
        # Pad with copies of the last item; their outputs are dropped.
        feeds = {k: np.concatenate([v, np.repeat(v[-1:], fixed_batch - n, axis=0)]) for k, v in feeds.items()}
    return [value[:n] for value in session.run(names, feeds)]
