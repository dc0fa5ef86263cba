"""Export a PyTorch segmentation model to ONNX with flair_qgis metadata, then check it.

The file written has one input ``input`` ``(batch, channels, rows, cols)`` float32 (normalised
pixels) and one output ``logits`` ``(batch, classes, rows, cols)``; batch, rows and cols are
dynamic unless ``dynamic=False``. Metadata go to ``metadata_props`` as JSON strings (see the
README, "Model metadata"), which ``flair_qgis.core.engine.model.read_model_info`` parses.
"""

from __future__ import annotations

import json
import os
import tempfile
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
import torch
from torch import nn

OPSET = 17
DYNAMO_OPSET = 18
INPUT_NAME = "input"
OUTPUT_NAME = "logits"


class ExportCheckError(RuntimeError):
    """onnxruntime's output differs from PyTorch's by more than the tolerance."""


@dataclass(frozen=True)
class CheckFigures:
    """What the export check measured.

    Attributes:
        diff: largest ``max |onnxruntime - torch|`` over the check inputs.
        scaled: largest ``max |onnxruntime - torch| / max(1, max |torch|)``: the figure held to
            the tolerance.
        tolerance: the limit ``scaled`` stayed under.
    """

    diff: float
    scaled: float
    tolerance: float

    def line(self) -> str:
        """One line for a model card, saying which figure the limit applies to."""
        return (
            f"max |onnxruntime - PyTorch| = {self.diff:.3g}; relative to max(1, max |PyTorch|) "
            f"{self.scaled:.3g} < {self.tolerance:g}"
        )


def metadata_props(metadata: Mapping[str, Any]) -> dict[str, str]:
    """Encode every metadata value as a JSON string (``"Segmentor"`` becomes ``'"Segmentor"'``).

    Args:
        metadata: key -> any JSON-serialisable value.

    Returns:
        key -> JSON text, ready for ``onnx.helper.set_model_props``.

    Raises:
        TypeError: a value cannot be written as JSON.
    """
    return {str(key): json.dumps(value, ensure_ascii=False) for key, value in metadata.items()}


def check_onnx(
    model: nn.Module,
    path: str | os.PathLike[str],
    input_shape: tuple[int, int, int, int],
    seed: int = 0,
) -> tuple[float, float]:
    """Run the ONNX file in onnxruntime (CPU) and the model in PyTorch on one random input.

    Args:
        model: the PyTorch model (put in eval mode).
        path: the ONNX file.
        input_shape: ``(batch, channels, rows, cols)`` of the standard-normal test input.
        seed: seed of the test input.

    Returns:
        ``(max |onnx - torch|, max |torch|)`` over the whole output.
    """
    model.eval()
    generator = torch.Generator().manual_seed(seed)
    x = torch.randn(*input_shape, generator=generator)
    with torch.no_grad():
        expected = model(x).numpy()
    session = ort.InferenceSession(os.fspath(path), providers=["CPUExecutionProvider"])
    got = session.run(None, {session.get_inputs()[0].name: x.numpy()})[0]
    if got.shape != expected.shape:
        raise ExportCheckError(f"ONNX output shape {got.shape} differs from PyTorch's {expected.shape}")
    return float(np.max(np.abs(got - expected))), float(np.max(np.abs(expected)))


def export_onnx(
    model: nn.Module,
    path: str | os.PathLike[str],
    in_channels: int,
    metadata: Mapping[str, Any],
    tile: int = 512,
    dynamic: bool = True,
    tolerance: float = 1e-4,
    check: bool = True,
    log: Callable[[str], None] | None = print,
) -> float | None:
    """:func:`export_checked`, returning only the largest absolute difference (None without check)."""
    figures = export_checked(model, path, in_channels, metadata, tile, dynamic, tolerance, check, log)
    return figures.diff if figures else None


def export_checked(
    model: nn.Module,
    path: str | os.PathLike[str],
    in_channels: int,
    metadata: Mapping[str, Any],
    tile: int = 512,
    dynamic: bool = True,
    tolerance: float = 1e-4,
    check: bool = True,
    log: Callable[[str], None] | None = print,
    exporter: str = "torchscript",
) -> CheckFigures | None:
    """Write ``model`` to ``path`` as ONNX (opset 17) with ``metadata`` and check it.

    The graph is traced at ``(1, in_channels, tile, tile)``. With ``dynamic`` the batch, rows and
    cols axes are symbolic (``batch``, ``rows``, ``cols``); the check then also runs a second
    shape (batch 2, half the tile) to prove it. The file is written next to ``path`` and renamed
    into place only after the check passed, so a failed export leaves no file behind.

    The check passes when ``max |onnxruntime - torch| / max(1, max |torch|) < tolerance``: float32
    rounding grows with the output magnitude (a randomly initialised ResNet-34 U-Net gives logits
    in the thousands, and on a 512x512 tile even PyTorch float32 differs from float64 by ~2e-4
    for logits of ~7), so for logits of order 1 this is the absolute criterion, and for large
    logits a relative one.

    Args:
        model: the network; it is switched to eval mode (batch norm uses running statistics).
        path: the ``.onnx`` file to write.
        in_channels: input channels.
        metadata: values for ``metadata_props`` (any JSON-serialisable values; encoded as JSON).
        tile: rows and cols of the tracing input and of the check input.
        dynamic: symbolic batch/rows/cols axes (else all fixed at the tracing shape).
        tolerance: largest accepted ``max |onnxruntime - torch| / max(1, max |torch|)``.
        check: compare onnxruntime with PyTorch (else return None without checking).
        log: where the check figures go (None: nowhere).
        exporter: ``torchscript`` (the default) or ``dynamo`` (``torch.onnx.export(dynamo=True)``,
            opset 18) for graphs the TorchScript tracer cannot export with symbolic sizes, such
            as UPerNet's pyramid pooling: always at the fixed ``(1, in_channels, tile, tile)``.

    Returns:
        The check's figures, or None without check.

    Raises:
        ExportCheckError: onnxruntime disagrees with PyTorch beyond ``tolerance``.
        onnx.checker.ValidationError: the written graph is not valid ONNX.
    """
    path = os.fspath(path)
    model = model.eval()
    dynamic = dynamic and exporter == "torchscript"
    props = metadata_props(metadata)
    dummy = torch.zeros(1, in_channels, tile, tile)
    dynamic_axes = (
        {INPUT_NAME: {0: "batch", 2: "rows", 3: "cols"}, OUTPUT_NAME: {0: "batch", 2: "rows", 3: "cols"}}
        if dynamic
        else None
    )
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    handle, temp_path = tempfile.mkstemp(suffix=".onnx.part", dir=folder)
    os.close(handle)
    try:
        if exporter == "dynamo":
            _export_dynamo(model, dummy, temp_path)
        else:
            with warnings.catch_warnings():
                # torch >= 2.9 warns that the TorchScript exporter is legacy; it is the one that
                # needs no onnxscript and gives a plain static graph with symbolic dims.
                warnings.simplefilter("ignore", DeprecationWarning)
                with torch.no_grad():
                    torch.onnx.export(
                        model,
                        (dummy,),
                        temp_path,
                        input_names=[INPUT_NAME],
                        output_names=[OUTPUT_NAME],
                        dynamic_axes=dynamic_axes,
                        opset_version=OPSET,
                        do_constant_folding=True,
                        dynamo=False,
                    )
        proto = onnx.load(temp_path)  # external data, if the exporter wrote some, is read in
        for leftover in (temp_path + ".data", os.path.join(folder, os.path.basename(temp_path) + ".data")):
            if os.path.exists(leftover):
                os.remove(leftover)
        del proto.metadata_props[:]
        onnx.helper.set_model_props(proto, props)
        proto.producer_name = "flair_qgis tools"
        if "description" in metadata:
            proto.doc_string = str(metadata["description"])
        onnx.checker.check_model(proto)
        onnx.save(proto, temp_path)

        figures = None
        if check:
            shapes = [(1, in_channels, tile, tile)]
            if dynamic:
                half = max(32, (tile // 2) // 32 * 32)
                shapes.append((2, in_channels, half, half))
            worst, worst_scaled = 0.0, 0.0
            for seed, shape in enumerate(shapes):
                diff, magnitude = check_onnx(model, temp_path, shape, seed=seed)
                scaled = diff / max(1.0, magnitude)
                if log is not None:
                    log(
                        f"onnx check: input {shape}: max |onnxruntime - torch| = {diff:.3g} "
                        f"(max |torch| = {magnitude:.3g}, scaled {scaled:.3g})"
                    )
                worst, worst_scaled = max(worst, diff), max(worst_scaled, scaled)
            if not worst_scaled < tolerance:
                raise ExportCheckError(
                    f"onnxruntime differs from PyTorch by {worst:.3g}, {worst_scaled:.3g} relative to "
                    f"max(1, max |torch|) (tolerance {tolerance:g})"
                )
            figures = CheckFigures(worst, worst_scaled, tolerance)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temp_path, 0o666 & ~umask)  # mkstemp made it private; give it the usual mode
        os.replace(temp_path, path)
        return figures
    finally:
        if os.path.exists(temp_path):
            os.remove(temp_path)


def _export_dynamo(model: nn.Module, dummy: torch.Tensor, path: str) -> None:
    """``torch.onnx.export(dynamo=True)`` at the dummy's fixed shape, opset 18, to ``path``."""
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")
        program = torch.onnx.export(
            model,
            (dummy,),
            dynamo=True,
            opset_version=DYNAMO_OPSET,
            input_names=[INPUT_NAME],
            output_names=[OUTPUT_NAME],
            verbose=False,
        )
    program.save(path, external_data=False)
