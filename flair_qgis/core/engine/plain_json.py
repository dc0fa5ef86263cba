"""Frozen requests as plain JSON data: what crosses to Dask workers, and never a pickle.

A request is a frozen dataclass of plain data (strings, numbers, booleans, None, tuples,
string-keyed mappings, bytes, nested frozen dataclasses, ``affine.Affine``). :func:`to_plain`
turns it into JSON-ready data field by field (``dataclasses.fields``: a field added later is
carried without more code); :func:`from_plain` rebuilds it from its class's type hints, so tuples
come back as tuples, bytes as bytes and a nested grid as a grid. Reading JSON runs no code,
unlike unpickling, which is why requests travel this way (the QGIS plugin repository's security
scan refuses any plugin that unpickles).
"""

from __future__ import annotations

import dataclasses
import json
import numbers
import types
import typing
from collections.abc import Mapping
from typing import Any, TypeVar

from affine import Affine

T = TypeVar("T")


def to_plain(value: Any) -> Any:
    """``value`` as JSON-ready data: dataclasses as objects, tuples as lists, bytes as hex.

    Raises:
        TypeError: a value with no plain form (a function, an open dataset...).
    """
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Affine):  # a namedtuple of 9: its last row is always 0, 0, 1
        value = list(value)[:6]
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, (tuple, list)):
        return [to_plain(item) for item in value]
    if isinstance(value, Mapping):
        return {str(key): to_plain(item) for key, item in value.items()}
    return _plain_scalar(value)


def _plain_scalar(value: Any) -> Any:
    if value is None or isinstance(value, (str, bool)):
        return value
    if isinstance(value, numbers.Integral):  # numpy's integers too
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    raise TypeError(f"{type(value).__name__} has no plain JSON form")


def from_plain(cls: type[T], data: Mapping[str, Any]) -> T:
    """The frozen dataclass ``cls`` rebuilt from :func:`to_plain`'s data.

    Missing fields take their defaults; an unknown field is refused (a driver and a worker running
    different versions of the request).

    Raises:
        TypeError: an unknown field, or a field type with no plain form.
    """
    hints = typing.get_type_hints(cls)
    names = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(data) - names)
    if unknown:
        raise TypeError(f"{cls.__name__} has no field {', '.join(unknown)}")
    return cls(**{name: _decode(hints[name], value) for name, value in data.items()})


def to_json(value: Any) -> str:
    """``value`` (a frozen dataclass) as a JSON string."""
    return json.dumps(to_plain(value), sort_keys=True)


def from_json(cls: type[T], text: str) -> T:
    """The frozen dataclass ``cls`` read back from :func:`to_json`'s string."""
    return from_plain(cls, json.loads(text))


_SCALARS: dict[Any, Any] = {
    Affine: lambda data: Affine(*data),
    bytes: bytes.fromhex,
    float: float,
    int: int,
    str: str,
    bool: bool,
}
"""How each leaf type is read back from its plain form."""


def _decode(hint: Any, data: Any) -> Any:
    """``data`` as the type ``hint`` says."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any:
        return data
    if origin in (typing.Union, types.UnionType):
        (kind,) = [a for a in args if a is not type(None)]  # only X | None has one reading
        return None if data is None else _decode(kind, data)
    if dataclasses.is_dataclass(hint):
        return from_plain(hint, data)  # type: ignore[arg-type]
    if origin is tuple:
        kinds = [args[0]] * len(data) if len(args) == 2 and args[1] is Ellipsis else args
        return tuple(_decode(kind, item) for kind, item in zip(kinds, data, strict=True))
    if origin in (dict, Mapping):
        return {_decode(args[0], key): _decode(args[1], item) for key, item in data.items()}
    if hint in _SCALARS:
        return _SCALARS[hint](data)
    raise TypeError(f"no plain JSON form for {hint!r}")
