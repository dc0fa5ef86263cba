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
from dataclasses import dataclass

import numpy as np

from ..atomic import job_outputs, write_text_atomic
from ..engine.geotiff import AtomicGeoTiff, nodata_for
from ..engine.grid import Grid, Tile, affine_xy
from ..engine.model import TASK_SEGMENTATION, OutputSpec
from ..engine.multi import per_image_value
from ..engine.postprocess import Postprocess, output_margin
from ..errors import ModelError

CONFIDENCE_NODATA = -1.0


@dataclass(frozen=True)
class MapFile:
    """Where and how a head's GeoTIFF is written: its path, grid, block size and metadata tags."""

    path: str
    grid: Grid
    block_px: int
    tags: dict[str, str]


@dataclass(frozen=True)
class Placement:
    """Where a tile core goes in the output grid: its part ``inside`` the grid, written at (row, col)."""

    row: int
    col: int
    inside: tuple[slice, slice]


class HeadWriter:
    """Turns one per-pixel head's output into its raster(s), tile core by tile core.

    :meth:`decide` turns scores into the core's arrays (class values, confidence, values), which
    the tile cache can store; :meth:`write_core` writes them, so a cached tile skips the model.
    """

    head: OutputSpec
    files: list[AtomicGeoTiff]

    def decide(
        self, scores: np.ndarray, tile: Tile, tile_px: int, overlap_px: int, core_valid: np.ndarray
    ) -> dict[str, np.ndarray]:
        """The arrays this head writes for a tile's core, by name (what the tile cache stores)."""
        raise NotImplementedError

    def write_core(self, arrays: dict[str, np.ndarray], at: Placement, keep: np.ndarray | None = None) -> None:
        """Write a tile core's arrays, clipped to the output grid; nodata where ``keep`` is False."""
        raise NotImplementedError

    def stored_names(self) -> list[str]:
        """The arrays a cached tile must hold for this run."""
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
    keep_confidence: bool = False,
) -> HeadWriter:
    """The writer of one per-pixel head; ``keep_confidence`` computes the confidence even when no
    file is written (a cached tile keeps it for the runs that want it)."""
    target = MapFile(path, grid, block_px, tags)
    if head.task == TASK_SEGMENTATION:
        return ClassMapWriter(head, target, threshold, confidence_path, keep_confidence)
    return ValueMapWriter(head, target)


class ClassMapWriter(HeadWriter):
    """A segmentation head: class values with a colour table, optionally the winner's probability."""

    def __init__(
        self,
        head: OutputSpec,
        target: MapFile,
        threshold: float,
        confidence_path: str | None,
        keep_confidence: bool = False,
    ) -> None:
        self.head = head
        self.postprocess = Postprocess(head, threshold, want_confidence=bool(confidence_path) or keep_confidence)
        self.confidence_path = confidence_path
        dtype, self.nodata = nodata_for([c.value for c in head.classes])
        self.lut = np.array([c.value for c in head.classes], dtype=dtype)
        # Pixels per class value (class values are small integers: they index the array).
        self.counts = np.zeros(int(self.lut.max(initial=0)) + 1, dtype=np.int64)
        self.files = [
            AtomicGeoTiff(
                target.path,
                target.grid,
                dtype,
                self.nodata,
                target.block_px,
                classes=head.classes,
                # A GIS names a band by its description ("Band 1: …" in QGIS's legend): the model's
                # name says whose classes these are, where the ONNX output name ("logits") does not.
                description=f"{target.tags.get('FLAIR_MODEL_NAME') or head.name or 'model'} classes",
                tags=target.tags,
            )
        ]
        if confidence_path:
            self.files.append(
                AtomicGeoTiff(
                    confidence_path,
                    target.grid,
                    "float32",
                    CONFIDENCE_NODATA,
                    target.block_px,
                    description="confidence",
                )
            )

    def decide(
        self, scores: np.ndarray, tile: Tile, tile_px: int, overlap_px: int, core_valid: np.ndarray
    ) -> dict[str, np.ndarray]:
        index, prob = self.postprocess(scores, self._core(scores, tile, tile_px, overlap_px))
        if index.max(initial=0) >= len(self.lut):
            raise ModelError.of(
                "predicted_index_out_of_range", name=self.head.name, index=int(index.max()), class_count=len(self.lut)
            )
        classes = self.lut[index]
        classes[~core_valid] = self.nodata
        arrays = {"class": classes}
        if prob is not None:
            prob[~core_valid] = CONFIDENCE_NODATA
            arrays["confidence"] = prob
        return arrays

    def write_core(self, arrays: dict[str, np.ndarray], at: Placement, keep: np.ndarray | None = None) -> None:
        classes = arrays["class"][at.inside]
        if keep is not None:
            classes = np.where(keep, classes, classes.dtype.type(self.nodata))
        decided = classes[classes != self.nodata]
        self.counts += np.bincount(decided.ravel(), minlength=len(self.counts))[: len(self.counts)]
        self.files[0].write(classes, at.row, at.col)
        if len(self.files) > 1:
            confidence = arrays["confidence"][at.inside]
            if keep is not None:
                confidence = np.where(keep, confidence, np.float32(CONFIDENCE_NODATA))
            self.files[1].write(confidence, at.row, at.col)

    def stored_names(self) -> list[str]:
        return ["class", "confidence"] if self.confidence_path else ["class"]

    def class_pixels(self) -> dict[int, int]:
        return {int(value): int(self.counts[value]) for value in self.lut if self.counts[value]}


class ValueMapWriter(HeadWriter):
    """A per-pixel regression head: float32 values times the head's scale, NaN where nodata."""

    def __init__(self, head: OutputSpec, target: MapFile) -> None:
        self.head = head
        description = f"{head.name} ({head.unit})" if head.unit else head.name
        self.files = [
            AtomicGeoTiff(
                target.path,
                target.grid,
                "float32",
                float("nan"),
                target.block_px,
                description=description,
                tags={**target.tags, "FLAIR_UNIT": head.unit},
            )
        ]

    def decide(
        self, scores: np.ndarray, tile: Tile, tile_px: int, overlap_px: int, core_valid: np.ndarray
    ) -> dict[str, np.ndarray]:
        plane = scores.reshape(scores.shape[-2:]) if scores.ndim == 2 or scores.shape[0] == 1 else None
        if plane is None:
            raise ModelError.of("regression_channels", name=self.head.name, channels=scores.shape[0])
        values = plane[self._core(plane, tile, tile_px, overlap_px)].astype(np.float32) * np.float32(self.head.scale)
        values[~core_valid] = np.nan
        return {"value": values}

    def write_core(self, arrays: dict[str, np.ndarray], at: Placement, keep: np.ndarray | None = None) -> None:
        values = arrays["value"][at.inside]
        if keep is not None:
            values = np.where(keep, values, np.float32(np.nan))
        self.files[0].write(values, at.row, at.col)

    def stored_names(self) -> list[str]:
        return ["value"]


class TileValues:
    """Per-image heads: one value per tile, written as a CSV (tile bounds, valid share, values)."""

    def __init__(self, heads: Sequence[OutputSpec], grid: Grid, path: str) -> None:
        self.heads = tuple(heads)
        self.grid = grid
        self.path = os.path.abspath(path)
        self.records: list[tuple[tuple[int, int], list[object], list[float]]] = []
        self.values: dict[str, list[float]] = {h.name: [] for h in self.heads}

    def decide(self, outputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """A tile's per-image values, as arrays (what the tile cache stores)."""
        return {
            f"tile:{head.name}": np.array([per_image_value(head, outputs[head.name])[0]], dtype=np.float64)
            for head in self.heads
        }

    def add(self, tile: Tile, at: tuple[int, int], core_valid: np.ndarray, arrays: dict[str, np.ndarray]) -> None:
        """Record a tile whose core starts at output-grid ``at`` (row, col); tiles may come in any order."""
        if not self.heads:
            return
        t = self.grid.transform
        x0, y1 = affine_xy(t, at[1], at[0])
        x1, y0 = affine_xy(t, at[1] + tile.core_cols, at[0] + tile.core_rows)
        row: list[object] = [at[0], at[1], f"{x0:.3f}", f"{y0:.3f}", f"{x1:.3f}", f"{y1:.3f}"]
        row.append(f"{float(core_valid.mean()):.4f}")
        values = [float(arrays[f"tile:{head.name}"][0]) for head in self.heads]
        self.records.append((at, row + [f"{v:.6g}" for v in values], values))

    def commit(self) -> None:
        """Sort the tiles row-major, fill :attr:`values` and write the CSV."""
        if not self.heads:
            return
        self.records.sort(key=lambda record: record[0])
        self.values = {h.name: [values[i] for _at, _row, values in self.records] for i, h in enumerate(self.heads)}
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
        out.writerows(row for _at, row, _values in self.records)
        write_text_atomic(self.path, buffer.getvalue())


def publish_maps(outputs: list[AtomicGeoTiff], tile_values: TileValues) -> None:
    """Move every map into place, then write the per-tile values: all of them or none.

    A failure on the way (a full disk while compressing the last map) removes the maps already
    in place and deletes the temporary files of the others.
    """
    with job_outputs() as published:
        try:
            for out in outputs:
                out.commit()
                published.add(out.path)
            tile_values.commit()
            published.add(tile_values.path if tile_values.heads else None)
        except BaseException:
            for out in outputs:
                out.abort()  # the temporary files of the maps not yet in place
            raise
