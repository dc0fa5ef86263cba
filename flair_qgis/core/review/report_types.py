"""The review report as typed parts: what :func:`~flair_qgis.core.review.report.review_report` returns.

:meth:`ReviewReport.as_json` gives the content of the JSON file ``flair:review_report`` writes (the
keys and their order are public: see the module docstring of :mod:`~flair_qgis.core.review.report`).
Callers read fields (``report.label_errors.ci95``), never the JSON.

Where a figure cannot be given its JSON key order says so: a withheld figure (a design that is not
a probability sample, strata without a reviewed item, a grid with items left) lists ``rate, ci95,
se``; an estimate lists ``rate, se, ci95, interval`` (the interval's method; absent from reviews'
reports before issue 34 for ``random``/``grid``). Keys added later are appended (per-class
``note``; the map-accuracy intervals), so every key keeps its place.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


def _interval(ci: tuple[float, float] | None) -> list[float] | None:
    return list(ci) if ci else None


def _figures(rate, se, ci95, interval: str | None, withheld: bool) -> dict[str, Any]:
    """A rate and its uncertainty in the JSON key order of the branch that made it."""
    if withheld:
        return {"rate": rate, "ci95": _interval(ci95), "se": se}
    out = {"rate": rate, "se": se, "ci95": _interval(ci95)}
    return out if interval is None else {**out, "interval": interval}


@dataclass(frozen=True)
class ClassLabelErrors:
    """Label errors of one label class (a domain).

    Attributes:
        value, name: the label class.
        reviewed: decided items with this label; wrong: those whose true class differs.
        rate, se, ci95: the estimated share of the class's labelled pixels that are wrong (None
            when withheld or not estimable).
        interval: the interval's method (``korn-graubard``, ...).
        note: why the rate or its interval is withheld, or what the interval rests on.
    """

    value: int
    name: str
    reviewed: int
    wrong: int
    rate: float | None = None
    se: float | None = None
    ci95: tuple[float, float] | None = None
    interval: str | None = None
    note: str = ""


@dataclass(frozen=True)
class LabelErrors:
    """The share of the reference's labelled pixels whose label differs from the true class.

    Attributes:
        reviewed: decided items with a label; wrong: those whose label is wrong.
        probability_sample: False for ``suspicious`` (counts only, no rate).
        rate, se, ci95, interval: overall estimate (see :class:`ClassLabelErrors`).
        estimator: the method (``none`` without a probability sample).
        complete: stratified designs and ``grid``: False while a stratum has no reviewed item (a
            grid item no verdict); None for ``random`` and ``suspicious``.
        note: why a figure is withheld, or what the estimate assumes.
        per_class: per label class.
    """

    reviewed: int
    wrong: int
    probability_sample: bool
    estimator: str
    note: str
    per_class: tuple[ClassLabelErrors, ...]
    rate: float | None = None
    se: float | None = None
    ci95: tuple[float, float] | None = None
    interval: str | None = None
    complete: bool | None = None

    @property
    def withheld(self) -> bool:
        """No rate is given: not a probability sample, a stratum lacks a reviewed item, or a grid
        item a verdict."""
        return self.estimator == "none" or self.complete is False

    def as_json(self) -> dict[str, Any]:
        """The report's ``label_errors`` object."""
        head = {"reviewed": self.reviewed, "wrong": self.wrong, "probability_sample": self.probability_sample}
        tail: dict[str, Any] = {"estimator": self.estimator}
        if self.complete is not None:
            tail["complete"] = self.complete
        tail["note"] = self.note
        per_class = [
            {
                "value": c.value,
                "name": c.name,
                "reviewed": c.reviewed,
                "wrong": c.wrong,
                **_figures(c.rate, c.se, c.ci95, c.interval, self.withheld),
                "note": c.note,
            }
            for c in self.per_class
        ]
        figures = _figures(self.rate, self.se, self.ci95, self.interval, self.withheld)
        return {**head, **figures, **tail, "per_class": per_class}


@dataclass(frozen=True)
class ClassAccuracy:
    """Map accuracy and area of one class (``stratum_*`` under ``stratified`` only, else None).

    The figures' intervals (appended to the public keys, issue 34): ``*_ci95`` the bounds (None:
    withheld, the ``*_note`` says why), ``*_interval`` the method; ``area_ha_bounds`` the area's
    Korn-Graubard interval (its share of the map's area, issue 42; ``area_ha_ci95`` stays 1.96 SE);
    ``reference_items`` the reviewed items of the class (an area on fewer than 10 is flagged).
    """

    value: int
    name: str
    users_accuracy: float | None
    users_accuracy_se: float | None
    producers_accuracy: float | None
    producers_accuracy_se: float | None
    area_proportion: float | None
    area_proportion_se: float | None
    area_ha: float | None
    area_ha_ci95: float | None
    stratum_pixels: int | None
    stratum_reviewed: int | None
    users_accuracy_ci95: tuple[float, float] | None = None
    users_accuracy_interval: str | None = None
    users_accuracy_note: str = ""
    producers_accuracy_ci95: tuple[float, float] | None = None
    producers_accuracy_interval: str | None = None
    producers_accuracy_note: str = ""
    area_proportion_ci95: tuple[float, float] | None = None
    area_proportion_interval: str | None = None
    area_proportion_note: str = ""
    area_ha_bounds: tuple[float, float] | None = None
    area_ha_interval: str | None = None
    area_ha_note: str = ""
    reference_items: int | None = None


@dataclass(frozen=True)
class MapAccuracy:
    """Overall, user's and producer's accuracy and areas, following the sampling design.

    Attributes:
        reviewed: decided items.
        strata_without_reviewed_items: strata with pixels and no decided item (then every figure
            is None and ``complete`` is False); strata_names: how a reader names them.
        z: the normal quantile of the 95 % half-widths.
        estimator: the method, in words; notes: what the figures assume or lack.
        overall_accuracy, overall_accuracy_se: OA; classes: per class.
        overall_accuracy_ci95, overall_accuracy_interval, overall_accuracy_note: OA's interval
            (Korn-Graubard), its method and note (keys appended after ``classes``).
    """

    reviewed: int
    strata_without_reviewed_items: tuple[int, ...]
    z: float
    estimator: str
    complete: bool
    strata_names: Mapping[str, str]
    notes: tuple[str, ...]
    overall_accuracy: float | None = None
    overall_accuracy_se: float | None = None
    classes: tuple[ClassAccuracy, ...] = ()
    overall_accuracy_ci95: tuple[float, float] | None = None
    overall_accuracy_interval: str | None = None
    overall_accuracy_note: str = ""

    def as_json(self) -> dict[str, Any]:
        """The report's ``map_accuracy`` object."""
        return {
            "reviewed": self.reviewed,
            "strata_without_reviewed_items": list(self.strata_without_reviewed_items),
            "z": self.z,
            "estimator": self.estimator,
            "complete": self.complete,
            "strata_names": dict(self.strata_names),
            "notes": list(self.notes),
            "overall_accuracy": self.overall_accuracy,
            "overall_accuracy_se": self.overall_accuracy_se,
            "classes": [
                {k: list(v) if isinstance(v, tuple) else v for k, v in dataclasses.asdict(c).items()}
                for c in self.classes
            ],
            "overall_accuracy_ci95": _interval(self.overall_accuracy_ci95),
            "overall_accuracy_interval": self.overall_accuracy_interval,
            "overall_accuracy_note": self.overall_accuracy_note,
        }


@dataclass(frozen=True)
class Response:
    """Whether the decided items are the first ones of the review order (no skipping)."""

    order: str
    prefix: bool
    skipped_before_last: int
    unsure_before_last: int
    warning: str


@dataclass(frozen=True)
class Agreement:
    """Two interpreters on the double items.

    Attributes:
        coefficients: :func:`~flair_qgis.core.review.agreement.agreement`'s figures (``items``,
            ``raw``, ``kappa``, ``ac1``, their SEs and intervals, ``per_class``), as it gives them.
        double_items: items marked ``double``; second_reviewed: those with a second verdict;
        adjudicated: items with an adjudicated class.
    """

    coefficients: Mapping[str, Any]
    double_items: int
    second_reviewed: int
    adjudicated: int

    @property
    def items(self) -> int:
        """Items both interpreters decided."""
        return int(self.coefficients["items"])

    @property
    def raw(self) -> float | None:
        """Share of those items with the same true class."""
        return self.coefficients["raw"]

    @property
    def kappa(self) -> float | None:
        """Cohen's kappa (None when not defined)."""
        return self.coefficients["kappa"]

    @property
    def ac1(self) -> float | None:
        """Gwet's AC1 (None when not defined)."""
        return self.coefficients["ac1"]

    def as_json(self) -> dict[str, Any]:
        """The report's ``agreement`` object."""
        return {
            **self.coefficients,
            "double_items": self.double_items,
            "second_reviewed": self.second_reviewed,
            "adjudicated": self.adjudicated,
        }


@dataclass(frozen=True)
class Seconds:
    """Median seconds per verdict, per reviewer and per true class (first and second reviews)."""

    verdicts: int
    median_per_reviewer: Mapping[str, float]
    median_per_class: Mapping[str, float]


@dataclass(frozen=True)
class ReviewReport:
    """The figures of a review (see :mod:`~flair_qgis.core.review.report`).

    Attributes:
        review: the review GeoPackage; design: its sampling design.
        items, reviewed, unsure: item counts (``reviewed`` includes ``unsure``).
        disagreements: items whose two interpreters' classes differ, in review order.
        crosswalk: verdicts per reference code (:func:`~flair_qgis.core.review.code_writeback.codes_summary`),
            or None for a review without a crosswalk.
    """

    review: str
    design: str
    items: int
    reviewed: int
    unsure: int
    label_errors: LabelErrors
    map_accuracy: MapAccuracy | None
    response: Response
    agreement: Agreement
    disagreements: tuple[int, ...]
    seconds: Seconds
    crosswalk: dict | None = None

    def as_json(self) -> dict[str, Any]:
        """The JSON content written by :func:`~flair_qgis.core.review.report.write_review_report`."""
        document = {
            "review": self.review,
            "design": self.design,
            "items": self.items,
            "reviewed": self.reviewed,
            "unsure": self.unsure,
            "label_errors": self.label_errors.as_json(),
            "map_accuracy": self.map_accuracy.as_json() if self.map_accuracy is not None else None,
            "response": dataclasses.asdict(self.response),
            "agreement": self.agreement.as_json(),
            "disagreements": list(self.disagreements),
            "seconds": {
                "verdicts": self.seconds.verdicts,
                "median_per_reviewer": dict(self.seconds.median_per_reviewer),
                "median_per_class": dict(self.seconds.median_per_class),
            },
        }
        if self.crosswalk is not None:
            document["crosswalk"] = self.crosswalk
        return document
