"""How a segmentation run uses the tile cache: the layer-anchored tile grid, the key, the log line.

With a cache, the pixel sources are bound to the *layer grid* (the whole layer at the model's
resolution, :func:`whole_layer_grid`) and the tiles are those of the whole-layer layout that meet the
extent (:func:`flair_qgis.core.grid.window_tile_layout`). Each tile then reads and decides
exactly what it does in a whole-layer run, so any two extents of one layer share their common
tiles, and a run over an extent gives the same pixels as the whole-layer run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from affine import Affine

from .errors import InputError
from .grid import Grid, Tile, pixel_offset, plan_grid, window_tile_layout
from .tile_cache import DEFAULT_MAX_BYTES, TileCache, file_digest, open_cache, run_key


@dataclass(frozen=True)
class CacheRequest:
    """A tile cache for a run, captured with the run's inputs.

    Attributes:
        folder: the cache folder.
        sources: identity of each model input's source
            (:func:`flair_qgis.core.tile_cache.source_identity`), in input order.
        bands: band mapping of each input.
        layer_grid: the grid the pixel sources are bound to: the whole first layer at the
            model's resolution (:func:`whole_layer_grid`).
        max_bytes: size limit of the cache folder.
    """

    folder: str
    sources: tuple[str, ...]
    bands: tuple[tuple[int, ...], ...]
    layer_grid: Grid
    max_bytes: int = DEFAULT_MAX_BYTES


def whole_layer_grid(
    transform: Affine, width: int, height: int, crs_wkt: str | None, resolution_m: float | None
) -> Grid:
    """The grid the sources of a cached run are bound to (the whole layer, model resolution)."""
    return plan_grid(transform, width, height, crs_wkt, None, resolution_m)


@dataclass
class CachedRun:
    """The tile cache as one run uses it.

    Attributes:
        origin: ``(row, col)`` of the run's output grid in the layer grid.
        layer_grid: the grid the sources are bound to.
        cache: the opened cache, or None when the folder could not be used (the run then goes
            on uncached, on the same tiles).
        total_tiles: tiles of the run.
    """

    origin: tuple[int, int]
    layer_grid: Grid
    cache: TileCache | None
    total_tiles: int = 0

    def layout(self, grid: Grid, tile_size_px: int, overlap_px: int) -> list[Tile]:
        """The run's tiles, in layer-grid pixels."""
        window = (self.origin[0], self.origin[1], grid.height, grid.width)
        tiles = window_tile_layout(self.layer_grid.width, self.layer_grid.height, window, tile_size_px, overlap_px)
        self.total_tiles = len(tiles)
        return tiles

    def get(self, tile: Tile, required: Sequence[str]) -> dict[str, np.ndarray] | None:
        """A tile's stored arrays, or None when absent, damaged or lacking one of ``required``."""
        if self.cache is None:
            return None
        arrays = self.cache.get(tile.core_row, tile.core_col)
        if arrays is None or any(name not in arrays for name in required):
            return None
        return arrays

    def put(self, tile: Tile, arrays: dict[str, np.ndarray]) -> None:
        """Store a tile's arrays (nothing without a cache)."""
        if self.cache is not None:
            self.cache.put(tile.core_row, tile.core_col, arrays)

    def summary(self) -> str:
        """The log line: how many tiles came from the cache."""
        if self.cache is None:
            return f"Tile cache not used: all {self.total_tiles} tiles computed."
        stats = self.cache.stats
        return f"{stats.hits} of {self.total_tiles} tiles from the cache ({self.cache.root})."


def open_cached_run(
    request: CacheRequest,
    model_path: str,
    grid: Grid,
    tile_size_px: int,
    overlap_px: int,
    warn: Callable[[str], None],
) -> CachedRun:
    """Open the cache of a run.

    Args:
        request: the captured cache request.
        model_path: the ONNX file (its content is part of the key).
        grid: the run's output grid; it must share the layer grid's pixels.
        tile_size_px: resolved tile size.
        overlap_px: resolved overlap.
        warn: receives warnings (unusable folder, damaged entries).

    Raises:
        InputError: the output grid is not on the layer grid's pixels.
    """
    origin = pixel_offset(request.layer_grid.transform, grid)
    if origin is None:
        raise InputError(
            "With a tile cache the output grid must lie on the layer's pixel grid at the model's resolution."
        )
    layer = request.layer_grid
    key = run_key(
        file_digest(model_path),
        request.sources,
        request.bands,
        tile_size_px,
        overlap_px,
        layer.pixel_size_m,
        extra={"layer_grid": [*layer.transform[:6], layer.width, layer.height]},
    )
    cache = open_cache(request.folder, key, request.max_bytes, warn)
    return CachedRun(origin=origin, layer_grid=layer, cache=cache)
