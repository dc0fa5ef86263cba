"""Scores of a tile (or a benchmark sample) turned into classes and confidences.

Shared by the tile pipeline and the benchmark: :class:`Postprocess` (argmax, thresholds,
activations), :func:`argmax_channels` and :func:`output_margin` for models whose output is
smaller than their input. A head reduced inside the graph (:mod:`.wrapped_graph`) arrives as
:class:`GraphScores`, which :class:`Postprocess` reads the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import numpy as np

from ..errors import InputError
from .grid import Tile
from .model import OutputSpec


def output_margin(out_shape: tuple[int, ...], tile_px: int, tile: Tile, overlap_px: int) -> tuple[int, int]:
    """Rows and columns an output smaller than its input lacks on each side (0 when same size).

    Some models return only the centre of their input (valid convolutions, e.g. 512 -> 484 px);
    the output is then taken as centred on the tile, and every core must fall inside it.

    Raises:
        InputError: the output does not cover the tile core; the message gives the overlap needed.
    """
    rows, cols = int(out_shape[0]), int(out_shape[1])
    if (rows, cols) == (tile_px, tile_px):
        return 0, 0
    lack = max(tile_px - rows, tile_px - cols)
    if lack < 0 or (tile_px - rows) % 2 or (tile_px - cols) % 2:
        raise InputError.of("uncentred_output", rows=rows, cols=cols, tile_px=tile_px)
    dr, dc = (tile_px - rows) // 2, (tile_px - cols) // 2
    r, c = tile.core_offset
    if r < dr or c < dc or r - dr + tile.core_rows > rows or c - dc + tile.core_cols > cols:
        raise InputError.of(
            "overlap_below_margin",
            rows=rows,
            cols=cols,
            tile_px=tile_px,
            margin=dr,
            minimum=lack,
            overlap_px=overlap_px,
        )
    return dr, dc


@dataclass(frozen=True)
class GraphScores:
    """A head reduced inside the graph (:mod:`.wrapped_graph`), for a batch ``(n, rows, cols)`` or one tile.

    Attributes:
        index: the winning channel, uint8 (uint16 above 256 channels).
        best: the winner's score (probability heads), float32, or None.
        softmax: the winner's softmax probability (logit heads), float32, or None.
        sample: every 16th pixel of the scores ``(channels, rows/16, cols/16)`` (``auto`` heads),
            from which the activation is detected, or None.
    """

    index: np.ndarray
    best: np.ndarray | None = None
    softmax: np.ndarray | None = None
    sample: np.ndarray | None = None

    @property
    def shape(self) -> tuple[int, ...]:
        """The index's shape: what :func:`output_margin` reads."""
        return tuple(self.index.shape)

    def __getitem__(self, i: int) -> GraphScores:
        """Item ``i`` of a batch."""
        pick = [a[i] if a is not None else None for a in (self.best, self.softmax, self.sample)]
        return GraphScores(self.index[i], *pick)


class Postprocess:
    """Scores of one tile or sample -> (class index uint8/uint16, winning probability or None).

    Shared by the tile pipeline and the benchmark: argmax over channels, a threshold for
    single-channel outputs (after a sigmoid when they are logits), integer outputs as they are.
    The activation of ``auto`` heads is detected on the first call and kept for the run.
    """

    def __init__(self, head: OutputSpec, threshold: float, want_confidence: bool) -> None:
        self.head = head
        self.threshold = threshold
        self.want_confidence = want_confidence
        self.activation = head.activation

    @staticmethod
    def _detect(scores: np.ndarray, sample: np.ndarray | None = None) -> str:
        """``softmax`` when the scores already are probabilities, else ``logits``.

        ``sample`` is ``scores[..., ::16, ::16]`` when the graph already took it.
        """
        sample = scores[..., ::16, ::16] if sample is None else sample
        if sample.min() < 0.0 or sample.max() > 1.0:
            return "logits"
        if scores.ndim == 3 and scores.shape[0] > 1:
            sums = sample.sum(axis=0)
            return "softmax" if np.allclose(sums, 1.0, atol=1e-3) else "logits"
        return "sigmoid"

    def _from_graph(self, scores: GraphScores, core: tuple[slice, slice]) -> tuple[np.ndarray, np.ndarray | None]:
        """A head the graph reduced: the same classes and confidence as from its scores."""
        index = np.ascontiguousarray(scores.index[core])
        if not self.want_confidence:
            return index, None
        if self.activation == "auto":
            sample = cast(np.ndarray, scores.sample)  # an auto head reduced in the graph returns a sample
            self.activation = self._detect(sample, sample)
        chosen = scores.best if self.activation in ("softmax", "sigmoid", "none") else scores.softmax
        chosen = cast(np.ndarray, chosen)  # the graph returns a confidence for every activation
        return index, np.array(chosen[core], dtype=np.float32)

    def __call__(
        self, scores: np.ndarray | GraphScores, core: tuple[slice, slice]
    ) -> tuple[np.ndarray, np.ndarray | None]:
        if isinstance(scores, GraphScores):
            return self._from_graph(scores, core)
        if not scores.dtype.kind == "f":
            index = np.ascontiguousarray(scores.reshape(scores.shape[-2:])[core])
            return index.astype(np.uint16 if index.max(initial=0) > 255 else np.uint8), None
        if scores.ndim == 2:
            scores = scores[None]
        if self.activation == "auto":
            self.activation = self._detect(scores)
        scores = scores[(slice(None), *core)]
        if scores.shape[0] == 1:
            prob = scores[0]
            if self.activation == "logits":
                prob = 1.0 / (1.0 + np.exp(-prob))
            positive = prob >= self.threshold
            index = positive.astype(np.uint8)
            confidence = np.where(positive, prob, 1.0 - prob).astype(np.float32) if self.want_confidence else None
            return index, confidence
        index, best = argmax_channels(scores)
        if not self.want_confidence:
            return index, None
        if self.activation in ("softmax", "sigmoid", "none"):
            return index, best
        # Probability of the winner under a softmax of logits: 1 / sum_c exp(s_c - s_max).
        total = np.zeros_like(best)
        for channel in scores:
            total += np.exp(channel - best)
        return index, np.reciprocal(total, out=total)


def argmax_channels(scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Index and value of the largest channel per pixel; ties go to the lowest index.

    A running maximum over the channels, each pass a contiguous ``(rows, cols)`` plane: several
    times faster than ``np.argmax(axis=0)``, which walks the channel axis with a stride.

    Args:
        scores: ``(channels, rows, cols)`` float array.

    Returns:
        ``(index, best)``: uint8 (uint16 above 256 channels) ``(rows, cols)`` indices and the
        float32 maxima.
    """
    channels = scores.shape[0]
    index = np.zeros(scores.shape[1:], dtype=np.uint8 if channels <= 256 else np.uint16)
    best = np.array(scores[0], dtype=np.float32, copy=True)
    better = np.empty(scores.shape[1:], dtype=bool)
    for c in range(1, channels):
        np.greater(scores[c], best, out=better)
        index[better] = c
        np.maximum(best, scores[c], out=best)
    return index, best
