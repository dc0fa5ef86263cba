"""What a user types to describe a model, read into a :class:`Description`: bands, normalisation,
classes, resolution and tile size, from a preset (:mod:`flair_qgis.core.model_presets`) and typed
values, the typed ones winning.

Normalisation is ``(pixel - mean) / std`` in the layer's pixel units (0..255 for 8-bit imagery,
as FLAIR's statistics are); ``SCALE`` alone means ``pixel / scale`` (mean 0, std ``scale``).
Classes are typed ``value:name[:#rrggbb]`` separated by commas, semicolons or new lines, or given
as a CSV file with the columns ``value``, ``name`` and optionally ``color``.
"""

from __future__ import annotations

import csv
import os
from dataclasses import dataclass

from ..errors import InputError
from ..model_presets import PRESETS, ModelPreset
from ..nomenclature import ClassInfo, default_color

NO_PRESET = "none"
"""The preset choice that means "typed values only"."""


@dataclass(frozen=True)
class Description:
    """What a described model declares; an empty field is left as the model has it.

    Attributes:
        bands: band names (or band numbers of ``modality``'s file), one per model band.
        mean, std: per-band normalisation in the layer's pixel units.
        classes: the class of each output channel, in output order.
        resolution_cm: ground sampling distance the model was trained at, or None.
        tile_size_px: tile edge to run at by default, or None.
        modality: FLAIR-HUB modality the band numbers refer to, or "".
        preset: the preset it started from, or "".
        description: one line for the model card, or "".
    """

    bands: tuple[str | int, ...] = ()
    mean: tuple[float, ...] = ()
    std: tuple[float, ...] = ()
    classes: tuple[ClassInfo, ...] = ()
    resolution_cm: float | None = None
    tile_size_px: int | None = None
    modality: str = ""
    preset: str = ""
    description: str = ""

    @property
    def is_empty(self) -> bool:
        """True when it declares nothing at all."""
        return not (self.bands or self.mean or self.classes or self.resolution_cm or self.tile_size_px)


def parse_bands(text: str) -> tuple[str | int, ...]:
    """``"R,G,B"`` -> ``("R", "G", "B")``; ``"4,1,2"`` -> ``(4, 1, 2)`` (band numbers); "" -> ()."""
    parts = [p.strip() for p in (text or "").replace(";", ",").split(",") if p.strip()]
    return tuple(int(p) for p in parts) if parts and all(p.isdigit() for p in parts) else tuple(parts)


def parse_numbers(text: str, what: str) -> tuple[float, ...]:
    """``"105.08, 110.87"`` -> ``(105.08, 110.87)``; "" -> ().

    Raises:
        InputError: an entry is not a number (``what`` names the field).
    """
    parts = [p.strip() for p in (text or "").replace(";", ",").split(",") if p.strip()]
    try:
        return tuple(float(p) for p in parts)
    except ValueError:
        raise InputError.of("describe_bad_numbers", what=what, text=text) from None


def parse_classes(text: str) -> tuple[ClassInfo, ...]:
    """Classes typed as ``value:name[:#rrggbb]`` entries, or the path of a CSV class table; "" -> ().

    A class without a colour gets the colour :func:`~flair_qgis.core.nomenclature.default_color`
    gives its position.

    Raises:
        InputError: an entry that is not ``value:name[:colour]``, a bad colour, a value given twice,
            a CSV file without ``value`` and ``name`` columns.
    """
    text = (text or "").strip()
    if not text:
        return ()
    if text.lower().endswith(".csv") and os.path.isfile(text):
        return _classes_csv(text)
    entries = [e.strip() for e in text.replace(";", "\n").replace(",", "\n").splitlines() if e.strip()]
    rows = []
    for entry in entries:
        parts = [p.strip() for p in entry.split(":")]
        if len(parts) not in (2, 3) or not parts[1]:
            raise InputError.of("describe_bad_class", entry=entry)
        rows.append((parts[0], parts[1], parts[2] if len(parts) == 3 else "", entry))
    return _classes(rows)


def _classes_csv(path: str) -> tuple[ClassInfo, ...]:
    with open(path, newline="", encoding="utf-8-sig") as handle:
        reader = csv.DictReader(handle)
        fields = {(f or "").strip().lower(): f for f in reader.fieldnames or []}
        if "value" not in fields or "name" not in fields:
            raise InputError.of("describe_bad_classes_csv", path=path)
        colour = fields.get("color") or fields.get("colour")
        return _classes(
            (row[fields["value"]], row[fields["name"]], row[colour] if colour else "", ",".join(row.values()))
            for row in reader
        )


def _classes(rows) -> tuple[ClassInfo, ...]:
    """``(value, name, colour, entry as typed)`` rows -> classes, checked."""
    classes: list[ClassInfo] = []
    for index, (value, name, typed_colour, entry) in enumerate(rows):
        colour = (typed_colour or "").strip() or default_color(index)
        try:
            number = int(str(value).strip())
            int(colour[1:], 16)
        except ValueError:
            raise InputError.of("describe_bad_class", entry=entry) from None
        if len(colour) != 7 or not colour.startswith("#") or not str(name).strip():
            raise InputError.of("describe_bad_class", entry=entry)
        if any(c.value == number for c in classes):
            raise InputError.of("describe_duplicate_class", value=number)
        classes.append(ClassInfo(number, str(name).strip(), colour.lower()))
    return tuple(classes)


def preset_of(key: str) -> ModelPreset | None:
    """The preset named ``key``; None for "" or :data:`NO_PRESET`.

    Raises:
        InputError: an unknown preset.
    """
    if not key or key == NO_PRESET:
        return None
    if key not in PRESETS:
        raise InputError.of("describe_unknown_preset", preset=key, choices=[NO_PRESET, *PRESETS])
    return PRESETS[key]


def description(
    preset: str = "",
    *,
    bands: tuple[str | int, ...] = (),
    mean: tuple[float, ...] = (),
    std: tuple[float, ...] = (),
    scale: float | None = None,
    classes: tuple[ClassInfo, ...] = (),
    resolution_cm: float | None = None,
    tile_size_px: int | None = None,
) -> Description:
    """A preset's description with the typed values put over it (an empty value keeps the preset's).

    Raises:
        InputError: an unknown preset, MEAN without STD (or the reverse), SCALE with STD, a
            scale or std that is not positive, or nothing to describe at all.
    """
    base = preset_of(preset)
    if bool(mean) != bool(std):
        raise InputError.of("describe_mean_without_std")
    if scale is not None:
        if std:
            raise InputError.of("describe_scale_and_std")
        if scale <= 0:
            raise InputError.of("describe_bad_scale", scale=scale)
        mean, std = (0.0,), (float(scale),)
    if any(s <= 0 for s in std):
        raise InputError.of("describe_bad_std", std=list(std))
    typed_bands = bool(bands)
    result = Description(
        bands=bands or (base.bands if base else ()),
        mean=mean or (base.mean if base else ()),
        std=std or (base.std if base else ()),
        classes=classes or (base.classes if base else ()),
        resolution_cm=resolution_cm or (base.resolution_cm if base else None),
        tile_size_px=tile_size_px or None,
        modality=(base.modality or "") if base and not typed_bands else "",
        preset=base.key if base else "",
        description=base.description if base else "",
    )
    if result.is_empty:
        raise InputError.of("describe_nothing")
    return result
