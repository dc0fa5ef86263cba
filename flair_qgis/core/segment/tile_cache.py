"""A folder of tile results shared by runs, so that ground segmented once is never segmented again.

Each entry holds what one tile of the layer-anchored tile grid decided: the class map core, the
confidence and the extra heads, as named numpy arrays. Entries live under
``<folder>/flair-tile-cache-v<FORMAT_VERSION>/<run key>/r<row>_c<col>.tile``:

- the **run key** (:func:`run_key`) digests everything a tile's pixels depend on: the model
  file's content, the source's identity (the raster's path, the grid CRS and the stamps of the
  files every tile reads, see :mod:`.source_files`; or a web layer's provider URI), the band
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

import hashlib
import json
import os
import struct
import tempfile
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np

FORMAT_VERSION = 1
DEFAULT_MAX_BYTES = 2 * 1024**3
_MAGIC = b"FLAIRTC\x00"
_HEADER = struct.Struct("<8sII")  # magic, format version, header length
_DIGEST_BYTES = 32
_SUFFIX = ".tile"
_TMP_PREFIX = ".tmp-"
# A temporary file this old was left by a process that died mid-write.
_STALE_TMP_S = 3600.0
# Eviction goes below the limit by this share, so that it does not run again at the next write.
_EVICT_TO = 0.9
_HASH_CHUNK_BYTES = 1 << 20

_digests: dict[tuple[str, int, int, int, int], str] = {}
_digests_lock = threading.Lock()


def file_digest(path: str) -> str:
    """BLAKE2b of a file's content, computed once per (path, size, mtime, ctime, inode) in this process.

    The change time is in the memo key because a rewrite can keep the size and set the
    modification time back (``touch -r``, ``rsync -t``); it cannot set the change time.

    Args:
        path: the file (a model, typically).

    Returns:
        The hex digest.

    Raises:
        OSError: the file cannot be read.
    """
    path = os.path.abspath(path)
    stat = os.stat(path)
    memo = (path, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino)
    with _digests_lock:
        if memo in _digests:
            return _digests[memo]
    digest = hashlib.blake2b(digest_size=_DIGEST_BYTES)
    with open(path, "rb") as handle:
        while chunk := handle.read(_HASH_CHUNK_BYTES):
            digest.update(chunk)
    with _digests_lock:
        _digests[memo] = digest.hexdigest()
    return _digests[memo]


def run_key(
    model_digest: str,
    sources: Iterable[str],
    bands: Iterable[Iterable[int]],
    tile_size_px: int,
    overlap_px: int,
    resolution_m: float,
    extra: Mapping[str, object] | None = None,
) -> str:
    """The key shared by all tiles of one (model, source, bands, tiling) combination.

    Args:
        model_digest: :func:`file_digest` of the model file.
        sources: the identity of each model input's source, in input order
            (:attr:`flair_qgis.core.segment.source_files.SourceFiles.identity`, or ``uri:<address>``).
        bands: the band mapping of each input (1-based layer bands, model channel order).
        tile_size_px: model input edge.
        overlap_px: overlap between tiles.
        resolution_m: pixel size of the tile grid.
        extra: anything else the tiles depend on (JSON-serialisable).

    Returns:
        A hex digest.
    """
    described = {
        "format": FORMAT_VERSION,
        "model": model_digest,
        "sources": list(sources),
        "bands": [[int(b) for b in band_list] for band_list in bands],
        "tile_size_px": int(tile_size_px),
        "overlap_px": int(overlap_px),
        "resolution_m": repr(float(resolution_m)),
        "extra": dict(extra or {}),
    }
    text = json.dumps(described, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode("utf-8"), digest_size=20).hexdigest()


class CorruptEntryError(Exception):
    """An entry that cannot be trusted (bad checksum, truncated, another key or version)."""


class StaleEntryError(CorruptEntryError):
    """A whole entry that no longer holds: a source file it was read from changed, or it outlived
    its time-to-live (web layers). It is recomputed without a warning."""


def encode_entry(
    key: str,
    row: int,
    col: int,
    arrays: Mapping[str, np.ndarray],
    sources: str = "",
    written_at: float | None = None,
) -> bytes:
    """One entry's bytes: fixed header, JSON header, array payloads, BLAKE2b of all before it.

    Integer arrays (class maps) are zlib-compressed; float arrays are stored raw (they hardly
    compress, and reading them back must stay fast).

    Args:
        key: the run key.
        row: the tile core's top row in the layer grid.
        col: its left column.
        arrays: the tile's named arrays.
        sources: digest of the source files this tile was read from (:meth:`TileCache.get` checks it).
        written_at: POSIX time the tile was computed (now by default); a time-to-live counts from it.
    """
    specs, payloads, offset = [], [], 0
    for name, given in arrays.items():
        array = np.ascontiguousarray(given)
        raw = array.tobytes()
        packed = zlib.compress(raw, 1) if array.dtype.kind in "biu" else raw
        specs.append(
            {
                "name": name,
                "dtype": array.dtype.str,
                "shape": list(array.shape),
                "offset": offset,
                "bytes": len(packed),
                "zlib": packed is not raw,
            }
        )
        payloads.append(packed)
        offset += len(packed)
    described = {
        "key": key,
        "row": int(row),
        "col": int(col),
        "sources": sources,
        "written": time.time() if written_at is None else float(written_at),
        "arrays": specs,
    }
    header = json.dumps(described).encode("utf-8")
    body = _HEADER.pack(_MAGIC, FORMAT_VERSION, len(header)) + header + b"".join(payloads)
    return body + hashlib.blake2b(body, digest_size=_DIGEST_BYTES).digest()


def entry_header(data: bytes) -> dict:
    """The JSON header of an entry (``key``, ``row``, ``col``, ``sources``, ``written``, ``arrays``), unchecked.

    Raises:
        CorruptEntryError: too short or not JSON.
    """
    if len(data) < _HEADER.size:
        raise CorruptEntryError("truncated")
    _magic, _version, header_len = _HEADER.unpack_from(data)
    try:
        return json.loads(data[_HEADER.size : _HEADER.size + header_len])
    except ValueError as err:
        raise CorruptEntryError(f"unreadable header ({err})") from err


def decode_entry(
    data: bytes, key: str, row: int, col: int, sources: str | None = None, max_age_s: float | None = None
) -> dict[str, np.ndarray]:
    """The arrays of an entry written by :func:`encode_entry` for exactly this key and tile.

    Args:
        data: the entry's bytes.
        key: the run key.
        row: the tile's row.
        col: the tile's column.
        sources: the digest of the tile's source files now; None does not check it.
        max_age_s: the time-to-live; None for none.

    Raises:
        StaleEntryError: a whole entry whose sources changed or whose time-to-live is over.
        CorruptEntryError: wrong checksum, magic, version, key or tile, or inconsistent sizes.
    """
    if len(data) < _HEADER.size + _DIGEST_BYTES:
        raise CorruptEntryError("truncated")
    body, digest = data[:-_DIGEST_BYTES], data[-_DIGEST_BYTES:]
    if hashlib.blake2b(body, digest_size=_DIGEST_BYTES).digest() != digest:
        raise CorruptEntryError("checksum mismatch")
    magic, version, header_len = _HEADER.unpack_from(body)
    if magic != _MAGIC or version != FORMAT_VERSION:
        raise CorruptEntryError(f"format {version}, expected {FORMAT_VERSION}")
    try:
        header = json.loads(body[_HEADER.size : _HEADER.size + header_len])
        if header["key"] != key or (header["row"], header["col"]) != (row, col):
            raise CorruptEntryError("entry of another tile")
        if sources is not None and header.get("sources", "") != sources:
            raise StaleEntryError("a source file changed")
        if max_age_s is not None and time.time() - float(header.get("written", 0.0)) > max_age_s:
            raise StaleEntryError("older than its time-to-live")
        payload = memoryview(body)[_HEADER.size + header_len :]
        arrays = {}
        for spec in header["arrays"]:
            packed = payload[spec["offset"] : spec["offset"] + spec["bytes"]]
            raw = zlib.decompress(packed) if spec["zlib"] else packed
            arrays[spec["name"]] = np.frombuffer(raw, dtype=np.dtype(spec["dtype"])).reshape(spec["shape"]).copy()
    except (KeyError, TypeError, ValueError, zlib.error) as err:
        raise CorruptEntryError(f"unreadable header or payload ({err})") from err
    return arrays


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
                start = handle.read(_HEADER.size)
                if len(start) < _HEADER.size:
                    return False
                header = json.loads(handle.read(_HEADER.unpack(start)[2]))
        except (OSError, ValueError, struct.error):
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
