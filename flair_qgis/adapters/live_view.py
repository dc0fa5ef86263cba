""" "Follow the view"'s one live class-map layer: shown, repointed at each view, released.

The live layer lives in one group of its own at the top of the layer tree, above earlier runs
whose class maps would hide it; each view points the same layer (same id, same style, the user's
opacity) at the new file and raises that group again, so following the view never piles up
layers or groups. The widget side is :mod:`flair_qgis.gui.evaluate.follow_view`.
"""

from __future__ import annotations

from qgis.core import QgsRasterLayer

from ..core import vocabulary
from ..core.atomic import remove_outputs
from ..i18n import localized, tr
from .layer_tree import group_of, model_name, on_top, reveal, run_group
from .layers import add_class_map, paletted_renderer

LIVE_KIND = vocabulary.KIND_LIVE_VIEW


def show_live_layer(layer: QgsRasterLayer | None, path: str, prepared) -> QgsRasterLayer:
    """Point the live layer at ``path``, creating it when there is none yet; the previous file goes.

    Args:
        layer: the live layer, or None the first time.
        path: the class map of the new view.
        prepared: the segmentation run that wrote it (:func:`flair_qgis.adapters.segment_request.prepare_segment`).

    Returns:
        The live layer.
    """
    classes = localized(prepared.plan.heads.primary.classes)
    group_name = tr("FLAIR live view — {model}").format(model=model_name(prepared.plan.model))
    if layer is None:
        group = run_group(group_name)
        layer = add_class_map(
            path, classes, prepared.title, opacity=prepared.opacity, group=group, header=model_name(prepared.plan.model)
        )
        layer.setCustomProperty(vocabulary.KIND_PROPERTY, LIVE_KIND)
        reveal(group)
        return layer
    previous = layer.source()
    opacity = layer.renderer().opacity() if layer.renderer() else prepared.opacity
    layer.setDataSource(path, layer.name(), "gdal", False)  # False: no default style, ours follows
    renderer = paletted_renderer(layer, classes)
    renderer.setOpacity(opacity)
    layer.setRenderer(renderer)
    layer.triggerRepaint()
    on_top(layer.id(), group_name)
    if previous != path:
        remove_outputs(previous)
    return layer


def release_live_layer(layer: QgsRasterLayer | None) -> None:
    """The live layer becomes an ordinary class-map layer the user keeps, its group an ordinary run group."""
    if layer is None:
        return
    layer.setCustomProperty(vocabulary.KIND_PROPERTY, vocabulary.KIND_CLASS_MAP)
    group = group_of(layer.id())
    if group is not None:
        group.setName(group.name().replace(tr("FLAIR live view"), tr("FLAIR view")))
