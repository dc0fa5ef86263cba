"""A one-click fix for IGN masks whose CRS is an engineering "Lambert-93" without an EPSG code.

Seven of the nine FLAIR #1 masks carry ``LOCAL_CS["RGF93 v1 / Lambert-93", ...]``: QGIS cannot
transform it to anything, so the canvas stays blank. When such a layer enters the project, the
message bar offers "Treat as EPSG:2154"; the click sets the layer's CRS in the project only, the
file is never touched. The rule and the fix are :mod:`flair_qgis.adapters.local_crs`.
"""

from __future__ import annotations

from qgis.core import Qgis, QgsMapLayer, QgsProject
from qgis.PyQt.QtWidgets import QPushButton

# is_local_lambert93 and treat_as_lambert93 are named here too: the Evaluate tab imports them from here.
from ..adapters.local_crs import is_local_lambert93, treat_as_lambert93
from ..i18n import tr

__all__ = ["CrsOffer", "is_local_lambert93", "treat_as_lambert93"]


class CrsOffer:
    """Watches layers entering the project and offers EPSG:2154 for local Lambert-93 ones.

    Args:
        iface: the QGIS interface (message bar).
        project: the project to watch (default the current one).
    """

    def __init__(self, iface, project: QgsProject | None = None) -> None:
        self.iface = iface
        self.project = project or QgsProject.instance()
        self.offers: dict[str, object] = {}
        self.project.layersAdded.connect(self.check_layers)
        self.project.layersWillBeRemoved.connect(self._forget)

    def check_layers(self, layers: list[QgsMapLayer]) -> list[str]:
        """Offer the fix for each layer that needs it; returns their ids."""
        offered = []
        for layer in layers:
            if layer.id() not in self.offers and is_local_lambert93(layer.crs()):
                self.offer(layer)
                offered.append(layer.id())
        return offered

    def offer(self, layer: QgsMapLayer) -> QPushButton:
        """Push the message with its "Treat as EPSG:2154" button; returns the button."""
        bar = self.iface.messageBar()
        item = bar.createMessage(
            "FLAIR",
            tr(
                "'{name}' has an engineering CRS named Lambert-93 without an EPSG code: QGIS cannot place it "
                "on the map."
            ).format(name=layer.name()),
        )
        button = QPushButton(tr("Treat as EPSG:2154"))
        button.setObjectName("FlairTreatAsLambert93")
        button.setToolTip(tr("Sets the layer's CRS in this project only; the file is not modified."))
        layer_id = layer.id()
        button.clicked.connect(lambda _checked=False: self.accept(layer_id))
        item.layout().addWidget(button)
        bar.pushWidget(item, Qgis.MessageLevel.Warning)
        self.offers[layer_id] = item
        return button

    def accept(self, layer_id: str) -> bool:
        """Apply the fix to a layer still in the project; False when it is gone."""
        layer = self.project.mapLayer(layer_id)
        item = self.offers.pop(layer_id, None)
        if item is not None:
            try:
                self.iface.messageBar().popWidget(item)
            except RuntimeError:  # the user already closed the message
                pass
        if layer is None:
            return False
        treat_as_lambert93(layer)
        self.iface.messageBar().pushMessage(
            "FLAIR",
            tr("'{name}' is now in EPSG:2154 (RGF93 v1 / Lambert-93) in this project; its file is unchanged.").format(
                name=layer.name()
            ),
            Qgis.MessageLevel.Success,
            5,
        )
        return True

    def _forget(self, layer_ids: list[str]) -> None:
        for layer_id in layer_ids:
            self.offers.pop(layer_id, None)

    def shutdown(self) -> None:
        """Stop watching the project and withdraw open offers (the plugin is unloading)."""
        for item in self.offers.values():
            try:
                self.iface.messageBar().popWidget(item)
            except RuntimeError:  # already closed by the user
                pass
        for signal, slot in (
            (self.project.layersAdded, self.check_layers),
            (self.project.layersWillBeRemoved, self._forget),
        ):
            try:
                signal.disconnect(slot)
            except TypeError:
                pass
        self.offers = {}
