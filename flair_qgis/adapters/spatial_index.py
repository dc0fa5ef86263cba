"""A reference layer's spatial index: whether it lacks one its provider could create, and a task
that creates it (the Evaluate tab offers it, since a filtered read without one scans the whole file)."""

from __future__ import annotations

from qgis.core import (
    QgsFeatureSource,
    QgsMapLayer,
    QgsProviderRegistry,
    QgsTask,
    QgsVectorDataProvider,
    QgsVectorLayer,
)

from ..i18n import tr


def lacks_spatial_index(layer: QgsMapLayer | None) -> bool:
    """Whether a vector layer has no spatial index its provider could create (a shapefile without
    .qix): every filtered read then scans the whole file."""
    if not isinstance(layer, QgsVectorLayer) or not layer.isValid():
        return False
    provider = layer.dataProvider()
    return layer.hasSpatialIndex() == QgsFeatureSource.SpatialIndexPresence.SpatialIndexNotPresent and bool(
        provider.capabilities() & QgsVectorDataProvider.Capability.CreateSpatialIndex
    )


class SpatialIndexTask(QgsTask):
    """Creates a layer's spatial index with a provider of its own (the layer's is the main thread's)."""

    def __init__(self, layer: QgsVectorLayer) -> None:
        super().__init__(tr("FLAIR: indexing {name}").format(name=layer.name()))
        self.provider_key = layer.providerType()
        self.uri = layer.source()

    def run(self) -> bool:
        provider = QgsProviderRegistry.instance().createProvider(self.provider_key, self.uri)
        return bool(provider is not None and provider.isValid() and provider.createSpatialIndex())
