"""Second-interpreter rules: who may give the second verdict on which item, and which items the two
interpreters disagree on (the *Disagreements* queue).

A second interpreter reviews only the items marked ``double`` (drawn by
:func:`~flair_qgis.core.review.create.double_items`), blind to the first verdict, and must be
another person than the one who gave it. Two interpreters disagree on an item when both gave a
true class and the classes differ; an adjudicated class settles the item for the report but the
item stays in the queue (so a decision can be revisited).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..errors import InputError
from .schema import ReviewItem


@dataclass(frozen=True)
class SecondReview:
    """The second interpreter's verdict on one item (table ``second_review``)."""

    item_id: int
    verdict: str
    true_class: int | None
    reviewer: str
    reviewed_at: str
    seconds: float | None
    note: str


def second_review_of(row: Sequence) -> SecondReview:
    """A ``second_review`` row (``item_id, verdict, true_class, reviewer, reviewed_at, seconds, note``)."""
    return SecondReview(int(row[0]), row[1] or "", row[2], row[3] or "", row[4] or "", row[5], row[6] or "")


def check_second_verdict(first: ReviewItem, doubles: Iterable[int], verdict: str, reviewer: str) -> None:
    """Refuse a second verdict on an item not marked ``double``, or by the first verdict's reviewer.

    Args:
        first: the item as the first interpreter left it.
        doubles: the items marked ``double``.
        verdict: the second verdict ("" clears it: always allowed on a double item).
        reviewer: who gives it.

    Raises:
        InputError: the item is not marked ``double``, or ``reviewer`` gave the first verdict.
    """
    if first.item_id not in set(doubles):
        raise InputError.of("not_double_reviewed", item_id=first.item_id)
    if verdict and reviewer and first.reviewer and reviewer == first.reviewer:
        raise InputError.of("same_interpreter", reviewer=reviewer, item_id=first.item_id)


def disagreements(items: Sequence[ReviewItem], second: Mapping[int, SecondReview]) -> list[int]:
    """Items (in the order given) whose two interpreters gave different true classes."""
    return [
        i.item_id
        for i in items
        if i.item_id in second
        and i.true_class is not None
        and second[i.item_id].true_class is not None
        and second[i.item_id].true_class != i.true_class
    ]
