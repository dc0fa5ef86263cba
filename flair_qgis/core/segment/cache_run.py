"""How a segmentation run uses the tile cache: the layer-anchored tile grid, the key, the log line.

With a cache, the pixel sources are bound to the *layer grid* (the whole layer at the model's
resolution, :attr:`CacheRequest.layer_grid`) and the tiles are those of the whole-layer layout that meet the
extent (:func:`flair_qgis.core.engine.grid.window_tile_layout`). Each tile then reads and decides
exactly what it does in a whole-layer run, so any two extents of one layer share their common
tiles, and a run over an extent gives the same pixels as the whole-layer run.

What a tile was read from is identified once per run, in the worker
(:func:`flair_qgis.core.engine.source_stamps.describe_source_files`): every file of a VRT is
stamped, and a tile whose VRT sources changed since it was cached is recomputed, alone. Remote
layers (web services, ``/vsicurl/``, databases) have nothing to stamp: they are cached only when
the run asks for it (``CACHE_REMOTE``, "Cache web layers"), keyed by their address, and each
entry is kept for a time-to-live (:data:`DEFAULT_REMOTE_TTL_S`) that the log line states.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..engine.grid import Grid, Tile, pixel_offset, window_tile_layout
from ..engine.source_stamps import SourceFiles, describe_source_files, file_digest, is_remote
from ..errors import InputError
from .tile_cache import DEFAULT_MAX_BYTES, TileCache, open_cache
from .tile_entry import run_key

#: How long a remote layer's cached tile is used: the server's content may change meanwhile.
DEFAULT_REMOTE_TTL_S = 86400.0


@dataclass(frozen=True)
class CacheRequest:
    """A tile cache for a run, captured with the run's inputs.

    Attributes:
        folder: the cache folder.
        sources: what identifies each model input's source, in input order: ``file:<path>``
            (its files are stamped in the worker) or ``uri:<address>`` (a remote layer).
        bands: band mapping of each input.
        layer_grid: the grid the pixel sources are bound to: the whole first layer at the
            model's resolution.
        max_bytes: size limit of the cache folder.
        remote_ttl_s: how long a remote source's tiles are used, or None when the run reads no
            remote source (remote sources are cached only when the run asks for it).
    """

    folder: str
    sources: tuple[str, ...]
    bands: tuple[tuple[int, ...], ...]
    layer_grid: Grid
    max_bytes: int = DEFAULT_MAX_BYTES
    remote_ttl_s: float | None = None


def cache_request(
    folder: str | None,
    max_bytes: int,
    sources: Sequence[tuple[str, str | None, str]],
    bands: Sequence[Sequence[int]],
    layer_grid: Grid,
    cache_remote: bool = False,
    remote_ttl_s: float = DEFAULT_REMOTE_TTL_S,
) -> tuple[CacheRequest | None, str]:
    """The tile cache of a run being planned, and a note for the user ("" when none).

    Args:
        folder: the cache folder; None or "" for none.
        max_bytes: size limit of the folder.
        sources: ``(name, file path or None, provider URI or "")`` of each model input's layer.
        bands: the band mapping of each input.
        layer_grid: the whole first layer at the model's resolution.
        cache_remote: cache remote layers too (XYZ, WMS, WMTS, ``/vsicurl/``, database rasters),
            keyed by their address for ``remote_ttl_s``.
        remote_ttl_s: the time-to-live of a remote layer's tiles.

    Returns:
        ``(None, "")`` without a folder; ``(None, note)`` when a source has no identity to key
        tiles on, or is remote and ``cache_remote`` is off (the run goes on uncached).
    """
    if not folder:
        return None, ""
    identities, remote = [], False
    for name, path, uri in sources:
        if not path and not uri:
            return None, f"Layer '{name}' has no file or source address to key cached tiles on: the run is not cached."
        if is_remote(path, uri):
            if not cache_remote:
                return None, (
                    f"Layer '{name}' is a web or database layer, whose content can change on the server: "
                    "its tiles are not cached. Tick 'Cache web layers' (Follow the view) or set CACHE_REMOTE=true "
                    f"to cache them for {describe_duration(remote_ttl_s)}."
                )
            remote = True
            identities.append(f"uri:{uri or path}")
        else:
            identities.append(f"file:{path}")
    request = CacheRequest(
        folder,
        tuple(identities),
        tuple(tuple(b) for b in bands),
        layer_grid,
        max_bytes,
        remote_ttl_s if remote else None,
    )
    return request, ""


def describe_duration(seconds: float) -> str:
    """A time-to-live as the log states it: ``1 day``, ``6 h``, ``90 s``."""
    if seconds >= 86400 and seconds % 86400 == 0:
        days = int(seconds // 86400)
        return f"{days} day" + ("" if days == 1 else "s")
    if seconds >= 3600 and seconds % 3600 == 0:
        return f"{int(seconds // 3600)} h"
    return f"{seconds:g} s"


def grid_origin(layer_grid: Grid, grid: Grid) -> tuple[int, int]:
    """``(row, col)`` of an output grid in the layer grid.

    Raises:
        InputError: the grid does not lie on the layer grid's pixels.
    """
    origin = pixel_offset(layer_grid.transform, grid)
    if origin is None:
        raise InputError.of("cache_off_grid")
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
        files: the stamped files of each file-backed input (VRT sources placed on the layer grid).
        tile_px: model input edge (a tile's read window, in layer-grid pixels).
        max_age_s: time-to-live of the entries (remote sources), or None.
    """

    cache: TileCache | None
    total_tiles: int
    files: tuple[SourceFiles, ...] = ()
    tile_px: int = 0
    max_age_s: float | None = None
    _digests: dict[tuple[int, int], str] = field(default_factory=dict)

    def sources_digest(self, tile: Tile) -> str:
        """Digest of the stamps of the VRT sources a tile reads ("" when it reads none)."""
        at = (tile.read_row, tile.read_col)
        if at not in self._digests:
            stamps = [s for f in self.files for s in f.tile_stamps(*at, self.tile_px, self.tile_px)]
            text = "\n".join(stamps)
            self._digests[at] = hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest() if stamps else ""
        return self._digests[at]

    def all_present(self, tiles: Sequence[Tile]) -> bool:
        """True when every tile has an entry that is up to date (the model then need not even be loaded)."""
        cache = self.cache
        return cache is not None and all(
            cache.is_fresh(t.core_row, t.core_col, self.sources_digest(t), self.max_age_s) for t in tiles
        )

    def get(self, tile: Tile, required: Sequence[str]) -> dict[str, np.ndarray] | None:
        """A tile's stored arrays, or None when absent, stale, damaged or lacking one of ``required``."""
        if self.cache is None:
            return None
        arrays = self.cache.get(tile.core_row, tile.core_col, self.sources_digest(tile), self.max_age_s)
        if arrays is None or any(name not in arrays for name in required):
            return None
        return arrays

    def put(self, tile: Tile, arrays: dict[str, np.ndarray]) -> None:
        """Store a tile's arrays (nothing without a cache)."""
        if self.cache is not None:
            self.cache.put(tile.core_row, tile.core_col, arrays, self.sources_digest(tile))

    @property
    def hits(self) -> int:
        """Tiles read from the cache so far."""
        return self.cache.stats.hits if self.cache is not None else 0

    @property
    def stale(self) -> int:
        """Cached tiles found out of date (a source file changed, or past the time-to-live)."""
        return self.cache.stats.stale if self.cache is not None else 0

    def summary(self) -> str:
        """The log line: how many tiles came from the cache, how many were out of date, the time-to-live."""
        if self.cache is None:
            return f"Tile cache not used: all {self.total_tiles} tiles computed."
        line = f"{self.hits} of {self.total_tiles} tiles from the cache ({self.cache.root})."
        if self.stale:
            reason = "past their time-to-live" if self.max_age_s is not None else "a source file changed"
            line += f" {self.stale} cached tile(s) were out of date ({reason}) and were recomputed."
        if self.max_age_s is not None:
            line += (
                f" Web layer tiles are cached by their address for {describe_duration(self.max_age_s)}, "
                "then fetched again."
            )
        return line


def open_cached_run(
    request: CacheRequest,
    model_path: str,
    tiles: Sequence[Tile],
    tile_size_px: int,
    overlap_px: int,
    warn: Callable[[str], None],
    device: str = "cpu",
) -> CachedRun:
    """Open the cache of a planned run (in the worker: the model and the source files are stamped here, once).

    Args:
        request: the plan's cache request.
        model_path: the ONNX file (its content is part of the key).
        tiles: the run's tiles.
        tile_size_px: resolved tile size.
        overlap_px: resolved overlap.
        warn: receives warnings (unusable folder, damaged entries, remote files in a mosaic).
        device: ``cuda`` or ``cpu``, the device that computes missing tiles: GPU and CPU floats
            may differ in the last bits, and a run must give the pixels it would give uncached.
    """
    layer = request.layer_grid
    identities, files = [], []
    for source in request.sources:
        if not source.startswith("file:"):
            identities.append(source)
            continue
        described = describe_source_files(source[len("file:") :], layer)
        if described.remote and request.remote_ttl_s is None:
            warn(
                f"{described.path} reads files over the network: its tiles are not cached "
                "(set CACHE_REMOTE=true or tick 'Cache web layers' to cache them)."
            )
            return CachedRun(None, len(tiles))
        identities.append(described.identity)
        files.append(described)
    key = run_key(
        file_digest(model_path),
        identities,
        request.bands,
        tile_size_px,
        overlap_px,
        layer.pixel_size_m,
        extra={
            "layer_grid": [*layer.transform[:6], layer.width, layer.height],
            "grid_crs": layer.crs_wkt or "",
            "device": device,
        },
    )
    cache = open_cache(request.folder, key, request.max_bytes, warn)
    return CachedRun(cache, len(tiles), tuple(files), tile_size_px, request.remote_ttl_s)
