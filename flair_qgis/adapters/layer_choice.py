"""Which layer or field the dock pre-selects: the choice a photo-interpreter would make.

One rule each, used by every tab: the class map to review or score (a class map this plugin
made, else a single-band paletted raster, never multi-band imagery) and the class field of a
label layer (an integer field that is not the primary key, named like a class), and the
confidence layer of a review stratified by confidence (the newest this plugin made).
"""

from __future__ import annotations

import re

from qgis.core import QgsFeatureRequest, QgsPalettedRasterRenderer, QgsProject, QgsRasterLayer, QgsVectorLayer

from ..core import vocabulary
from ..i18n import tr

CLASS_NAME = re.compile(r"(code|class|classe|label|nature|cat|categ|type|occ|cos|lc|cover|usage|value)", re.I)
"""Field names that look like a class (IGN's BD TOPO, OCS GE, CoSIA, FLAIR masks use these)."""
IDENTIFIER_NAME = re.compile(r"^(fid|id|ogc_fid|gid|objectid|oid|pk|cleabs)$|(^id_)|(_id$)", re.I)


def _integer(field) -> bool:
    # The provider's type name: Integer, Integer64 (OGR), int4, int8, smallint, bigint (PostgreSQL).
    return "int" in field.typeName().lower()


def class_field(layer: QgsVectorLayer | None) -> str:
    """The field to pre-select as the class field of a label layer ('' when there is none).

    Integer fields that are not the primary key come first, those named like a class first of all;
    a field named like an identifier (``fid``, ``id``, ``cleabs``) is taken only when nothing else is.
    """
    if not isinstance(layer, QgsVectorLayer) or not layer.isValid():
        return ""
    fields = layer.fields()
    keys = set(layer.primaryKeyAttributes())
    candidates = [(i, f) for i, f in enumerate(fields) if i not in keys]

    def rank(item) -> tuple[bool, bool, bool, int]:
        index, field = item
        name = field.name()
        return (
            bool(IDENTIFIER_NAME.search(name)),
            not _integer(field),
            not CLASS_NAME.search(name),
            index,
        )

    ranked = sorted(candidates, key=rank)
    return ranked[0][1].name() if ranked else (fields[0].name() if fields.count() else "")


FIELD_SAMPLE = 2000
"""Features read to tell a class field from an identifier."""


def identifier_message(layer: QgsVectorLayer | None, field: str, class_count: int) -> str | None:
    """A message when ``field`` has more distinct values than ``class_count`` × 10 among the first
    :data:`FIELD_SAMPLE` features (it looks like an identifier, not a class), else None.

    It runs on the main thread at every score: it reads that many features, attribute only and no
    geometry, never the whole layer (``uniqueValues`` scanned a million-polygon GeoPackage for
    1.2 s). An identifier shows itself in the first features; a class field has few values anywhere.
    """
    if not isinstance(layer, QgsVectorLayer) or not field or class_count <= 0:
        return None
    index = layer.fields().indexOf(field)
    if index < 0:
        return None
    limit = class_count * 10
    request = QgsFeatureRequest().setFlags(QgsFeatureRequest.Flag.NoGeometry).setSubsetOfAttributes([index])
    seen = set()
    for feature in layer.getFeatures(request.setLimit(FIELD_SAMPLE)):
        seen.add(feature.attribute(index))
        if len(seen) > limit:
            break
    if len(seen) <= limit:
        return None
    return tr(
        "Field '{field}' looks like an identifier, not a class (more than {limit} different values): "
        "pick the class field."
    ).format(field=field, limit=limit)


def _paletted_single_band(layer) -> bool:
    return (
        isinstance(layer, QgsRasterLayer)
        and layer.isValid()
        and layer.bandCount() == 1
        and isinstance(layer.renderer(), QgsPalettedRasterRenderer)
    )


def is_class_map(layer) -> bool:
    """A class map this plugin made, or a single-band paletted raster."""
    made = isinstance(layer, QgsRasterLayer) and _kind(layer) in vocabulary.CLASS_MAP_KINDS
    return made or _paletted_single_band(layer)


def class_map_layer() -> QgsRasterLayer | None:
    """The class map to pre-select: the top-most (newest) class map this plugin made, else the
    top-most single-band paletted raster; never multi-band imagery."""
    layers = [node.layer() for node in QgsProject.instance().layerTreeRoot().findLayers()]
    for layer in layers:
        if isinstance(layer, QgsRasterLayer) and _kind(layer) in vocabulary.CLASS_MAP_KINDS:
            return layer
    for layer in layers:
        if _paletted_single_band(layer):
            return layer
    return None


def confidence_layer() -> QgsRasterLayer | None:
    """The confidence layer to pre-select: the top-most (newest) one this plugin made, or None."""
    for node in QgsProject.instance().layerTreeRoot().findLayers():
        layer = node.layer()
        if isinstance(layer, QgsRasterLayer) and _kind(layer) == vocabulary.KIND_CONFIDENCE:
            return layer
    return None


def _kind(layer) -> str | None:
    """The plugin's kind tag of ``layer`` (:data:`flair_qgis.core.vocabulary.KIND_PROPERTY`)."""
    return layer.customProperty(vocabulary.KIND_PROPERTY)
