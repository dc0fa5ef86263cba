"""The QA tab's suspicious-labels table: ranked polygons; a click zooms the map to one and outlines it.

In a 300 px dock the table shows the rank, the label and the suspicion; "Details…" opens every
column (the model's class, the agreement, the pixels in disagreement).
"""

from __future__ import annotations

import math

from qgis.core import QgsCoordinateReferenceSystem, QgsCoordinateTransform, QgsGeometry, QgsProject, QgsRectangle
from qgis.PyQt.QtWidgets import QAbstractItemView, QPushButton, QTableWidget, QTableWidgetItem

from ...i18n import class_label, integer
from ..details import DetailsDialog, narrow
from ..highlight import PolygonHighlight
from ..widgets import tr

_ROWS_SHOWN = 200
_ROWS_IN_SIGHT = 10
_DETAIL_ONLY_COLUMNS = (2, 3)  # model, agreement


class SuspiciousTable(QTableWidget):
    """The ranked polygons (most suspicious first); hidden until there are some.

    Args:
        canvas: the map canvas a clicked row zooms.
    """

    def __init__(self, canvas) -> None:
        super().__init__(0, 5)
        self.canvas = canvas
        self.ranked = None
        self.crs = QgsCoordinateReferenceSystem()
        self.highlight = PolygonHighlight(canvas)
        self.details: DetailsDialog | None = None
        self.setHorizontalHeaderLabels(self.headers()[:5])
        self.verticalHeader().setVisible(False)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        narrow(self)
        for column in _DETAIL_ONLY_COLUMNS:
            self.setColumnHidden(column, True)
        self.setMinimumHeight(self.verticalHeader().defaultSectionSize() * _ROWS_IN_SIGHT + 30)
        self.cellClicked.connect(lambda row, _col: self.zoom_to(row))
        self.details_button = QPushButton(tr("Details…"))
        self.details_button.setToolTip(tr("Every column: the model's class, the agreement, the pixels in disagreement"))
        self.details_button.clicked.connect(self.open_details)
        self.setVisible(False)
        self.details_button.setVisible(False)

    @staticmethod
    def headers() -> list[str]:
        """The columns: the table's five, then the details view's own."""
        return [tr("Rank"), tr("Label"), tr("Model"), tr("Agreement"), tr("Suspicion"), tr("Pixels in disagreement")]

    def show_ranked(self, ranked, crs: QgsCoordinateReferenceSystem) -> None:
        """List ranked polygons (a GeoDataFrame from :func:`flair_qgis.core.score.labels.rank_labels`) in ``crs``."""
        self.ranked, self.crs = ranked, crs
        self.highlight.clear()
        if ranked is None or len(ranked) == 0:
            self.setRowCount(0)
            self.setVisible(False)
            self.details_button.setVisible(False)
            return
        shown = ranked.head(_ROWS_SHOWN)
        self.setRowCount(len(shown))
        for row, (_, item) in enumerate(shown.iterrows()):
            for col, text in enumerate(_cells(item)[:5]):
                self.setItem(row, col, QTableWidgetItem(text))
        self.setVisible(True)
        self.details_button.setVisible(True)

    def zoom_to(self, row: int) -> QgsRectangle | None:
        """Zoom the map to the polygon of a row and outline it; returns the new extent."""
        if self.ranked is None or row >= len(self.ranked):
            return None
        polygon = self.ranked.geometry.iloc[row]
        xmin, ymin, xmax, ymax = polygon.bounds
        rect = QgsRectangle(xmin, ymin, xmax, ymax)
        target = self.canvas.mapSettings().destinationCrs()
        if self.crs.isValid() and target.isValid() and self.crs != target:
            rect = QgsCoordinateTransform(self.crs, target, QgsProject.instance()).transformBoundingBox(rect)
        rect.scale(1.5)
        self.canvas.setExtent(rect)
        self.highlight.show(QgsGeometry.fromWkt(polygon.wkt), self.crs)
        self.canvas.refresh()
        return rect

    def open_details(self) -> DetailsDialog | None:
        """Every column of the ranked polygons, in a window of its own."""
        if self.ranked is None:
            return None
        rows = [_cells(item) for _, item in self.ranked.head(_ROWS_SHOWN).iterrows()]
        self.details = DetailsDialog(tr("Suspicious labels"), self.headers(), rows, self)
        self.details.show()
        return self.details

    def release(self) -> None:
        """Take the outline off the canvas (the panel is closing)."""
        self.highlight.remove()


def _cells(item) -> tuple[str, ...]:
    """Rank, label, model, agreement, suspicion and pixels in disagreement of one ranked polygon."""
    agreement, suspicion = item["agreement"], item["suspicion"]
    predicted = item["predicted"]
    has_prediction = predicted is not None and not (isinstance(predicted, float) and math.isnan(predicted))
    disagreeing = item.get("disagreeing_px")
    return (
        str(int(item["rank"])),
        f"{class_label(item['label_name'] or '')} ({item['label']})",
        f"{class_label(item['predicted_name'] or '')} ({int(predicted)})" if has_prediction else "—",
        "—" if math.isnan(agreement) else f"{100 * agreement:.0f} %",
        "—" if math.isnan(suspicion) else f"{suspicion:.2f}",
        "—" if disagreeing is None else integer(disagreeing),
    )
