"""Tiled segmentation of a raster extent: runs a :class:`~.plan.SegmentPlan`.

:func:`.plan.plan_segment` decides the run; :func:`run_plan` creates the
onnxruntime session and pushes every tile through the three-stage
:class:`~.tile_pipeline.TilePipeline`: read and normalise, infer, then write each
tile core to every head's raster (nodata where the input is nodata or outside the mask
polygons). Outputs are written completely or not at all.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from ..engine.grid import Grid, Tile, core_stride_px
from ..engine.heads import HeadPlan, check_supported, input_grids, plan_heads, scale_factors
from ..engine.model import ModelInfo
from ..engine.pixel_sources import PixelSource
from ..engine.postprocess import Postprocess, argmax_channels, output_margin
from ..engine.sessions import CUDA, SessionInfo, create_session, cuda_available, decide_device
from ..engine.source_stamps import file_digest
from ..engine.stages import ignore_progress, never_canceled
from ..engine.wrapped_graph import Fusion, create_run_session, default_readers
from .cache_run import CachedRun, open_cached_run
from .fp16_check import fp16_agreement
from .head_writers import CONFIDENCE_NODATA, HeadWriter, Placement, TileValues, head_writer, publish_maps
from .plan import SegmentPlan, plan_run
from .request import SegmentRequest
from .tile_pipeline import CachedTile, TilePipeline

#: The provider a run reports when every tile came from the tile cache (no model was loaded).
CACHE_PROVIDER = "tile cache"

__all__ = [
    "CONFIDENCE_NODATA",
    "HeadPlan",
    "Postprocess",
    "SegmentPlan",
    "SegmentRequest",
    "SegmentResult",
    "argmax_channels",
    "check_supported",
    "input_grids",
    "output_margin",
    "plan_heads",
    "run_plan",
    "segment",
]


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
        class_pixels: pixel count per class value over the valid pixels (inside the mask).
        warnings: messages the user should see.
        head_paths: rasters of the further per-pixel heads, by ONNX output name.
        tile_values_path: CSV of per-image heads per tile, or None.
        tile_values: per-image head name -> values, one per tile (row-major).
        cached_tiles: tiles read from the tile cache instead of running the model.
        cache_summary: the tile cache's log line ("N of M tiles from the cache"); "" without one.
        graph: what ran inside the model's graph (pixel normalisation, argmax), or why nothing did.
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
    graph: str = ""

    @property
    def files(self) -> tuple[str, ...]:
        """Every file the run wrote: the class map, the confidence, further heads, the tile values."""
        paths = (self.output_path, self.confidence_path, *self.head_paths.values(), self.tile_values_path)
        return tuple(path for path in paths if path)

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

    def tile_value_lines(self, template: str) -> list[str]:
        """A line per per-image head with a value, from :meth:`tile_value_stats`.

        Args:
            template: the (translated) line, with fields ``name``, ``n`` (tiles), ``mean``, ``lo``,
                ``hi`` and ``path`` (the per-tile values file).

        Returns:
            The lines, in the order of :meth:`tile_value_stats`.
        """
        return [
            template.format(name=name, n=n, mean=mean, lo=lo, hi=hi, path=self.tile_values_path)
            for name, n, mean, lo, hi in self.tile_value_stats()
        ]


def segment(
    model: ModelInfo,
    source: PixelSource | Sequence[PixelSource],
    grid: Grid,
    request: SegmentRequest,
    *,
    is_canceled: Callable[[], bool] = never_canceled,
    on_progress: Callable[[float], None] = ignore_progress,
) -> SegmentResult:
    """Segment ``grid`` with ``model``, reading pixels from ready sources (plan, then run).

    Args:
        model: the model description.
        source: pixels, bound to ``grid`` and to the model's band order; for a model with several
            inputs, one source per input, in the model's input order, each bound to its grid
            from :func:`input_grids`.
        grid: the output grid.
        request: outputs, tiling and device.
        is_canceled: polled between batches; True stops the run and deletes partial outputs.
        on_progress: receives 0..100.

    Raises:
        Canceled: ``is_canceled`` answered True; nothing was written.
        InputError, ModelError, NotSupportedError: the request cannot be run.
    """
    sources = [source] if not isinstance(source, Sequence) else list(source)
    plan = plan_run(model, sources, grid, request)
    return run_plan(plan, is_canceled=is_canceled, on_progress=on_progress)


def _writers(plan: SegmentPlan, provider: str) -> tuple[list[HeadWriter], TileValues]:
    """One writer per per-pixel head (the primary first) and the per-tile values collector."""
    request, model, grid = plan.request, plan.model, plan.grid
    block_px = core_stride_px(plan.tile_px, plan.overlap_px)
    tags = {
        "FLAIR_MODEL": model.path,
        "FLAIR_MODEL_NAME": model.display_name,
        "FLAIR_PROVIDER": provider,
    }
    if os.path.isfile(model.path):  # flair:vectorize writes it in the polygons' 'model' field
        tags["FLAIR_MODEL_DIGEST"] = f"blake2b:{file_digest(model.path)[:16]}"
    threshold = model.seg_threshold
    writers = [
        head_writer(
            plan.heads.primary,
            request.output_path,
            grid,
            block_px,
            threshold,
            tags,
            request.confidence_path,
            keep_confidence=plan.cache is not None,
        )
    ]
    for extra in plan.heads.maps:
        writers.append(head_writer(extra, request.head_paths[extra.name], grid, block_px, threshold, tags))
    return writers, TileValues(plan.heads.per_tile, grid, request.tile_values_path or "")


class _TileSink:
    """Model outputs -> each tile core's arrays (stored in the tile cache) -> the output rasters.

    Tiles are in the sources' grid; the output grid starts at ``plan.origin`` in it, and a core
    may reach past its edges (a cached run's tiles lie on the whole layer's grid): only the part
    inside is written. The mask polygons apply when writing, so a cached tile serves any mask.
    """

    def __init__(self, plan: SegmentPlan, writers: list[HeadWriter], tile_values: TileValues, cached: CachedRun | None):
        self.plan, self.writers, self.tile_values, self.cached = plan, writers, tile_values, cached
        self.required = [f"{w.head.name}:{name}" for w in writers for name in w.stored_names()]
        if tile_values.heads:
            self.required += ["valid", *(f"tile:{h.name}" for h in tile_values.heads)]

    def lookup(self, tile: Tile) -> dict[str, np.ndarray] | None:
        """The tile's cached arrays, or None (the model then runs on it)."""
        return self.cached.get(tile, self.required) if self.cached else None

    def __call__(self, item: CachedTile | tuple[list[Tile], dict[str, np.ndarray], np.ndarray]) -> None:
        if isinstance(item, CachedTile):
            self.write(item.tile, item.arrays)
            return
        batch, scores, valid = item
        plan = self.plan
        for i, tile in enumerate(batch):
            r, c = tile.core_offset
            core_valid = valid[i][r : r + tile.core_rows, c : c + tile.core_cols]
            arrays: dict[str, np.ndarray] = {}
            for writer in self.writers:
                decided = writer.decide(scores[writer.head.name][i], tile, plan.tile_px, plan.overlap_px, core_valid)
                arrays.update({f"{writer.head.name}:{name}": array for name, array in decided.items()})
            if self.tile_values.heads:
                arrays["valid"] = core_valid
                arrays.update(
                    self.tile_values.decide({h.name: scores[h.name][i : i + 1] for h in self.tile_values.heads})
                )
            if self.cached:
                self.cached.put(tile, arrays)
            self.write(tile, arrays)

    def write(self, tile: Tile, arrays: dict[str, np.ndarray]) -> None:
        """Write the part of a tile core inside the output grid, nodata outside the mask polygons."""
        grid, origin = self.plan.grid, self.plan.origin
        row, col = tile.core_row - origin[0], tile.core_col - origin[1]
        top, left = max(0, -row), max(0, -col)
        bottom, right = min(tile.core_rows, grid.height - row), min(tile.core_cols, grid.width - col)
        at = Placement(row + top, col + left, np.s_[top:bottom, left:right])
        mask = self.plan.mask
        keep = mask.inside(at.row, at.col, bottom - top, right - left) if mask is not None else None
        for writer in self.writers:
            prefix = writer.head.name + ":"
            writer.write_core({k[len(prefix) :]: v for k, v in arrays.items() if k.startswith(prefix)}, at, keep)
        if self.tile_values.heads:
            valid = arrays["valid"][at.inside]
            self.tile_values.add(tile, (row, col), valid if keep is None else valid & keep, arrays)


def run_plan(
    plan: SegmentPlan,
    *,
    is_canceled: Callable[[], bool] = never_canceled,
    on_progress: Callable[[float], None] = ignore_progress,
    session: tuple[Any, SessionInfo] | tuple[Any, SessionInfo, Fusion] | None = None,
) -> SegmentResult:
    """Run a planned segmentation: every tile read, inferred and written.

    Args:
        plan: from :func:`.plan.plan_segment` (or :func:`~.plan.plan_run`).
        is_canceled: polled between batches; True stops the run and deletes partial outputs.
        on_progress: receives 0..100.
        session: an onnxruntime session and its info to reuse (a distributed worker keeps one
            per process), with the :class:`~flair_qgis.core.engine.wrapped_graph.Fusion` it was made
            with when it runs a wrapped graph
            (:func:`~flair_qgis.core.engine.wrapped_graph.create_run_session`); None creates one for
            this run.

    Returns:
        What was written and how.

    Raises:
        Canceled: ``is_canceled`` answered True; nothing was written (the maps are moved into
            place only once every tile is written, all of them or none).
        ModelError, InputError: the model fails on the tiles or returns unusable outputs.
    """
    started = time.perf_counter()
    warnings: list[str] = []
    decision = decide_device(plan.request.device, cuda=cuda_available())
    device = "cuda" if decision.provider == CUDA else "cpu"
    cached = None
    if plan.cache is not None:
        cached = open_cached_run(
            plan.cache, plan.model.path, plan.tiles, plan.tile_px, plan.overlap_px, warnings.append, device=device
        )
    session, info, make_session, fusion = _session(plan, cached, session)
    writers, tile_values = _writers(plan, info.provider)
    outputs = [f for w in writers for f in w.files]
    sink = _TileSink(plan, writers, tile_values, cached)
    lookup = sink.lookup if cached is not None and cached.cache is not None else None
    pipeline = _pipeline(plan, session, make_session, fusion, lookup, is_canceled)
    try:
        pipeline.run(sink, outputs, on_progress)
    except BaseException:
        for out in outputs:
            out.abort()
        raise
    publish_maps(outputs, tile_values)
    on_progress(100.0)
    warnings = [*([info.warning] if info.warning else []), *plan.warnings, *warnings, *pipeline.warnings]
    return _result(plan, writers, tile_values, info, warnings, cached, time.perf_counter() - started, fusion)


def _pipeline(plan: SegmentPlan, session, make_session, fusion: Fusion | None, lookup, is_canceled) -> TilePipeline:
    """The tile pipeline of a run: its readers, the (wrapped) session, the cache lookup."""
    return TilePipeline(
        session=session,
        specs=plan.model.inputs,
        sources=plan.sources,
        factors=scale_factors(plan.model),
        output_names=[o.name for o in plan.heads.all],
        tiles=list(plan.tiles),
        tile_px=plan.tile_px,
        batch_size=plan.batch_size,
        is_canceled=is_canceled,
        lookup=lookup,
        make_session=make_session,
        fusion=fusion,
        readers=plan.request.readers or default_readers(),
    )


def _result(
    plan: SegmentPlan,
    writers: list[HeadWriter],
    tile_values: TileValues,
    info: SessionInfo,
    warnings: list[str],
    cached,
    seconds: float,
    fusion: Fusion | None = None,
) -> SegmentResult:
    """What a finished run wrote: the primary head's files first, then the further heads'; what
    ran in the graph (a wrap that failed is also a warning)."""
    if fusion is not None:
        warnings = [*warnings, *fusion.notices]
    primary = writers[0]
    return SegmentResult(
        output_path=primary.files[0].path,
        confidence_path=primary.files[1].path if len(primary.files) > 1 else None,
        session=info,
        grid=plan.grid,
        tiles=len(plan.tiles),
        seconds=seconds,
        class_pixels=primary.class_pixels(),
        warnings=warnings,
        head_paths={w.head.name: w.files[0].path for w in writers[1:]},
        tile_values_path=tile_values.path if plan.heads.per_tile else None,
        tile_values=tile_values.values,
        cached_tiles=cached.hits if cached is not None else 0,
        cache_summary=cached.summary() if cached is not None else "",
        graph=fusion.note if fusion is not None else "pre- and post-processing on the host (no wrapped session)",
    )


def _session(plan: SegmentPlan, cached, reused: tuple | None):
    """``(session, info, make_session, fusion)``: the session to run with (None when every tile is
    cached) and what its graph does (None: the plain graph, host pre- and post-processing).

    ``make_session`` gives the pipeline a plain session when a cached run finds a damaged entry.
    """
    request = plan.request

    def make_session():
        return reused[0] if reused else create_session(plan.model.path, request.device, request.threads)[0]

    if reused is not None:
        return reused[0], reused[1], make_session, (reused[2] if len(reused) > 2 else None)
    if cached is not None and cached.all_present(plan.tiles):
        # Every tile is in the cache: the model is not even loaded (a damaged entry loads it).
        return None, SessionInfo(request.device, CACHE_PROVIDER, 0), make_session, None
    session, info, fusion = run_session(plan)
    return session, info, make_session, fusion


def run_session(plan: SegmentPlan) -> tuple[Any, SessionInfo, Fusion]:
    """The session a plan runs with: its graph wrapped with the pre- and post-processing where it
    can be (:func:`~flair_qgis.core.engine.wrapped_graph.create_run_session`), in the plan's
    precision; an fp16 session is checked against fp32 on the first tiles first. Callers that
    build it themselves (the dock, to name the provider in its progress) pass it back to
    :func:`run_plan` as ``session``.

    Raises:
        ModelError: the model cannot be loaded.
        InputError: fp16 where CUDA did not load (key ``fp16_cpu``), or fp16 disagrees with fp32 on
            the first tiles (key ``fp16_agreement``, the figure in the message).
    """
    request = plan.request
    want_confidence = bool(request.confidence_path) or plan.cache is not None
    dtypes = [getattr(source, "dtype", None) for source in plan.sources]
    args = (plan.model, plan.heads, dtypes, want_confidence, request.device, request.threads, request.fuse_graph)
    session, info, fusion = create_run_session(*args, precision=request.precision)
    if request.precision == "fp16":
        fp32, _info, fusion32 = create_run_session(*args)
        agreement = fp16_agreement(plan, (session, fusion), (fp32, fusion32))
        fusion = replace(fusion, note=f"{fusion.note}; fp16 ({agreement})")
    return session, info, fusion
