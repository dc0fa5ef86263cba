"""The QA tab's suspicious-labels table: ranked polygons, a click zooms the map to one."""

from __future__ import annotations

import math

from qgis.core import QgsCoordinateReferenceSystem, QgsCoordinateTransform, QgsProject, QgsRectangle
from qgis.PyQt.QtWidgets import QAbstractItemView, QTableWidget, QTableWidgetItem

from .widgets import tr

_ROWS_SHOWN = 200


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
        self.setHorizontalHeaderLabels([tr("Rank"), tr("Label"), tr("Model"), tr("Agreement"), tr("Suspicion")])
        self.verticalHeader().setVisible(False)
        self.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.cellClicked.connect(lambda row, _col: self.zoom_to(row))
        self.setVisible(False)

    def show_ranked(self, ranked, crs: QgsCoordinateReferenceSystem) -> None:
        """List ranked polygons (a GeoDataFrame from :func:`flair_qgis.core.labels.rank_labels`) in ``crs``."""
        self.ranked, self.crs = ranked, crs
        if ranked is None or len(ranked) == 0:
            self.setRowCount(0)
            self.setVisible(False)
            return
        shown = ranked.head(_ROWS_SHOWN)
        self.setRowCount(len(shown))
        for row, (_, item) in enumerate(shown.iterrows()):
            for col, text in enumerate(_cells(item)):
                self.setItem(row, col, QTableWidgetItem(text))
        self.resizeColumnsToContents()
        self.setVisible(True)

    def zoom_to(self, row: int) -> QgsRectangle | None:
        """Zoom the map to the polygon of a row; returns the new extent."""
        if self.ranked is None or row >= len(self.ranked):
            return None
        xmin, ymin, xmax, ymax = self.ranked.geometry.iloc[row].bounds
        rect = QgsRectangle(xmin, ymin, xmax, ymax)
        target = self.canvas.mapSettings().destinationCrs()
        if self.crs.isValid() and target.isValid() and self.crs != target:
            rect = QgsCoordinateTransform(self.crs, target, QgsProject.instance()).transformBoundingBox(rect)
        rect.scale(1.5)
        self.canvas.setExtent(rect)
        self.canvas.refresh()
        return rect


def _cells(item) -> tuple[str, ...]:
    """Rank, label, model, agreement and suspicion of one ranked polygon, as shown."""
    agreement, suspicion = item["agreement"], item["suspicion"]
    predicted = item["predicted"]
    has_prediction = predicted is not None and not (isinstance(predicted, float) and math.isnan(predicted))
    return (
        str(int(item["rank"])),
        f"{item['label_name'] or ''} ({item['label']})",
        f"{item['predicted_name'] or ''} ({int(predicted)})" if has_prediction else "—",
        "—" if math.isnan(agreement) else f"{100 * agreement:.0f} %",
        "—" if math.isnan(suspicion) else f"{suspicion:.2f}",
    )
