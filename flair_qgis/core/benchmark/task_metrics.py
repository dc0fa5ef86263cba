"""Per-image metrics of multi-task benchmarks (WeedSense): height regression and growth stage.

Both accumulators stream: they keep a few sums (regression) or a small confusion matrix
(classification), never the list of samples, so memory does not grow with the dataset.

Regression (``y`` the reference, ``p`` the prediction, ``e = p - y``, ``n`` samples):
``MAE = sum|e| / n``, ``RMSE = sqrt(sum e^2 / n)``, ``R^2 = 1 - sum e^2 / sum (y - mean(y))^2``,
``max error = max|e|``, ``within k = #{|e| <= k} / n``.

Classification (growth weeks 1..11 are classes, not numbers): ``accuracy = #{p == y} / n``;
``F1`` is the macro average over the classes that occur in the reference or the prediction of
``2 TP / (2 TP + FP + FN)`` (scikit-learn's ``f1_score(average="macro")``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from ..errors import InputError

WITHIN_CM = (1.0, 2.0, 5.0)


class RegressionMetrics:
    """Streaming MAE, RMSE, R², max error and within-k rates of a scalar per sample.

    Args:
        within: the tolerances ``k`` (in the unit of the values) of the within-k rates.
    """

    def __init__(self, within: Sequence[float] = WITHIN_CM) -> None:
        self.within = tuple(float(k) for k in within)
        self.count = 0
        self.sum_abs = 0.0
        self.sum_sq = 0.0
        self.max_abs = 0.0
        self.within_counts = [0] * len(self.within)
        # Welford running mean and sum of squared deviations of the reference, for R².
        self._mean_y = 0.0
        self._m2_y = 0.0

    def update(self, reference: float, prediction: float) -> float:
        """Add one sample; returns its absolute error.

        Raises:
            InputError: a value is not finite.
        """
        y, p = float(reference), float(prediction)
        if not (math.isfinite(y) and math.isfinite(p)):
            raise InputError.of("height_not_finite", reference=y, prediction=p)
        error = abs(p - y)
        self.count += 1
        self.sum_abs += error
        self.sum_sq += error * error
        self.max_abs = max(self.max_abs, error)
        for i, k in enumerate(self.within):
            # A small tolerance so that 1.0 cm off counts as within 1 cm despite float rounding.
            if error <= k + 1e-9:
                self.within_counts[i] += 1
        delta = y - self._mean_y
        self._mean_y += delta / self.count
        self._m2_y += delta * (y - self._mean_y)
        return error

    def merge(self, other: RegressionMetrics) -> None:
        """Add another accumulator's samples to this one (same tolerances)."""
        if other.within != self.within:
            raise ValueError("cannot merge regression metrics with different tolerances")
        if other.count == 0:
            return
        n_a, n_b = self.count, other.count
        n = n_a + n_b
        delta = other._mean_y - self._mean_y
        self._m2_y += other._m2_y + delta * delta * n_a * n_b / n
        self._mean_y += delta * n_b / n
        self.count = n
        self.sum_abs += other.sum_abs
        self.sum_sq += other.sum_sq
        self.max_abs = max(self.max_abs, other.max_abs)
        self.within_counts = [a + b for a, b in zip(self.within_counts, other.within_counts)]

    def result(self, unit: str = "cm") -> dict[str, float | int | None]:
        """The metrics; keys carry the unit (``mae_cm``...). None when there is no sample.

        ``within_<k><unit>`` are fractions 0..1; ``r2`` is None when every reference is equal.
        """
        n = self.count
        out: dict[str, float | int | None] = {"count": n}
        out[f"mae_{unit}"] = self.sum_abs / n if n else None
        out[f"rmse_{unit}"] = math.sqrt(self.sum_sq / n) if n else None
        out["r2"] = 1.0 - self.sum_sq / self._m2_y if n and self._m2_y > 0 else None
        out[f"max_error_{unit}"] = self.max_abs if n else None
        for k, hits in zip(self.within, self.within_counts):
            out[f"within_{k:g}{unit}"] = hits / n if n else None
        return out


class ClassificationMetrics:
    """Streaming accuracy and macro F1 of one class label per sample.

    Args:
        labels: the class values (growth weeks ``1..11``); other values are refused.
    """

    def __init__(self, labels: Sequence[int]) -> None:
        self.labels = tuple(int(v) for v in labels)
        if len(set(self.labels)) != len(self.labels) or not self.labels:
            raise ValueError("classification labels must be distinct and non-empty")
        self._index = {v: i for i, v in enumerate(self.labels)}
        self.matrix = np.zeros((len(self.labels), len(self.labels)), dtype=np.int64)

    def update(self, reference: int, prediction: int) -> bool:
        """Add one sample; returns whether it is correct.

        Raises:
            InputError: a value is not one of the labels.
        """
        try:
            row, col = self._index[int(reference)], self._index[int(prediction)]
        except KeyError:
            raise InputError.of(
                "bad_growth_stage",
                stage=reference if int(reference) not in self._index else prediction,
                first=self.labels[0],
                last=self.labels[-1],
            ) from None
        self.matrix[row, col] += 1
        return row == col

    def merge(self, other: ClassificationMetrics) -> None:
        """Add another accumulator's samples (same labels)."""
        if other.labels != self.labels:
            raise ValueError("cannot merge classification metrics with different labels")
        self.matrix += other.matrix

    def result(self) -> dict[str, object]:
        """``count``, ``accuracy`` and macro ``f1`` (fractions 0..1, None without samples), per-class
        ``f1`` for the classes that occur, and the confusion matrix (rows = reference)."""
        n = int(self.matrix.sum())
        tp = np.diag(self.matrix).astype(np.float64)
        fp = self.matrix.sum(axis=0) - tp
        fn = self.matrix.sum(axis=1) - tp
        occurs = (tp + fp + fn) > 0
        per_class = {}
        for i, value in enumerate(self.labels):
            if occurs[i]:
                per_class[str(value)] = float(2 * tp[i] / (2 * tp[i] + fp[i] + fn[i]))
        return {
            "count": n,
            "accuracy": float(tp.sum() / n) if n else None,
            "f1": float(np.mean(list(per_class.values()))) if per_class else None,
            "f1_per_class": per_class,
            "confusion_labels": list(self.labels),
            "confusion_matrix": self.matrix.tolist(),
        }
