"""Room for what a 300 px dock cannot hold: a table's other columns and the full-size confusion matrix.

The dock's tables show their key columns; a "Details…" button opens :class:`DetailsDialog` with
every column. A table filled from results is fed through :class:`TextRows`, one model reset per
fill: a ``QTableWidget`` filled cell by cell on screen froze QGIS 300-600 ms for 144 rows.
The confusion matrix shows as a thumbnail as wide as the dock (:class:`MatrixThumbnail`); a click
opens it full size in its own window (:class:`ImageWindow`).
"""

from __future__ import annotations

from collections.abc import Sequence

from qgis.PyQt.QtCore import QAbstractTableModel, QEvent, QModelIndex, QObject, QSize, Qt, QTimer, pyqtSignal
from qgis.PyQt.QtGui import QPixmap
from qgis.PyQt.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QHeaderView,
    QLabel,
    QScrollArea,
    QSizePolicy,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..i18n import tr

NARROW_MIN_WIDTH_PX = 60
"""The least width a dock table or thumbnail asks for: the dock decides, never its content."""


def narrow(table: QTableView, stretch_column: int = 1) -> QTableView:
    """Let a dock table shrink with the dock: one stretching column, the others sized to content.

    Long names wrap onto a second line instead of being cut ("impervious surface", not "impervi…").
    The table's model must be set: its changes refit the rows.
    """
    table.setMinimumWidth(NARROW_MIN_WIDTH_PX)
    table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    table.setWordWrap(True)
    table.setTextElideMode(Qt.TextElideMode.ElideNone)
    header = table.horizontalHeader()
    header.setMinimumSectionSize(24)
    for column in range(table.model().columnCount()):
        mode = QHeaderView.ResizeMode.Stretch if column == stretch_column else QHeaderView.ResizeMode.ResizeToContents
        header.setSectionResizeMode(column, mode)
    fitter = _RowFitter(table)
    table.viewport().installEventFilter(fitter)
    model = table.model()
    for changed in (model.rowsInserted, model.dataChanged, model.modelReset, model.layoutChanged):
        changed.connect(fitter.later)
    return table


ROWS_FITTED_PER_EVENT = 25
"""Rows measured in one go: 121 wrapped rows at once blocked the desktop 16-83 ms, 25 take a fifth."""


class _RowFitter(QObject):
    """Refits a table's row heights to its wrapped text whenever its width or content changes.

    Requests made together come to one refit: filling 200 rows of 5 cells asks 1000 times, and a
    refit per request measured every row's text each time (0.8 s of frozen QGIS). The refit measures
    :data:`ROWS_FITTED_PER_EVENT` rows per event, from the top: QGIS paints and handles input between.
    """

    def __init__(self, table: QTableView) -> None:
        super().__init__(table)
        self.table = table
        self.next_row = 0
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(0)
        self.timer.timeout.connect(self.fit_some)

    def later(self, *_args: object) -> None:
        """Refit once the table has its new geometry (after the pending layout), once for all requests."""
        self.next_row = 0
        self.timer.start()

    def fit_some(self) -> None:
        """Fit the next rows to their text; the following ones in the next event."""
        rows = self.table.model().rowCount()
        end = min(rows, self.next_row + ROWS_FITTED_PER_EVENT)
        for row in range(self.next_row, end):
            self.table.resizeRowToContents(row)
        self.next_row = end
        if end < rows:
            self.timer.start()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            self.later()
        return False


class TextRows(QAbstractTableModel):
    """Rows of text under column headers, read-only, replaced all at once.

    :meth:`set_rows` is one model reset: the view lays out and measures once per fill, however
    many rows, where a ``QTableWidget`` reacts to each cell set (a ``dataChanged`` per cell).

    Args:
        headers: the column headers.
        parent: the owner (the view).
    """

    def __init__(self, headers: Sequence[str], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.headers = list(headers)
        self.rows: list[tuple[str, ...]] = []

    def set_rows(self, rows: Sequence[Sequence[str]]) -> None:
        """Show these rows (one cell per header) instead of the previous ones."""
        self.beginResetModel()
        self.rows = [tuple(row) for row in rows]
        self.endResetModel()

    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self.headers)

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> str | None:
        if role != Qt.ItemDataRole.DisplayRole or not index.isValid():
            return None
        return self.rows[index.row()][index.column()]

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.headers[section] if 0 <= section < len(self.headers) else None
        return super().headerData(section, orientation, role)


class DetailsDialog(QDialog):
    """Every column of a dock table, in a window of its own (not modal: the map stays usable).

    Args:
        title: window title.
        headers: column headers.
        rows: the cells, row by row.
        parent: parent widget.
    """

    def __init__(
        self, title: str, headers: Sequence[str], rows: Sequence[Sequence[str]], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setModal(False)
        layout = QVBoxLayout(self)
        self.table = QTableWidget(len(rows), len(headers))
        self.table.setHorizontalHeaderLabels(list(headers))
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        for row, cells in enumerate(rows):
            for column, text in enumerate(cells):
                self.table.setItem(row, column, QTableWidgetItem(text))
        self.table.resizeColumnsToContents()
        layout.addWidget(self.table)
        width = sum(self.table.columnWidth(c) for c in range(len(headers))) + 40
        self.resize(min(max(width, 360), 1000), 520)


class ImageWindow(QDialog):
    """A picture at full size, scrollable, in a window of its own."""

    def __init__(self, title: str, pixmap: QPixmap, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setModal(False)
        layout = QVBoxLayout(self)
        self.image = QLabel()
        self.image.setPixmap(pixmap)
        area = QScrollArea()
        area.setWidget(self.image)
        layout.addWidget(area)
        self.resize(min(pixmap.width() + 40, 1200), min(pixmap.height() + 40, 900))


class MatrixThumbnail(QLabel):
    """A picture scaled down to the dock's width; a click opens it full size.

    Signals:
        clicked(): the user clicked the thumbnail.
    """

    clicked = pyqtSignal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.full = QPixmap()
        self.window: ImageWindow | None = None
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setMinimumWidth(NARROW_MIN_WIDTH_PX)
        self.clicked.connect(self.open_full)

    def set_image(self, pixmap: QPixmap) -> None:
        """Show a new picture (kept at full size for the window)."""
        self.full = pixmap
        self._rescale()

    def _rescale(self) -> None:
        if self.full.isNull():
            self.clear()
            return
        width = max(NARROW_MIN_WIDTH_PX, min(self.width(), self.full.width()))
        self.setPixmap(self.full.scaledToWidth(width, Qt.TransformationMode.SmoothTransformation))

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._rescale()

    def minimumSizeHint(self) -> QSize:
        return QSize(NARROW_MIN_WIDTH_PX, super().minimumSizeHint().height())

    def sizeHint(self) -> QSize:
        shown = self.pixmap()
        return QSize(NARROW_MIN_WIDTH_PX, shown.height() if shown is not None and not shown.isNull() else 40)

    def mousePressEvent(self, event) -> None:
        if event.button() == Qt.MouseButton.LeftButton and not self.full.isNull():
            self.clicked.emit()
        super().mousePressEvent(event)

    def open_full(self) -> ImageWindow:
        """Open (or raise) the full-size window."""
        if self.window is None:
            self.window = ImageWindow(tr("Confusion matrix"), self.full, self)
        else:
            self.window.image.setPixmap(self.full)
        self.window.show()
        self.window.raise_()
        return self.window
