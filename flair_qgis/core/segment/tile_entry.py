"""One tile-cache entry: the key that names it and the bytes that hold it (:mod:`.tile_cache` keeps the folder).

- :func:`run_key` digests everything a tile's pixels depend on (model content, sources, bands,
  tiling, resolution); :func:`file_digest` is the content digest of a file (the model).
- :func:`encode_entry` lays out an entry: a fixed header (magic, :data:`FORMAT_VERSION`, JSON
  header length), the JSON header (key, tile, source digest, time written, array specs), the
  array payloads (integer arrays zlib-compressed), then a BLAKE2b checksum of all before it.
  :func:`decode_entry` checks all of it and raises :class:`CorruptEntryError` (or
  :class:`StaleEntryError` for a whole entry that no longer holds).
"""

from __future__ import annotations

import hashlib
import json
import struct
import time
import zlib
from collections.abc import Iterable, Mapping
from typing import BinaryIO

import numpy as np

FORMAT_VERSION = 1
_MAGIC = b"FLAIRTC\x00"
_HEADER = struct.Struct("<8sII")  # magic, format version, header length
_DIGEST_BYTES = 32


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
            (:attr:`flair_qgis.core.engine.source_stamps.SourceFiles.identity`, or ``uri:<address>``).
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


def read_header(handle: BinaryIO) -> dict:
    """The JSON header of an entry read from an open file, without reading its payload (unchecked).

    Raises:
        CorruptEntryError: too short or not JSON.
    """
    start = handle.read(_HEADER.size)
    if len(start) < _HEADER.size:
        raise CorruptEntryError("truncated")
    try:
        return json.loads(handle.read(_HEADER.unpack(start)[2]))
    except (ValueError, struct.error) as err:
        raise CorruptEntryError(f"unreadable header ({err})") from err
