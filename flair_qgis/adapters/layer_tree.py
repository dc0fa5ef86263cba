"""Where the plugin's layers go in the layer tree: one group per run, at the top.

Every layer of a run goes into one group at the top of the layer tree, ordered suspicious labels,
error map, polygons, class map, confidence, so the newest result is always the one in sight. Removing the
group removes the run (QGIS removes layers that leave the tree from the project).
"""

from __future__ import annotations

import datetime

from qgis.core import (
    QgsLayerTreeGroup,
    QgsLayerTreeLayer,
    QgsMapLayer,
    QgsMapLayerLegendUtils,
    QgsProject,
    QgsSimpleLegendNode,
)

from ..core import vocabulary
from ..i18n import decimal
from ..i18n.model_texts import model_text

RUN_GROUP_PROPERTY = "flair_qgis/run_group"
# Top to bottom inside a run's group: what the user asked for last lies on top of what it explains.
_KIND_ORDER = {
    vocabulary.KIND_SUSPICIOUS_LABELS: 0,
    vocabulary.KIND_ERROR_MAP: 1,
    vocabulary.KIND_POLYGONS: 2,
    vocabulary.KIND_CLASS_MAP: 3,
    vocabulary.KIND_LIVE_VIEW: 3,
    vocabulary.KIND_HEAD_CLASS_MAP: 4,
    vocabulary.KIND_VALUE_MAP: 4,
    vocabulary.KIND_CONFIDENCE: 5,
}


def run_group(name: str, project: QgsProject | None = None) -> QgsLayerTreeGroup:
    """A new group for one run's layers, at the top of the layer tree."""
    root = (project or QgsProject.instance()).layerTreeRoot()
    group = root.insertGroup(0, name)
    group.setCustomProperty(RUN_GROUP_PROPERTY, True)
    group.setExpanded(True)  # the newest run's layers and legends in sight
    return group


def reveal(group: QgsLayerTreeGroup) -> None:
    """Show a run group open in the Layers panel, its layers and legends in sight.

    The panel does not open a group that was empty when it appeared, whatever the node says; a
    collapse and re-expand once its layers are in tells it.
    """
    for node in (group, *group.children()):
        node.setExpanded(False)
        node.setExpanded(True)


def group_of(layer_id: str | None, project: QgsProject | None = None) -> QgsLayerTreeGroup | None:
    """The run group holding a layer, or None when the layer is not in one."""
    node = (project or QgsProject.instance()).layerTreeRoot().findLayer(layer_id) if layer_id else None
    parent = node.parent() if node is not None else None
    while isinstance(parent, QgsLayerTreeGroup):
        if parent.customProperty(RUN_GROUP_PROPERTY):
            return parent
        parent = parent.parent()
    return None


def run_confidence(prediction: QgsMapLayer | None, project: QgsProject | None = None) -> QgsMapLayer | None:
    """The confidence layer written by the same run as a class map (in its run group), or None."""
    group = group_of(prediction.id(), project) if prediction is not None else None
    for node in group.findLayers() if group is not None else ():
        layer = node.layer()
        if layer is not None and layer.customProperty(vocabulary.KIND_PROPERTY) == vocabulary.KIND_CONFIDENCE:
            return layer
    return None


def raise_group(group: QgsLayerTreeGroup, project: QgsProject | None = None) -> QgsLayerTreeGroup:
    """Move a run group to the top of the layer tree; returns the group node now in the tree.

    The group is copied to the top before the old node is removed, so its layers never leave the
    tree (QGIS would remove them from the project).
    """
    root = (project or QgsProject.instance()).layerTreeRoot()
    parent = group.parent()
    if parent is root and root.children().index(group) == 0:
        return group
    moved = group.clone()
    root.insertChildNode(0, moved)
    parent.removeChildNode(group)
    return moved


def on_top(layer_id: str, name: str, project: QgsProject | None = None) -> QgsLayerTreeGroup | None:
    """Raise the run group of a layer to the top of the layer tree; returns the group node now in the tree.

    A layer in no run group (the user dragged it out) gets a new one named ``name``, at the top.
    None when the layer is not in the tree.
    """
    project = project or QgsProject.instance()
    node = project.layerTreeRoot().findLayer(layer_id)
    if node is None:
        return None
    group = group_of(layer_id, project)
    if group is not None:
        return raise_group(group, project)
    group = run_group(name, project)
    group.insertChildNode(0, node.clone())  # in the tree twice for a moment: the layer never leaves the project
    node.parent().removeChildNode(node)
    return group


def add_to_group(layer: QgsMapLayer, group: QgsLayerTreeGroup, project: QgsProject | None = None) -> QgsMapLayer:
    """Add ``layer`` to the project inside a run group, at its place by ``flair_qgis/kind``."""
    (project or QgsProject.instance()).addMapLayer(layer, False)
    rank = _KIND_ORDER.get(layer.customProperty(vocabulary.KIND_PROPERTY), len(_KIND_ORDER))
    ranks = [
        _KIND_ORDER.get(child.layer().customProperty(vocabulary.KIND_PROPERTY), len(_KIND_ORDER))
        if isinstance(child, QgsLayerTreeLayer) and child.layer() is not None
        else len(_KIND_ORDER)
        for child in group.children()
    ]
    group.insertLayer(sum(1 for r in ranks if r <= rank), layer)
    return layer


def set_legend_header(layer: QgsMapLayer, text: str, project: QgsProject | None = None) -> bool:
    """Replace a raster layer's legend header ("Band 1: … (Palette)") by ``text``; False if it has none.

    The label is the layer tree's user label of the header node, as when a user renames it.
    """
    node = (project or QgsProject.instance()).layerTreeRoot().findLayer(layer.id())
    if node is None or layer.legend() is None:
        return False
    for index, legend_node in enumerate(layer.legend().createLayerTreeModelLegendNodes(node)):
        if isinstance(legend_node, QgsSimpleLegendNode):
            QgsMapLayerLegendUtils.setLegendNodeUserLabel(node, index, text)
            # The Layers panel built the legend when the layer came in: have it rebuilt.
            layer.legend().itemsChanged.emit()
            return True
    return False


def model_name(model) -> str:
    """A model as a person names it (:attr:`ModelInfo.display_name`; a bundled model's in the user's language)."""
    return model_text(model.display_name)


def extent_text(width_m: float, height_m: float) -> str:
    """An extent's size as people say it, in the locale's numbers: ``102 × 102 m``, ``1.2 × 3.4 km`` (French: 1,2)."""
    if max(width_m, height_m) >= 10_000:
        return f"{decimal(width_m / 1000)} × {decimal(height_m / 1000)} km"
    return f"{decimal(width_m, 0)} × {decimal(height_m, 0)} m"


def run_group_name(model: str, width_m: float, height_m: float, when: datetime.datetime | None = None) -> str:
    """The name of a run's group: the model, the extent and the time (``demo — 102 × 102 m — 14:32``)."""
    when = when or datetime.datetime.now()
    return f"{model} — {extent_text(width_m, height_m)} — {when:%H:%M:%S}"
