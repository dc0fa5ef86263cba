"""Reviews write back the reference's own codes (issue 40).

A reference coded in its own nomenclature (OCS GE ``CS2.1.1.1``…) is reviewed in the model's
classes through a crosswalk. A corrected copy must hold the reference's codes, not class values:
:meth:`CodeWriteBack.target` says which code a polygon takes when its decided items agree on a
class.

* The items recorded a code (the Review tab offers the reference's codes for the class, the most
  frequent first, in every mode; stored in ``true_code`` of the verdict: layer ``review``, tables
  ``second_review`` and ``adjudication``; the adjudicated code wins, :func:`named_codes`): that
  code, when the items agree on it and it counts as the class.
* None recorded and the polygon's own code already counts as the class: the polygon keeps it.
* None recorded and one code counts as the class: that code.
* None recorded and several codes count as the class: nothing is guessed; the polygon is listed
  as a conflict (:data:`SEVERAL_CODES`) for the interpreter to name the code.

:func:`review_crosswalk` gives the crosswalk to apply: the one given, else the one the review was
drawn with (its lines are kept in the review's design table). :func:`codes_summary` is the
review report's ``crosswalk`` entry: the verdicts per reference code. :class:`ReferenceCodes` is
what the Review tab shows and offers: each item's own code, and a class's codes, the most frequent
first.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..nomenclature import ClassInfo
from ..score import Crosswalk, CrosswalkCodes, reference_key
from .schema import ReviewItem
from .store import ReviewStore

SEVERAL_CODES = "class has several reference codes and no verdict names one"
CODES_DISAGREE = "items name different reference codes"
CODE_NOT_CLASS = "the reference code named does not count as the class decided"
NO_CODE = "no reference code counts as the class decided"


def review_crosswalk(given: Crosswalk | None, design: Mapping[str, str]) -> Crosswalk | None:
    """The crosswalk to write codes back with: ``given``, else the one recorded at sampling (None: none).

    Args:
        given: the ``CROSSWALK`` parameter, read.
        design: the review's design table.
    """
    if given is not None:
        return given
    recorded = json.loads(design.get("crosswalk") or "null")
    if not recorded:
        return None
    return Crosswalk(tuple((str(a), str(b)) for a, b in recorded["rows"]), recorded["file"], recorded["sha256"])


def review_classes(design: Mapping[str, str]) -> tuple[ClassInfo, ...]:
    """The classes a review's design table lists (what a crosswalk's class names resolve to)."""
    rows = json.loads(design.get("classes") or "[]")
    return tuple(ClassInfo(int(c["value"]), str(c["name"]), str(c.get("color", ""))) for c in rows)


def named_codes(store: ReviewStore) -> dict[int, tuple[str, ...]]:
    """Item id -> the reference codes its verdicts name for the class decided (items naming none absent).

    The adjudicated code wins: an adjudicated item that names a code gives that code alone. Else
    the codes named by the first and the second interpreter whose true class is the class decided
    (the adjudicated class where there is one, else the first interpreter's), so that two codes
    named for one class are told apart (:data:`CODES_DISAGREE`), never one picked.
    """
    codes = {mode: store.true_codes(mode) for mode in ("first", "second", "adjudicate")}
    adjudicated, second = store.adjudications(), store.second_reviews()
    out: dict[int, tuple[str, ...]] = {}
    for item in store.items():
        key = item.item_id
        if key in adjudicated and key in codes["adjudicate"]:
            out[key] = (codes["adjudicate"][key],)
            continue
        decided = adjudicated[key][0] if key in adjudicated else item.true_class
        named = [codes["first"][key]] if key in codes["first"] and item.true_class == decided else []
        if key in codes["second"] and key in second and second[key].true_class == decided:
            named.append(codes["second"][key])
        if named:
            out[key] = tuple(dict.fromkeys(str(reference_key(code)) for code in named))
    return out


@dataclass(frozen=True)
class CodeWriteBack:
    """What a corrected polygon's class field (or a raster cell) takes, in the reference's codes.

    Attributes:
        codes: the crosswalk, resolved on the review's classes.
        true_codes: item id -> the reference codes its verdicts name (:func:`named_codes`; items
            that name none absent).
    """

    codes: CrosswalkCodes
    true_codes: Mapping[int, Sequence[object]]

    def target(self, label: object, true_class: int, items: Sequence[ReviewItem]) -> tuple[object | None, str]:
        """The code a polygon labelled ``label`` takes when its items decide ``true_class``.

        Returns:
            ``(code, "")``, or ``(None, reason)`` when it cannot be told (a conflict).
        """
        named = {reference_key(code) for i in items for code in self.true_codes.get(i.item_id, ()) if code}
        if len(named) > 1:
            return None, CODES_DISAGREE
        if named:
            code = named.pop()
            return (code, "") if self.codes.code_of(code) == true_class else (None, CODE_NOT_CLASS)
        if self.codes.code_of(label) == true_class:
            return label, ""
        candidates = self.codes.values_of(true_class)
        if len(candidates) == 1:
            return candidates[0], ""
        return None, (SEVERAL_CODES if candidates else NO_CODE)


def code_write_back(review_path: str, crosswalk: Crosswalk | None) -> CodeWriteBack | None:
    """How corrected labels become reference codes: the crosswalk (given, or the review's) resolved
    on the review's classes, and the codes the verdicts named; None without a crosswalk."""
    with ReviewStore.open(review_path) as store:
        chosen = review_crosswalk(crosswalk, store.design)
        if chosen is None:
            return None
        return CodeWriteBack(chosen.resolve(review_classes(store.design)), named_codes(store))


def codes_summary(store: ReviewStore, items: Sequence[ReviewItem], given: Crosswalk | None) -> dict | None:
    """The review report's ``crosswalk`` entry: the crosswalk (given, else the review's), whether it
    is the one the review was drawn with, and the verdicts per reference code of the items.

    Returns:
        ``{file, sha256, drawn_with, codes: [{code, class, items, correct, wrong, unsure}]}``, the
        codes with most items first; None when neither a crosswalk is given nor one recorded.
    """
    crosswalk = review_crosswalk(given, store.design)
    if crosswalk is None:
        return None
    recorded = json.loads(store.design.get("crosswalk") or "null")
    own = store.column("reference_code")
    table: dict[str, dict] = {}
    for item in items:
        code = own.get(item.item_id)
        if code is None:
            continue
        row = table.setdefault(
            str(code), {"code": str(code), "class": item.label_class, "items": 0, "correct": 0, "wrong": 0, "unsure": 0}
        )
        row["items"] += 1
        if item.verdict in ("correct", "wrong", "unsure"):
            row[item.verdict] += 1
    return {
        **crosswalk.describe(),
        "drawn_with": bool(recorded) and recorded.get("sha256") == crosswalk.sha256,
        "codes": sorted(table.values(), key=lambda r: (-r["items"], r["code"])),
    }


@dataclass(frozen=True)
class ReferenceCodes:
    """The reference codes of a review drawn through a crosswalk.

    Attributes:
        codes: the crosswalk resolved on the review's classes.
        own: item id -> the reference's own code at the item.
        frequency: code -> items whose own code it is.
    """

    codes: CrosswalkCodes
    own: Mapping[int, object]
    frequency: Mapping[str, int]

    @classmethod
    def of(cls, store: ReviewStore) -> ReferenceCodes | None:
        """The codes of an open review; None for a review drawn without a crosswalk."""
        crosswalk = review_crosswalk(None, store.design)
        if crosswalk is None:
            return None
        own = store.column("reference_code")
        frequency = Counter(str(code) for code in own.values() if code is not None)
        return cls(crosswalk.resolve(review_classes(store.design)), own, dict(frequency))

    def codes_for(self, class_value: int) -> tuple[str, ...]:
        """The codes that count as ``class_value``, the most frequent among the items first."""
        listed = self.codes.values_of(class_value)
        return tuple(sorted(listed, key=lambda code: (-self.frequency.get(code, 0), listed.index(code))))

    def class_of(self, code: str) -> int | None:
        """The class a code counts as (None: a code the crosswalk leaves out)."""
        return self.codes.code_of(code)
