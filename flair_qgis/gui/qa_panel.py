"""The QA tab: score the map view against a reference, look at errors, identify pixels."""

from __future__ import annotations

from qgis.core import QgsMapLayer, QgsMapLayerProxyModel, QgsRasterLayer, QgsVectorLayer
from qgis.gui import QgsFieldComboBox, QgsMapLayerComboBox
from qgis.PyQt.QtCore import QPointF
from qgis.PyQt.QtWidgets import QComboBox, QFormLayout, QGroupBox, QLabel, QPushButton, QVBoxLayout, QWidget

from ..adapters import settings
from ..adapters.layers import class_name, identify, palette_classes
from ..core.errors import FlairError
from ..core.protocols import PROTOCOLS, get_protocol
from .map_tools import IdentifyMapTool
from .widgets import tr


class QaPanel(QWidget):
    """Reference layer, protocol, per-view scores, error overlays and the identify tool.

    Args:
        iface: the QGIS interface.
        dock: the FLAIR dock (messages, error reporting).
    """

    def __init__(self, iface, dock) -> None:  # noqa: ANN001 - QgisInterface, FlairDock
        super().__init__()
        self.iface = iface
        self.dock = dock
        self.canvas = iface.mapCanvas()
        self.identify_tool = IdentifyMapTool(self.canvas)
        self.identify_tool.point_clicked.connect(self.identify_at)
        layout = QVBoxLayout(self)

        layers_box = QGroupBox(tr("Layers"))
        form = QFormLayout(layers_box)
        self.prediction_combo = QgsMapLayerComboBox()
        self.prediction_combo.setFilters(QgsMapLayerProxyModel.RasterLayer)
        form.addRow(tr("Class map"), self.prediction_combo)
        self.confidence_combo = QgsMapLayerComboBox()
        self.confidence_combo.setFilters(QgsMapLayerProxyModel.RasterLayer)
        self.confidence_combo.setAllowEmptyLayer(True)
        self.confidence_combo.setLayer(None)
        form.addRow(tr("Confidence"), self.confidence_combo)
        self.reference_combo = QgsMapLayerComboBox()
        self.reference_combo.setFilters(QgsMapLayerProxyModel.RasterLayer | QgsMapLayerProxyModel.PolygonLayer)
        self.reference_combo.setAllowEmptyLayer(True)
        self.reference_combo.setLayer(None)
        self.reference_combo.layerChanged.connect(self._on_reference_changed)
        form.addRow(tr("Reference"), self.reference_combo)
        self.field_combo = QgsFieldComboBox()
        self.field_label = QLabel(tr("Class field"))
        form.addRow(self.field_label, self.field_combo)
        self.protocol_combo = QComboBox()
        for name in PROTOCOLS:
            self.protocol_combo.addItem(name, name)
        self.protocol_combo.setCurrentIndex(max(0, self.protocol_combo.findData(settings.str_value("protocol", "flair1"))))
        self.protocol_combo.currentIndexChanged.connect(
            lambda: settings.set_value("protocol", self.protocol_combo.currentData())
        )
        form.addRow(tr("Protocol"), self.protocol_combo)
        layout.addWidget(layers_box)

        identify_box = QGroupBox(tr("Identify"))
        identify_layout = QVBoxLayout(identify_box)
        self.identify_button = QPushButton(tr("Identify pixel"))
        self.identify_button.setCheckable(True)
        self.identify_button.toggled.connect(self._toggle_identify)
        self.identify_label = QLabel(tr("Click the map to see the predicted and reference classes of a pixel."))
        self.identify_label.setWordWrap(True)
        identify_layout.addWidget(self.identify_button)
        identify_layout.addWidget(self.identify_label)
        layout.addWidget(identify_box)

        self._build_scoring(layout)
        layout.addStretch(1)
        self._on_reference_changed(self.reference_combo.currentLayer())

    def _build_scoring(self, layout: QVBoxLayout) -> None:
        """The scoring part (filled in by :mod:`flair_qgis.gui.qa_scoring` when the engine exists)."""

    # ------------------------------------------------------------------ layers
    def use_prediction(self, layer: QgsRasterLayer, confidence: QgsRasterLayer | None = None) -> None:
        """Score and identify against this class map (and confidence) from now on."""
        self.prediction_combo.setLayer(layer)
        if confidence is not None:
            self.confidence_combo.setLayer(confidence)

    def _on_reference_changed(self, layer: QgsMapLayer | None) -> None:
        is_vector = isinstance(layer, QgsVectorLayer)
        self.field_combo.setLayer(layer if is_vector else None)
        self.field_combo.setVisible(is_vector)
        self.field_label.setVisible(is_vector)

    # ---------------------------------------------------------------- identify
    def _toggle_identify(self, checked: bool) -> None:  # noqa: FBT001
        if checked:
            self.canvas.setMapTool(self.identify_tool)
        elif self.canvas.mapTool() is self.identify_tool:
            self.canvas.unsetMapTool(self.identify_tool)

    def identify_at(self, point) -> str:  # noqa: ANN001 - QgsPointXY
        """Show the predicted class, confidence and reference class at a map point (canvas CRS)."""
        if isinstance(point, QPointF):
            point = self.canvas.getCoordinateTransform().toMapCoordinates(int(point.x()), int(point.y()))
        prediction = self.prediction_combo.currentLayer()
        crs = self.canvas.mapSettings().destinationCrs()
        report = identify(
            point, crs, prediction, self.confidence_combo.currentLayer(), self.reference_combo.currentLayer(),
            self.field_combo.currentField(),
        )  # fmt: skip
        classes = palette_classes(prediction)
        confidence = f"{report.confidence:.2f}" if report.confidence is not None else "—"
        text = tr("Predicted: {pred} — confidence {conf} — reference: {ref}").format(
            pred=class_name(classes, report.predicted), conf=confidence, ref=self._reference_name(report.reference, classes)
        )
        self.identify_label.setText(text)
        return text

    def protocol(self):  # noqa: ANN201 - core Protocol
        """The chosen scoring protocol (core :class:`~flair_qgis.core.protocols.Protocol`)."""
        return get_protocol(self.protocol_combo.currentData() or "custom")

    def _reference_name(self, value: float | None, prediction_classes: tuple) -> str:
        """A reference value named by the protocol's classes (after its regrouping), else the prediction's."""
        if value is None:
            return class_name((), None)
        try:
            protocol = self.protocol()
        except FlairError:
            return class_name(prediction_classes, value)
        raw = int(value)
        regrouped = protocol.class_value(raw)
        for cls in protocol.classes or prediction_classes:
            if cls.value == regrouped:
                return f"{cls.name} ({raw})"
        return class_name(prediction_classes, value)

    def map_tools(self) -> list:
        """The map tools this panel may have set on the canvas."""
        return [self.identify_tool]

    def shutdown(self) -> None:
        """Release what the panel holds in the project (overlay layers stay the user's)."""
        if self.canvas.mapTool() is self.identify_tool:
            self.canvas.unsetMapTool(self.identify_tool)
