"""The file behind a layer: one reading of a layer's source string, for every caller.

QGIS writes a layer's source in its provider's own syntax (``/data/zones.gpkg|layername=zones``,
``dbname=... table=...``, ``type=xyz&url=...``); its provider registry decodes it. Refusing to write
over an input, masking with a polygon file, reading a GeoTIFF directly and naming a reference in a
cache key all need the same two parts.
"""

from __future__ import annotations

from dataclasses import dataclass

from qgis.core import QgsMapLayer, QgsProviderRegistry


@dataclass(frozen=True)
class LayerSource:
    """A layer's source as its provider decodes it.

    Attributes:
        path: the file (or folder) behind the layer, "" for web, database and memory layers.
        layer_name: the layer inside a multi-layer file (a GeoPackage table), "" when none is named.
    """

    path: str
    layer_name: str


def layer_source(layer: QgsMapLayer) -> LayerSource:
    """Decode a layer's source with its own provider (``QgsProviderRegistry.decodeUri``).

    Args:
        layer: any map layer.

    Returns:
        The path and layer name the provider reads from the source ("" for each it does not name).
    """
    parts = QgsProviderRegistry.instance().decodeUri(layer.providerType(), layer.source())
    return LayerSource(path=str(parts.get("path") or ""), layer_name=str(parts.get("layerName") or ""))
