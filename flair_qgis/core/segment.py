"""Tiled segmentation of a raster extent: the one function behind the task and the algorithm.

The pipeline runs three stages at once so that the model never waits for I/O:

``reader thread`` reads a batch of tiles (GDAL releases the GIL) and normalises it in place
into a float32 ``(batch, channels, rows, cols)`` array; ``calling thread`` runs onnxruntime on
it (which releases the GIL); ``writer thread`` turns scores into classes on the tile cores only
and writes whole GeoTIFF blocks. Queues of two batches bound memory to a few batches, whatever
the extent.
"""

from __future__ import annotations

import contextlib
import csv
import io
import math
import os
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import rasterio
from affine import Affine

from .cache_run import CachedRun, CacheRequest, open_cached_run
from .engine import SessionInfo, create_session, run_batch
from .errors import InputError, ModelError, NotSupportedError
from .grid import Grid, Tile, batched, core_stride_px, tile_layout
from .model import TASK_SEGMENTATION, InputSpec, ModelInfo, OutputSpec
from .multi import per_image_value
from .pipeline import run_stages
from .sources import PixelSource, WindowReader
from .writer import WRITE_CACHE_MB, AtomicGeoTiff, check_output_path, nodata_for, write_text_atomic

CONFIDENCE_NODATA = -1.0


@dataclass(frozen=True)
class SegmentRequest:
    """A frozen description of one run; everything the worker needs.

    Attributes:
        output_path: class-map GeoTIFF to write (for a model without a segmentation head: the
            map of its first per-pixel regression head).
        confidence_path: optional GeoTIFF of the winning class's probability (0..1).
        tile_size_px: model input edge; None for the model's default.
        overlap_px: overlap between tiles; None for the model's default.
        batch_size: tiles per onnxruntime call.
        device: ``auto``, ``cuda`` or ``cpu``.
        threads: CPU threads for onnxruntime; None for all cores.
        head_paths: rasters of the further per-pixel heads, by ONNX output name; heads not
            listed are written beside ``output_path`` as ``<stem>_<head>.tif``.
        tile_values_path: CSV of per-image heads' values per tile; None writes
            ``<stem>_tiles.csv`` beside ``output_path`` when the model has such heads.
        cache: a tile cache; the sources are then bound to its ``layer_grid`` and tiles lie on
            the whole layer's tile grid (:mod:`.cache_run`).
    """

    output_path: str
    confidence_path: str | None = None
    tile_size_px: int | None = None
    overlap_px: int | None = None
    batch_size: int = 4
    device: str = "auto"
    threads: int | None = None
    head_paths: Mapping[str, str] = field(default_factory=dict)
    tile_values_path: str | None = None
    cache: CacheRequest | None = None


@dataclass
class SegmentResult:
    """What a run produced.

    Attributes:
        output_path: the class map written.
        confidence_path: the confidence raster written, or None.
        session: which execution provider ran.
        grid: the output grid.
        tiles: tiles processed.
        seconds: wall time of the run, session creation included.
        class_pixels: pixel count per class value over the valid pixels.
        warnings: messages the user should see.
        head_paths: rasters of the further per-pixel heads, by ONNX output name.
        tile_values_path: CSV of per-image heads per tile, or None.
        tile_values: per-image head name -> values, one per tile (row-major).
        cached_tiles: tiles read from the tile cache instead of running the model.
        cache_summary: the tile cache's log line ("N of M tiles from the cache"), "" without one.
    """

    output_path: str
    confidence_path: str | None
    session: SessionInfo
    grid: Grid
    tiles: int
    seconds: float
    class_pixels: dict[int, int] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    head_paths: dict[str, str] = field(default_factory=dict)
    tile_values_path: str | None = None
    tile_values: dict[str, list[float]] = field(default_factory=dict)
    cached_tiles: int = 0
    cache_summary: str = ""

    @property
    def km2_per_hour(self) -> float:
        """Ground area processed per hour."""
        return self.grid.area_km2 / self.seconds * 3600.0 if self.seconds > 0 else 0.0

    def tile_value_stats(self) -> list[tuple[str, int, float, float, float]]:
        """``(head, tiles, mean, min, max)`` per per-image head, over tiles with a value.

        A tile without any valid pixel gives NaN and is left out.
        """
        stats = []
        for name, values in self.tile_values.items():
            finite = [v for v in values if not math.isnan(v)]
            if finite:
                stats.append((name, len(finite), sum(finite) / len(finite), min(finite), max(finite)))
        return stats


def _noop_progress(_percent: float) -> None:
    return None


def _never() -> bool:
    return False


def _scale_factors(model: ModelInfo) -> list[float]:
    """Pixels of input k per pixel of input 0 along an axis (1.0 when resolutions are unknown)."""
    base = model.inputs[0].resolution_m
    return [base / spec.resolution_m if base and spec.resolution_m else 1.0 for spec in model.inputs]


def _scaled(length_px: int, factor: float, what: str) -> int:
    scaled = length_px * factor
    if abs(scaled - round(scaled)) > 1e-6:
        raise NotSupportedError(
            f"{what}: {length_px} px at the first input's resolution is {scaled:g} px at this input's; "
            "choose a TILE_SIZE and OVERLAP that give whole pixels for every input."
        )
    return round(scaled)


def input_grids(model: ModelInfo, grid: Grid) -> list[Grid]:
    """The grid each model input is read on: the same ground extent, at that input's resolution.

    Input 0 is read on ``grid`` itself. Input k's pixels are ``resolution_k / resolution_0`` times
    the size of grid pixels, anchored on the same origin.
    """
    grids = []
    for factor in _scale_factors(model):
        if factor == 1.0:
            grids.append(grid)
            continue
        t = grid.transform
        transform = Affine(t.a / factor, 0.0, t.c, 0.0, t.e / factor, t.f)
        width, height = math.ceil(grid.width * factor - 1e-9), math.ceil(grid.height * factor - 1e-9)
        grids.append(Grid(transform, max(width, 1), max(height, 1), grid.crs_wkt))
    return grids


def _resolve_tiling(model: ModelInfo, request: SegmentRequest) -> tuple[int, int, int]:
    spec = model.input
    tile = request.tile_size_px or model.tile_size_px
    if spec.tile_size_px is not None and tile != spec.tile_size_px:
        raise InputError(
            f"The model has a fixed input of {spec.tile_size_px} px: set TILE_SIZE to "
            f"{spec.tile_size_px} (or leave it empty)."
        )
    overlap = model.overlap_px if request.overlap_px is None else request.overlap_px
    overlap = min(overlap, tile - 16) if request.overlap_px is None else overlap
    batch = max(1, int(request.batch_size))
    fixed = {s.fixed_batch for s in model.inputs if s.fixed_batch is not None}
    if fixed:
        batch = fixed.pop()
    for index, (other, factor) in enumerate(zip(model.inputs[1:], _scale_factors(model)[1:]), start=2):
        own = _scaled(tile, factor, f"TILE_SIZE for input {index} ({other.name})")
        if other.tile_size_px is not None and own != other.tile_size_px:
            raise InputError(
                f"Input {index} ({other.name}) has a fixed size of {other.tile_size_px} px, but TILE_SIZE {tile} "
                f"gives it {own} px: set TILE_SIZE to {round(other.tile_size_px / factor)}."
            )
    return tile, overlap, batch


@dataclass(frozen=True)
class HeadPlan:
    """What each model output becomes.

    Attributes:
        primary: the head written to OUTPUT (a class map, or a value map for regression-only
            models).
        maps: further per-pixel heads, each written to its own raster.
        per_tile: per-image heads, reported per tile.
    """

    primary: OutputSpec
    maps: tuple[OutputSpec, ...]
    per_tile: tuple[OutputSpec, ...]


def plan_heads(model: ModelInfo) -> HeadPlan:
    """Sort the model's outputs: the first per-pixel segmentation head writes the class map.

    Raises:
        ModelError: the model has no per-pixel output to map.
    """
    per_pixel = [o for o in model.outputs if o.is_per_pixel]
    segmentation = [o for o in per_pixel if o.task == TASK_SEGMENTATION]
    if not per_pixel:
        raise ModelError(
            "The model has no per-pixel output (all its outputs give one value per image): it cannot map "
            "an extent. Score it on a dataset with flair:benchmark."
        )
    primary = segmentation[0] if segmentation else per_pixel[0]
    maps = tuple(o for o in per_pixel if o is not primary)
    per_tile = tuple(o for o in model.outputs if not o.is_per_pixel)
    return HeadPlan(primary, maps, per_tile)


def check_supported(model: ModelInfo) -> OutputSpec:
    """The head written to OUTPUT; raises for models this engine cannot run.

    Raises:
        ModelError: no per-pixel output.
        NotSupportedError: inputs whose resolutions do not give whole-pixel tiles.
    """
    return plan_heads(model).primary


def _beside(output_path: str, suffix: str, extension: str) -> str:
    stem = os.path.splitext(output_path)[0]
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in suffix)
    return f"{stem}_{safe}{extension}"


def segment(
    model: ModelInfo,
    source: PixelSource | Sequence[PixelSource],
    grid: Grid,
    request: SegmentRequest,
    *,
    is_canceled: Callable[[], bool] = _never,
    on_progress: Callable[[float], None] = _noop_progress,
) -> SegmentResult:
    """Segment ``grid`` with ``model``, reading pixels from ``source``.

    Args:
        model: the model description.
        source: pixels, bound to ``grid`` and to the model's band order; for a model with several
            inputs, one source per input, in the model's input order, each bound to its grid
            from :func:`input_grids`.
        grid: the output grid.
        request: outputs, tiling and device.
        is_canceled: polled between batches; True stops the run and deletes partial outputs.
        on_progress: receives 0..100.

    Returns:
        What was written and how.

    Raises:
        Canceled: ``is_canceled`` answered True; nothing was written.
        InputError, ModelError, NotSupportedError: the request cannot be run.
    """
    started = time.perf_counter()
    sources = [source] if not isinstance(source, Sequence) else list(source)
    if len(sources) != len(model.inputs):
        names = ", ".join(f"{s.name} ({s.modality or len(s.band_names)})" for s in model.inputs)
        raise InputError(f"The model has {len(model.inputs)} inputs ({names}) but {len(sources)} layer(s) were given.")
    plan = plan_heads(model)
    head = plan.primary
    tile_px, overlap_px, batch_size = _resolve_tiling(model, request)
    check_output_path(request.output_path)
    if request.confidence_path:
        check_output_path(request.confidence_path, "confidence")
        if head.task != TASK_SEGMENTATION or not head.dtype.startswith("float"):
            raise InputError(
                f"Output '{head.name}' gives no class scores: a confidence raster cannot be computed; "
                "leave OUTPUT_CONFIDENCE empty."
            )
    warnings: list[str] = []
    cached = (
        open_cached_run(request.cache, model.path, grid, tile_px, overlap_px, warnings.append)
        if request.cache is not None
        else None
    )
    tiles = (
        cached.layout(grid, tile_px, overlap_px)
        if cached
        else tile_layout(grid.width, grid.height, tile_px, overlap_px)
    )
    block_px = core_stride_px(tile_px, overlap_px)

    session, info = create_session(model.path, request.device, request.threads)
    if info.warning:
        warnings.insert(0, info.warning)
    if not grid.crs_wkt:
        warnings.append("The layer has no CRS: the class map is written without one.")

    tags = {"FLAIR_MODEL": model.path, "FLAIR_PROVIDER": info.provider}
    # A cached tile keeps its confidence even when this run writes none: the next run may want it.
    writers: list[_HeadWriter] = [
        _head_writer(
            head, request.output_path, grid, block_px, model.seg_threshold, tags, request.confidence_path, bool(cached)
        )
    ]
    for extra in plan.maps:
        path = request.head_paths.get(extra.name) or _beside(request.output_path, extra.name, ".tif")
        writers.append(
            _head_writer(extra, check_output_path(path, f"'{extra.name}'"), grid, block_px, model.seg_threshold, tags)
        )
    tile_values = _TileValues(
        plan.per_tile, grid, request.tile_values_path or _beside(request.output_path, "tiles", ".csv")
    )
    if plan.per_tile:
        check_output_path(tile_values.path, "tile values")
    outputs = [f for w in writers for f in w.files]
    sink = _TileSink(writers, tile_values, grid, tile_px, overlap_px, cached)

    pipeline = _Pipeline(
        session=session,
        specs=model.inputs,
        sources=sources,
        factors=_scale_factors(model),
        output_names=[o.name for o in (plan.primary, *plan.maps, *plan.per_tile)],
        tiles=tiles,
        tile_px=tile_px,
        batch_size=batch_size,
        is_canceled=is_canceled,
        lookup=sink.lookup if cached and cached.cache else None,
    )
    try:
        pipeline.run(sink, outputs, on_progress)
        tile_values.commit()
    except BaseException:
        for out in outputs:
            out.abort()
        raise
    for out in outputs:
        out.commit()
    warnings.extend(pipeline.warnings)
    on_progress(100.0)
    primary = writers[0]
    return SegmentResult(
        output_path=primary.files[0].path,
        confidence_path=primary.files[1].path if len(primary.files) > 1 else None,
        session=info,
        grid=grid,
        tiles=len(tiles),
        seconds=time.perf_counter() - started,
        class_pixels=primary.class_pixels(),
        warnings=warnings,
        head_paths={w.head.name: w.files[0].path for w in writers[1:]},
        tile_values_path=tile_values.path if plan.per_tile else None,
        tile_values=tile_values.values,
        cached_tiles=cached.cache.stats.hits if cached and cached.cache else 0,
        cache_summary=cached.summary() if cached else "",
    )


@dataclass(frozen=True)
class _Placement:
    """Where a tile core goes in the output grid: ``inside`` of the core, written at (row, col)."""

    row: int
    col: int
    inside: tuple[slice, slice]


@dataclass(frozen=True)
class _CachedTile:
    """A tile whose arrays came from the tile cache: it skips the model."""

    tile: Tile
    arrays: dict[str, np.ndarray]


class _TileSink:
    """Model outputs -> tile core arrays (stored in the cache) -> output rasters, clipped to the grid.

    Tiles are in the sources' grid; the output grid starts at the cached run's origin in it
    (``(0, 0)`` without a cache), and a core may reach past the output grid's edges.
    """

    def __init__(
        self,
        writers: Sequence[_HeadWriter],
        tile_values: _TileValues,
        grid: Grid,
        tile_px: int,
        overlap_px: int,
        cached: CachedRun | None,
    ) -> None:
        self.writers = tuple(writers)
        self.tile_values = tile_values
        self.grid = grid
        self.tile_px, self.overlap_px = tile_px, overlap_px
        self.cached = cached
        self.origin = cached.origin if cached else (0, 0)
        self.required = [f"{w.head.name}:{name}" for w in self.writers for name in w.stored_names()]

    def lookup(self, tile: Tile) -> dict[str, np.ndarray] | None:
        """The tile's cached arrays, or None (then the model runs on it)."""
        return self.cached.get(tile, self.required) if self.cached else None

    def __call__(self, item: _CachedTile | tuple[list[Tile], dict[str, np.ndarray], np.ndarray]) -> None:
        if isinstance(item, _CachedTile):
            self.write(item.tile, item.arrays)
            return
        batch, scores, valid = item
        for i, tile in enumerate(batch):
            r, c = tile.core_offset
            core_valid = valid[i][r : r + tile.core_rows, c : c + tile.core_cols]
            arrays = {}
            for writer in self.writers:
                decided = writer.decide(scores[writer.head.name][i], tile, self.tile_px, self.overlap_px, core_valid)
                arrays.update({f"{writer.head.name}:{name}": array for name, array in decided.items()})
            per_tile = {h.name: scores[h.name][i : i + 1] for h in self.tile_values.heads}
            arrays.update(self.tile_values.decide(core_valid, per_tile))
            if self.cached:
                self.cached.put(tile, arrays)
            self.write(tile, arrays)

    def write(self, tile: Tile, arrays: dict[str, np.ndarray]) -> None:
        """Write the part of a tile core inside the output grid."""
        row, col = tile.core_row - self.origin[0], tile.core_col - self.origin[1]
        top, left = max(0, -row), max(0, -col)
        bottom = min(tile.core_rows, self.grid.height - row)
        right = min(tile.core_cols, self.grid.width - col)
        at = _Placement(row + top, col + left, np.s_[top:bottom, left:right])
        for writer in self.writers:
            prefix = writer.head.name + ":"
            writer.write_core({k[len(prefix) :]: v for k, v in arrays.items() if k.startswith(prefix)}, at)
        self.tile_values.add(tile, (row, col), arrays)


class _HeadWriter:
    """Turns one per-pixel head's output into its raster(s), tile core by tile core."""

    head: OutputSpec
    files: list[AtomicGeoTiff]

    def decide(
        self, scores: np.ndarray, tile: Tile, tile_px: int, overlap_px: int, core_valid: np.ndarray
    ) -> dict[str, np.ndarray]:
        """The arrays this head writes for a tile's core, by name (what the tile cache stores)."""
        raise NotImplementedError

    def write_core(self, arrays: dict[str, np.ndarray], at: _Placement) -> None:
        """Write a tile core's arrays, clipped to the output grid."""
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


def _head_writer(
    head: OutputSpec,
    path: str,
    grid: Grid,
    block_px: int,
    threshold: float,
    tags: dict[str, str],
    confidence_path: str | None = None,
    keep_confidence: bool = False,
) -> _HeadWriter:
    if head.task == TASK_SEGMENTATION:
        return _ClassMapWriter(head, path, grid, block_px, threshold, tags, confidence_path, keep_confidence)
    return _ValueMapWriter(head, path, grid, block_px, tags)


class _ClassMapWriter(_HeadWriter):
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
        keep_confidence: bool = False,
    ) -> None:
        self.head = head
        self.postprocess = Postprocess(head, threshold, want_confidence=bool(confidence_path) or keep_confidence)
        self.confidence_path = confidence_path
        dtype, self.nodata = nodata_for([c.value for c in head.classes])
        self.lut = np.array([c.value for c in head.classes], dtype=dtype)
        # Pixels per class value (values index the array: the LUT's values are small integers).
        self.counts = np.zeros(int(self.lut.max(initial=0)) + 1, dtype=np.int64)
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

    def decide(
        self, scores: np.ndarray, tile: Tile, tile_px: int, overlap_px: int, core_valid: np.ndarray
    ) -> dict[str, np.ndarray]:
        index, prob = self.postprocess(scores, self._core(scores, tile, tile_px, overlap_px))
        if index.max(initial=0) >= len(self.lut):
            raise ModelError(
                f"Output '{self.head.name}' predicts class index {int(index.max())} but the model declares "
                f"{len(self.lut)} classes: fix its 'classes' metadata."
            )
        classes = self.lut[index]
        classes[~core_valid] = self.nodata
        arrays = {"class": classes}
        if prob is not None:
            prob[~core_valid] = CONFIDENCE_NODATA
            arrays["confidence"] = prob
        return arrays

    def write_core(self, arrays: dict[str, np.ndarray], at: _Placement) -> None:
        classes = arrays["class"][at.inside]
        decided = classes[classes != self.nodata]
        self.counts += np.bincount(decided.ravel(), minlength=len(self.counts))[: len(self.counts)]
        self.files[0].write(classes, at.row, at.col)
        if len(self.files) > 1:
            self.files[1].write(arrays["confidence"][at.inside], at.row, at.col)

    def stored_names(self) -> list[str]:
        return ["class", "confidence"] if self.confidence_path else ["class"]

    def class_pixels(self) -> dict[int, int]:
        return {int(value): int(self.counts[value]) for value in self.lut if self.counts[value]}


class _ValueMapWriter(_HeadWriter):
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

    def decide(
        self, scores: np.ndarray, tile: Tile, tile_px: int, overlap_px: int, core_valid: np.ndarray
    ) -> dict[str, np.ndarray]:
        plane = scores.reshape(scores.shape[-2:]) if scores.ndim == 2 or scores.shape[0] == 1 else None
        if plane is None:
            raise ModelError(
                f"Regression output '{self.head.name}' has {scores.shape[0]} channels per pixel; one is expected."
            )
        values = plane[self._core(plane, tile, tile_px, overlap_px)].astype(np.float32) * np.float32(self.head.scale)
        values[~core_valid] = np.nan
        return {"value": values}

    def write_core(self, arrays: dict[str, np.ndarray], at: _Placement) -> None:
        self.files[0].write(arrays["value"][at.inside], at.row, at.col)

    def stored_names(self) -> list[str]:
        return ["value"]


class _TileValues:
    """Per-image heads: one value per tile, written as a CSV (tile bounds, valid share, values)."""

    def __init__(self, heads: Sequence[OutputSpec], grid: Grid, path: str) -> None:
        self.heads = tuple(heads)
        self.grid = grid
        self.path = os.path.abspath(path)
        self.records: list[tuple[tuple[int, int], list[object], list[float]]] = []
        self.values: dict[str, list[float]] = {h.name: [] for h in self.heads}

    def decide(self, core_valid: np.ndarray, outputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """A tile's valid share and per-image values, as arrays (what the tile cache stores)."""
        if not self.heads:
            return {}
        arrays = {"valid_share": np.array([core_valid.mean()], dtype=np.float64)}
        for head in self.heads:
            arrays[f"tile:{head.name}"] = np.array([per_image_value(head, outputs[head.name])[0]], dtype=np.float64)
        return arrays

    def add(self, tile: Tile, at: tuple[int, int], arrays: dict[str, np.ndarray]) -> None:
        """Record a tile whose core starts at output-grid ``at`` (row, col); tiles may come in any order."""
        if not self.heads:
            return
        t = self.grid.transform
        x0, y1 = t * (at[1], at[0])
        x1, y0 = t * (at[1] + tile.core_cols, at[0] + tile.core_rows)
        row: list[object] = [at[0], at[1], f"{x0:.3f}", f"{y0:.3f}", f"{x1:.3f}", f"{y1:.3f}"]
        row.append(f"{float(arrays['valid_share'][0]):.4f}")
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
        raise InputError(
            f"The model returns {rows}x{cols} px for {tile_px} px tiles: only outputs centred on "
            "their input and smaller by an even number of pixels are supported."
        )
    dr, dc = (tile_px - rows) // 2, (tile_px - cols) // 2
    r, c = tile.core_offset
    if r < dr or c < dc or r - dr + tile.core_rows > rows or c - dc + tile.core_cols > cols:
        raise InputError(
            f"The model returns {rows}x{cols} px for {tile_px} px tiles (it drops {dr} px on each side): "
            f"set OVERLAP to at least {lack} (currently {overlap_px})."
        )
    return dr, dc


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

    def _detect(self, scores: np.ndarray) -> str:
        """``softmax`` when the scores already are probabilities, else ``logits``."""
        sample = scores[..., ::16, ::16]
        if sample.min() < 0.0 or sample.max() > 1.0:
            return "logits"
        if scores.ndim == 3 and scores.shape[0] > 1:
            sums = sample.sum(axis=0)
            return "softmax" if np.allclose(sums, 1.0, atol=1e-3) else "logits"
        return "sigmoid"

    def __call__(self, scores: np.ndarray, core: tuple[slice, slice]) -> tuple[np.ndarray, np.ndarray | None]:
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


class _Pipeline:
    """Reader thread -> onnxruntime in the calling thread -> writer thread."""

    def __init__(
        self,
        session,
        specs: Sequence[InputSpec],
        sources: Sequence[PixelSource],
        factors: Sequence[float],
        output_names: Sequence[str],
        tiles: list[Tile],
        tile_px: int,
        batch_size: int,
        is_canceled: Callable[[], bool],
        lookup: Callable[[Tile], dict[str, np.ndarray] | None] | None = None,
    ) -> None:
        self.lookup = lookup
        self.session = session
        self.specs = tuple(specs)
        self.sources = tuple(sources)
        self.factors = tuple(factors)
        self.output_names = list(output_names)
        self.tiles = tiles
        self.tile_px = tile_px
        self.batch_size = batch_size
        self.is_canceled = is_canceled
        # (pixel - mean) / std == pixel * scale + offset, per channel.
        self.affine = [
            (
                (1.0 / np.asarray(s.std, dtype=np.float32))[:, None, None],
                (-np.asarray(s.mean, dtype=np.float32) / np.asarray(s.std, dtype=np.float32))[:, None, None],
            )
            for s in self.specs
        ]
        self.fixed_batch = next((s.fixed_batch for s in self.specs if s.fixed_batch is not None), None)
        self.warnings: list[str] = []
        self.single_tiles = False

    def _read_batch(self, readers: list[WindowReader], batch: list[Tile]) -> tuple[list[Tile], dict, np.ndarray]:
        feeds = {}
        valid = np.empty((len(batch), self.tile_px, self.tile_px), dtype=bool)
        for k, (reader, spec, factor, (scale, offset)) in enumerate(
            zip(readers, self.specs, self.factors, self.affine)
        ):
            t = self.tile_px if k == 0 else round(self.tile_px * factor)
            inputs = np.empty((len(batch), spec.channels, t, t), dtype=np.float32)
            for i, tile in enumerate(batch):
                row, col = (
                    (tile.read_row, tile.read_col)
                    if k == 0
                    else (round(tile.read_row * factor), round(tile.read_col * factor))
                )
                data, mask = reader.read(row, col, t, t)
                if k == 0:
                    valid[i] = mask
                # (pixel - mean) / std as one fused multiply-add, in place, in float32.
                np.multiply(data, scale, out=inputs[i], casting="unsafe")
                inputs[i] += offset
                if not mask.all():
                    # Zero in normalised space, as a network's own zero padding sees its borders.
                    inputs[i][:, ~mask] = 0.0
            feeds[spec.name] = inputs if spec.dtype == "float32" else inputs.astype(spec.dtype)
        return batch, feeds, valid

    def _infer(self, feeds: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """Run the model on a batch; models that only run one tile at a time get one at a time.

        Some exports declare a dynamic batch axis but reshape to a batch of 1 inside the graph:
        the first failing batch switches the run to single tiles, with a warning.
        """
        names = self.output_names
        count = len(next(iter(feeds.values())))
        if not self.single_tiles:
            try:
                return dict(zip(names, run_batch(self.session, names, feeds, self.fixed_batch)))
            except Exception as err:  # onnxruntime raises untyped errors
                if count == 1:
                    raise ModelError(f"onnxruntime failed on a tile: {str(err).splitlines()[0][:300]}") from err
                self.single_tiles = True
                self.warnings.append(
                    f"The model failed on a batch of {count} tiles and runs one tile at a time "
                    "(its graph fixes the batch size to 1 although it declares a dynamic one)."
                )
        try:
            runs = [
                run_batch(self.session, names, {k: v[i : i + 1] for k, v in feeds.items()}, self.fixed_batch)
                for i in range(count)
            ]
        except Exception as err:
            raise ModelError(f"onnxruntime failed on a tile: {str(err).splitlines()[0][:300]}") from err
        return {name: np.concatenate([run[j] for run in runs]) for j, name in enumerate(names)}

    def _work(self) -> Iterator[_CachedTile | list[Tile]]:
        """Cached tiles one by one, the others in batches of ``batch_size`` for the model."""
        if self.lookup is None:
            yield from batched(self.tiles, self.batch_size)
            return
        pending: list[Tile] = []
        for tile in self.tiles:
            arrays = self.lookup(tile)
            if arrays is not None:
                yield _CachedTile(tile, arrays)
                continue
            pending.append(tile)
            if len(pending) == self.batch_size:
                yield pending
                pending = []
        if pending:
            yield pending

    def run(self, write: Callable, outputs: list[AtomicGeoTiff], on_progress: Callable[[float], None]) -> None:
        """Read (or take from the cache), infer and write every tile; outputs are opened and closed
        in the writing thread."""
        done = 0

        def produce(stop: threading.Event) -> Iterator[_CachedTile | tuple[list[Tile], dict, np.ndarray]]:
            with contextlib.ExitStack() as stack:
                readers = [stack.enter_context(source.open()) for source in self.sources]
                for work in self._work():
                    if stop.is_set():
                        return
                    yield work if isinstance(work, _CachedTile) else self._read_batch(readers, work)

        def infer(
            item: _CachedTile | tuple[list[Tile], dict, np.ndarray],
        ) -> _CachedTile | tuple[list[Tile], dict, np.ndarray]:
            if isinstance(item, _CachedTile):
                return item
            batch, feeds, valid = item
            return batch, self._infer(feeds), valid

        def consume(item: _CachedTile | tuple[list[Tile], dict, np.ndarray]) -> None:
            nonlocal done
            write(item)
            done += 1 if isinstance(item, _CachedTile) else len(item[0])
            on_progress(99.0 * done / len(self.tiles))

        @contextlib.contextmanager
        def opened_outputs() -> Iterator[None]:
            with rasterio.Env(GDAL_CACHEMAX=WRITE_CACHE_MB):
                try:
                    for out in outputs:
                        out.open()
                    yield
                finally:
                    for out in outputs:
                        out.close()

        run_stages(produce, infer, consume, is_canceled=self.is_canceled, consumer_context=opened_outputs)
