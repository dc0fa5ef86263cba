"""The QA tab's "Identify" section: click the map, read the predicted and reference classes."""

from __future__ import annotations

from qgis.PyQt.QtCore import QPointF
from qgis.PyQt.QtWidgets import QGroupBox, QLabel, QPushButton, QVBoxLayout

from ...adapters.layers import class_name, identify, palette_classes
from ..map_tools import IdentifyMapTool
from ..messages import identify_text
from ..widgets import tr
from .qa_layers import LayersSection


class IdentifySection(QGroupBox):
    """A toggle button arming the identify map tool, and the answer for the last click.

    Args:
        canvas: the map canvas.
        layers: the section whose class map, confidence and reference are identified.
    """

    def __init__(self, canvas, layers: LayersSection) -> None:
        super().__init__(tr("Identify"))
        self.canvas = canvas
        self.layers = layers
        self.tool = IdentifyMapTool(canvas)
        self.tool.point_clicked.connect(self.identify_at)
        box = QVBoxLayout(self)
        self.button = QPushButton(tr("Identify pixel"))
        self.button.setCheckable(True)
        self.button.toggled.connect(self._toggle)
        self.label = QLabel(tr("Click the map to see the predicted and reference classes of a pixel."))
        self.label.setWordWrap(True)
        box.addWidget(self.button)
        box.addWidget(self.label)

    def _toggle(self, checked: bool) -> None:
        if checked:
            self.canvas.setMapTool(self.tool)
        elif self.canvas.mapTool() is self.tool:
            self.canvas.unsetMapTool(self.tool)

    def identify_at(self, point) -> str:
        """Show the predicted class, confidence and reference class at a map point (canvas CRS)."""
        if isinstance(point, QPointF):
            point = self.canvas.getCoordinateTransform().toMapCoordinates(int(point.x()), int(point.y()))
        layers = self.layers
        prediction = layers.prediction_combo.currentLayer()
        report = identify(
            point,
            self.canvas.mapSettings().destinationCrs(),
            prediction,
            confidence=layers.confidence_combo.currentLayer(),
            reference=layers.reference_combo.currentLayer(),
            reference_field=layers.field_combo.currentField(),
        )
        classes = palette_classes(prediction)
        text = identify_text(
            class_name(classes, report.predicted),
            layers.reference_name(report.reference, classes),
            report.confidence,
            has_confidence=layers.confidence_combo.currentLayer() is not None,
        )
        self.label.setText(text)
        return text

    def release(self) -> None:
        """Take the tool off the canvas."""
        if self.canvas.mapTool() is self.tool:
            self.canvas.unsetMapTool(self.tool)
