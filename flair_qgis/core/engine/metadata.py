"""Metadata values of an ONNX model parsed with :func:`json.loads` (never evaluated): numbers, lists, classes."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import ModelError
from ..nomenclature import ClassInfo, default_color


def meta_json(metadata: Mapping[str, str], key: str, default: Any = None) -> Any:
    """Parse one metadata value as JSON; plain unquoted strings are kept as text."""
    if key not in metadata:
        return default
    raw = metadata[key]
    try:
        return json.loads(raw)
    except (TypeError, ValueError):
        if isinstance(raw, str) and raw.strip():
            return raw.strip()
        raise ModelError.of("metadata_not_json", metadata_key=key, raw=raw) from None


def float_list(value: Any, key: str, count: int) -> tuple[float, ...]:
    if isinstance(value, (int, float)):
        return (float(value),) * count
    if not isinstance(value, Sequence) or isinstance(value, str):
        raise ModelError.of("metadata_not_numbers", metadata_key=key)
    try:
        values = tuple(float(v) for v in value)
    except (TypeError, ValueError):
        raise ModelError.of("metadata_not_number", metadata_key=key, value=value) from None
    if len(values) == 1:
        return values * count
    if len(values) != count:
        raise ModelError.of("metadata_count_mismatch", metadata_key=key, value_count=len(values), count=count)
    return values


def static_dim(value: Any) -> int | None:
    return value if isinstance(value, int) and value > 0 else None


def parse_classes(raw: Any, count: int | None, key: str = "classes") -> tuple[ClassInfo, ...]:
    """Turn any accepted class declaration into a tuple of :class:`ClassInfo`.

    Accepted: a Deepness dict ``{"0": "name", ...}`` (index -> name, value = index); a list of
    names; a list of raster values; a list of ``{"value", "name", "color"}`` dicts (an
    ``index`` key orders them). ``count`` (the channel count) fills unnamed classes.
    """
    classes: list[ClassInfo] = []
    if raw is None:
        raw = []
    if isinstance(raw, Mapping):
        try:
            items = sorted((int(k), str(v)) for k, v in raw.items())
        except ValueError:
            raise ModelError.of("metadata_bad_class_index", metadata_key=key) from None
        by_index = dict(items)
        top = max(by_index, default=-1) + 1
        n = max(top, count or 0)
        raw = [by_index.get(i, f"class {i}") for i in range(n)]
    if not isinstance(raw, Sequence) or isinstance(raw, str):
        raise ModelError.of("metadata_not_classes", metadata_key=key)
    entries = list(raw)
    if entries and all(isinstance(e, Mapping) and "index" in e for e in entries):
        entries.sort(key=lambda e: int(e["index"]))
    for index, entry in enumerate(entries):
        if isinstance(entry, Mapping):
            value = int(entry.get("value", index))
            name = str(entry.get("name", f"class {value}"))
            color = str(entry.get("color", default_color(index)))
        elif isinstance(entry, bool):
            raise ModelError.of("metadata_bad_class_entry", metadata_key=key, index=index, entry=entry)
        elif isinstance(entry, int):
            value, name, color = entry, f"class {entry}", default_color(index)
        else:
            value, name, color = index, str(entry), default_color(index)
        if not (len(color) == 7 and color.startswith("#")):
            raise ModelError.of("bad_class_colour", color=color, metadata_key=key)
        classes.append(ClassInfo(value, name, color))
    if count is not None and len(classes) < count:
        classes.extend(ClassInfo(i, f"class {i}", default_color(i)) for i in range(len(classes), count))
    values = [c.value for c in classes]
    if len(set(values)) != len(values):
        raise ModelError.of("metadata_duplicate_value", metadata_key=key)
    return tuple(classes)


def binary_classes(raw: Any) -> tuple[ClassInfo, ...]:
    """Classes of a single-channel (sigmoid) output: 0 background, 1 the detected class."""
    named = parse_classes(raw, None) if raw else ()
    positive = named[-1].name if named else "detected"
    return (ClassInfo(0, "background", "#000000"), ClassInfo(1, positive, default_color(0)))


GUESSED_NORMALISATION = "normalisation"
GUESSED_CLASSES = "classes"
_NORMALISATION_KEYS = ("mean", "std", "standardization_mean", "standardization_std", "model_type")
"""Keys that declare how pixels are normalised. ``model_type`` marks a Deepness model, whose convention
(pixels / 255, no standardisation unless declared) is a declaration, not a guess."""


def guessed_fields(metadata: Mapping[str, str], has_classes: bool) -> frozenset[str]:
    """What the engine guesses for a model because its metadata does not say it.

    Args:
        metadata: the model's ``metadata_props``.
        has_classes: whether the model has a head whose classes are written (segmentation or
            classification).

    Returns:
        :data:`GUESSED_NORMALISATION` when no key declares the normalisation (pixels are divided
        by 255), :data:`GUESSED_CLASSES` when no key declares the classes (values 0..C-1 named
        "class N"); empty for a described model.
    """
    guessed = set()
    inputs = _entries(metadata, "inputs")
    if not any(k in metadata for k in _NORMALISATION_KEYS) and not any("mean" in d or "std" in d for d in inputs):
        guessed.add(GUESSED_NORMALISATION)
    declares_classes = any(k in metadata for k in ("classes", "class_names"))
    if has_classes and not declares_classes and not any("classes" in d for d in _entries(metadata, "outputs")):
        guessed.add(GUESSED_CLASSES)
    return frozenset(guessed)


def _entries(metadata: Mapping[str, str], key: str) -> list[Mapping[str, Any]]:
    """The dict entries of a list-valued key (``inputs``, ``outputs``); [] when absent or malformed."""
    try:
        raw = meta_json(metadata, key, [])
    except ModelError:
        return []
    return [d for d in raw if isinstance(d, Mapping)] if isinstance(raw, list) else []
