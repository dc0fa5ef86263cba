"""The model file's side of a description: read the original (refusing what the engine cannot
open), hash it, and write the copy (streamed with its new metadata by :mod:`.wire`, or encoded
whole when its tensors had to be brought in from external data files), read back by the engine."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterator
from typing import Any

from ..engine import ModelInfo, read_model_info
from ..errors import Canceled, ModelError
from .wire import WireFormatError, copy_with_metadata

_PROTOBUF_LIMIT = 2**31 - 1
_HASH_PIECE_BYTES = 16 * 2**20
_UNREADABLE = ("model_not_found", "model_is_pickle", "model_not_onnx")


def file_sha256(path: str, is_canceled: Callable[[], bool]) -> str:
    """The SHA-256 of a file read in pieces (a model of hundreds of MB is never read whole for it)."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for piece in iter(lambda: handle.read(_HASH_PIECE_BYTES), b""):
            if is_canceled():
                raise Canceled()
            digest.update(piece)
    return digest.hexdigest()


def check_readable(path: str) -> None:
    """The engine's own refusals of a file (missing, a pickle, not ONNX) first; metadata the engine
    refuses, or a band count it cannot tell without metadata, is what describing fixes."""
    try:
        read_model_info(path)
    except ModelError as err:
        if err.key in _UNREADABLE:
            raise


def load_model(path: str) -> tuple[Any, bool]:
    """The model's graph and metadata, and whether it keeps tensors in external files (then loaded too)."""
    import onnx
    from onnx.external_data_helper import load_external_data_for_model, uses_external_data

    try:
        model = onnx.load(path, load_external_data=False)
        external = any(uses_external_data(t) for t in _tensors(model.graph))
        if external:
            load_external_data_for_model(model, os.path.dirname(os.path.abspath(path)))
    except Exception as err:  # onnx raises protobuf's untyped DecodeError, or OSError for missing data
        raise ModelError.of("describe_unreadable", file=os.path.basename(path), error=str(err)[:200]) from err
    return model, external


def _tensors(graph: Any) -> Iterator[Any]:
    """Every tensor of a graph: initializers, and those of node attributes and subgraphs."""
    yield from graph.initializer
    for sparse in graph.sparse_initializer:
        yield from (sparse.values, sparse.indices)
    for node in graph.node:
        for attribute in node.attribute:
            if attribute.HasField("t"):
                yield attribute.t
            yield from attribute.tensors
            for subgraph in [attribute.g] if attribute.HasField("g") else []:
                yield from _tensors(subgraph)
            for subgraph in attribute.graphs:
                yield from _tensors(subgraph)


def serialise(model: Any, entries: list[tuple[str, str]], file: str) -> bytes:
    """The whole model with ``entries`` as its metadata, encoded (a model whose external tensors were loaded)."""
    del model.metadata_props[:]
    for key, value in entries:
        model.metadata_props.add(key=key, value=value)
    size = model.ByteSize()
    if size > _PROTOBUF_LIMIT:
        raise ModelError.of("describe_too_large", file=file, megabytes=round(size / 1e6))
    return model.SerializeToString(deterministic=True)


class CopyWriter:
    """Writes the copy (``payload``, or the source streamed with ``entries``) and reads it back as the
    engine will: a metadata the engine refuses is not published. Keeps its SHA-256 and the reading."""

    def __init__(
        self, source: str, entries: list[tuple[str, str]], payload: bytes | None, is_canceled: Callable[[], bool]
    ) -> None:
        self.source, self.entries, self.payload, self.is_canceled = source, entries, payload, is_canceled
        self.sha256 = ""
        self.info: ModelInfo

    def write_and_read(self, path: str) -> None:
        digest = hashlib.sha256()
        with open(path, "wb") as handle:

            def write(piece: bytes) -> None:
                digest.update(piece)
                handle.write(piece)

            if self.payload is not None:
                write(self.payload)
            else:
                try:
                    copy_with_metadata(self.source, write, self.entries, self.is_canceled)
                except WireFormatError as err:
                    file = os.path.basename(self.source)
                    raise ModelError.of("describe_unreadable", file=file, error=str(err)[:200]) from err
        self.sha256 = digest.hexdigest()
        self.info = read_model_info(path)
