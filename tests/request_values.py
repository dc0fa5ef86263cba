"""A :class:`SegmentRequest` whose every field differs from its default, found by introspection.

A field added to the request gets a value here without editing this file (by its type); a field of a
type this file does not know fails loudly, so that the tests that carry the request through JSON and
to the Dask workers cannot silently skip it.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from typing import Any

from flair_qgis.core.segment import SegmentRequest


def _value(name: str, hint: Any, default: Any) -> Any:
    """A value of type ``hint`` for field ``name`` that is not ``default``."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        (hint,) = [a for a in args if a is not type(None)]
        origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is bool:
        return not default
    if hint is int:
        return (default or 0) + 7
    if hint is float:
        return (default or 0.0) + 0.5
    if hint is str:
        return "fp16" if name == "precision" else ("cuda" if name == "device" else f"/somewhere/{name}.tif")
    if origin in (dict, Mapping):
        return {"height": f"/somewhere/{name}_height.tif"}
    if hint == tuple[tuple[int, ...], ...]:
        return ((3, 1, 2),)
    if hint == tuple[float, float, float, float]:
        return (600001.5, 6799901.25, 600070.75, 6799990.5)
    if hint == tuple[bytes, ...]:
        return (b"\x01\x03\x00\x00\x00", b"\xff")
    raise AssertionError(f"SegmentRequest.{name}: give tests/request_values.py a value for {hint!r}")


def non_default_request() -> SegmentRequest:
    """Every field of the request set to a value that is not its default."""
    hints = typing.get_type_hints(SegmentRequest)
    values = {}
    for field in dataclasses.fields(SegmentRequest):
        default = field.default_factory() if field.default_factory is not dataclasses.MISSING else field.default
        values[field.name] = _value(field.name, hints[field.name], None if default is dataclasses.MISSING else default)
    request = SegmentRequest(**values)
    defaults = SegmentRequest(output_path="out.tif")
    same = [f.name for f in dataclasses.fields(request) if getattr(request, f.name) == getattr(defaults, f.name)]
    assert not same, f"fields left at their default: {same}"
    return request
