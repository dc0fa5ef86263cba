"""The dock's "Result" section: what the last run did and the opacity of its class map."""

from __future__ import annotations

from qgis.core import QgsProject, QgsRasterLayer
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtWidgets import QFormLayout, QGroupBox, QLabel, QSlider, QWidget

from ...adapters import settings
from ...adapters.layers import set_opacity
from ...core.segment import SegmentResult
from ...i18n import tr
from ..messages import run_summary


class ResultSection(QGroupBox):
    """The outcome text of the last run and an opacity slider for its class-map layer."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(tr("Result"), parent)
        form = QFormLayout(self)
        self.result_layer_id: str | None = None
        self.opacity_slider = QSlider(Qt.Orientation.Horizontal)
        self.opacity_slider.setRange(0, 100)
        self.opacity_slider.setValue(settings.int_value("opacity", 70))
        self.opacity_slider.valueChanged.connect(self._on_opacity)
        self.opacity_slider.setEnabled(False)
        form.addRow(tr("Opacity"), self.opacity_slider)
        self.result_label = QLabel()
        self.result_label.setWordWrap(True)
        # A path is one long word: without this its width would widen the dock; Qt breaks it anywhere.
        self.result_label.setMinimumWidth(80)
        form.addRow(self.result_label)

    def opacity(self) -> float:
        """The chosen opacity, 0..1."""
        return self.opacity_slider.value() / 100.0

    def set_layer(self, layer_id: str | None) -> None:
        """The class-map layer the slider acts on (None disables it)."""
        self.result_layer_id = layer_id
        self.opacity_slider.setEnabled(layer_id is not None)

    def _on_opacity(self, value: int) -> None:
        settings.set_value("opacity", value)
        layer = QgsProject.instance().mapLayer(self.result_layer_id) if self.result_layer_id else None
        if isinstance(layer, QgsRasterLayer):
            set_opacity(layer, value / 100.0)


def result_lines(result: SegmentResult) -> list[str]:
    """What a finished run says in plain words (area, device, time); a line per per-image head."""
    lines = [run_summary(result.session.provider, result.grid.area_km2, result.seconds)]
    lines += result.tile_value_lines(
        tr("Per-image output '{name}' over {n} tiles: mean {mean:.4g}, min {lo:.4g}, max {hi:.4g} ({path}).")
    )
    return lines
