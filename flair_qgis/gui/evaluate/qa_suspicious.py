"""The QA tab's suspicious-labels table: ranked polygons; a click zooms the map to one and outlines it.

In a 300 px dock the table shows the rank, the label and the suspicion; "Details…" opens every
column (the model's class, the agreement, the pixels in disagreement). The rows reach the view
in one model reset (:class:`~flair_qgis.gui.details.TextRows`), their text made from plain column
lists: filling a ``QTableWidget`` row by row from ``iterrows`` blocked QGIS 240-620 ms at each
score of a 121-square reference (desktop heartbeat, scripts/desktop-heartbeat).
"""

from __future__ import annotations

import math

from qgis.core import QgsCoordinateReferenceSystem, QgsCoordinateTransform, QgsGeometry, QgsProject, QgsRectangle
from qgis.PyQt.QtCore import QModelIndex
from qgis.PyQt.QtWidgets import QAbstractItemView, QPushButton, QTableView

from ...i18n import class_label, integer
from ..details import DetailsDialog, TextRows, narrow
from ..highlight import PolygonHighlight
from ..widgets import tr

_ROWS_SHOWN = 200
_ROWS_IN_SIGHT = 10
_DETAIL_ONLY_COLUMNS = (2, 3)  # model, agreement


class SuspiciousTable(QTableView):
    """The ranked polygons (most suspicious first); hidden until there are some.

    Args:
        canvas: the map canvas a clicked row zooms.

    Attributes:
        rows: the table's model: the text of the rows shown (the first five columns).
        cells: every column's text of the rows shown, for the details view.
    """

    def __init__(self, canvas) -> None:
        super().__init__()
        self.canvas = canvas
        self.ranked = None
        self.cells: list[tuple[str, ...]] = []
        self.crs = QgsCoordinateReferenceSystem()
        self.highlight = PolygonHighlight(canvas)
        self.details: DetailsDialog | None = None
        self.rows = TextRows(self.headers()[:5], self)
        self.setModel(self.rows)
        self.verticalHeader().setVisible(False)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        narrow(self)
        for column in _DETAIL_ONLY_COLUMNS:
            self.setColumnHidden(column, True)
        self.setMinimumHeight(self.verticalHeader().defaultSectionSize() * _ROWS_IN_SIGHT + 30)
        self.clicked.connect(self._on_clicked)
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
        self.cells = ranked_cells(ranked.head(_ROWS_SHOWN)) if ranked is not None else []
        self.rows.set_rows([row[:5] for row in self.cells])
        self.setVisible(bool(self.cells))
        self.details_button.setVisible(bool(self.cells))

    def _on_clicked(self, index: QModelIndex) -> None:
        self.zoom_to(index.row())

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
        self.details = DetailsDialog(tr("Suspicious labels"), self.headers(), self.cells, self)
        self.details.show()
        return self.details

    def release(self) -> None:
        """Take the outline off the canvas (the panel is closing)."""
        self.highlight.remove()


_COLUMNS = ("rank", "label", "label_name", "predicted", "predicted_name", "agreement", "suspicion")


def ranked_cells(ranked) -> list[tuple[str, ...]]:
    """Rank, label, model, agreement, suspicion and pixels in disagreement of each ranked polygon, as text.

    Args:
        ranked: ranked polygons (:func:`flair_qgis.core.score.labels.rank_labels`); ``disagreeing_px``
            may be missing.

    Returns:
        One tuple of six texts per row, in the frame's order.
    """
    columns = [ranked[name].tolist() for name in _COLUMNS]
    disagreeing = ranked["disagreeing_px"].tolist() if "disagreeing_px" in ranked else [None] * len(ranked)
    return [_row_cells(*values) for values in zip(*columns, disagreeing)]


def _missing(value) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _row_cells(rank, label, label_name, predicted, predicted_name, agreement, suspicion, disagreeing):
    return (
        str(int(rank)),
        f"{class_label(label_name or '')} ({label})",
        "—" if _missing(predicted) else f"{class_label(predicted_name or '')} ({int(predicted)})",
        "—" if _missing(agreement) else f"{100 * agreement:.0f} %",
        "—" if _missing(suspicion) else f"{suspicion:.2f}",
        "—" if _missing(disagreeing) else integer(disagreeing),
    )
