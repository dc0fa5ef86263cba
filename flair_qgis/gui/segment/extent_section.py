"""The dock's "Extent" section: the map view, the layer, selected polygons or a drawn rectangle."""

from __future__ import annotations

from qgis.core import QgsMapLayerProxyModel, QgsRectangle
from qgis.gui import QgsMapCanvas, QgsMapLayerComboBox
from qgis.PyQt.QtWidgets import QComboBox, QFormLayout, QGroupBox, QLabel, QPushButton, QWidget

from ...adapters import settings
from ...core.vocabulary import EXTENT_CANVAS, EXTENT_DRAWN, EXTENT_LAYER, EXTENT_POLYGONS
from ...i18n import tr
from ..map_tools import RectangleMapTool
from ..widgets import compact


class ExtentSection(QGroupBox):
    """How the area to segment is given, and the rectangle tool that draws one.

    Args:
        canvas: the map canvas (its view, and where rectangles are drawn).
        parent: parent widget.
    """

    def __init__(self, canvas: QgsMapCanvas, parent: QWidget | None = None) -> None:
        super().__init__(tr("Extent"), parent)
        self.canvas = canvas
        self.drawn_extent: QgsRectangle | None = None
        self.drawn_crs = ""
        self.rectangle_tool = RectangleMapTool(canvas)
        self.rectangle_tool.rectangle_drawn.connect(self._on_rectangle_drawn)
        form = QFormLayout(self)
        self.extent_combo = QComboBox()
        for label, mode in (
            (tr("Current map view"), EXTENT_CANVAS),
            (tr("Layer extent"), EXTENT_LAYER),
            (tr("Selected polygons (masked outside)"), EXTENT_POLYGONS),
            (tr("Rectangle drawn on the map"), EXTENT_DRAWN),
        ):
            self.extent_combo.addItem(label, mode)
        self.extent_combo.setCurrentIndex(
            max(0, self.extent_combo.findData(settings.value("extent_mode", EXTENT_CANVAS)))
        )
        self.extent_combo.currentIndexChanged.connect(self._on_mode)
        form.addRow(tr("Area"), compact(self.extent_combo))
        self.polygon_combo = QgsMapLayerComboBox()
        self.polygon_combo.setFilters(QgsMapLayerProxyModel.Filter.PolygonLayer)
        self.polygon_label = QLabel(tr("Polygons"))
        form.addRow(self.polygon_label, self.polygon_combo)
        self.draw_button = QPushButton(tr("Draw rectangle"))
        self.draw_button.setCheckable(True)
        self.draw_button.toggled.connect(self._toggle_draw)
        self.drawn_label = QLabel(tr("No rectangle drawn yet."))
        form.addRow(self.draw_button, self.drawn_label)
        self._on_mode()

    def mode(self) -> str:
        """The chosen ``EXTENT_*`` mode."""
        return self.extent_combo.currentData()

    def set_mode(self, mode: str) -> None:
        """Choose how the extent is given (one of the ``EXTENT_*`` modes)."""
        self.extent_combo.setCurrentIndex(self.extent_combo.findData(mode))

    def _on_mode(self) -> None:
        mode = self.mode()
        settings.set_value("extent_mode", mode)
        for widget in (self.polygon_combo, self.polygon_label):
            widget.setVisible(mode == EXTENT_POLYGONS)
        for widget in (self.draw_button, self.drawn_label):
            widget.setVisible(mode == EXTENT_DRAWN)
        if mode != EXTENT_DRAWN and self.draw_button.isChecked():
            self.draw_button.setChecked(False)
        self.rectangle_tool.show_rectangle(self.drawn_extent if mode == EXTENT_DRAWN else None)

    def _toggle_draw(self, checked: bool) -> None:
        if checked:
            self.canvas.setMapTool(self.rectangle_tool)
        elif self.canvas.mapTool() is self.rectangle_tool:
            self.canvas.unsetMapTool(self.rectangle_tool)

    def _on_rectangle_drawn(self, rect: QgsRectangle) -> None:
        self.set_drawn_extent(rect, self.canvas.mapSettings().destinationCrs().authid())
        self.draw_button.setChecked(False)

    def set_drawn_extent(self, rect: QgsRectangle, crs: str) -> None:
        """Use a rectangle (in ``crs``) as the drawn extent."""
        self.drawn_extent = QgsRectangle(rect)
        self.drawn_crs = crs
        self.drawn_label.setText(tr("{w:.0f} × {h:.0f} map units").format(w=rect.width(), h=rect.height()))
        self.rectangle_tool.show_rectangle(rect)

    def request_fields(self) -> dict:
        """The extent fields of a :class:`~flair_qgis.adapters.segment_request.SegmentChoices`."""
        mode = self.mode()
        rect, crs = None, ""
        if mode == EXTENT_CANVAS:
            rect = self.canvas.extent()
            destination = self.canvas.mapSettings().destinationCrs()
            crs = destination.authid() or destination.toWkt()
        elif mode == EXTENT_DRAWN and self.drawn_extent is not None:
            rect, crs = self.drawn_extent, self.drawn_crs
        polygons = self.polygon_combo.currentLayer()
        return {
            "extent_mode": mode,
            "extent": (rect.xMinimum(), rect.yMinimum(), rect.xMaximum(), rect.yMaximum()) if rect else None,
            "extent_crs": crs,
            "mask_layer_id": polygons.id() if polygons is not None else None,
        }

    def release(self) -> None:
        """Clear the rectangle and give the canvas its tool back (the plugin is unloading)."""
        self.rectangle_tool.clear()
        if self.canvas.mapTool() is self.rectangle_tool:
            self.canvas.unsetMapTool(self.rectangle_tool)
