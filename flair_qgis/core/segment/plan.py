"""One run plan: everything a segmentation run decides before it reads a pixel.

The segment job (:func:`flair_qgis.core.segment.job.plan_job`, which the dock, ``flair:segment``
and ``scripts/flair segment`` call) plans with :func:`plan_segment`;
:func:`flair_qgis.core.segment.run.run_plan` then runs the plan. The plan holds
the output grid and each input's grid, the bands, the pixel sources, the tiling, what each model
head becomes, the output paths (checked: writable, and never an input of the run) and the
polygon mask::

    plan = plan_segment(model, rasters, SegmentRequest("out.tif", extent=..., mask_wkbs=...))
    plan.tiles            # the tile layout (their cores partition plan.grid)
    plan.outputs()        # {"OUTPUT": ..., "OUTPUT_CONFIDENCE": ..., "OUTPUT_<HEAD>": ...}
    result = run_plan(plan, is_canceled=..., on_progress=...)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import rasterio.crs
import rasterio.errors

from ..atomic import check_output_path
from ..engine.bands import choose_bands
from ..engine.grid import Grid, Tile, plan_grid, tile_layout
from ..engine.heads import HeadPlan, input_grids, plan_heads, resolve_tiling
from ..engine.model import TASK_SEGMENTATION, InputSpec, ModelInfo
from ..engine.pixel_sources import CapturedRaster, PixelSource, SourceFactory, file_source
from ..engine.sessions import cuda_available, decide_device
from ..errors import InputError
from ..paths import check_outputs_not_inputs, check_sidecars_not_input
from .cache_run import CacheRequest, cache_request, cached_tiles, grid_origin
from .mask import PolygonMask, polygons_bounds
from .names import TILE_VALUES_SUFFIX, beside
from .request import SegmentRequest


@dataclass(frozen=True)
class SegmentPlan:
    """A run, fully decided; :func:`flair_qgis.core.segment.run_plan` runs it.

    Attributes:
        model: the model.
        heads: what each model output becomes.
        grid: the output grid (that of the first input).
        sources: pixels of each model input, bound to its grid and bands, in input order.
        tiles: the tile layout over ``grid``, row-major; their cores partition it.
        tile_px: model input edge.
        overlap_px: overlap between tiles.
        batch_size: tiles per onnxruntime call.
        request: the request with everything decided: every output path resolved (absolute; one
            per further head; the tile-values CSV when the model has per-image heads), the tiling
            used and, from :func:`plan_segment`, the bands chosen.
        bands: the layer bands feeding each input (empty when the sources were given ready).
        mask: polygons outside which the maps are nodata, or None.
        warnings: what the user should read before the run (band guesses, no CRS).
        cache: the tile cache, or None. With it the sources are bound to the whole layer's grid
            (``cache.layer_grid``), ``tiles`` are the whole-layer tiles that meet ``grid``, in
            that grid's pixels, and ``origin`` is where ``grid`` starts in it.
        origin: ``(row, col)`` of ``grid`` in the sources' grid (``(0, 0)`` without a cache).
    """

    model: ModelInfo
    heads: HeadPlan
    grid: Grid
    sources: tuple[PixelSource, ...]
    tiles: tuple[Tile, ...]
    tile_px: int
    overlap_px: int
    batch_size: int
    request: SegmentRequest
    bands: tuple[tuple[int, ...], ...] = ()
    mask: PolygonMask | None = None
    warnings: tuple[str, ...] = ()
    cache: CacheRequest | None = None
    origin: tuple[int, int] = (0, 0)

    def outputs(self) -> dict[str, str]:
        """Every file the run writes, by output name (``OUTPUT``, ``OUTPUT_CONFIDENCE``, ``OUTPUT_<HEAD>``...)."""
        request = self.request
        named = {"OUTPUT": request.output_path, "OUTPUT_CONFIDENCE": request.confidence_path or ""}
        named.update({output_name(head): path for head, path in request.head_paths.items()})
        if self.heads.per_tile and request.tile_values_path:
            named["OUTPUT_TILE_VALUES"] = request.tile_values_path
        return {name: path for name, path in named.items() if path}


def output_name(head: str) -> str:
    """The output name of a further head's raster (``OUTPUT_HEIGHT`` for head ``height``)."""
    return f"OUTPUT_{head.upper()}"


def input_name(index: int) -> str:
    """The parameter name of model input ``index`` (0-based): ``INPUT``, ``INPUT_2``..."""
    return "INPUT" if index == 0 else f"INPUT_{index + 1}"


def check_confidence(heads: HeadPlan) -> None:
    """Refuse a confidence raster for a primary output without class scores.

    Raises:
        InputError: key ``no_confidence`` (the dock says "untick it", Processing names
            ``OUTPUT_CONFIDENCE``); ``params``: ``name`` of the output and ``value_map`` (True for a
            value map, False for a model that outputs class indices).
    """
    head = heads.primary
    value_map = head.task != TASK_SEGMENTATION
    if value_map or not head.dtype.startswith("float"):
        raise InputError.of("no_confidence", name=head.name, value_map=value_map)


def _resolve_outputs(heads: HeadPlan, request: SegmentRequest, tiling: tuple[int, int, int]) -> SegmentRequest:
    """The request with every output path decided and checked writable, and ``tiling``
    (``(tile_size_px, overlap_px, batch_size)``) the one used."""
    output = check_output_path(request.output_path)
    confidence = None
    if request.confidence_path:
        confidence = check_output_path(request.confidence_path, "confidence")
        check_confidence(heads)
    head_paths = {
        extra.name: check_output_path(
            request.head_paths.get(extra.name) or beside(output, extra.name, ".tif"), f"'{extra.name}'"
        )
        for extra in heads.maps
    }
    tile_values = request.tile_values_path or beside(output, TILE_VALUES_SUFFIX, ".csv")
    if heads.per_tile:
        tile_values = check_output_path(tile_values, "tile values")
    tile_px, overlap_px, batch_size = tiling
    return replace(
        request,
        output_path=output,
        confidence_path=confidence,
        head_paths=head_paths,
        tile_values_path=tile_values,
        tile_size_px=tile_px,
        overlap_px=overlap_px,
        batch_size=batch_size,
    )


def plan_run(
    model: ModelInfo,
    sources: Sequence[PixelSource],
    grid: Grid,
    request: SegmentRequest,
    *,
    inputs: Mapping[str, str | None] | None = None,
    cache: CacheRequest | None = None,
) -> SegmentPlan:
    """Plan a run over ready pixel sources (the part of :func:`plan_segment` after the sources).

    Args:
        model: the model.
        sources: one per model input, each bound to its grid from :func:`input_grids`.
        grid: the output grid.
        request: outputs, tiling, device, precision; its ``mask_wkbs`` (in the grid's CRS) are
            the polygons outside which the maps are nodata. Its ``bands`` and ``extent`` are not
            read (``sources`` and ``grid`` are bound already).
        inputs: the run's input files by parameter name (``INPUT``...), which no output may
            overwrite; ``MODEL`` and ``MASK`` (the request's ``mask_path``) are added.
        cache: a tile cache; ``sources`` are then bound to ``cache.layer_grid``.

    Raises:
        InputError: wrong number of sources, bad tiling, an output that cannot be written or
            that would overwrite an input.
        ModelError: the model has no per-pixel output.
        NotSupportedError: inputs whose resolutions do not give whole-pixel tiles.
    """
    if len(sources) != len(model.inputs):
        names = ", ".join(f"{s.name} ({s.modality or len(s.band_names)})" for s in model.inputs)
        raise InputError.of("input_layer_count", input_count=len(model.inputs), names=names, layer_count=len(sources))
    heads = plan_heads(model)
    origin = grid_origin(cache.layer_grid, grid) if cache else (0, 0)
    decide_device(request.device, request.precision, cuda=cuda_available()).checked()
    tile_px, overlap_px, batch_size = resolve_tiling(
        model, request.tile_size_px, request.overlap_px, request.batch_size
    )
    resolved = _resolve_outputs(heads, request, (tile_px, overlap_px, batch_size))  # the plan's request: decided
    plan = SegmentPlan(
        model=model,
        heads=heads,
        grid=grid,
        sources=tuple(sources),
        tiles=tuple(
            cached_tiles(cache.layer_grid, origin, grid, tile_px, overlap_px)
            if cache
            else tile_layout(grid.width, grid.height, tile_px, overlap_px)
        ),
        tile_px=tile_px,
        overlap_px=overlap_px,
        batch_size=batch_size,
        request=resolved,
        mask=PolygonMask(request.mask_wkbs, grid) if request.mask_wkbs else None,
        warnings=() if grid.crs_wkt else ("The layer has no CRS: the class map is written without one.",),
        cache=cache,
        origin=origin,
    )
    _check_not_inputs(plan.outputs(), {"MODEL": model.path, "MASK": request.mask_path, **(inputs or {})})
    return plan


def _check_not_inputs(outputs: Mapping[str, str], inputs: Mapping[str, str | None]) -> None:
    """Refuse outputs (and the style each raster output publishes beside it) that are input files."""
    check_outputs_not_inputs(outputs, inputs)
    for name, path in outputs.items():
        # Raster outputs publish a style (.qml) beside them; an input there would be replaced.
        if path.lower().endswith((".tif", ".tiff")):
            check_sidecars_not_input(name, path, (".qml",), inputs)


def _is_geographic(crs_wkt: str | None) -> bool:
    if not crs_wkt:
        return False
    try:
        return bool(rasterio.crs.CRS.from_wkt(crs_wkt).is_geographic)
    except rasterio.errors.CRSError:
        return False


def _choose_all_bands(
    model: ModelInfo, rasters: Sequence[CapturedRaster], bands: Sequence[Sequence[int]]
) -> tuple[list[tuple[int, ...]], list[str]]:
    """The bands of every input and the notes to show; errors name the input of multi-input models."""
    chosen, notes = [], []
    for index, (spec, raster) in enumerate(zip(model.inputs, rasters)):
        user = tuple(bands[index]) if index < len(bands) else ()
        try:
            choice = choose_bands(spec, user, raster.band_labels)
        except InputError as err:
            if len(model.inputs) > 1:
                raise InputError.of("input_error", index=index + 1, title=input_title(spec), error=err) from err
            raise
        chosen.append(choice.bands)
        if choice.warning:
            notes.append(choice.warning)
    return chosen, notes


def input_title(spec: InputSpec) -> str:
    """How a model input is named to the user: its modality (or ONNX name) and channel count."""
    channels = f"{spec.channels} band" + ("" if spec.channels == 1 else "s")
    return f"{spec.modality or spec.name} ({channels})"


def _clip(extent: tuple[float, float, float, float] | None, mask_wkbs: Sequence[bytes]):
    """The extent bounded by the mask polygons (their bounding box when no extent is given)."""
    if not mask_wkbs:
        return extent
    box = polygons_bounds(mask_wkbs)
    if extent is None:
        return box
    clipped = (max(extent[0], box[0]), max(extent[1], box[1]), min(extent[2], box[2]), min(extent[3], box[3]))
    if not (clipped[2] > clipped[0] and clipped[3] > clipped[1]):
        raise InputError.of("mask_outside_extent")
    return clipped


def plan_segment(
    model: ModelInfo,
    rasters: Sequence[CapturedRaster],
    request: SegmentRequest,
    *,
    inputs: Mapping[str, str | None] | None = None,
    make_source: SourceFactory = file_source,
) -> SegmentPlan:
    """Plan a segmentation run from captured rasters: bands, grids, sources, tiling, heads, outputs.

    Args:
        model: the model.
        rasters: one captured raster per model input, in the model's input order.
        request: the run's request: bands, extent, mask polygons, outputs, tiling, device.
        inputs: further input files no output may overwrite, by parameter name; the rasters'
            files (``INPUT``, ``INPUT_2``...), the model and the request's ``mask_path`` are
            always checked.
        make_source: makes each input's pixel source (the QGIS adapters read web layers).

    Returns:
        The plan; nothing has been written. Its request holds the bands chosen and the tiling.

    Raises:
        InputError: missing inputs, bands that do not fit, an empty extent, outputs that cannot
            be written or would overwrite an input.
        ModelError, NotSupportedError: a model the engine cannot run.
    """
    if len(rasters) < len(model.inputs):
        titles = ", ".join(input_title(spec) for spec in model.inputs)
        raise InputError.of("layer_per_input", input_count=len(model.inputs), titles=titles)
    plan_heads(model)  # a model without a per-pixel head is refused before anything else
    chosen, notes = _choose_all_bands(model, rasters, request.bands)
    first = rasters[0]
    resolution = None if _is_geographic(first.crs_wkt) else model.resolution_m
    extent = _clip(request.extent, request.mask_wkbs)
    grid = plan_grid(first.transform, first.width, first.height, first.crs_wkt, extent, resolution)
    cache, note = cache_request(
        request.cache_folder,
        request.cache_max_bytes,
        [(r.name, r.path, getattr(r, "uri", "")) for r in rasters[: len(model.inputs)]],
        chosen,
        plan_grid(first.transform, first.width, first.height, first.crs_wkt, None, resolution),
        cache_remote=request.cache_remote,
        remote_ttl_s=request.cache_remote_ttl_s,
    )
    notes.extend([note] if note else [])
    source_grid = cache.layer_grid if cache else grid
    sources = [make_source(r, b, g) for r, b, g in zip(rasters, chosen, input_grids(model, source_grid))]
    files = {input_name(i): r.path for i, r in enumerate(rasters[: len(model.inputs)])}
    plan = plan_run(model, sources, grid, request, inputs={**files, **(inputs or {})}, cache=cache)
    decided = replace(plan.request, bands=tuple(chosen))
    return replace(plan, request=decided, bands=decided.bands, warnings=(*notes, *plan.warnings))
