"""How a segmentation run uses the tile cache: the layer-anchored tile grid, the key, the log line.

With a cache, the pixel sources are bound to the *layer grid* (the whole layer at the model's
resolution, :attr:`CacheRequest.layer_grid`) and the tiles are those of the whole-layer layout that meet the
extent (:func:`flair_qgis.core.grid.window_tile_layout`). Each tile then reads and decides
exactly what it does in a whole-layer run, so any two extents of one layer share their common
tiles, and a run over an extent gives the same pixels as the whole-layer run.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from .grid import Grid, Tile, pixel_offset, window_tile_layout
from .tile_cache import DEFAULT_MAX_BYTES, TileCache, file_digest, open_cache, run_key, source_identity


@dataclass(frozen=True)
class CacheRequest:
    """A tile cache for a run, captured with the run's inputs.

    Attributes:
        folder: the cache folder.
        sources: identity of each model input's source
            (:func:`flair_qgis.core.tile_cache.source_identity`), in input order.
        bands: band mapping of each input.
        layer_grid: the grid the pixel sources are bound to: the whole first layer at the
            model's resolution.
        max_bytes: size limit of the cache folder.
    """

    folder: str
    sources: tuple[str, ...]
    bands: tuple[tuple[int, ...], ...]
    layer_grid: Grid
    max_bytes: int = DEFAULT_MAX_BYTES


def cache_request(
    folder: str | None,
    max_bytes: int,
    sources: Sequence[tuple[str, str | None, str]],
    bands: Sequence[Sequence[int]],
    layer_grid: Grid,
) -> tuple[CacheRequest | None, str]:
    """The tile cache of a run being planned, and a note for the user ("" when none).

    Args:
        folder: the cache folder; None or "" for none.
        max_bytes: size limit of the folder.
        sources: ``(name, file path or None, provider URI or "")`` of each model input's layer.
        bands: the band mapping of each input.
        layer_grid: the whole first layer at the model's resolution.

    Returns:
        ``(None, "")`` without a folder; ``(None, note)`` when a source has no identity to key
        tiles on (the run goes on uncached).
    """
    if not folder:
        return None, ""
    identities = []
    for name, path, uri in sources:
        if not path and not uri:
            return None, f"Layer '{name}' has no file or source address to key cached tiles on: the run is not cached."
        identities.append(source_identity(path, uri))
    return CacheRequest(folder, tuple(identities), tuple(tuple(b) for b in bands), layer_grid, max_bytes), ""


def grid_origin(layer_grid: Grid, grid: Grid) -> tuple[int, int]:
    """``(row, col)`` of an output grid in the layer grid.

    Raises:
        InputError: the grid does not lie on the layer grid's pixels.
    """
    origin = pixel_offset(layer_grid.transform, grid)
    if origin is None:
        raise InputError(
            "With a tile cache the output grid must lie on the layer's pixel grid at the model's resolution."
        )
    return origin


def cached_tiles(
    layer_grid: Grid, origin: tuple[int, int], grid: Grid, tile_size_px: int, overlap_px: int
) -> list[Tile]:
    """The whole-layer tiles that meet the output grid, in layer-grid pixels."""
    window = (origin[0], origin[1], grid.height, grid.width)
    return window_tile_layout(layer_grid.width, layer_grid.height, window, tile_size_px, overlap_px)


@dataclass
class CachedRun:
    """The tile cache as one run uses it.

    Attributes:
        cache: the opened cache, or None when the folder could not be used (the run then goes
            on uncached, on the same tiles).
        total_tiles: tiles of the run.
    """

    cache: TileCache | None
    total_tiles: int

    def all_present(self, tiles: Sequence[Tile]) -> bool:
        """True when every tile has an entry (the model then need not even be loaded)."""
        cache = self.cache
        return cache is not None and all(os.path.exists(cache.entry_path(t.core_row, t.core_col)) for t in tiles)

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

    @property
    def hits(self) -> int:
        """Tiles read from the cache so far."""
        return self.cache.stats.hits if self.cache is not None else 0

    def summary(self) -> str:
        """The log line: how many tiles came from the cache."""
        if self.cache is None:
            return f"Tile cache not used: all {self.total_tiles} tiles computed."
        return f"{self.hits} of {self.total_tiles} tiles from the cache ({self.cache.root})."


def open_cached_run(
    request: CacheRequest,
    model_path: str,
    tiles: Sequence[Tile],
    tile_size_px: int,
    overlap_px: int,
    warn: Callable[[str], None],
    device: str = "cpu",
) -> CachedRun:
    """Open the cache of a planned run (in the worker: the model file is hashed here, once).

    Args:
        request: the plan's cache request.
        model_path: the ONNX file (its content is part of the key).
        tiles: the run's tiles.
        tile_size_px: resolved tile size.
        overlap_px: resolved overlap.
        warn: receives warnings (unusable folder, damaged entries).
        device: ``cuda`` or ``cpu``, the device that computes missing tiles: GPU and CPU floats
            may differ in the last bits, and a run must give the pixels it would give uncached.
    """
    layer = request.layer_grid
    key = run_key(
        file_digest(model_path),
        request.sources,
        request.bands,
        tile_size_px,
        overlap_px,
        layer.pixel_size_m,
        extra={"layer_grid": [*layer.transform[:6], layer.width, layer.height], "device": device},
    )
    return CachedRun(open_cache(request.folder, key, request.max_bytes, warn), len(tiles))
