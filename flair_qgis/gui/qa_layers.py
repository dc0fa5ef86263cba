"""The QA tab's "Layers" section: class map, confidence, reference, class field, protocol."""

from __future__ import annotations

from qgis.core import QgsMapLayer, QgsMapLayerProxyModel, QgsVectorLayer
from qgis.gui import QgsFieldComboBox, QgsMapLayerComboBox
from qgis.PyQt.QtWidgets import QComboBox, QFormLayout, QGroupBox, QLabel

from ..adapters import settings
from ..adapters.layers import class_name
from ..core.errors import FlairError
from ..core.score.protocols import PROTOCOLS, Protocol, get_protocol
from ..i18n import class_label
from .widgets import tr


class LayersSection(QGroupBox):
    """The layers scored and the protocol; the choice of protocol is remembered."""

    def __init__(self) -> None:
        super().__init__(tr("Layers"))
        form = QFormLayout(self)
        self.prediction_combo = QgsMapLayerComboBox()
        self.prediction_combo.setFilters(QgsMapLayerProxyModel.Filter.RasterLayer)
        form.addRow(tr("Class map"), self.prediction_combo)
        self.confidence_combo = QgsMapLayerComboBox()
        self.confidence_combo.setFilters(QgsMapLayerProxyModel.Filter.RasterLayer)
        self.confidence_combo.setAllowEmptyLayer(True)
        self.confidence_combo.setLayer(None)
        form.addRow(tr("Confidence"), self.confidence_combo)
        self.reference_combo = QgsMapLayerComboBox()
        self.reference_combo.setFilters(
            QgsMapLayerProxyModel.Filter.RasterLayer | QgsMapLayerProxyModel.Filter.PolygonLayer
        )
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
        self.protocol_combo.setCurrentIndex(
            max(0, self.protocol_combo.findData(settings.str_value("protocol", "flair1")))
        )
        self.protocol_combo.currentIndexChanged.connect(
            lambda: settings.set_value("protocol", self.protocol_combo.currentData())
        )
        form.addRow(tr("Protocol"), self.protocol_combo)
        self._on_reference_changed(self.reference_combo.currentLayer())

    def _on_reference_changed(self, layer: QgsMapLayer | None) -> None:
        is_vector = isinstance(layer, QgsVectorLayer)
        self.field_combo.setLayer(layer if is_vector else None)
        self.field_combo.setVisible(is_vector)
        self.field_label.setVisible(is_vector)

    def protocol(self) -> Protocol:
        """The chosen scoring protocol."""
        return get_protocol(self.protocol_combo.currentData() or "custom")

    def reference_name(self, value: float | None, prediction_classes: tuple) -> str:
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
                return f"{class_label(cls.name)} ({raw})"
        return class_name(prediction_classes, value)
