"""The QA tab's "Layers" section: class map, confidence, reference, class field, protocol."""

from __future__ import annotations

from qgis.core import QgsApplication, QgsMapLayer, QgsMapLayerProxyModel, QgsVectorLayer
from qgis.gui import QgsFieldComboBox, QgsMapLayerComboBox
from qgis.PyQt.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ...adapters import settings
from ...adapters.crosswalk_project import is_text_field, project_crosswalk
from ...adapters.layer_choice import class_field, identifier_message
from ...adapters.layers import class_name
from ...adapters.spatial_index import SpatialIndexTask, lacks_spatial_index
from ...core.errors import FlairError
from ...core.score import PROTOCOLS, Protocol, get_protocol
from ...i18n import class_label
from ..crs_offer import is_local_lambert93, treat_as_lambert93
from ..widgets import tr


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
        # Beside the picker, where QGIS's own "no transformation" messages cannot bury it.
        self.crs_label = QLabel(tr("This layer's CRS is a local Lambert-93 without EPSG code: QGIS cannot place it."))
        self.crs_button = QPushButton(tr("Treat as EPSG:2154"))
        self.crs_button.clicked.connect(self._treat_reference_as_lambert93)
        self.crs_row = _offer_row(self.crs_label, self.crs_button)
        form.addRow(self.crs_row)
        self.index_label = QLabel(tr("No spatial index: each score reads the whole file."))
        self.index_button = QPushButton(tr("Create it"))
        self.index_button.setToolTip(
            tr("Writes a spatial index file beside the layer (a .qix for a shapefile); the data is not modified.")
        )
        self.index_button.clicked.connect(self.create_spatial_index)
        self.index_row = _offer_row(self.index_label, self.index_button)
        form.addRow(self.index_row)
        self.index_task: SpatialIndexTask | None = None
        self.field_combo = QgsFieldComboBox()
        # (layer id, field) whose values a score refused (numbers that are not the model's classes).
        self.refused_fields: set[tuple[str, str]] = set()
        self.field_label = QLabel(tr("Class field"))
        form.addRow(self.field_label, self.field_combo)
        self.field_warning = QLabel()  # an identifier-looking class field, said before scoring
        self.field_warning.setWordWrap(True)
        self.field_warning.setVisible(False)
        form.addRow(self.field_warning)
        form.addRow(self._crosswalk_row())
        self.field_combo.fieldChanged.connect(lambda _field: self.check_field())
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
        self.protocol_combo.currentIndexChanged.connect(lambda _index: self.check_field())
        self._on_reference_changed(self.reference_combo.currentLayer())

    def _crosswalk_row(self) -> QWidget:
        """The "Crosswalk…" offer under the class field (shown for text fields and refused values, see
        :meth:`show_crosswalk`)."""
        self.crosswalk_label = QLabel()
        self.crosswalk_button = QPushButton(tr("Crosswalk…"))
        self.crosswalk_button.setToolTip(
            tr("Which model class each value of the class field counts as (text codes, another nomenclature)")
        )
        # Text above its button: at the dock's default width a side-by-side row squeezes both.
        self.crosswalk_row = QWidget()
        column = QVBoxLayout(self.crosswalk_row)
        column.setContentsMargins(0, 0, 0, 0)
        self.crosswalk_label.setWordWrap(True)
        column.addWidget(self.crosswalk_label)
        column.addWidget(self.crosswalk_button)
        return self.crosswalk_row

    def _on_reference_changed(self, layer: QgsMapLayer | None) -> None:
        is_vector = isinstance(layer, QgsVectorLayer)
        self.field_combo.setLayer(layer if is_vector else None)
        if is_vector:
            self.field_combo.setField(class_field(layer))
        self.field_combo.setVisible(is_vector)
        self.field_label.setVisible(is_vector)
        self.index_row.setVisible(lacks_spatial_index(layer))
        self.crs_row.setVisible(layer is not None and layer.isValid() and is_local_lambert93(layer.crs()))
        self.check_field()

    def _treat_reference_as_lambert93(self) -> None:
        layer = self.reference_combo.currentLayer()
        if layer is not None:
            treat_as_lambert93(layer)
        self._on_reference_changed(layer)

    def check_field(self) -> str | None:
        """Say, under the class field, when it looks like an identifier; returns the message or None."""
        layer = self.reference_combo.currentLayer()
        try:
            class_count = len(self.protocol().classes)
        except FlairError:
            class_count = 0
        field = self.field_combo.currentField()
        self.show_crosswalk()
        if self.crosswalk() is not None:
            message = None  # the crosswalk says what the values are
        else:
            message = identifier_message(layer, field, class_count)
        self.field_warning.setText(message or "")
        self.field_warning.setVisible(bool(message))
        return message

    def crosswalk(self):
        """The crosswalk kept with the project for the chosen reference and class field, or None."""
        layer = self.reference_combo.currentLayer()
        if not isinstance(layer, QgsVectorLayer):
            return None
        try:
            return project_crosswalk(layer, self.field_combo.currentField())
        except FlairError:
            return None

    def offer_crosswalk(self, layer_id: str, field: str) -> None:
        """A score refused the values of ``field`` of layer ``layer_id`` (numbers that are not the
        model's classes): offer "Crosswalk…" for that field from now on."""
        self.refused_fields.add((layer_id, field))
        self.show_crosswalk()

    def show_crosswalk(self) -> None:
        """Offer "Crosswalk…" for a text class field, one whose values a score refused, or one that has
        a crosswalk, saying what it holds (the layer's values are never read here)."""
        layer = self.reference_combo.currentLayer()
        field = self.field_combo.currentField()
        crosswalk = self.crosswalk()
        text = is_text_field(layer, field)
        refused = layer is not None and (layer.id(), field) in self.refused_fields
        self.crosswalk_row.setVisible(crosswalk is not None or text or refused)
        if crosswalk is None and not text:
            self.crosswalk_label.setText(tr("Values that are not the model's classes: say which class each counts as."))
        elif crosswalk is None:
            self.crosswalk_label.setText(tr("Text codes: say which class each value counts as."))
        else:
            self.crosswalk_label.setText(
                tr("Crosswalk: {n} values scored; the others are not.").format(n=len(crosswalk.rows))
            )

    def create_spatial_index(self) -> SpatialIndexTask | None:
        """Index the reference layer's file in the background; the offer goes when it is done."""
        layer = self.reference_combo.currentLayer()
        if not lacks_spatial_index(layer) or self.index_task is not None:
            return None
        self.index_button.setEnabled(False)
        self.index_label.setText(tr("Creating the spatial index…"))
        self.index_task = SpatialIndexTask(layer)
        self.index_task.taskCompleted.connect(lambda: self._indexed(layer.id(), True))
        self.index_task.taskTerminated.connect(lambda: self._indexed(layer.id(), False))
        QgsApplication.taskManager().addTask(self.index_task)
        return self.index_task

    def _indexed(self, layer_id: str, ok: bool) -> None:
        self.index_task = None
        self.index_button.setEnabled(True)
        layer = self.reference_combo.currentLayer()
        if layer is not None and layer.id() == layer_id and ok:
            layer.dataProvider().reloadData()  # the provider sees the new index file
        self.index_label.setText(
            tr("No spatial index: each score reads the whole file.")
            if ok
            else tr("The spatial index could not be created (read-only folder?): scoring still works, slower.")
        )
        self._on_reference_changed(layer)

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


def _offer_row(label: QLabel, button: QPushButton) -> QWidget:
    """A row of the form: what is wrong (wrapped text), and the button that fixes it."""
    row = QWidget()
    layout = QHBoxLayout(row)
    layout.setContentsMargins(0, 0, 0, 0)
    label.setWordWrap(True)
    layout.addWidget(label, 1)
    layout.addWidget(button)
    return row
