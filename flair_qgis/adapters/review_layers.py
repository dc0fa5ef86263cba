"""The project layers a review shows: its class map and labels (found, or loaded from the review's
design table) and an error map of the project.

The error map is found by what it is, never by its name (names are the user's, and translated):
the plugin's kind tag (:data:`~flair_qgis.core.vocabulary.KIND_ERROR_MAP`, set by the Evaluate tab),
else the tag the scoring job writes into the GeoTIFF itself
(:data:`~flair_qgis.core.vocabulary.ERROR_MAP_FILE_TAG`): an error map written by ``flair:evaluate``
and loaded by Processing carries no kind tag.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from qgis.core import QgsMapLayer, QgsProject, QgsRasterLayer, QgsVectorLayer

from ..core import vocabulary

"""Dataset metadata item (value ``1``) of every error map GeoTIFF the scoring job writes
(:class:`flair_qgis.core.score.errormap_writer.ErrorMapOutput`)."""


def layer_for_file(path: str, name: str = "") -> QgsMapLayer | None:
    """A project layer reading ``path`` (or named ``name``), if any."""
    wanted = os.path.realpath(path) if path else ""
    for layer in QgsProject.instance().mapLayers().values():
        source = layer.source().split("|")[0]
        if wanted and os.path.realpath(source) == wanted:
            return layer
    for layer in QgsProject.instance().mapLayers().values():
        if name and layer.name() == name:
            return layer
    return None


def ensure_raster(path: str) -> QgsMapLayer | None:
    """The project's layer for a raster file, added (below the review) when missing."""
    found = layer_for_file(path)
    if found is not None or not path or not os.path.isfile(path):
        return found
    layer = QgsRasterLayer(path, os.path.splitext(os.path.basename(path))[0])
    if not layer.isValid():
        return None
    QgsProject.instance().addMapLayer(layer)
    return layer


def labels_layer(design: Mapping[str, str]) -> QgsMapLayer | None:
    """The project's layer for a review's labels, loaded from the design table's source when absent.

    Args:
        design: the review's design table (``reference``, ``reference_source``,
            ``reference_provider``, ``reference_kind``).
    """
    source = design.get("reference_source", "")
    name = design.get("reference", "")
    found = layer_for_file(source or name, name)
    if found is not None or not source:
        return found
    provider = design.get("reference_provider", "")
    label = name if name and name != source else os.path.splitext(os.path.basename(source))[0]
    layer: QgsMapLayer
    if design.get("reference_kind") == "raster":
        layer = QgsRasterLayer(source, label, provider or "gdal")
    else:
        layer = QgsVectorLayer(source, label, provider or "ogr")
    if not layer.isValid():
        return None
    QgsProject.instance().addMapLayer(layer)
    return layer


def error_map_layer() -> QgsMapLayer | None:
    """An error map of the project: one tagged by the Evaluate tab, else one whose file the scoring
    job wrote (``flair:evaluate``); None when there is none."""
    rasters = [layer for layer in QgsProject.instance().mapLayers().values() if isinstance(layer, QgsRasterLayer)]
    tagged = [layer for layer in rasters if layer.customProperty(vocabulary.KIND_PROPERTY) == vocabulary.KIND_ERROR_MAP]
    if tagged:
        return tagged[0]
    return next((layer for layer in rasters if is_error_map_file(layer)), None)


def is_error_map_file(layer: QgsRasterLayer) -> bool:
    """True when ``layer`` reads a GeoTIFF written as an error map by the scoring job."""
    path = layer.source()
    if layer.providerType() != "gdal" or not os.path.isfile(path):
        return False
    from osgeo import gdal

    try:
        dataset = gdal.Open(path)
    except RuntimeError:  # GDAL raises instead of returning None once exceptions are on
        return False
    return dataset is not None and dataset.GetMetadataItem(vocabulary.ERROR_MAP_FILE_TAG) == "1"
