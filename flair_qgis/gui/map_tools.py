"""Map tools of the dock: draw a rectangle to segment, click a pixel to identify it."""

from __future__ import annotations

from qgis.core import QgsPointXY, QgsRectangle, QgsWkbTypes
from qgis.gui import QgsMapCanvas, QgsMapMouseEvent, QgsMapTool, QgsRubberBand
from qgis.PyQt.QtCore import Qt, pyqtSignal
from qgis.PyQt.QtGui import QColor


class RectangleMapTool(QgsMapTool):
    """Press, drag and release to draw a rectangle; emits it in the canvas CRS.

    Signals:
        rectangle_drawn(QgsRectangle): the rectangle, in the map canvas CRS.
    """

    rectangle_drawn = pyqtSignal(QgsRectangle)

    def __init__(self, canvas: QgsMapCanvas) -> None:
        super().__init__(canvas)
        self.setCursor(Qt.CursorShape.CrossCursor)
        self.rubber_band = QgsRubberBand(canvas, QgsWkbTypes.GeometryType.PolygonGeometry)
        self.rubber_band.setColor(QColor(219, 14, 154, 160))
        self.rubber_band.setFillColor(QColor(219, 14, 154, 40))
        self.rubber_band.setWidth(2)
        self.start: QgsPointXY | None = None

    def _show(self, rect: QgsRectangle) -> None:
        self.rubber_band.reset(QgsWkbTypes.GeometryType.PolygonGeometry)
        corners = [
            QgsPointXY(rect.xMinimum(), rect.yMinimum()),
            QgsPointXY(rect.xMinimum(), rect.yMaximum()),
            QgsPointXY(rect.xMaximum(), rect.yMaximum()),
            QgsPointXY(rect.xMaximum(), rect.yMinimum()),
        ]
        for i, point in enumerate(corners):
            self.rubber_band.addPoint(point, i == len(corners) - 1)
        self.rubber_band.show()

    def show_rectangle(self, rect: QgsRectangle | None) -> None:
        """Show a rectangle (canvas CRS), or hide it for None."""
        if rect is None or rect.isEmpty():
            self.rubber_band.reset(QgsWkbTypes.GeometryType.PolygonGeometry)
        else:
            self._show(rect)

    def canvasPressEvent(self, event: QgsMapMouseEvent) -> None:
        self.start = self.toMapCoordinates(event.pos())

    def canvasMoveEvent(self, event: QgsMapMouseEvent) -> None:
        if self.start is not None:
            self._show(QgsRectangle(self.start, self.toMapCoordinates(event.pos())))

    def canvasReleaseEvent(self, event: QgsMapMouseEvent) -> None:
        if self.start is None:
            return
        rect = QgsRectangle(self.start, self.toMapCoordinates(event.pos()))
        rect.normalize()
        self.start = None
        self._show(rect)
        self.rectangle_drawn.emit(rect)

    def clear(self) -> None:
        """Remove the rubber band from the canvas."""
        self.rubber_band.reset(QgsWkbTypes.GeometryType.PolygonGeometry)

    def deactivate(self) -> None:
        self.start = None
        super().deactivate()


class IdentifyMapTool(QgsMapTool):
    """Click a pixel: emits the map point (canvas CRS).

    Signals:
        point_clicked(QgsPointXY): the clicked point, in the map canvas CRS.
    """

    point_clicked = pyqtSignal(QgsPointXY)

    def __init__(self, canvas: QgsMapCanvas) -> None:
        super().__init__(canvas)
        self.setCursor(Qt.CursorShape.WhatsThisCursor)

    def canvasReleaseEvent(self, event: QgsMapMouseEvent) -> None:
        self.point_clicked.emit(self.toMapCoordinates(event.pos()))
