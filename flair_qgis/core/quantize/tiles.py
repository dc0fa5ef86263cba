"""Calibration and validation tiles: drawn at random with a seed, read as ``flair:segment`` reads.

Each calibration layer is cut into the non-overlapping tiles of the model's tile size on the
model's grid (its resolution, the bands it asks for). :func:`draw_tiles` shuffles all of them with
``numpy.random.default_rng(seed)``: the first ones are the held-out validation tiles, the next
ones the calibration tiles, so the two sets never share a tile and the same seed gives the same
tiles. :func:`read_tiles` reads them with :func:`flair_qgis.core.segment.tile_pipeline.read_batch`,
the very code that feeds the model during a run (bands, resampling, ``(pixel - mean) / std``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..engine.bands import choose_bands
from ..engine.grid import Grid, Tile, plan_grid, tile_layout
from ..engine.heads import input_grids, resolve_tiling, scale_factors
from ..engine.model import ModelInfo
from ..engine.pixel_sources import CapturedRaster, PixelSource, SourceFactory, file_source
from ..engine.stages import normalisation
from ..engine.tile_reads import read_batch
from ..errors import Canceled, InputError, NotSupportedError


@dataclass(frozen=True)
class LayerTiles:
    """One calibration layer cut into tiles.

    Attributes:
        name: the layer's name (reported as the calibration source).
        source: its pixels on the model's grid, with the model's bands.
        tiles: its non-overlapping tiles, row-major.
    """

    name: str
    source: PixelSource
    tiles: tuple[Tile, ...]


@dataclass(frozen=True)
class TileRef:
    """Tile ``tile`` of calibration layer ``layer`` (an index into the layers)."""

    layer: int
    tile: int


@dataclass(frozen=True)
class TileDraw:
    """The tiles drawn for one quantisation.

    Attributes:
        calibration: the calibration tiles.
        validation: the held-out tiles (never among ``calibration``).
        warnings: what the user should know (fewer tiles than asked).
    """

    calibration: tuple[TileRef, ...]
    validation: tuple[TileRef, ...]
    warnings: tuple[str, ...] = ()


def layer_tiles(
    model: ModelInfo, rasters: Sequence[CapturedRaster], make_source: SourceFactory = file_source
) -> tuple[list[LayerTiles], int]:
    """Cut each calibration layer into the model's tiles, on the model's grid and bands.

    Args:
        model: a single-input model.
        rasters: the captured calibration layers.
        make_source: makes each layer's pixel source (the QGIS adapters read web layers).

    Returns:
        ``(layers, tile_px)``.

    Raises:
        NotSupportedError: a model with several inputs.
        InputError: no layer, or bands that do not fit a layer.
    """
    if len(model.inputs) != 1:
        raise NotSupportedError.of("quantise_multi_input", input_count=len(model.inputs))
    if not rasters:
        raise InputError.of("no_calibration_layer")
    tile_px, _, _ = resolve_tiling(model, None, 0, 1)
    spec = model.input
    layers = []
    for raster in rasters:
        bands = choose_bands(spec, (), raster.band_labels).bands
        grid = plan_grid(raster.transform, raster.width, raster.height, raster.crs_wkt, None, spec.resolution_m)
        source = make_source(raster, bands, input_grids(model, grid)[0])
        layers.append(LayerTiles(raster.name, source, tuple(_whole_tiles(grid, tile_px))))
    return layers, tile_px


def _whole_tiles(grid: Grid, tile_px: int) -> list[Tile]:
    """Non-overlapping tiles of the grid; a grid smaller than a tile gives one (padded) tile."""
    return tile_layout(grid.width, grid.height, tile_px, 0)


def draw_tiles(tile_counts: Sequence[int], calibration_tiles: int, validation_tiles: int, seed: int) -> TileDraw:
    """Draw held-out validation tiles, then calibration tiles, from every layer's tiles.

    Validation keeps at most half of the tiles, so that calibration always gets some.

    Args:
        tile_counts: number of tiles of each layer.
        calibration_tiles: calibration tiles wanted (at least 1).
        validation_tiles: validation tiles wanted (0 for none).
        seed: the random seed; the same seed and counts give the same tiles.

    Raises:
        InputError: no tile at all, or counts below their minimum.
    """
    if calibration_tiles < 1 or validation_tiles < 0:
        raise InputError.of("bad_tile_counts")
    pool = [TileRef(layer, tile) for layer, count in enumerate(tile_counts) for tile in range(count)]
    if not pool:
        raise InputError.of("calibration_without_tiles")
    order = np.random.default_rng(seed).permutation(len(pool))
    n_val = min(validation_tiles, len(pool) // 2)
    n_cal = min(calibration_tiles, len(pool) - n_val)
    warnings = []
    if n_val < validation_tiles or n_cal < calibration_tiles:
        warnings.append(
            f"The calibration layers hold {len(pool)} tile(s): {n_cal} calibration and {n_val} validation "
            f"tile(s) are used instead of {calibration_tiles} and {validation_tiles}."
        )
    picked = [pool[i] for i in order[: n_val + n_cal]]
    return TileDraw(tuple(picked[n_val:]), tuple(picked[:n_val]), tuple(warnings))


def read_tiles(
    model: ModelInfo,
    layers: Sequence[LayerTiles],
    refs: Sequence[TileRef],
    tile_px: int,
    is_canceled: Callable[[], bool] = lambda: False,
) -> tuple[np.ndarray, np.ndarray]:
    """Read tiles as the model sees them.

    Returns:
        ``(inputs, valid)``: float32 ``(tiles, channels, tile_px, tile_px)`` normalised pixels and
        boolean ``(tiles, tile_px, tile_px)`` validity.
    """
    spec = model.input
    inputs = np.empty((len(refs), spec.channels, tile_px, tile_px), dtype=np.float32)
    valid = np.empty((len(refs), tile_px, tile_px), dtype=bool)
    affine = [normalisation(spec.mean, spec.std)]
    factors = scale_factors(model)
    for layer_index, layer in enumerate(layers):
        wanted = [(k, ref) for k, ref in enumerate(refs) if ref.layer == layer_index]
        if not wanted:
            continue
        with layer.source.open() as reader:
            for k, ref in wanted:
                if is_canceled():
                    raise Canceled()
                feeds, mask = read_batch([reader], [spec], factors, affine, [layer.tiles[ref.tile]], tile_px)
                inputs[k] = feeds[spec.name][0]
                valid[k] = mask[0]
    return inputs, valid
