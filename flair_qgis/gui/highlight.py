"""The suspicious label a photo-interpreter clicked, outlined on the map until the next click.

Two rubber bands make one outline readable over any class map and any imagery: a wide black line
under a thinner bright cyan one. The canvas also flashes the polygon, so the eye finds it after
the zoom.
"""

from __future__ import annotations

from qgis.core import QgsCoordinateReferenceSystem, QgsGeometry, QgsWkbTypes
from qgis.gui import QgsRubberBand
from qgis.PyQt.QtGui import QColor

OUTLINE_COLORS = (("#000000", 5), ("#00e5ff", 2))
"""``(colour, width px)`` of the highlight's bands, bottom first."""


class PolygonHighlight:
    """Outlines one polygon on a map canvas.

    Args:
        canvas: the map canvas.
    """

    def __init__(self, canvas) -> None:
        self.canvas = canvas
        self.bands: list[QgsRubberBand] = []
        for color, width_px in OUTLINE_COLORS:
            band = QgsRubberBand(canvas, QgsWkbTypes.GeometryType.PolygonGeometry)
            band.setStrokeColor(QColor(color))
            band.setFillColor(QColor(0, 0, 0, 0))
            band.setWidth(width_px)
            self.bands.append(band)

    def show(self, geometry: QgsGeometry, crs: QgsCoordinateReferenceSystem, flash: bool = True) -> None:
        """Outline ``geometry`` (in ``crs``) and flash it."""
        for band in self.bands:
            band.setToGeometry(geometry, crs)
            band.show()
        if flash:
            self.canvas.flashGeometries([geometry], crs)

    def geometry(self) -> QgsGeometry | None:
        """The outlined polygon in the canvas CRS, or None when nothing is outlined."""
        if not self.bands or self.bands[-1].numberOfVertices() == 0:
            return None
        return self.bands[-1].asGeometry()

    def clear(self) -> None:
        """Remove the outline."""
        for band in self.bands:
            band.reset(QgsWkbTypes.GeometryType.PolygonGeometry)

    def remove(self) -> None:
        """Take the bands off the canvas for good (the panel is closing)."""
        self.clear()
        scene = self.canvas.scene()
        for band in self.bands:
            scene.removeItem(band)
        self.bands = []
