"""Align the classes of a model (or of a class map) with the codes of a scoring protocol.

A class map written by ``flair:segment`` carries the values the model declares. A model in the
Deepness convention declares indices ``0..n-1`` with names (``{"0": "building", ...,
"12": "other"}``); scored as they are under ``flair1`` its value 1 ("pervious surface") would be
compared with code 1 ("building"). :func:`align_classes` decides, once per run, what each
declared value counts as:

1. ``CLASS_MAP`` given (``value:code,...``): that mapping, values not listed kept.
2. Every declared class is named and every name is one of the protocol's class names (case,
   accents, ``_``/``-`` ignored; IGN's English and French names): mapped by name. When the
   names say what the values already say, nothing changes.
3. Every declared value is a code of the protocol (a class, a regrouped or an ignored code),
   names not all known: values kept (the codes are trusted).
4. Otherwise refused: the message lists the declared classes and the protocol's, and names the
   ``CLASS_MAP`` parameter.

A class named ``class N`` (what a model without names gets) counts as unnamed. An open custom
protocol (classes = the values found) aligns nothing.

Public API: :class:`ClassAlignment`, :func:`align_classes`, :func:`normalise_name`. (The classes a
raster declares are read by :func:`flair_qgis.core.classes.raster_classes`.)
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..errors import InputError
from ..nomenclature import ClassInfo, french_name
from .protocols import Protocol

HOW_VALUES = "values"
HOW_NAMES = "names"
HOW_CLASS_MAP = "class_map"
_GENERIC = re.compile(r"^(class|classe)?\s*\d+$")


def normalise_name(name: str) -> str:
    """A class name compared without case, accents, ``_``/``-``/extra spaces, or typographic apostrophes."""
    decomposed = unicodedata.normalize("NFKD", str(name).replace("\u2019", "'"))
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(re.sub(r"[_\-]+", " ", plain.casefold()).split())


def _is_unnamed(cls: ClassInfo) -> bool:
    return not cls.name.strip() or bool(_GENERIC.match(normalise_name(cls.name)))


@dataclass(frozen=True)
class ClassAlignment:
    """What each declared value counts as under a protocol.

    Attributes:
        how: ``values`` (kept), ``names`` (mapped by class name) or ``class_map`` (explicit).
        mapping: declared value -> protocol code, for every value that changes.
        declared: the classes the model or class map declares.
    """

    how: str = HOW_VALUES
    mapping: Mapping[int, int] = field(default_factory=dict)
    declared: tuple[ClassInfo, ...] = ()

    @property
    def changes(self) -> bool:
        """True when some value is scored as another code."""
        return bool(self.mapping)

    def apply(self, values: np.ndarray) -> np.ndarray:
        """``values`` with every mapped value replaced by its code (others unchanged).

        Args:
            values: an integer array of any shape.

        Returns:
            ``values`` itself when nothing changes, else a new array.
        """
        if not self.mapping:
            return values
        keys = np.array(sorted(self.mapping), dtype=np.int64)
        targets = np.array([self.mapping[int(k)] for k in keys], dtype=np.int64)
        if values.dtype == np.uint8 and keys.min() >= 0 and keys.max() <= 255:
            lut = np.arange(256, dtype=np.int64)
            lut[keys] = targets
            small = lut.min() >= 0 and lut.max() <= 255
            return lut.astype(np.uint8 if small else np.int64)[values]
        flat = values.astype(np.int64)
        pos = np.clip(np.searchsorted(keys, flat), 0, len(keys) - 1)
        return np.where(keys[pos] == flat, targets[pos], flat)

    def describe(self) -> str:
        """One line for the log; empty when nothing changes."""
        if not self.mapping:
            return ""
        names = {c.value: c.name for c in self.declared}
        pairs = ", ".join(
            f"{v}{' ' + names[v] if v in names else ''} -> {code}" for v, code in sorted(self.mapping.items())
        )
        source = "CLASS_MAP" if self.how == HOW_CLASS_MAP else "class names"
        return f"Classes aligned by {source}: {pairs}."

    def to_dict(self) -> dict:
        """The report's ``class_alignment`` entry."""
        return {
            "how": self.how,
            "mapping": {str(v): code for v, code in sorted(self.mapping.items())},
            "declared": {str(c.value): c.name for c in self.declared},
            "message": self.describe(),
        }


def class_names(classes: Iterable[ClassInfo]) -> dict[str, int]:
    """Normalised English and French name -> code, the first class of a name winning."""
    table: dict[str, int] = {}
    for cls in classes:
        for name in (cls.name, french_name(cls.name)):
            table.setdefault(normalise_name(name), cls.value)
    return table


def _protocol_names(protocol: Protocol) -> dict[str, int]:
    """:func:`class_names` of the protocol's classes first, then of its raw codes."""
    return class_names((*protocol.classes, *protocol.raw_classes))


def _protocol_codes(protocol: Protocol) -> set[int]:
    return {c.value for c in (*protocol.classes, *protocol.raw_classes)} | set(protocol.remap) | set(protocol.ignore)


def _listed(classes: Sequence[ClassInfo]) -> str:
    return ", ".join(f"{c.value} {c.name}" for c in classes)


def align_classes(
    declared: Sequence[ClassInfo],
    protocol: Protocol,
    class_map: Mapping[int, int] | None = None,
    what: str = "model",
) -> ClassAlignment:
    """Decide what each declared value is scored as (see the module docstring).

    Args:
        declared: the classes the model (or the class map) declares; empty = none declared.
        protocol: the scoring protocol.
        class_map: an explicit ``value -> code`` mapping (the ``CLASS_MAP`` parameter).
        what: ``model`` or ``class map``, for messages.

    Returns:
        The alignment.

    Raises:
        InputError: neither the values nor the names match the protocol; or CLASS_MAP maps to a
            code the protocol does not know.
    """
    declared = tuple(declared)
    codes = _protocol_codes(protocol)
    if class_map:
        unknown = sorted({code for code in class_map.values() if codes and code not in codes})
        if unknown:
            raise InputError.of(
                "class_map_unknown_codes",
                codes=", ".join(map(str, unknown)),
                protocol=protocol.name,
                classes=_listed(protocol.classes),
            )
        return ClassAlignment(HOW_CLASS_MAP, {v: c for v, c in class_map.items() if v != c}, declared)
    if protocol.is_open or not declared:
        return ClassAlignment(HOW_VALUES, {}, declared)
    names = _protocol_names(protocol)
    by_name = {c.value: names.get(normalise_name(c.name)) for c in declared}
    if not any(_is_unnamed(c) for c in declared) and all(code is not None for code in by_name.values()):
        mapping = {
            v: int(code)
            for v, code in by_name.items()
            if code is not None and protocol.class_value(code) != protocol.class_value(v)
        }
        return ClassAlignment(HOW_NAMES if mapping else HOW_VALUES, mapping, declared)
    if all(c.value in codes for c in declared):
        return ClassAlignment(HOW_VALUES, {}, declared)
    raise InputError.of(
        "classes_not_aligned",
        what=what,
        declared=[f"{c.value} {c.name}" for c in declared],
        protocol=protocol.name,
        classes=[f"{c.value} {c.name}" for c in protocol.classes],
    )
