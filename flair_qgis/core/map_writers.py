"""What each per-pixel head writes, tile core by tile core, and the per-tile values of per-image heads.

:class:`ClassMapWriter` writes class values (with colours and names) and, optionally, the winner's
probability; :class:`ValueMapWriter` writes a regression head's values; :class:`TileValues`
collects one value per tile for per-image heads and writes them as a CSV.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Sequence

import numpy as np

from .errors import ModelError
from .grid import Grid, Tile
from .model import TASK_SEGMENTATION, OutputSpec
from .multi import per_image_value
from .postprocess import Postprocess, output_margin
from .writer import AtomicGeoTiff, nodata_for, write_text_atomic

CONFIDENCE_NODATA = -1.0


class HeadWriter:
    """Turns one per-pixel head's output into its raster(s), tile core by tile core."""

    head: OutputSpec
    files: list[AtomicGeoTiff]

    def write_tile(self, scores: np.ndarray, tile: Tile, tile_px: int, overlap_px: int, core_valid: np.ndarray) -> None:
        raise NotImplementedError

    def class_pixels(self) -> dict[int, int]:
        return {}

    def _core(self, scores: np.ndarray, tile: Tile, tile_px: int, overlap_px: int) -> tuple[slice, slice]:
        r, c = tile.core_offset
        dr, dc = output_margin(scores.shape[-2:], tile_px, tile, overlap_px)
        return np.s_[r - dr : r - dr + tile.core_rows, c - dc : c - dc + tile.core_cols]


def head_writer(
    head: OutputSpec,
    path: str,
    grid: Grid,
    block_px: int,
    threshold: float,
    tags: dict[str, str],
    confidence_path: str | None = None,
) -> HeadWriter:
    if head.task == TASK_SEGMENTATION:
        return ClassMapWriter(head, path, grid, block_px, threshold, tags, confidence_path)
    return ValueMapWriter(head, path, grid, block_px, tags)


class ClassMapWriter(HeadWriter):
    """A segmentation head: class values with a colour table, optionally the winner's probability."""

    def __init__(
        self,
        head: OutputSpec,
        path: str,
        grid: Grid,
        block_px: int,
        threshold: float,
        tags: dict[str, str],
        confidence_path: str | None,
    ) -> None:
        self.head = head
        self.postprocess = Postprocess(head, threshold, want_confidence=bool(confidence_path))
        dtype, self.nodata = nodata_for([c.value for c in head.classes])
        self.lut = np.array([c.value for c in head.classes], dtype=dtype)
        self.counts = np.zeros(len(head.classes), dtype=np.int64)
        self.files = [
            AtomicGeoTiff(
                path,
                grid,
                dtype,
                self.nodata,
                block_px,
                classes=head.classes,
                description=head.name or "class",
                tags=tags,
            )
        ]
        if confidence_path:
            self.files.append(
                AtomicGeoTiff(confidence_path, grid, "float32", CONFIDENCE_NODATA, block_px, description="confidence")
            )

    def write_tile(self, scores: np.ndarray, tile: Tile, tile_px: int, overlap_px: int, core_valid: np.ndarray) -> None:
        index, prob = self.postprocess(scores, self._core(scores, tile, tile_px, overlap_px))
        if index.max(initial=0) >= len(self.lut):
            raise ModelError(
                f"Output '{self.head.name}' predicts class index {int(index.max())} but the model declares "
                f"{len(self.lut)} classes: fix its 'classes' metadata."
            )
        self.counts += np.bincount(index[core_valid], minlength=len(self.lut))[: len(self.lut)]
        classes = self.lut[index]
        classes[~core_valid] = self.nodata
        self.files[0].write(classes, tile.core_row, tile.core_col)
        if len(self.files) > 1 and prob is not None:
            prob[~core_valid] = CONFIDENCE_NODATA
            self.files[1].write(prob, tile.core_row, tile.core_col)

    def class_pixels(self) -> dict[int, int]:
        return {int(self.lut[i]): int(n) for i, n in enumerate(self.counts) if n}


class ValueMapWriter(HeadWriter):
    """A per-pixel regression head: float32 values times the head's scale, NaN where nodata."""

    def __init__(self, head: OutputSpec, path: str, grid: Grid, block_px: int, tags: dict[str, str]) -> None:
        self.head = head
        description = f"{head.name} ({head.unit})" if head.unit else head.name
        self.files = [
            AtomicGeoTiff(
                path,
                grid,
                "float32",
                float("nan"),
                block_px,
                description=description,
                tags={**tags, "FLAIR_UNIT": head.unit},
            )
        ]

    def write_tile(self, scores: np.ndarray, tile: Tile, tile_px: int, overlap_px: int, core_valid: np.ndarray) -> None:
        plane = scores.reshape(scores.shape[-2:]) if scores.ndim == 2 or scores.shape[0] == 1 else None
        if plane is None:
            raise ModelError(
                f"Regression output '{self.head.name}' has {scores.shape[0]} channels per pixel; one is expected."
            )
        values = plane[self._core(plane, tile, tile_px, overlap_px)].astype(np.float32) * np.float32(self.head.scale)
        values[~core_valid] = np.nan
        self.files[0].write(values, tile.core_row, tile.core_col)


class TileValues:
    """Per-image heads: one value per tile, written as a CSV (tile bounds, valid share, values)."""

    def __init__(self, heads: Sequence[OutputSpec], grid: Grid, path: str) -> None:
        self.heads = tuple(heads)
        self.grid = grid
        self.path = os.path.abspath(path)
        self.rows: list[list[object]] = []
        self.values: dict[str, list[float]] = {h.name: [] for h in self.heads}

    def add(self, tile: Tile, core_valid: np.ndarray, outputs: dict[str, np.ndarray]) -> None:
        if not self.heads:
            return
        t = self.grid.transform
        x0, y1 = t * (tile.core_col, tile.core_row)
        x1, y0 = t * (tile.core_col + tile.core_cols, tile.core_row + tile.core_rows)
        row: list[object] = [
            tile.core_row,
            tile.core_col,
            f"{x0:.3f}",
            f"{y0:.3f}",
            f"{x1:.3f}",
            f"{y1:.3f}",
            f"{float(core_valid.mean()):.4f}",
        ]
        for head in self.heads:
            value = float(per_image_value(head, outputs[head.name])[0])
            self.values[head.name].append(value)
            row.append(f"{value:.6g}")
        self.rows.append(row)

    def commit(self) -> None:
        if not self.heads:
            return
        buffer = io.StringIO()
        out = csv.writer(buffer)
        out.writerow(
            [
                "row",
                "col",
                "xmin",
                "ymin",
                "xmax",
                "ymax",
                "valid_share",
                *(f"{h.name} ({h.unit})" if h.unit else h.name for h in self.heads),
            ]
        )
        out.writerows(self.rows)
        write_text_atomic(self.path, buffer.getvalue())
