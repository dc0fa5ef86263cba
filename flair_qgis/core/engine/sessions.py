"""onnxruntime sessions: execution provider choice and session options.

onnxruntime-gpu on a machine without a usable CUDA logs an error and silently runs on the CPU,
so the provider that really runs is always read back from the session and reported.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..cuda import failure_reason, prepare_cuda
from ..errors import InputError, ModelError

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
    """Build an onnxruntime session on the requested device.

    Session options are set on purpose: full graph optimisation; intra-op threads on every core
    (the tile pipeline's own threads mostly wait on GDAL and queues, which release the GIL);
    one inter-op thread and sequential execution, since segmentation graphs are chains.

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

    device = (device or "auto").lower()
    if device not in DEVICES:
        raise InputError.of("bad_device", choices=", ".join(DEVICES), device=device)
    threads = threads or default_threads()
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.log_severity_level = 3  # errors only; the provider actually used is reported below
    # Idle intra-op threads sleep instead of spinning: the tile pipeline's reader and writer
    # threads need those cores between model calls.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")

    disabled = [] if blocked_layout else ["NchwcTransformer"]
    providers: list = [CPU]
    if device in ("auto", "cuda") and cuda_available():
        prepare_cuda()  # CUDA's libraries from NVIDIA's wheels, before the first CUDA session
        providers = [(CUDA, dict(CUDA_OPTIONS)), CPU]
    try:
        session = ort.InferenceSession(
            model_bytes or model_path, options, providers=providers, disabled_optimizers=disabled
        )
    except Exception as err:  # onnxruntime raises untyped errors
        raise ModelError.of("onnxruntime_cannot_load", file=os.path.basename(model_path), error=str(err)[:300]) from err
    provider = session.get_providers()[0]
    warning = ""
    if provider != CUDA and (device == "cuda" or (device == "auto" and cuda_available())):
        reason = (
            "the installed onnxruntime has no CUDA provider (install onnxruntime-gpu)"
            if not cuda_available()
            else f"the CUDA provider failed to load: {failure_reason(prepare_cuda()) or 'check the NVIDIA driver'}"
        )
        warning = f"CUDA was asked for but {reason}. Running on the CPU."
    return session, SessionInfo(device=device, provider=provider, threads=threads, warning=warning)


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
