"""Streaming confusion matrix and the report derived from it under a :class:`Protocol`.

:class:`ConfusionMatrix` counts ``(reference value, prediction value)`` pairs of raw pixel
values, window by window: memory does not depend on the area scored. For ``uint8`` pairs it is
one ``np.bincount`` of ``reference * 256 + prediction`` over a 65 536-bin table; wider integer
values go through ``np.unique`` on packed 64-bit pair codes. Raw pairs are kept so that any
protocol (regrouping, ignored values, evaluated classes) can be applied afterwards.

:func:`build_report` turns the counts into the report of DESIGN.md. With ``M`` the confusion
matrix (rows = reference, columns = prediction) over the protocol's classes:

* ``TP_c = M[c, c]``, ``FP_c = sum_r M[r, c] - TP_c``, ``FN_c = sum_k M[c, k] - TP_c``;
* ``IoU_c = TP_c / (TP_c + FP_c + FN_c)``; a class with ``TP + FP + FN = 0`` (absent from both
  sides) counts as the protocol says: skipped (null), 1.0 or 0.0;
* ``precision_c = TP_c / (TP_c + FP_c)``, ``recall_c = TP_c / (TP_c + FN_c)`` (0.0 when the
  denominator is 0 and the class is present on the other side), ``F1 = 2PR / (P + R)``;
* ``support_c`` = reference pixels of class c;
* ``mIoU`` = mean of the non-null IoU of the evaluated classes; ``OA = trace(M) / sum(M)``.

Public entry points: :class:`ConfusionMatrix`, :func:`build_scores` (typed :class:`Scores`),
:func:`build_report` (the same as the JSON document), :func:`class_matrix`, :func:`undeclared_error`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import InputError, listed
from ..nomenclature import ClassInfo, default_color
from .protocols import Protocol
from .result import ClassScore, Scores

_UINT8_BINS = 256 * 256


def _as_integer(array: np.ndarray, what: str) -> np.ndarray:
    """Integer view of a class raster window; floats must hold whole numbers."""
    if array.dtype.kind in "iub":
        return array
    if array.dtype.kind == "f":
        finite = np.isfinite(array)
        if not finite.all() or not np.array_equal(array, np.floor(array)):
            raise InputError.of("non_integer_classes", what=what)
        return array.astype(np.int64)
    raise InputError.of("not_class_values", what=what, dtype=array.dtype)


class ConfusionMatrix:
    """Counts of raw ``(reference, prediction)`` value pairs, accumulated window by window.

    Values may be any integers (0..255 take the fast path). Memory is a 65 536-entry table plus
    one entry per distinct pair outside 0..255.
    """

    def __init__(self) -> None:
        self._dense = np.zeros(_UINT8_BINS, dtype=np.int64)
        self._sparse: dict[tuple[int, int], int] = {}

    def update(self, reference: np.ndarray, prediction: np.ndarray, valid: np.ndarray | None = None) -> None:
        """Add the pixels of one window.

        Args:
            reference: reference class values, any shape.
            prediction: predicted class values, same shape.
            valid: boolean mask of the same shape; False pixels are not counted. None = all.

        Raises:
            InputError: shapes differ, or a raster holds non-integer values.
        """
        if reference.shape != prediction.shape:
            raise InputError.of("window_shapes_differ", reference=reference.shape, prediction=prediction.shape)
        if valid is not None:
            if valid.shape != reference.shape:
                raise InputError.of("mask_shape_differs")
            if not valid.all():
                reference = reference[valid]
                prediction = prediction[valid]
        if reference.size == 0:
            return
        reference = _as_integer(reference, "reference")
        prediction = _as_integer(prediction, "prediction")
        reference = _narrow_to_uint8(reference)
        prediction = _narrow_to_uint8(prediction)
        if reference.dtype == np.uint8 and prediction.dtype == np.uint8:
            codes = reference.astype(np.uint16).ravel()
            codes <<= 8
            codes |= prediction.ravel()
            self._dense += np.bincount(codes, minlength=_UINT8_BINS)
            return
        packed = (reference.astype(np.int64).ravel() << 32) | (prediction.astype(np.int64).ravel() & 0xFFFFFFFF)
        unique, counts = np.unique(packed, return_counts=True)
        ref_values = (unique >> 32).astype(np.int64)
        pred_values = (unique & 0xFFFFFFFF).astype(np.uint32).view(np.int32).astype(np.int64)
        for r, p, n in zip(ref_values.tolist(), pred_values.tolist(), counts.tolist()):
            if 0 <= r < 256 and 0 <= p < 256:
                self._dense[r * 256 + p] += n
            else:
                self._sparse[(r, p)] = self._sparse.get((r, p), 0) + n

    def merge(self, other: ConfusionMatrix) -> None:
        """Add the counts of another matrix (e.g. one per patch or per worker)."""
        self._dense += other._dense
        for key, n in other._sparse.items():
            self._sparse[key] = self._sparse.get(key, 0) + n

    def pairs(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(reference_values, prediction_values, counts)`` of every pair counted at least once."""
        nonzero = np.flatnonzero(self._dense)
        refs = [nonzero // 256]
        preds = [nonzero % 256]
        counts = [self._dense[nonzero]]
        if self._sparse:
            keys = np.array(list(self._sparse.keys()), dtype=np.int64)
            refs.append(keys[:, 0])
            preds.append(keys[:, 1])
            counts.append(np.array(list(self._sparse.values()), dtype=np.int64))
        return np.concatenate(refs).astype(np.int64), np.concatenate(preds).astype(np.int64), np.concatenate(counts)

    @property
    def total(self) -> int:
        """Pixels counted."""
        return int(self._dense.sum()) + sum(self._sparse.values())

    def reference_values(self) -> list[int]:
        """Distinct reference values counted."""
        return sorted(set(self.pairs()[0].tolist()))

    def prediction_values(self) -> list[int]:
        """Distinct prediction values counted."""
        return sorted(set(self.pairs()[1].tolist()))


def _narrow_to_uint8(array: np.ndarray) -> np.ndarray:
    """The array as uint8 when every value fits (one min/max pass), else unchanged."""
    if array.dtype == np.uint8:
        return array
    if array.dtype == np.bool_:
        return array.view(np.uint8)
    if array.min() >= 0 and array.max() <= 255:
        return array.astype(np.uint8)
    return array


@dataclass(frozen=True)
class ClassMatrix:
    """The confusion matrix over a protocol's classes, and what was left out of it.

    Attributes:
        classes: matrix classes in order (rows and columns).
        matrix: ``(K, K)`` int64 counts, rows = reference, columns = prediction.
        ignored_px: pixels dropped because one side held an ignored value.
        undeclared: ``{"reference": {value: px}, "prediction": {value: px}}`` of values that are
            neither classes nor ignored (after regrouping).
    """

    classes: tuple[ClassInfo, ...]
    matrix: np.ndarray
    ignored_px: int
    undeclared: dict[str, dict[int, int]]


def class_matrix(matrix: ConfusionMatrix, protocol: Protocol) -> ClassMatrix:
    """Apply a protocol's ignored values and regrouping to the raw counts.

    Pixels holding an ignored raw value on either side are dropped; both sides are regrouped
    with ``protocol.remap``; an open (custom) protocol takes the values found as classes.
    """
    refs, preds, counts = matrix.pairs()
    ignore = np.array(sorted(protocol.ignore), dtype=np.int64)
    dropped = np.isin(refs, ignore) | np.isin(preds, ignore)
    ignored_px = int(counts[dropped].sum())
    refs, preds, counts = refs[~dropped], preds[~dropped], counts[~dropped]
    if protocol.remap:
        refs = np.array([protocol.class_value(v) for v in refs.tolist()], dtype=np.int64)
        preds = np.array([protocol.class_value(v) for v in preds.tolist()], dtype=np.int64)
    if protocol.is_open:
        found = sorted(set(refs.tolist()) | set(preds.tolist()))
        classes: tuple[ClassInfo, ...] = tuple(
            ClassInfo(v, f"class {v}", default_color(i)) for i, v in enumerate(found)
        )
    else:
        classes = protocol.classes
    index = {c.value: i for i, c in enumerate(classes)}
    undeclared: dict[str, dict[int, int]] = {"reference": {}, "prediction": {}}
    k = len(classes)
    full = np.zeros((k, k), dtype=np.int64)
    for r, p, n in zip(refs.tolist(), preds.tolist(), counts.tolist()):
        ri, pi = index.get(r), index.get(p)
        if ri is None:
            undeclared["reference"][r] = undeclared["reference"].get(r, 0) + n
        if pi is None:
            undeclared["prediction"][p] = undeclared["prediction"].get(p, 0) + n
        if ri is not None and pi is not None:
            full[ri, pi] += n
    return ClassMatrix(classes, full, ignored_px, undeclared)


def undeclared_params(protocol: Protocol, undeclared: dict[str, dict[int, int]]) -> dict[str, Any]:
    """The facts of an undeclared-values message: protocol, ``reference``/``prediction`` values
    (``"v (n px)"``, by value), the protocol's class values."""
    sides = {
        side: [f"{v} ({n} px)" for v, n in sorted((undeclared.get(side) or {}).items())]
        for side in ("reference", "prediction")
    }
    return {"protocol": protocol.name, **sides, "classes": [c.value for c in protocol.classes]}


def undeclared_error(protocol: Protocol, undeclared: dict[str, dict[int, int]]) -> InputError | None:
    """The refusal naming values that are neither classes nor ignored (at most 5 per side, then
    "… and N more"; Processing's parameter names in English); None when there are none."""
    params = undeclared_params(protocol, undeclared)
    parts = [f"{side} value(s) {listed(params[side])}" for side in ("reference", "prediction") if params[side]]
    if not parts:
        return None
    class_map = (
        ", say which code each prediction value is with CLASS_MAP (value:code,...)" if params["prediction"] else ""
    )
    return InputError.of("undeclared_values", **params, values="; ".join(parts), class_map=class_map)


def build_scores(matrix: ConfusionMatrix, protocol: Protocol, *, strict: bool = True) -> Scores:
    """The figures of a confusion matrix under a protocol.

    Args:
        matrix: raw pair counts.
        protocol: how values become classes and how IoU are averaged.
        strict: raise on values the protocol does not declare (else they are listed in
            ``undeclared_values`` and left out).

    Returns:
        The typed figures; :meth:`Scores.to_report` is the report of DESIGN.md.

    Raises:
        InputError: (strict) values neither declared nor ignored; the message lists them.
    """
    cm = class_matrix(matrix, protocol)
    error = undeclared_error(protocol, cm.undeclared)
    if error is not None and strict:
        raise error
    if protocol.is_open:
        protocol = protocol.with_classes(cm.classes)
    used, labels, evaluated = _scored_matrix(cm, protocol)
    rows, ious, absent_values = _class_rows(used, labels, evaluated, protocol.absent)
    total = int(used.sum())
    undeclared = None
    if error is not None:
        undeclared = {side: {str(v): n for v, n in found.items()} for side, found in cm.undeclared.items()}
    return Scores(
        protocol=protocol.name,
        miou=float(np.mean(ious)) if ious else None,
        oa=float(np.trace(used) / total) if total else None,
        pixels_evaluated=total,
        pixels_ignored=cm.ignored_px,
        pixels_excluded=int(cm.matrix.sum()) - total,
        absent_class_score=protocol.absent,
        absent_classes=tuple(absent_values),
        classes=tuple(rows),
        confusion_matrix=tuple(tuple(row) for row in used.tolist()),
        confusion_labels=tuple(c.value for c in labels),
        confusion_names=tuple(c.name for c in labels),
        protocol_details=protocol.to_dict(),
        undeclared_values=undeclared,
    )


def build_report(matrix: ConfusionMatrix, protocol: Protocol, *, strict: bool = True) -> dict:
    """The DESIGN.md report JSON of a confusion matrix: :func:`build_scores` as a document that
    callers extend before publishing it (the benchmark adds its protocol's other metrics).

    Returns:
        ``{"protocol", "miou", "oa", "pixels_evaluated", "absent_class_score", "classes":
        [{value, name, iou, precision, recall, f1, support}], "confusion_matrix",
        "confusion_labels", ...}``: fractions in 0..1, ``None`` where undefined.

    Raises:
        InputError: (strict) values neither declared nor ignored; the message lists them.
    """
    return build_scores(matrix, protocol, strict=strict).to_report()


def _scored_matrix(cm: ClassMatrix, protocol: Protocol) -> tuple[np.ndarray, list[ClassInfo], list[int]]:
    """The matrix the figures come from, its classes, and the evaluated class values.

    FLAIR-HUB style (``drop_excluded``): rows and columns of non-evaluated classes are deleted.
    """
    values = [c.value for c in cm.classes]
    evaluated = [v for v in (protocol.evaluated or values) if v in values]
    if not protocol.drop_excluded:
        return cm.matrix, list(cm.classes), evaluated
    keep = [values.index(v) for v in values if v in evaluated]
    return cm.matrix[np.ix_(keep, keep)], [cm.classes[i] for i in keep], evaluated


def _class_rows(
    used: np.ndarray, labels: list[ClassInfo], evaluated: list[int], absent: str
) -> tuple[list[ClassScore], list[float], list[int]]:
    """Per evaluated class: IoU, precision, recall, F1, support; the IoU averaged; the absent classes."""
    label_values = [c.value for c in labels]
    tp = np.diag(used).astype(np.int64)
    predicted, actual = used.sum(axis=0), used.sum(axis=1)
    rows, ious, absent_values = [], [], []
    for value in evaluated:
        i = label_values.index(value)
        t, p_all, a_all = int(tp[i]), int(predicted[i]), int(actual[i])
        union = p_all + a_all - t
        if union == 0:
            absent_values.append(value)
            score = {"skip": None, "one": 1.0, "zero": 0.0}[absent]
            iou = precision = recall = f1 = score
        else:
            iou = t / union
            precision = t / p_all if p_all else 0.0
            recall = t / a_all if a_all else 0.0
            f1 = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
        if iou is not None:
            ious.append(iou)
        rows.append(ClassScore(value, labels[i].name, iou, precision, recall, f1, a_all))
    return rows, ious, absent_values
