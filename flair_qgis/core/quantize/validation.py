"""INT8 against FP32 on held-out tiles: pixel agreement and per-class IoU (FP32 as reference).

For class ``c``, with FP32 as the reference and INT8 as the prediction, over valid pixels:
``TP = #(fp32 == c and int8 == c)``, ``FP = #(int8 == c and fp32 != c)``,
``FN = #(fp32 == c and int8 != c)``, ``IoU = TP / (TP + FP + FN)`` (None when ``c`` appears on
neither side). Agreement is ``#(int8 == fp32) / #valid``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..engine.heads import plan_heads
from ..engine.model import ModelInfo
from ..engine.postprocess import Postprocess
from ..engine.sessions import create_session, run_batch
from ..errors import Canceled

AGREEMENT_WARNING = 0.98
#: The warning of an agreement below :data:`AGREEMENT_WARNING`.
LOW_AGREEMENT = (
    f"INT8 agrees with FP32 on less than {100 * AGREEMENT_WARNING:g} % of pixels: compare its class maps before "
    "using it, or calibrate on more tiles."
)
"""Below this pixel agreement the INT8 model is flagged: check it before using it."""


@dataclass(frozen=True)
class ClassAgreement:
    """One class of the comparison.

    Attributes:
        index: output index of the class.
        value: the class value written to class maps.
        name: the class name.
        iou: IoU of INT8 against FP32, None when the class is on neither side.
        fp32_pixels: pixels FP32 gives the class.
        int8_pixels: pixels INT8 gives the class.
    """

    index: int
    value: int
    name: str
    iou: float | None
    fp32_pixels: int
    int8_pixels: int


@dataclass(frozen=True)
class Agreement:
    """INT8 against FP32 on the validation tiles.

    Attributes:
        agreement: share of valid pixels where both give the same class (0..1).
        pixels: valid pixels compared.
        tiles: tiles compared.
        classes: per-class figures, in output order.
    """

    agreement: float
    pixels: int
    tiles: int
    classes: tuple[ClassAgreement, ...]

    @property
    def below_threshold(self) -> bool:
        """True when agreement is below :data:`AGREEMENT_WARNING`."""
        return self.agreement < AGREEMENT_WARNING

    @property
    def warning(self) -> str:
        """:data:`LOW_AGREEMENT` when the agreement is below the threshold, else ``""``."""
        return LOW_AGREEMENT if self.below_threshold else ""


def compare_class_maps(
    fp32: np.ndarray, int8: np.ndarray, valid: np.ndarray, model: ModelInfo, tiles: int = 1
) -> Agreement:
    """Agreement and per-class IoU of two class-index maps of the same shape.

    Args:
        fp32: class indices of the FP32 model (any shape).
        int8: class indices of the INT8 model (same shape).
        valid: boolean, True where pixels count (same shape).
        model: gives the class values and names.
        tiles: how many tiles the maps hold (reported).
    """
    a = fp32[valid].astype(np.int64)
    b = int8[valid].astype(np.int64)
    head = plan_heads(model).primary
    count = max(len(head.classes), int(a.max(initial=-1)) + 1, int(b.max(initial=-1)) + 1)
    confusion = np.bincount(a * count + b, minlength=count * count).reshape(count, count)
    tp = np.diag(confusion)
    fp32_pixels, int8_pixels = confusion.sum(axis=1), confusion.sum(axis=0)
    union = fp32_pixels + int8_pixels - tp
    classes = []
    for index in range(count):
        info = head.classes[index] if index < len(head.classes) else None
        classes.append(
            ClassAgreement(
                index=index,
                value=info.value if info else index,
                name=info.name if info else str(index),
                iou=float(tp[index] / union[index]) if union[index] else None,
                fp32_pixels=int(fp32_pixels[index]),
                int8_pixels=int(int8_pixels[index]),
            )
        )
    agreement = float(tp.sum() / a.size) if a.size else 1.0
    return Agreement(agreement=agreement, pixels=int(a.size), tiles=tiles, classes=tuple(classes))


def class_maps(
    model_path: str,
    model: ModelInfo,
    inputs: np.ndarray,
    *,
    batch_size: int = 2,
    threads: int | None = None,
    session: Any = None,
    is_canceled: Callable[[], bool] = lambda: False,
) -> np.ndarray:
    """Class indices the model gives each tile, exactly as a run turns scores into classes.

    Args:
        model_path: the ONNX file to run (FP32 or INT8).
        model: its description (inputs, primary head, threshold).
        inputs: ``(tiles, channels, rows, cols)`` normalised tiles.
        session: an onnxruntime session of ``model_path`` already built (then ``threads`` is unused).

    Returns:
        ``(tiles, out_rows, out_cols)`` class indices.
    """
    if session is None:
        session, _info = create_session(model_path, "cpu", threads)
    head = plan_heads(model).primary
    post = Postprocess(head, model.seg_threshold, want_confidence=False)
    maps: list[np.ndarray] = []
    for start in range(0, len(inputs), batch_size):
        if is_canceled():
            raise Canceled()
        (scores,) = run_batch(
            session, [head.name], {model.input.name: inputs[start : start + batch_size]}, model.input.fixed_batch
        )
        for item in scores:
            maps.append(post(item, (slice(None), slice(None)))[0])
    return np.stack(maps)


def centred_valid(valid: np.ndarray, shape: Sequence[int]) -> np.ndarray:
    """The validity of tiles cropped to a model output centred on them (same when same size)."""
    rows, cols = int(shape[-2]), int(shape[-1])
    dr, dc = (valid.shape[-2] - rows) // 2, (valid.shape[-1] - cols) // 2
    return valid[..., dr : dr + rows, dc : dc + cols]
