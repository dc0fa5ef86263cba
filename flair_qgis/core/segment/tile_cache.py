"""A folder of tile results shared by runs, so that ground segmented once is never segmented again.

Each entry holds what one tile of the layer-anchored tile grid decided: the class map core, the
confidence and the extra heads, as named numpy arrays. Entries live under
``<folder>/flair-tile-cache-v<FORMAT_VERSION>/<run key>/r<row>_c<col>.tile``:

- the **run key** (:func:`.tile_entry.run_key`) digests everything a tile's pixels depend on: the model
  file's content, the source's identity (the raster's path, the grid CRS and the stamps of the
  files every tile reads, see :mod:`~flair_qgis.core.engine.source_stamps`; or a web layer's provider URI), the band
  mapping, tile size, overlap and resolution. Changing any of them gives a new key, so a stale
  tile is never found.
- each entry's header holds the digest of the mosaic sources (VRT source files) its tile was
  read from and the time it was computed: an entry whose sources changed since, or older than a
  web layer's time-to-live, is stale and recomputed: only the tiles that read a rewritten source.
- the **format version** is part of the folder name and of every entry's header: a cache filled
  by another version of the plugin is ignored, never misread.
- each entry is written to a temporary file and renamed into place (``os.replace``), so a reader,
  in this process or another one, sees a whole entry or none; a checksum over header and
  payload catches anything else (a crash mid-write, a damaged disk): such an entry is deleted
  and recomputed, with a warning.
- the folder is bounded: past ``max_bytes``, the least recently used entries go first (a hit
  touches the entry's modification time, which every file system keeps, unlike access times).

A folder that cannot be written makes :func:`open_cache` return None with a warning: the run
goes on uncached.
"""

from __future__ import annotations

import os
import tempfile
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

from .tile_entry import FORMAT_VERSION, CorruptEntryError, StaleEntryError, decode_entry, encode_entry, read_header

DEFAULT_MAX_BYTES = 2 * 1024**3
_SUFFIX = ".tile"
_TMP_PREFIX = ".tmp-"
# A temporary file this old was left by a process that died mid-write.
_STALE_TMP_S = 3600.0
# Eviction goes below the limit by this share, so that it does not run again at the next write.
_EVICT_TO = 0.9


@dataclass
class CacheStats:
    """What a cache did during a run: tiles read (``hits``), not found (``misses``, stale and
    damaged ones included), found outdated (``stale``: a source file changed, or past the
    time-to-live), found damaged (``corrupt``), written (``stored``) and deleted to stay under the
    limit (``evicted``)."""

    hits: int = 0
    misses: int = 0
    stale: int = 0
    corrupt: int = 0
    stored: int = 0
    evicted: int = 0


@dataclass
class TileCache:
    """The entries of one run key in a cache folder; safe to share between threads and processes.

    Use :func:`open_cache` to make one.

    Attributes:
        root: the versioned folder holding every run key's entries.
        key: this run's key.
        max_bytes: size limit of ``root`` as a whole.
        warn: receives a message for each problem the user should know about.
        stats: counters of this run.
    """

    root: str
    key: str
    max_bytes: int
    warn: Callable[[str], None]
    stats: CacheStats = field(default_factory=CacheStats)
    writable: bool = True
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def folder(self) -> str:
        """The folder of this run key's entries."""
        return os.path.join(self.root, self.key)

    def entry_path(self, row: int, col: int) -> str:
        """Path of the entry of the tile whose core starts at layer-grid ``(row, col)``."""
        return os.path.join(self.folder, f"r{row}_c{col}{_SUFFIX}")

    def get(
        self, row: int, col: int, sources: str | None = None, max_age_s: float | None = None
    ) -> dict[str, np.ndarray] | None:
        """The arrays stored for a tile, or None: absent, stale (read from a source file that has
        changed since, or older than ``max_age_s``: recomputed and stored over), or damaged
        (then deleted, with a warning)."""
        path = self.entry_path(row, col)
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except FileNotFoundError:
            self._count("misses")
            return None
        except OSError as err:
            self.warn(f"Tile cache entry {path} cannot be read ({err.strerror}): the tile is recomputed.")
            self._count("misses")
            return None
        try:
            arrays = decode_entry(data, self.key, row, col, sources, max_age_s)
        except StaleEntryError:
            self._count("stale")
            self._count("misses")
            return None
        except CorruptEntryError as err:
            self.warn(f"Tile cache entry {path} is damaged ({err}): it is recomputed, not used.")
            self._count("corrupt")
            self._count("misses")
            _remove_quietly(path)
            return None
        self._count("hits")
        try:
            os.utime(path)  # least recently used goes first: a hit makes the entry young again
        except OSError:
            pass  # evicted by another process meanwhile; the arrays read are whole and valid
        return arrays

    def is_fresh(self, row: int, col: int, sources: str | None = None, max_age_s: float | None = None) -> bool:
        """True when a tile has an entry of this key, read from these sources and young enough.

        Only the entry's header is read (the checksum is checked by :meth:`get`).
        """
        try:
            with open(self.entry_path(row, col), "rb") as handle:
                header = read_header(handle)
        except (OSError, CorruptEntryError):
            return False
        if header.get("key") != self.key or (sources is not None and header.get("sources", "") != sources):
            return False
        return max_age_s is None or time.time() - float(header.get("written", 0.0)) <= max_age_s

    def put(self, row: int, col: int, arrays: Mapping[str, np.ndarray], sources: str = "") -> None:
        """Store a tile's arrays, then evict the oldest entries if the folder is over its limit.

        ``sources`` is the digest of the files the tile was read from. A failure to write (disk
        full, folder made read-only) warns once and stops storing.
        """
        if not self.writable:
            return
        data = encode_entry(self.key, row, col, arrays, sources)
        try:
            os.makedirs(self.folder, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=_TMP_PREFIX, suffix=_SUFFIX, dir=self.folder)
            try:
                with os.fdopen(fd, "wb") as handle:
                    handle.write(data)
                os.replace(tmp, self.entry_path(row, col))
            except BaseException:
                _remove_quietly(tmp)
                raise
        except OSError as err:
            self.writable = False
            self.warn(f"The tile cache {self.root} cannot be written ({err.strerror}): tiles are no longer stored.")
            return
        self._count("stored")
        # Another process sharing the folder writes too, and its entries count against the same
        # limit: the folder itself is the only size that holds, so it is read again at each store
        # (a directory scan: microseconds per entry, against a model run per stored tile).
        self.evict()

    def evict(self) -> int:
        """Delete least recently used entries until the folder holds under the limit.

        Returns:
            Entries deleted.
        """
        entries, total = _scan(self.root)
        target = int(self.max_bytes * _EVICT_TO) if total > self.max_bytes else total
        deleted = 0
        for _mtime, size, path in sorted(entries):
            if total <= target:
                break
            if _remove_quietly(path):
                deleted += 1
            total -= size  # gone, or held by another process on a system that refuses: skip it
        with self._lock:
            self.stats.evicted += deleted
        return deleted

    def _count(self, name: str) -> None:
        with self._lock:
            setattr(self.stats, name, getattr(self.stats, name) + 1)


def open_cache(
    folder: str,
    key: str,
    max_bytes: int = DEFAULT_MAX_BYTES,
    warn: Callable[[str], None] | None = None,
) -> TileCache | None:
    """The cache of run ``key`` in ``folder``, or None when the folder cannot be used.

    Args:
        folder: the cache folder (created when missing).
        key: :func:`run_key` of the run.
        max_bytes: size limit of the cache folder.
        warn: receives the user-facing warnings (unusable folder, damaged entries).

    Returns:
        The cache, or None (with a warning) when the folder cannot be created or written: the
        run then goes on uncached.
    """
    say = warn or (lambda _message: None)
    root = os.path.join(os.path.abspath(folder), f"flair-tile-cache-v{FORMAT_VERSION}")
    try:
        os.makedirs(os.path.join(root, key), exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=_TMP_PREFIX, dir=os.path.join(root, key))
        os.close(fd)
        os.remove(probe)
    except OSError as err:
        say(f"The tile cache folder {folder} cannot be written ({err.strerror}): the run goes on without the cache.")
        return None
    cache = TileCache(root=root, key=key, max_bytes=max(0, int(max_bytes)), warn=say)
    cache.evict()
    return cache


def _scan(root: str) -> tuple[list[tuple[int, int, str]], int]:
    """``(mtime_ns, size, path)`` of every entry under ``root`` and their total size.

    Temporary files left by a process that died mid-write are deleted on the way.
    """
    entries, total = [], 0
    now = time.time()
    try:
        key_dirs = list(os.scandir(root))
    except OSError:
        return [], 0
    for key_dir in key_dirs:
        if not key_dir.is_dir():
            continue
        try:
            files = list(os.scandir(key_dir.path))
        except OSError:
            continue
        for item in files:
            try:
                stat = item.stat()
            except OSError:
                continue  # deleted by another process meanwhile
            if item.name.startswith(_TMP_PREFIX):
                if now - stat.st_mtime > _STALE_TMP_S:
                    _remove_quietly(item.path)
                continue
            if item.name.endswith(_SUFFIX):
                entries.append((stat.st_mtime_ns, stat.st_size, item.path))
                total += stat.st_size
    return entries, total


def _remove_quietly(path: str) -> bool:
    """Delete a file; False when it is already gone or cannot be deleted (held elsewhere)."""
    try:
        os.remove(path)
        return True
    except OSError:
        return False
