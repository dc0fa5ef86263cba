"""A copy of an ONNX file with its metadata replaced, its tensors copied as bytes, never re-encoded.

A FLAIR-HUB model is hundreds of MB of weights; onnx's ``SerializeToString`` (and ``ByteSize``)
hold Python's GIL for most of a second per 300 MB, which stalls the QGIS main thread even when the
job runs in a task. An ONNX file is one ``ModelProto`` in the protocol buffer wire format: a list
of top-level fields, each a key (field number and wire type), then a value. The copy streams every
top-level field of the original as it is except ``metadata_props`` (field 14) and appends the new
entries: a reader merges repeated fields wherever they are, so it reads the same model with the new
metadata. (https://protobuf.dev/programming-guides/encoding/ gives the format; field 14 is
``metadata_props`` in onnx/onnx.proto.)
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import BinaryIO

from ..errors import Canceled

METADATA_PROPS = 14
"""``ModelProto.metadata_props``: repeated ``StringStringEntryProto`` (``key`` = 1, ``value`` = 2)."""

_VARINT, _FIXED64, _LENGTH_DELIMITED, _FIXED32 = 0, 1, 2, 5
_PIECE_BYTES = 16 * 2**20


class WireFormatError(ValueError):
    """The file is not a well-formed protocol buffer message (truncated, or an unknown wire type)."""


def _read_varint(handle: BinaryIO) -> int | None:
    """The next base-128 varint, or None at the end of the file (before its first byte)."""
    value, shift = 0, 0
    while True:
        byte = handle.read(1)
        if not byte:
            if shift:
                raise WireFormatError("truncated varint")
            return None
        value |= (byte[0] & 0x7F) << shift
        if byte[0] < 0x80:
            return value
        shift += 7
        if shift > 63:
            raise WireFormatError("varint longer than 10 bytes")


def varint(value: int) -> bytes:
    """``value`` (≥ 0) as a base-128 varint."""
    out = bytearray()
    while True:
        low, value = value & 0x7F, value >> 7
        out.append(low | (0x80 if value else 0))
        if not value:
            return bytes(out)


def top_level_fields(handle: BinaryIO) -> Iterator[tuple[int, int, int]]:
    """``(field number, start, end)`` byte offsets of each top-level field of the message in
    ``handle`` (key included), read by skipping the values, never loading them.

    Raises:
        WireFormatError: a field runs past the end of the file, or a wire type ONNX never uses.
    """
    size = os.fstat(handle.fileno()).st_size
    handle.seek(0)
    while True:
        start = handle.tell()
        key = _read_varint(handle)
        if key is None:
            return
        wire_type = key & 7
        if wire_type == _VARINT:
            _read_varint(handle)
        elif wire_type in (_FIXED64, _FIXED32):
            handle.seek(8 if wire_type == _FIXED64 else 4, os.SEEK_CUR)
        elif wire_type == _LENGTH_DELIMITED:
            handle.seek(_read_varint(handle) or 0, os.SEEK_CUR)
        else:
            raise WireFormatError(f"wire type {wire_type} at byte {start}")
        end = handle.tell()
        if end > size:
            raise WireFormatError(f"field {key >> 3} at byte {start} runs past the end of the file")
        yield key >> 3, start, end


def _length_delimited(field: int, payload: bytes) -> bytes:
    return varint(field << 3 | _LENGTH_DELIMITED) + varint(len(payload)) + payload


def metadata_entry(key: str, value: str) -> bytes:
    """One ``metadata_props`` entry as a top-level field of a ``ModelProto``."""
    entry = _length_delimited(1, key.encode("utf-8")) + _length_delimited(2, value.encode("utf-8"))
    return _length_delimited(METADATA_PROPS, entry)


def copy_with_metadata(
    source: str, write: Callable[[bytes], object], entries: list[tuple[str, str]], is_canceled: Callable[[], bool]
) -> None:
    """Write ``source``'s model with ``entries`` as its only metadata, through ``write``.

    Raises:
        WireFormatError: ``source`` is not a well-formed message.
        Canceled: ``is_canceled`` answered True (polled between pieces of 16 MiB).
    """
    with open(source, "rb") as handle:
        kept = [(start, end) for field, start, end in top_level_fields(handle) if field != METADATA_PROPS]
        for start, end in kept:
            handle.seek(start)
            left = end - start
            while left:
                if is_canceled():
                    raise Canceled()
                piece = handle.read(min(left, _PIECE_BYTES))
                if not piece:  # the file shrank since it was scanned
                    raise WireFormatError(f"{source} ended early")
                write(piece)
                left -= len(piece)
    for key, value in entries:
        write(metadata_entry(key, value))
