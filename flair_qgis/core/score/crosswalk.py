"""A crosswalk: which model class each value of a reference's own nomenclature counts as.

References are rarely coded in the model's classes: OCS GE codes its cover as text
(``CS1.1.1.1``), the RPG its crops as three letters, Corine ``CODE_18`` as text. A crosswalk is a
CSV with the header ``reference,class`` and one line per reference value: ``class`` is the model
class's value or its name (English or French, case and accents ignored). Several values may
count as one class; values not listed are not scored (their pixels are reported, see
:class:`UnlistedTally`).

* :func:`read_crosswalk` reads the file into a :class:`Crosswalk` (file name, SHA-256, lines);
* :meth:`Crosswalk.resolve` turns class names into codes once the classes are known, giving
  :class:`CrosswalkCodes`, which recodes a field's values (:meth:`CrosswalkCodes.recode`) or a
  class raster's window (:meth:`CrosswalkCodes.recode_raster`).

A reference value and a CSV cell are compared as text: a number field's ``3`` or ``3.0`` is
``"3"``, a text field's value is its text without surrounding spaces (``"01"`` stays ``"01"``).
"""

from __future__ import annotations

import csv
import hashlib
import io
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..errors import InputError
from ..nomenclature import ClassInfo
from .alignment import ClassAlignment, class_names, normalise_name
from .protocols import Protocol

HEADER = ("reference", "class")


def reference_key(value: object) -> str | None:
    """A reference value as the crosswalk compares it; None for a null.

    Args:
        value: a field value (text, integer, float, None) or a raster value.

    Returns:
        The text compared with the CSV's ``reference`` cells.
    """
    if value is None:
        return None
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, (float, np.floating)):
        if np.isnan(value):
            return None
        if float(value).is_integer():
            return str(int(value))
        return repr(float(value))
    return str(int(value)) if isinstance(value, (int, np.integer)) else str(value).strip()


@dataclass(frozen=True)
class Crosswalk:
    """A crosswalk CSV as read.

    Attributes:
        rows: ``(reference value, class)`` as written, in file order.
        name: the file's name (no folder: reports travel).
        sha256: the file's SHA-256, hex.
    """

    rows: tuple[tuple[str, str], ...]
    name: str = ""
    sha256: str = ""

    def resolve(self, classes: Sequence[ClassInfo]) -> CrosswalkCodes:
        """Each reference value's class code.

        Args:
            classes: the classes a ``class`` cell may name, the preferred first (the protocol's,
                then the model's). A cell that is a whole number is that code as it is.

        Returns:
            The codes.

        Raises:
            InputError: a ``class`` cell that is neither a whole number nor a class name.
        """
        names = class_names(classes)
        codes: dict[str, int] = {}
        for reference, target in self.rows:
            code = _whole(target)
            if code is None:
                code = names.get(normalise_name(target))
            if code is None:
                known = ", ".join(dict.fromkeys(f"{c.value} {c.name}" for c in classes))
                raise InputError.of("crosswalk_unknown_class", name=self.name, target=target, classes=known or "-")
            codes[reference] = code
        return CrosswalkCodes(self, codes)

    def describe(self) -> dict:
        """The report's ``crosswalk`` entry without the unlisted values: file name, hash, lines."""
        return {"file": self.name, "sha256": self.sha256, "lines": len(self.rows)}


def _whole(text: str) -> int | None:
    try:
        number = float(text)
    except ValueError:
        return None
    return int(number) if number.is_integer() else None


def parse_crosswalk(text: str, name: str = "", sha256: str = "") -> Crosswalk:
    """A crosswalk from the text of its CSV (comma or semicolon separated).

    Raises:
        InputError: no ``reference,class`` header, a line without both cells, a value listed twice
            with two classes.
    """
    lines = [line for line in text.splitlines() if line.strip()]
    delimiter = ";" if lines and ";" in lines[0] and "," not in lines[0] else ","
    reader = csv.reader(io.StringIO("\n".join(lines)), delimiter=delimiter)
    header = tuple(cell.strip().lstrip("\ufeff").lower() for cell in next(reader, []))
    if header[:2] != HEADER:
        raise InputError.of("crosswalk_header", name=name, header=", ".join(header) or "-")
    rows: dict[str, str] = {}
    for number, cells in enumerate(reader, start=2):
        if len(cells) < 2 or not cells[0].strip() or not cells[1].strip():
            raise InputError.of("crosswalk_bad_line", name=name, line=number)
        reference, target = cells[0].strip(), cells[1].strip()
        if rows.get(reference, target) != target:
            raise InputError.of("crosswalk_twice", name=name, value=reference)
        rows[reference] = target
    return Crosswalk(tuple(rows.items()), name, sha256)


def read_crosswalk(path: str | os.PathLike[str]) -> Crosswalk:
    """Read a crosswalk CSV (UTF-8).

    Raises:
        InputError: missing or unreadable file, or a malformed CSV (:func:`parse_crosswalk`).
    """
    path = os.fspath(path)
    try:
        with open(path, "rb") as f:
            data = f.read()
        text = data.decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as err:
        raise InputError.of("crosswalk_unreadable", path=path, error=str(err)) from err
    return parse_crosswalk(text, os.path.basename(path), hashlib.sha256(data).hexdigest())


@dataclass(frozen=True)
class CrosswalkCodes:
    """A crosswalk whose classes are codes.

    Attributes:
        crosswalk: the crosswalk as read.
        codes: reference value (as :func:`reference_key` writes it) -> class code.
    """

    crosswalk: Crosswalk
    codes: Mapping[str, int]

    def code_of(self, value: object) -> int | None:
        """The class code of a reference value; None for a null or an unlisted value."""
        key = reference_key(value)
        return None if key is None else self.codes.get(key)

    def values_of(self, code: int) -> tuple[str, ...]:
        """The reference values that count as class ``code``, in the crosswalk's order."""
        return tuple(value for value, c in self.codes.items() if c == code)

    def recode(self, values: Sequence[object]) -> tuple[np.ndarray, np.ndarray, tuple[str, ...]]:
        """A field's values as class codes.

        Args:
            values: one value per polygon.

        Returns:
            ``(codes, unlisted, names)``: int64 codes (``-1`` for a null or an unlisted value),
            int32 ``unlisted`` (``k + 1`` where the value is ``names[k]``, not listed; 0 elsewhere),
            and the unlisted values found, sorted.
        """
        # Each distinct value is looked up once (a layer has millions of polygons, a nomenclature tens of codes).
        seen: dict = {}
        keys = [seen[v] if v in seen else seen.setdefault(v, reference_key(v)) for v in values]
        found = sorted({k for k in keys if k is not None and k not in self.codes})
        position = {k: i + 1 for i, k in enumerate(found)}
        codes = np.fromiter((self.codes.get(k, -1) if k is not None else -1 for k in keys), np.int64, len(keys))
        unlisted = np.fromiter((position.get(k, 0) if k is not None else 0 for k in keys), np.int32, len(keys))
        return codes, unlisted, tuple(found)

    def recode_raster(
        self, values: np.ndarray, valid: np.ndarray, tally: UnlistedTally | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """A class raster's window as class codes; unlisted values become not valid (and counted).

        Args:
            values: the raster's values, any integer shape.
            valid: where they are data.
            tally: counts the unlisted values' pixels, when given.

        Returns:
            ``(codes, valid)``, codes int64.
        """
        unique, inverse = np.unique(values, return_inverse=True)
        keys = [reference_key(v.item()) for v in unique]
        mapped = np.array([self.codes.get(k, -1) if k is not None else -1 for k in keys], dtype=np.int64)
        codes = mapped[inverse.reshape(values.shape)]
        listed = codes >= 0
        if tally is not None:
            counts = np.bincount(inverse.reshape(values.shape)[valid & ~listed], minlength=len(unique))
            for k, n in zip(keys, counts.tolist()):
                if n and k is not None:
                    tally.add(k, n)
        return codes, valid & listed


@dataclass
class UnlistedTally:
    """Pixels of the reference values a crosswalk does not list, counted as the windows go."""

    pixels: dict[str, int] = field(default_factory=dict)

    def add(self, value: str, count: int) -> None:
        self.pixels[value] = self.pixels.get(value, 0) + int(count)

    def add_counts(self, names: Sequence[str], counts: np.ndarray) -> None:
        """Add ``counts[k + 1]`` pixels to ``names[k]`` (``counts[0]``: no unlisted value)."""
        for name, n in zip(names, counts[1:].tolist()):
            if n:
                self.add(name, n)

    def report(self, crosswalk: Crosswalk, extent_px: int) -> dict:
        """The report's ``crosswalk`` entry.

        Args:
            crosswalk: the crosswalk applied.
            extent_px: pixels of the scored extent (the share's denominator).

        Returns:
            File name, SHA-256, lines and ``unmapped``: ``{value, pixels, share}`` for each
            unlisted value met, the largest first.
        """
        rows = sorted(self.pixels.items(), key=lambda kv: (-kv[1], kv[0]))
        unmapped = [{"value": v, "pixels": n, "share": n / extent_px if extent_px else 0.0} for v, n in rows]
        return {**crosswalk.describe(), "unmapped": unmapped}


def crosswalk_classes(protocol: Protocol, alignment: ClassAlignment) -> tuple[ClassInfo, ...]:
    """The classes a crosswalk's ``class`` cells may name under a protocol: the protocol's classes
    and raw codes, then the class map's declared classes (as the codes they are aligned to)."""
    declared = tuple(
        ClassInfo(int(alignment.mapping.get(c.value, c.value)), c.name, c.color) for c in alignment.declared
    )
    return (*protocol.classes, *protocol.raw_classes, *declared)


def crosswalk_codes(
    crosswalk: Crosswalk | None, protocol: Protocol, alignment: ClassAlignment
) -> CrosswalkCodes | None:
    """``crosswalk`` resolved on the classes of :func:`crosswalk_classes`; None without one.

    Raises:
        InputError: a ``class`` cell names no class.
    """
    return None if crosswalk is None else crosswalk.resolve(crosswalk_classes(protocol, alignment))
