"""Error maps: where a prediction agrees with the reference, where not, and which class was missed.

Codes of the error map (uint8, uint16 when there are more than 253 classes):

* ``0`` not evaluated: nodata or outside either layer, ignored value, or a class the protocol
  drops (transparent);
* ``1`` correct (light grey, transparent by default: the photo shows where the model is right);
* ``2 + i`` wrong, the reference class ``classes[i]`` was missed: one strong red scale, opaque,
  never the class colours, so an error map cannot be mistaken for a class map.

The style travels with the file: GDAL colour table and category names, and a ``.qml`` with
per-entry transparency.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..engine.geotiff import qml_style
from ..nomenclature import ClassInfo
from .protocols import Protocol

NOT_EVALUATED = 0
CORRECT = 1
FIRST_MISSED = 2
_NOT_EVALUATED_COLOR = "#bdbdbd"
_CORRECT_COLOR = "#e0e0e0"
# Wrong pixels: a red scale from bright red to dark crimson, one shade per missed class.
_WRONG_LIGHT = (0xFC, 0x4E, 0x2A)
_WRONG_DARK = (0x80, 0x00, 0x26)
ERROR_ALPHA = {NOT_EVALUATED: 0, CORRECT: 0}
ERROR_OPACITY = 0.6
"""Layer opacity of the error map: the photo under a suspicious polygon stays readable."""
"""Per-code alpha (0..255) of the error map's style; codes not listed are opaque."""

ERROR_WORDS = ("not evaluated", "correct", "missed: {name} ({value})")
"""Legend wording of the error map: not evaluated, correct, a missed reference class."""


def wrong_color(index: int, count: int) -> str:
    """The colour of the ``index``-th of ``count`` missed classes on the red scale (``#rrggbb``)."""
    share = index / (count - 1) if count > 1 else 0.0
    rgb = (round(a + (b - a) * share) for a, b in zip(_WRONG_LIGHT, _WRONG_DARK))
    return "#" + "".join(f"{v:02x}" for v in rgb)


def error_classes(classes: Sequence[ClassInfo], words: Sequence[str] = ERROR_WORDS) -> tuple[ClassInfo, ...]:
    """Legend entries of an error map whose matrix classes are ``classes``.

    Args:
        classes: the matrix classes, in order (code ``2 + i`` is ``classes[i]`` missed).
        words: the wording (:data:`ERROR_WORDS`, or a translation of it with the same fields).
    """
    not_evaluated, correct, missed = words
    return (
        ClassInfo(NOT_EVALUATED, not_evaluated, _NOT_EVALUATED_COLOR),
        ClassInfo(CORRECT, correct, _CORRECT_COLOR),
        *(
            ClassInfo(FIRST_MISSED + i, missed.format(name=c.name, value=c.value), wrong_color(i, len(classes)))
            for i, c in enumerate(classes)
        ),
    )


def error_dtype(classes: Sequence[ClassInfo]) -> str:
    """uint8 when the codes fit, else uint16."""
    return "uint8" if len(classes) + FIRST_MISSED <= 255 else "uint16"


def error_code(protocol: Protocol, index: dict[int, int], evaluated: frozenset[int], ref: int, pred: int) -> int:
    """The error-map code of one raw ``(reference, prediction)`` pair.

    Args:
        protocol: regrouping, ignored values, dropped classes.
        index: class value -> position in the matrix classes.
        evaluated: evaluated class values.
        ref: raw reference value.
        pred: raw prediction value.
    """
    if ref in protocol.ignore or pred in protocol.ignore:
        return NOT_EVALUATED
    r, p = protocol.class_value(ref), protocol.class_value(pred)
    if r not in index or p not in index:
        return NOT_EVALUATED
    if protocol.drop_excluded and (r not in evaluated or p not in evaluated):
        return NOT_EVALUATED
    return CORRECT if r == p else FIRST_MISSED + index[r]


def uint8_lut(protocol: Protocol, classes: Sequence[ClassInfo], dtype: str) -> np.ndarray:
    """Error code of every ``reference * 256 + prediction`` pair of uint8 values (65 536 entries)."""
    index = {c.value: i for i, c in enumerate(classes)}
    evaluated = frozenset(protocol.evaluated or index)
    lut = np.empty(256 * 256, dtype=dtype)
    for ref in range(256):
        for pred in range(256):
            lut[ref * 256 + pred] = error_code(protocol, index, evaluated, ref, pred)
    return lut


def error_window(
    protocol: Protocol,
    classes: Sequence[ClassInfo],
    *,
    reference: np.ndarray,
    prediction: np.ndarray,
    valid: np.ndarray,
    dtype: str,
    lut: np.ndarray | None,
) -> np.ndarray:
    """Error codes of a window (``0`` where ``valid`` is False)."""
    if lut is not None and reference.dtype == np.uint8 and prediction.dtype == np.uint8:
        codes = reference.astype(np.uint16)
        codes <<= 8
        codes |= prediction
        out = lut[codes]
    else:
        index = {c.value: i for i, c in enumerate(classes)}
        evaluated = frozenset(protocol.evaluated or index)
        packed = (reference.astype(np.int64) << 32) | (prediction.astype(np.int64) & 0xFFFFFFFF)
        unique, inverse = np.unique(packed.ravel(), return_inverse=True)
        refs = (unique >> 32).tolist()
        preds = (unique & 0xFFFFFFFF).astype(np.uint32).view(np.int32).tolist()
        mapped = np.array([error_code(protocol, index, evaluated, r, p) for r, p in zip(refs, preds)], dtype=dtype)
        out = mapped[inverse].reshape(reference.shape)
    out[~valid] = NOT_EVALUATED
    return out


def error_qml(legend: Sequence[ClassInfo]) -> str:
    """A QGIS paletted style for an error map from its legend (:func:`error_classes`).

    The layer is drawn at :data:`ERROR_OPACITY` (the photo stays readable under an error); "correct"
    and "not evaluated" are transparent (a user may give "correct" its grey back in the legend).
    """
    return qml_style(legend, opacity=ERROR_OPACITY, alpha=ERROR_ALPHA)
