"""Scoring protocols as data: which values are classes, which are regrouped, ignored, evaluated.

A :class:`Protocol` says how raw raster values (reference and prediction alike) become the
classes of a confusion matrix and how per-class IoU are averaged. The presets reproduce the
published computations:

``flair1`` (IGN's ``generate_miou`` of the FLAIR #1 challenge)
    Codes 13..19 of both rasters are regrouped into 13 "other"; one 13 x 13 confusion matrix is
    summed over everything; IoU_c = TP / (TP + FP + FN) for the 12 classes 1..12, "other" kept in
    the matrix (its pixels count as FP/FN of the others) but not averaged; classes whose IoU is
    0/0 are skipped (``np.nansum / count``). OA = trace / sum of the 13 x 13 matrix.
``flairhub-landcover`` (IGN's FLAIR-HUB ``compute_and_save_metrics``)
    Codes 0..18; rows and columns of the zero-weight classes 15 clear cut, 16 ligneous, 17 mixed,
    18 undefined are deleted before IoU and OA, which are computed over the 15 x 15 remainder.
    A class with 0/0 IoU counts 0.0 (IGN sets NaN to 0; the paper drops classes absent from the
    test set for that reason).
``flairhub-croptype``
    LPIS codes 0..22, same computation, rows/columns of 5 rice and 9 other oilseed crops (absent
    from the test set) deleted.
``weedsense`` (the WeedSense evaluation card)
    17 classes, 0 background and 16 species; 255 ignored; IoU of a class absent from both sides
    is 1.0; mIoU over all 17. OA = trace / sum.
``custom``
    User-given regrouping (``remap``), ignored values, classes and evaluated classes.

Public entry points: :data:`PROTOCOLS`, :data:`ABSENT_SCORES`, :func:`get_protocol`,
:class:`Protocol`, :func:`protocol_from_parameters`, :func:`parse_value_list`, :func:`parse_remap`,
:func:`parse_class_map`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from ..errors import InputError
from ..nomenclature import (
    FLAIR1_CLASSES,
    FLAIR1_MODEL_CLASSES,
    FLAIRHUB_CROPTYPE_CLASSES,
    FLAIRHUB_LANDCOVER_CLASSES,
    ClassInfo,
    default_color,
    weedsense_classes,
)

PROTOCOLS: tuple[str, ...] = ("flair1", "flairhub-landcover", "flairhub-croptype", "weedsense", "custom")
"""Names accepted by :func:`get_protocol` (and the ``PROTOCOL`` parameter)."""

_RANGE = re.compile(r"^(-?\d+)(?:-(-?\d+))?$")

ABSENT_SCORES: tuple[str, ...] = ("skip", "one", "zero")
"""What a class absent from both reference and prediction (IoU = 0/0) counts as."""


@dataclass(frozen=True)
class Protocol:
    """How raw values are scored.

    Attributes:
        name: one of :data:`PROTOCOLS`.
        classes: the confusion-matrix classes, in matrix order (values after ``remap``). Empty
            for an open custom protocol: the classes are then the values found.
        evaluated: class values whose IoU are averaged into mIoU, in report order (empty = all).
        remap: raw value -> class value, applied to reference and prediction before counting.
        ignore: raw values not counted wherever they occur (pixel dropped when the reference or
            the prediction holds one).
        drop_excluded: True: rows and columns of non-evaluated classes are deleted before IoU
            and OA (FLAIR-HUB). False: they stay in the matrix (their pixels are FP/FN of the
            evaluated classes) but are not averaged (FLAIR #1 "other").
        absent: ``skip`` (IoU null, left out of the mean), ``one`` or ``zero``.
        description: one line for the report.
        raw_classes: names of the raw codes that ``remap`` regroups (FLAIR #1's 19 mask codes),
            so that classes can be aligned by name (:mod:`.alignment`).
        layout: the benchmark folder layout the protocol was published on (``flair1``,
            ``flairhub``, ``weedsense``; empty for none).
        label_modality: the FLAIR-HUB reference modality it scores (COSIA land cover, LPIS crops).
        submission_offset: added to the class value in benchmark prediction files (FLAIR #1:
            IGN's submission format, class index 0..12 = code - 1).
        image_targets: per-image targets scored besides the class map (WeedSense: ``height_cm``,
            ``growth_week``), reported with the figures of :mod:`flair_qgis.core.benchmark.task_metrics`.
    """

    name: str
    classes: tuple[ClassInfo, ...]
    evaluated: tuple[int, ...] = ()
    remap: Mapping[int, int] = field(default_factory=dict)
    ignore: frozenset[int] = frozenset()
    drop_excluded: bool = True
    absent: str = "skip"
    description: str = ""
    raw_classes: tuple[ClassInfo, ...] = ()
    layout: str = ""
    label_modality: str = ""
    submission_offset: int = 0
    image_targets: tuple[str, ...] = ()

    @property
    def is_open(self) -> bool:
        """True when the classes are whatever values are found (custom without classes)."""
        return not self.classes

    def class_value(self, raw: int) -> int:
        """The class a raw value counts as (``remap`` applied)."""
        return int(self.remap.get(int(raw), int(raw)))

    def regroup(self, values: np.ndarray) -> np.ndarray:
        """``values`` with ``remap`` applied (an int64 copy; ``values`` itself without regrouping)."""
        if not self.remap:
            return values
        out = values.astype(np.int64)
        for raw, target in self.remap.items():
            out[values == raw] = target
        return out

    def with_classes(self, classes: Sequence[ClassInfo]) -> Protocol:
        """This protocol with its class list fixed (used to close an open custom protocol)."""
        values = tuple(c.value for c in classes)
        evaluated = tuple(v for v in self.evaluated if v in values) if self.evaluated else values
        return replace(self, classes=tuple(classes), evaluated=evaluated)

    def to_dict(self) -> dict:
        """A JSON-ready description for reports."""
        return {
            "name": self.name,
            "description": self.description,
            "classes": [c.value for c in self.classes],
            "evaluated_classes": list(self.evaluated or (c.value for c in self.classes)),
            "remap": {str(k): v for k, v in sorted(self.remap.items())},
            "ignore": sorted(self.ignore),
            "excluded_classes": "dropped" if self.drop_excluded else "kept in matrix",
            "absent_class_score": self.absent,
        }


def _flair1() -> Protocol:
    return Protocol(
        name="flair1",
        classes=FLAIR1_MODEL_CLASSES,
        evaluated=tuple(range(1, 13)),
        remap={code: 13 for code in range(13, 20)},
        raw_classes=FLAIR1_CLASSES,
        drop_excluded=False,
        layout="flair1",
        submission_offset=-1,
        absent="skip",
        description=(
            "FLAIR #1 (IGN generate_miou): codes 13..19 regrouped into 13 'other', one confusion "
            "matrix summed over all pixels, mIoU over classes 1..12 with 0/0 IoU skipped"
        ),
    )


def _flairhub_landcover() -> Protocol:
    return Protocol(
        name="flairhub-landcover",
        classes=FLAIRHUB_LANDCOVER_CLASSES,
        evaluated=tuple(range(15)),
        drop_excluded=True,
        layout="flairhub",
        label_modality="AERIAL_LABEL-COSIA",
        absent="zero",
        description=(
            "FLAIR-HUB land cover: 15 classes, rows/columns of 15 clear cut, 16 ligneous, 17 mixed, "
            "18 undefined dropped before IoU and OA; 0/0 IoU counts 0 as in IGN's code"
        ),
    )


def _flairhub_croptype() -> Protocol:
    return Protocol(
        name="flairhub-croptype",
        classes=FLAIRHUB_CROPTYPE_CLASSES,
        evaluated=tuple(v for v in range(23) if v not in (5, 9)),
        drop_excluded=True,
        layout="flairhub",
        label_modality="ALL_LABEL-LPIS",
        absent="zero",
        description=(
            "FLAIR-HUB LPIS crop types: classes of the test set (5 rice and 9 other oilseed crops "
            "dropped before IoU and OA); 0/0 IoU counts 0 as in IGN's code"
        ),
    )


def _weedsense() -> Protocol:
    return Protocol(
        name="weedsense",
        classes=weedsense_classes(),
        evaluated=tuple(range(17)),
        ignore=frozenset({255}),
        drop_excluded=True,
        layout="weedsense",
        image_targets=("height_cm", "growth_week"),
        absent="one",
        description=(
            "WeedSense: 17 classes (background + 16 species), 255 ignored, IoU of a class absent "
            "from both sides counts 1.0, mIoU over all 17"
        ),
    )


_PRESETS = {
    "flair1": _flair1,
    "flairhub-landcover": _flairhub_landcover,
    "flairhub-croptype": _flairhub_croptype,
    "weedsense": _weedsense,
}


def get_protocol(
    name: str,
    *,
    ignore: Iterable[int] = (),
    remap: Mapping[int, int] | None = None,
    evaluated: Iterable[int] | None = None,
    absent: str | None = None,
    classes: Sequence[ClassInfo | int] | None = None,
    drop_excluded: bool | None = None,
) -> Protocol:
    """A protocol by name, optionally adjusted.

    Args:
        name: one of :data:`PROTOCOLS` (case-insensitive).
        ignore: raw values added to the protocol's ignored values.
        remap: raw value -> class value; replaces a preset's regrouping when given.
        evaluated: class values averaged into mIoU; replaces the preset's list when given.
        absent: ``skip`` | ``one`` | ``zero``; None keeps the protocol's own choice.
        classes: the matrix classes (``ClassInfo`` or bare values) of a custom protocol; None
            for the values found.
        drop_excluded: whether non-evaluated classes are dropped (see :class:`Protocol`).

    Returns:
        The protocol.

    Raises:
        InputError: unknown name, unknown absent score, or evaluated classes that are not
            classes of the protocol.
    """
    key = (name or "").strip().lower()
    if key not in PROTOCOLS:
        raise InputError.of("unknown_protocol", name=name, choices=", ".join(PROTOCOLS))
    if absent is not None and absent not in ABSENT_SCORES:
        raise InputError.of("unknown_absent_score", absent=absent)
    if key == "custom":
        protocol = _custom(classes, evaluated, remap, drop_excluded)
    else:
        protocol = _PRESETS[key]()
        if remap is not None:
            protocol = replace(protocol, remap=dict(remap))
        if evaluated is not None:
            protocol = replace(protocol, evaluated=tuple(int(v) for v in evaluated))
        if drop_excluded is not None:
            protocol = replace(protocol, drop_excluded=drop_excluded)
    protocol = replace(protocol, ignore=frozenset(protocol.ignore) | {int(v) for v in ignore})
    if absent is not None:
        protocol = replace(protocol, absent=absent)
    return _checked(protocol)


def _custom(
    classes: Sequence[ClassInfo | int] | None,
    evaluated: Iterable[int] | None,
    remap: Mapping[int, int] | None,
    drop_excluded: bool | None,
) -> Protocol:
    class_infos = tuple(
        c if isinstance(c, ClassInfo) else ClassInfo(int(c), f"class {int(c)}", default_color(i))
        for i, c in enumerate(classes or ())
    )
    return Protocol(
        name="custom",
        classes=class_infos,
        evaluated=tuple(int(v) for v in evaluated) if evaluated is not None else (),
        remap=dict(remap or {}),
        drop_excluded=True if drop_excluded is None else drop_excluded,
        absent="skip",
        description="custom: user-given classes, regrouping and ignored values",
    )


def _checked(protocol: Protocol) -> Protocol:
    """The protocol with its evaluated classes checked against its classes (all when none given)."""
    if not protocol.classes:
        return protocol
    known = {c.value for c in protocol.classes}
    unknown = [v for v in protocol.evaluated if v not in known]
    if unknown:
        raise InputError.of(
            "evaluated_not_in_protocol",
            classes=", ".join(map(str, unknown)),
            protocol=protocol.name,
            codes=", ".join(str(c.value) for c in protocol.classes),
        )
    if not protocol.evaluated:
        protocol = replace(protocol, evaluated=tuple(sorted(known)))
    return protocol


def protocol_from_parameters(
    name: str,
    ignore: str = "",
    remap: str = "",
    evaluated: str = "",
    classes: str = "",
    absent: str = "protocol",
    drop_excluded: bool | None = None,
) -> Protocol:
    """The protocol a user asked for, from the text parameters of the scoring algorithms.

    Args:
        name: ``PROTOCOL``.
        ignore: ``IGNORE_CLASSES`` (e.g. ``0,255``).
        remap: ``REMAP`` (e.g. ``13-19:13``); empty keeps the protocol's regrouping.
        evaluated: ``EVALUATED_CLASSES``; empty keeps the protocol's.
        classes: ``CLASSES`` of a custom protocol; empty for the values found.
        absent: ``ABSENT_CLASS_SCORE``; ``protocol`` or empty keeps the protocol's.
        drop_excluded: ``DROP_EXCLUDED`` of a custom protocol; None keeps the default.

    Raises:
        InputError: unknown protocol or malformed lists.
    """
    evaluated_values = parse_value_list(evaluated, "EVALUATED_CLASSES")
    class_values = parse_value_list(classes, "CLASSES")
    return get_protocol(
        name,
        ignore=parse_value_list(ignore, "IGNORE_CLASSES"),
        remap=parse_remap(remap) if (remap or "").strip() else None,
        evaluated=evaluated_values or None,
        absent=None if absent in ("", "protocol", None) else absent,
        classes=class_values or None,
        drop_excluded=drop_excluded,
    )


def parse_value_list(text: str, what: str = "class values") -> tuple[int, ...]:
    """Parse ``"1,2,5-7"`` into ``(1, 2, 5, 6, 7)``; empty text gives ``()``.

    Raises:
        InputError: something other than integers and ranges.
    """
    text = (text or "").strip()
    values: list[int] = []
    for part in text.replace(";", ",").replace(" ", ",").split(","):
        if not part:
            continue
        match = _RANGE.match(part)
        if match is None or (match.group(2) is not None and int(match.group(2)) < int(match.group(1))):
            raise InputError.of("bad_value_list", setting=what, text=text)
        lo = int(match.group(1))
        hi = int(match.group(2)) if match.group(2) is not None else lo
        values.extend(range(lo, hi + 1))
    return tuple(dict.fromkeys(values))


def parse_remap(text: str) -> dict[int, int]:
    """Parse ``"13-19:13, 0:255"`` (raw values or ranges ``:`` class value) into a mapping.

    Raises:
        InputError: malformed text.
    """
    return _parse_pairs(text, "REMAP", "'raw:class' (e.g. 13-19:13,0:1)")


def parse_class_map(text: str) -> dict[int, int]:
    """Parse the ``CLASS_MAP`` parameter, ``"0:1,1:2,12:13"`` (model value ``:`` protocol code).

    Raises:
        InputError: malformed text.
    """
    return _parse_pairs(text, "CLASS_MAP", "'value:code' (e.g. 0:1,1:2,12:13)")


def _parse_pairs(text: str, what: str, form: str) -> dict[int, int]:
    mapping: dict[int, int] = {}
    text = (text or "").strip()
    for entry in text.replace(";", ",").split(","):
        part = entry.strip()
        if not part:
            continue
        if ":" not in part:
            raise InputError.of("bad_value_pairs", setting=what, form=form, part=part)
        raw, target = part.split(":", 1)
        try:
            value = int(target.strip())
        except ValueError:
            raise InputError.of("bad_pair_target", setting=what, target=target.strip()) from None
        for source in parse_value_list(raw, f"{what} values"):
            mapping[source] = value
    return mapping
