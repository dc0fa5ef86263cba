"""``DESIGN=stratified_label``: strata = map class x label class, for reviews whose aim is the labels.

Why: a label class split across map-class strata is estimated as a domain ratio whose items in a
large stratum are few; where that stratum holds much of the class, the rate is the other strata's
(issue 34: truth 0.410, mean estimate 0.302, every interval covering 0.38). With the label class
in the strata, each (map class, label class) cell is a stratum with its own ``MIN_PER_CLASS``
items, and a label class's rate is a ratio over whole strata.

Stratum value: ``map class * LABEL_FACTOR + label index``, the label index being ``label + 1``,
or 0 where the pixel has no label (no reference value there: those pixels stay in the map and in
its accuracy). :func:`stratum_map_class` and :func:`stratum_label` read it back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..errors import InputError

if TYPE_CHECKING:
    from ..score import CrosswalkCodes

LABEL_FACTOR = 65_536
"""Room for label values 0..65,534 in a stratum value."""


@dataclass(frozen=True)
class LabelSplit:
    """The labels that split the map's strata: a raster reference, or polygons with a class field."""

    raster_path: str | None = None
    polygons: object | None = None
    field: str = ""
    crosswalk: CrosswalkCodes | None = None  # labels in the map's classes through CROSSWALK

    def source(self, grid):
        """The labels' reader on ``grid`` (``open()`` gives ``read(row, col, rows, cols) -> values, valid``).

        Raises:
            InputError: unreadable labels, bad field, or no overlap with the map.
        """
        from ..score import Reference, reference_source

        return reference_source(
            Reference(raster_path=self.raster_path, polygons=self.polygons, field=self.field),
            grid,
            None,
            self.crosswalk,
        )


def label_strata(classes: np.ndarray, labels: np.ndarray, known: np.ndarray) -> np.ndarray:
    """Stratum of each pixel under ``stratified_label`` (module docstring).

    Raises:
        InputError: a label outside 0..65,534.
    """
    labels = labels.astype(np.int64)
    has = known & (labels >= 0)
    if np.any(labels[has] >= LABEL_FACTOR - 1):
        raise InputError.of("label_values_too_high", limit=LABEL_FACTOR - 1)
    return classes.astype(np.int64) * LABEL_FACTOR + np.where(has, labels + 1, 0)


def stratum_map_class(stratum: int) -> int:
    """The map class of a ``stratified_label`` stratum."""
    return int(stratum) // LABEL_FACTOR


def stratum_label(stratum: int) -> int | None:
    """The label class of a ``stratified_label`` stratum (None: pixels without a label)."""
    index = int(stratum) % LABEL_FACTOR
    return None if index == 0 else index - 1


def label_cells_of_strata(strata: dict[int, int]) -> dict[tuple[int, int], int]:
    """``(stratum, label class) -> pixels`` of a ``stratified_label`` review: each stratum is one cell."""
    return {(h, label): n for h, n in strata.items() if (label := stratum_label(h)) is not None}
