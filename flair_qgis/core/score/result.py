"""The typed results of scoring: what :func:`.metrics.build_scores` and :func:`.evaluate.score` return.

Callers read fields (``report.scores.miou``, ``row.iou``); :meth:`ScoreReport.to_report` and
:meth:`Scores.to_report` give the report JSON of DESIGN.md, key for key and in the same order,
which :func:`.report.publish_report` writes.

Public API: :class:`ClassScore`, :class:`Scores`, :class:`ScoreReport`.
"""

from __future__ import annotations

from dataclasses import dataclass

from .alignment import ClassAlignment


@dataclass(frozen=True)
class ClassScore:
    """The figures of one evaluated class (fractions in 0..1, None where undefined)."""

    value: int
    name: str
    iou: float | None
    precision: float | None
    recall: float | None
    f1: float | None
    support: int

    def to_report(self) -> dict:
        """The class's row of the report JSON (DESIGN.md key order)."""
        return {
            "value": self.value,
            "name": self.name,
            "iou": self.iou,
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
            "support": self.support,
        }


@dataclass(frozen=True)
class Scores:
    """The figures of a confusion matrix under a protocol: :func:`build_scores`.

    Attributes:
        protocol: the protocol's name.
        miou: mean IoU of the evaluated classes (None when no class has one); ``oa`` the overall accuracy.
        pixels_evaluated: pixels in the matrix the figures come from; ``pixels_ignored`` those of
            ignored values, ``pixels_excluded`` those of classes dropped before the figures.
        absent_class_score: what a class absent from both sides counts as (``skip``, ``one``, ``zero``).
        absent_classes: the evaluated classes absent from both sides.
        classes: one row per evaluated class.
        confusion_matrix: rows = reference, columns = prediction, over ``confusion_labels`` (the
            class values, in order) named ``confusion_names``.
        protocol_details: the protocol as the report states it.
        undeclared_values: (not strict) the values neither declared nor ignored, per side, else None.
    """

    protocol: str
    miou: float | None
    oa: float | None
    pixels_evaluated: int
    pixels_ignored: int
    pixels_excluded: int
    absent_class_score: str
    absent_classes: tuple[int, ...]
    classes: tuple[ClassScore, ...]
    confusion_matrix: tuple[tuple[int, ...], ...]
    confusion_labels: tuple[int, ...]
    confusion_names: tuple[str, ...]
    protocol_details: dict
    undeclared_values: dict[str, dict[str, int]] | None = None

    def to_report(self) -> dict:
        """The report JSON of DESIGN.md (key order kept: the file written is byte-for-byte the same)."""
        report = {
            "protocol": self.protocol,
            "miou": self.miou,
            "oa": self.oa,
            "pixels_evaluated": self.pixels_evaluated,
            "pixels_ignored": self.pixels_ignored,
            "pixels_excluded": self.pixels_excluded,
            "absent_class_score": self.absent_class_score,
            "absent_classes": list(self.absent_classes),
            "classes": [row.to_report() for row in self.classes],
            "confusion_matrix": [list(row) for row in self.confusion_matrix],
            "confusion_labels": list(self.confusion_labels),
            "confusion_names": list(self.confusion_names),
            "protocol_details": self.protocol_details,
        }
        if self.undeclared_values is not None:
            report["undeclared_values"] = self.undeclared_values
        return report


@dataclass(frozen=True)
class ScoreReport:
    """A class map scored against a reference: the figures and where they come from.

    Attributes:
        scores: the figures.
        prediction: the class map's file.
        reference: the reference as the report names it (a raster's file, a layer's name).
        extent: the bounds scored when an extent was asked for (prediction CRS), else None.
        width_px, height_px, pixel_size_m: the grid scored.
        class_alignment: how the class map's values were aligned with the protocol's codes.
        crs_recognised: notes on local CRSs taken as EPSG ones.
        reference_resampled: (raster reference) whether it was warped to the prediction's grid.
        reference_field: (polygon reference) the class field.
        error_map: the error map written, or None.
        crosswalk: the report's ``crosswalk`` entry (file, hash, values not listed with their
            pixels and share of the scored extent) when one was applied, else None.
    """

    scores: Scores
    prediction: str
    reference: str
    extent: tuple[float, float, float, float] | None
    width_px: int
    height_px: int
    pixel_size_m: float
    class_alignment: ClassAlignment
    crs_recognised: tuple[str, ...] = ()
    reference_resampled: bool | None = None
    reference_field: str | None = None
    error_map: str | None = None
    crosswalk: dict | None = None

    def to_report(self) -> dict:
        """The report JSON of DESIGN.md, keys in the order ``flair:evaluate`` has always written them."""
        report = self.scores.to_report()
        if self.error_map is not None:
            report["error_map"] = self.error_map
        report.update(
            prediction=self.prediction,
            reference=self.reference,
            extent=list(self.extent) if self.extent is not None else None,
            grid={"width": self.width_px, "height": self.height_px, "pixel_size": self.pixel_size_m},
            class_alignment=self.class_alignment.to_dict(),
            crs_recognised=list(self.crs_recognised),
        )
        if self.reference_field is None:
            report["reference_resampled"] = self.reference_resampled
        else:
            report["reference_field"] = self.reference_field
        if self.crosswalk is not None:
            report["crosswalk"] = self.crosswalk
        return report
