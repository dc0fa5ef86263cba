"""One person reviewing items one at a time: position, filter, verdicts, class keys. No Qt here.

The Review tab drives a :class:`ReviewSession`; each verdict goes straight to the GeoPackage
(:meth:`~.store.ReviewStore.set_verdict`), then the in-memory copy of that
item is re-read, so progress and figures follow the file.

Class keys: the review's classes, sorted by value, are given keys by position: the first nine
``1``..``9``, the tenth ``0``, the next ten ``Shift+1``..``Shift+0`` (20 classes by keyboard; the
class list takes clicks for more).

Modes (:data:`MODES`):

* ``first``: every item, verdicts in layer ``review`` (the first interpreter);
* ``second``: only the items marked ``double``, shown *blind*: the item carries the second
  interpreter's own verdict (none at first), never the first one's; verdicts go to table
  ``second_review``;
* ``adjudicate``: the *Disagreements* queue, the items whose two true classes differ;
  :meth:`ReviewSession.opinions` gives both classes, a class chosen goes to table ``adjudication``.

Each verdict records ``seconds``: the time from showing the item to the verdict (``clock``).

Seen before decided: a session made with ``layer_shown`` (the Review tab passes whether a class
map or the labels are loaded on the map) accepts a verdict on an item only once the item was shown
over such a layer (:meth:`ReviewSession.mark_seen`) and while one still is; otherwise
:meth:`ReviewSession.decide` raises :class:`ItemNotSeenError`. Without ``layer_shown`` (scripts, tests)
every verdict is accepted.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..errors import InputError
from ..nomenclature import ClassInfo, default_color
from ..vocabulary import REVIEW_MODES as MODES
from .code_writeback import ReferenceCodes
from .report import review_report
from .report_types import ReviewReport
from .schema import ReviewItem
from .store import ReviewStore

KEYS_PER_ROW = 10


class ItemNotSeenError(InputError):
    """A verdict before the item was seen over a loaded class map or labels: load one and look first."""


@dataclass(frozen=True)
class ClassKey:
    """A class and the key that selects it (``"3"``, ``"0"``, ``"Shift+2"``, or "" beyond 20)."""

    info: ClassInfo
    key: str


def class_keys(classes: list[ClassInfo]) -> list[ClassKey]:
    """Keys by position (see the module docstring)."""
    out = []
    for position, info in enumerate(sorted(classes, key=lambda c: c.value)):
        digit = str((position % KEYS_PER_ROW + 1) % 10)
        key = digit if position < KEYS_PER_ROW else (f"Shift+{digit}" if position < 2 * KEYS_PER_ROW else "")
        out.append(ClassKey(info, key))
    return out


def review_classes(store: ReviewStore, items: list[ReviewItem]) -> list[ClassInfo]:
    """Classes recorded in the design table, plus any value met in the items."""
    try:
        declared = [
            ClassInfo(int(c["value"]), str(c["name"]), str(c["color"]))
            for c in json.loads(store.design.get("classes", "[]"))
        ]
    except (ValueError, KeyError, TypeError):
        declared = []
    known = {c.value for c in declared}
    seen = {v for i in items for v in (i.map_class, i.label_class, i.true_class) if v is not None}
    extra = [ClassInfo(v, f"class {v}", default_color(v)) for v in sorted(seen - known)]
    return sorted(declared + extra, key=lambda c: c.value)


class ReviewSession:
    """Position and verdicts of one review.

    Args:
        store: the open review (the session closes it in :meth:`close`).
        reviewer: written with every verdict.
        mode: one of :data:`MODES` (module docstring).
        clock: seconds from an arbitrary origin (``time.monotonic``), for ``seconds``.
        layer_shown: whether a class map or labels layer is on the map now; given, a verdict needs
            the item seen over one (module docstring).

    Raises:
        ValueError: unknown mode.
    """

    def __init__(
        self,
        store: ReviewStore,
        reviewer: str = "",
        mode: str = "first",
        clock: Callable[[], float] = time.monotonic,
        layer_shown: Callable[[], bool] | None = None,
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown review mode {mode!r}")
        self.store = store
        self.reviewer = reviewer
        self.mode = mode
        self.clock = clock
        self.layer_shown = layer_shown
        self._seen_item: int | None = None  # the item last shown over a loaded layer
        every = store.items()
        self.keys = class_keys(review_classes(store, every))
        self.codes = ReferenceCodes.of(store)  # None: the labels are in the model's classes
        self.items = [self._shown(i) for i in self._queue(every)]
        self.only_unreviewed = False
        self.index = self.first_unreviewed()
        self._shown_at = clock()

    def _queue(self, items: list[ReviewItem]) -> list[ReviewItem]:
        if self.mode == "second":
            doubles = self.store.doubles()
            return [i for i in items if i.item_id in doubles]
        if self.mode == "adjudicate":
            disputed = set(self.store.disagreements(items))
            return [i for i in items if i.item_id in disputed]
        return items

    def _shown(self, item: ReviewItem) -> ReviewItem:
        """The item as this mode shows it: blind to the first verdict for the second interpreter;
        with the adjudicated class (if any) as its verdict when adjudicating."""
        if self.mode == "second":
            own = self.store.second_reviews().get(item.item_id)
            return dataclasses.replace(
                item,
                verdict=own.verdict if own else "",
                true_class=own.true_class if own else None,
                reviewer=own.reviewer if own else "",
                reviewed_at=own.reviewed_at if own else "",
                note=own.note if own else "",
            )
        if self.mode == "adjudicate":
            decided = self.store.adjudications().get(item.item_id)
            verdict = "" if decided is None else ("correct" if decided[0] == item.label_class else "wrong")
            return dataclasses.replace(item, verdict=verdict, true_class=decided[0] if decided else None)
        return item

    def opinions(self, item: ReviewItem | None = None) -> tuple[int | None, int | None, int | None]:
        """``(first, second, adjudicated)`` true classes of an item (the current one by default)."""
        item = item or self.current
        if item is None:
            return None, None, None
        first = self.store.item(item.item_id).true_class
        second = self.store.second_reviews().get(item.item_id)
        decided = self.store.adjudications().get(item.item_id)
        return first, second.true_class if second else None, decided[0] if decided else None

    def close(self) -> None:
        """Close the file (verdicts are already on disk)."""
        self.store.close()

    @property
    def current(self) -> ReviewItem | None:
        """The item shown, or None for an empty review."""
        return self.items[self.index] if self.items else None

    def reviewed_count(self) -> int:
        """Items with a verdict (unsure included)."""
        return sum(1 for i in self.items if i.reviewed)

    def first_unreviewed(self) -> int:
        """Index of the first item without a verdict (0 when all are reviewed)."""
        return next((k for k, i in enumerate(self.items) if not i.reviewed), 0)

    def move(self, step: int) -> ReviewItem | None:
        """Go ``step`` (+1 next, -1 previous) items on, skipping reviewed ones under the filter.

        Returns:
            The new current item (unchanged at either end).
        """
        k = self.index + step
        while 0 <= k < len(self.items):
            if not (self.only_unreviewed and self.items[k].reviewed):
                self.index = k
                break
            k += step
        return self.refresh()

    def go_to(self, index: int) -> ReviewItem | None:
        """Show item ``index`` (0-based, clipped)."""
        self.index = min(max(index, 0), max(len(self.items) - 1, 0))
        return self.refresh()

    def refresh(self) -> ReviewItem | None:
        """Re-read the current item from the file (another session may have decided it); the
        clock for ``seconds`` starts again."""
        self._shown_at = self.clock()
        if not self.items:
            return None
        self.items[self.index] = self._shown(self.store.item(self.items[self.index].item_id))
        return self.items[self.index]

    def expected_class(self) -> int | None:
        """What ``C`` confirms: the label, or the map class when the item has no label."""
        item = self.current
        if item is None:
            return None
        return item.label_class if item.label_class is not None else item.map_class

    def mark_seen(self) -> None:
        """The current item is on the map: seen, if a layer is loaded under it (``layer_shown``)."""
        item = self.current
        if item is not None and (self.layer_shown is None or self.layer_shown()):
            self._seen_item = item.item_id

    def check_seen(self) -> None:
        """Refuse a verdict on an item not yet seen over a loaded layer (module docstring).

        Raises:
            ItemNotSeenError: ``layer_shown`` was given, and the current item was not marked seen, or no
                layer is loaded now.
        """
        if self.layer_shown is None:
            return
        item = self.current
        if item is None or self._seen_item != item.item_id or not self.layer_shown():
            raise ItemNotSeenError.of("item_not_seen")

    def decide(self, verdict: str, true_class: int | None, true_code: str | None = None) -> ReviewItem | None:
        """Write a verdict for the current item (durable when this returns); ``true_code`` names the
        reference's own code seen (reviews drawn through a crosswalk; kept in this mode's verdict:
        layer ``review``, table ``second_review`` or ``adjudication``).

        Raises:
            ItemNotSeenError: see :meth:`check_seen`; nothing is written.
            InputError: the store refuses the verdict (see :class:`~.store.ReviewStore`).
        """
        item = self.current
        if item is None:
            return None
        self.check_seen()
        seconds = max(0.0, self.clock() - self._shown_at)
        if self.mode == "second":
            self.store.set_second_verdict(
                item.item_id, verdict, true_class, self.reviewer, seconds, true_code=true_code
            )
        elif self.mode == "adjudicate":
            decided = true_class if verdict != "unsure" else None
            self.store.set_adjudication(item.item_id, decided, self.reviewer, true_code=true_code)
        else:
            self.store.set_verdict(
                item.item_id, verdict, true_class, self.reviewer, seconds=seconds, true_code=true_code
            )
        return self.refresh()

    def confirm(self) -> ReviewItem | None:
        """``C``: the label (or, without a label, the map class) is right."""
        return self.decide("correct", self.expected_class())

    def choose_class(self, value: int) -> ReviewItem | None:
        """The interpreter sees class ``value``: correct when it is the label, else wrong."""
        return self.decide("correct" if value == self.expected_class() else "wrong", value)

    def choose_code(self, code: str) -> ReviewItem | None:
        """The interpreter sees the reference code ``code`` (where several codes count as one class):
        its class is the true class, and the code is kept with this mode's verdict (first, second
        or adjudication) for ``flair:apply_review``."""
        value = self.codes.class_of(code) if self.codes is not None else None
        if value is None:
            return self.current
        return self.decide("correct" if value == self.expected_class() else "wrong", value, code)

    def true_code(self, item: ReviewItem | None = None) -> str | None:
        """The reference code this mode's verdict named on an item (the current one by default):
        the second interpreter sees only their own, never the first one's."""
        item = item or self.current
        if item is None:
            return None
        return self.store.true_codes(self.mode).get(item.item_id)

    def reference_code(self, item: ReviewItem | None = None) -> str | None:
        """The reference's own code at an item (the current one by default); None without a crosswalk."""
        item = item or self.current
        if self.codes is None or item is None:
            return None
        code = self.codes.own.get(item.item_id)
        return None if code is None else str(code)

    def unsure(self) -> ReviewItem | None:
        """``U``: cannot tell."""
        return self.decide("unsure", None)

    def set_note(self, note: str) -> ReviewItem | None:
        """Keep a note on the current item (saved at once; first interpreter only)."""
        item = self.current
        if item is None or note == item.note or self.mode != "first":
            return item
        self.store.set_note(item.item_id, note)
        return self.refresh()

    def class_for_key(self, digit: int, shifted: bool) -> int | None:
        """The class value of key ``digit`` (0..9), with Shift or not; None when no class has it."""
        position = (digit - 1) % KEYS_PER_ROW + (KEYS_PER_ROW if shifted else 0)
        return self.keys[position].info.value if position < len(self.keys) else None

    def report(self) -> ReviewReport:
        """The review report over the items as they are now (no file read for the first
        interpreter; the other modes show items as they see them, so the report reads the file)."""
        return review_report(self.store, self.items if self.mode == "first" else None)
