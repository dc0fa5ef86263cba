"""What the Review tab shows of an item: the map zoomed on it with a highlight, the item card, layer toggles."""

from __future__ import annotations

import html

from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsCoordinateTransform,
    QgsGeometry,
    QgsMapLayer,
    QgsProject,
    QgsRectangle,
    QgsWkbTypes,
)
from qgis.gui import QgsRubberBand
from qgis.PyQt.QtGui import QColor

from ...core.nomenclature import ClassInfo
from ...core.review import LabelErrors, MapAccuracy, ReviewItem, ReviewReport, ReviewSession
from ...i18n import class_label, counted, decimal, integer, percent
from ..widgets import tr
from .review_create import design_label

CONTEXT_PX = 75
"""Half-width of the view around a point item, in prediction pixels."""
HIGHLIGHT = QColor("#ffea00")


class ItemHighlight:
    """Zooms the canvas to an item and outlines it (the pixel, or the polygon) with a rubber band.

    Args:
        canvas: the map canvas.
        crs_wkt: the review's CRS (WKT from its design table).
        pixel_size_m: the sampled grid's pixel edge (a point item is a pixel centre).
    """

    def __init__(self, canvas, crs_wkt: str, pixel_size_m: float) -> None:
        self.canvas = canvas
        self.crs = QgsCoordinateReferenceSystem.fromWkt(crs_wkt) if crs_wkt else QgsCoordinateReferenceSystem()
        self.pixel_size_m = pixel_size_m
        self.band = QgsRubberBand(canvas, QgsWkbTypes.GeometryType.PolygonGeometry)
        self.band.setStrokeColor(HIGHLIGHT)
        self.band.setFillColor(QColor(0, 0, 0, 0))
        self.band.setWidth(3)
        self.ring = QgsRubberBand(canvas, QgsWkbTypes.GeometryType.LineGeometry)
        self.ring.setStrokeColor(QColor(HIGHLIGHT.red(), HIGHLIGHT.green(), HIGHLIGHT.blue(), 160))
        self.ring.setWidth(2)

    def _transform(self) -> QgsCoordinateTransform:
        return QgsCoordinateTransform(self.crs, self.canvas.mapSettings().destinationCrs(), QgsProject.instance())

    def show(self, item: ReviewItem) -> QgsRectangle:
        """Outline ``item`` and centre the view on it; returns the new extent (canvas CRS)."""
        geometry = QgsGeometry.fromWkt(item.wkt)
        half = self.pixel_size_m / 2
        ring = None
        if geometry.type() == QgsWkbTypes.GeometryType.PointGeometry:
            point = geometry.asPoint()
            geometry = QgsGeometry.fromRect(
                QgsRectangle(point.x() - half, point.y() - half, point.x() + half, point.y() + half)
            )
            ring = QgsGeometry.fromPointXY(point).buffer(6 * self.pixel_size_m, 24)
            view = QgsRectangle(point.x(), point.y(), point.x(), point.y())
            view.grow(CONTEXT_PX * self.pixel_size_m)
        else:
            view = geometry.boundingBox()
            view.scale(1.4)
        transform = self._transform()
        self.band.setToGeometry(geometry, self.crs)
        if ring is not None:
            self.ring.setToGeometry(QgsGeometry.fromPolylineXY(ring.asPolygon()[0]), self.crs)
        else:
            self.ring.reset(QgsWkbTypes.GeometryType.LineGeometry)
        extent = transform.transformBoundingBox(view)
        self.canvas.setExtent(extent)
        self.canvas.refresh()
        return extent

    def clear(self) -> None:
        """Remove the highlight from the canvas."""
        self.band.reset(QgsWkbTypes.GeometryType.PolygonGeometry)
        self.ring.reset(QgsWkbTypes.GeometryType.LineGeometry)
        for band in (self.band, self.ring):
            self.canvas.scene().removeItem(band)


def toggle_layer(layer: QgsMapLayer | None) -> bool | None:
    """Flip a layer's visibility in the layer tree; returns the new state (None: no layer)."""
    if layer is None:
        return None
    node = QgsProject.instance().layerTreeRoot().findLayer(layer.id())
    if node is None:
        return None
    node.setItemVisibilityChecked(not node.itemVisibilityChecked())
    return node.itemVisibilityChecked()


def _class_html(value: int | None, classes: dict[int, ClassInfo]) -> str:
    if value is None:
        return "<i>" + tr("none") + "</i>"  # outside an f-string: pylupdate5 skips f-strings
    info = classes.get(value)
    name = html.escape(class_label(info.name)) if info else ""
    colour = info.color if info else "#888888"
    return f"<span style='color:{colour}'>■</span> {name} ({value})"


def card_html(
    item: ReviewItem | None, position: int, total: int, classes: dict[int, ClassInfo], code: str | None = None
) -> str:
    """The item card: position, map class, label class (and the reference's own ``code`` beside it,
    for a review drawn through a crosswalk), confidence, suspicion, verdict."""
    if item is None:
        return tr("Open or create a review to start.")
    verdicts = {"correct": tr("label correct"), "wrong": tr("label wrong"), "unsure": tr("unsure")}
    verdict = verdicts.get(item.verdict, tr("not yet reviewed"))
    if item.verdict in ("correct", "wrong"):
        verdict += " → " + _class_html(item.true_class, classes)
    rows = [
        (tr("Item"), f"{position + 1} / {total} (id {item.item_id})"),
        (tr("Map class"), _class_html(item.map_class, classes)),
        (tr("Label class"), _class_html(item.label_class, classes) + (f" — {html.escape(code)}" if code else "")),
        (tr("Confidence"), "–" if item.confidence is None else decimal(item.confidence, 2)),
        (tr("Suspicion"), "–" if item.suspicion is None else decimal(item.suspicion, 2)),
        (tr("Verdict"), f"<b>{verdict}</b>"),
    ]
    body = "".join(f"<tr><td>{k}&nbsp;</td><td>{v}</td></tr>" for k, v in rows)
    return f"<table>{body}</table>"


def headline_text(report: ReviewReport, strata: int = 0) -> str:
    """The figures that update as the review goes: label-error rate, map OA, unsure count.

    Design-correct: a stratified rate is weighted, a sample that is not a probability sample gives
    counts only, and map accuracy says "incomplete" while a class (under ``stratified_confidence``, a
    class x confidence band stratum) has no reviewed item. A review stratified by confidence starts
    with its design and its number of strata with pixels (``strata``).
    """
    by_confidence = report.design in ("stratified_confidence", "stratified_label")  # strata are not the classes
    if report.design == "grid" and report.items > report.reviewed - report.unsure:
        # A systematic sample stands for the map only when complete: no figure before (issue 34),
        # unsure items counting as not yet reviewed (issue 42).
        left = report.items - report.reviewed + report.unsure
        parts = [tr("figures once every grid item is reviewed ({n} to go)").format(n=integer(left))]
    else:
        parts = _label_error_parts(report.label_errors) + _accuracy_parts(report.map_accuracy, by_confidence, strata)
    if report.unsure:
        parts.append(counted(report.unsure, tr("{n} unsure item"), tr("{n} unsure")))
    response = report.response
    if not response.prefix:
        skipped = response.skipped_before_last + response.unsure_before_last
        parts.append(counted(skipped, tr("{n} item skipped"), tr("{n} items skipped")))
    if not parts:
        parts.append(tr("No verdict yet."))
    if by_confidence:
        label = design_label(report.design)
        parts.insert(0, f"{label[:1].upper()}{label[1:]}, {counted(strata, tr('{n} stratum'), tr('{n} strata'))}")
    return " · ".join(parts)


def _label_error_parts(errors: LabelErrors) -> list[str]:
    if not errors.probability_sample:
        return [
            tr("{wrong} of {n} reviewed labels wrong (not a probability sample)").format(
                wrong=errors.wrong, n=errors.reviewed
            )
        ]
    if errors.rate is not None and errors.ci95:
        low, high = errors.ci95
        return [
            tr("Label errors {rate} [{low}–{high}] of {n}").format(
                rate=percent(errors.rate), low=percent(low), high=percent(high), n=integer(errors.reviewed)
            )
        ]
    if errors.rate is not None:
        return [tr("Label errors {rate}").format(rate=percent(errors.rate)) + f" ({no_interval()})"]
    return []


def no_interval() -> str:
    """What the tab says where a figure's interval is withheld (too few items back it)."""
    return tr("not enough items for an interval")


def _accuracy_parts(accuracy: MapAccuracy | None, by_confidence: bool, strata: int) -> list[str]:
    if accuracy and not accuracy.complete and accuracy.reviewed:
        missing = len(accuracy.strata_without_reviewed_items)
        if by_confidence:  # the strata are class x confidence band (or label): count them, not classes
            text = tr("map accuracy incomplete: {n} of {total} strata without a reviewed item")
            return [text.format(n=missing, total=strata)]
        return [tr("map accuracy incomplete: {n} classes without a reviewed item").format(n=missing)]
    if accuracy and accuracy.overall_accuracy is not None:
        bounds = accuracy.overall_accuracy_ci95
        margin = f" [{percent(bounds[0])}–{percent(bounds[1])}]" if bounds else f" ({no_interval()})"
        return [tr("map OA {oa}").format(oa=percent(accuracy.overall_accuracy)) + margin]
    return []


class HeldReview:
    """What the panel holds outside Qt (the open review, the map highlight), released on close or
    when the panel is destroyed with the dock."""

    def __init__(self) -> None:
        self.session: ReviewSession | None = None
        self.highlight: ItemHighlight | None = None

    def release(self, *_args: object) -> None:
        if self.highlight is not None:
            self.highlight.clear()
            self.highlight = None
        if self.session is not None:
            self.session.close()
            self.session = None
