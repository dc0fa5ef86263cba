"""Core outputs as styled QGIS layers, and what the dock shows about a map point.

Class maps get a paletted renderer built from the model's :class:`ClassInfo` (colours and class
names in the legend, the model's name as the legend header). Every layer of a run goes into one
group at the top of the layer tree (:func:`run_group`, :func:`add_to_group`), ordered suspicious
labels, error map, class map, confidence, so the newest result is always the one in sight; removing
the group removes the run. Confidence rasters get a grey ramp from 0 to 1; value maps of regression
heads a pseudocolour ramp stretched over their minimum and maximum.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from qgis.core import (
    QgsColorRampShader,
    QgsCoordinateReferenceSystem,
    QgsCoordinateTransform,
    QgsFeatureRequest,
    QgsGeometry,
    QgsLayerTreeGroup,
    QgsMapLayer,
    QgsPalettedRasterRenderer,
    QgsPointXY,
    QgsProject,
    QgsRaster,
    QgsRasterBandStats,
    QgsRasterLayer,
    QgsRasterShader,
    QgsRectangle,
    QgsSingleBandPseudoColorRenderer,
    QgsStyle,
    QgsVectorLayer,
)
from qgis.PyQt.QtGui import QColor

from ..core import vocabulary
from ..core.nomenclature import ClassInfo
from .layer_tree import add_to_group, set_legend_header


def paletted_renderer(layer: QgsRasterLayer, classes: Sequence[ClassInfo]) -> QgsPalettedRasterRenderer:
    """A paletted renderer showing each class value in its colour, with its name as legend label."""
    entries = [QgsPalettedRasterRenderer.Class(c.value, QColor(c.color), c.name) for c in classes]
    return QgsPalettedRasterRenderer(layer.dataProvider(), 1, entries)


def confidence_renderer(layer: QgsRasterLayer) -> QgsSingleBandPseudoColorRenderer:
    """A black (0) to white (1) ramp for a confidence raster."""
    ramp = QgsColorRampShader(0.0, 1.0)
    ramp.setColorRampType(QgsColorRampShader.Type.Interpolated)
    ramp.setColorRampItemList(
        [
            QgsColorRampShader.ColorRampItem(0.0, QColor("#000000"), "0"),
            QgsColorRampShader.ColorRampItem(1.0, QColor("#ffffff"), "1"),
        ]
    )
    shader = QgsRasterShader()
    shader.setRasterShaderFunction(ramp)
    renderer = QgsSingleBandPseudoColorRenderer(layer.dataProvider(), 1, shader)
    renderer.setClassificationMin(0.0)
    renderer.setClassificationMax(1.0)
    return renderer


def value_renderer(layer: QgsRasterLayer, ramp_name: str = "Viridis") -> QgsSingleBandPseudoColorRenderer:
    """A pseudocolour ramp over band 1, stretched from its minimum to its maximum (NaN is nodata)."""
    stats = layer.dataProvider().bandStatistics(1, QgsRasterBandStats.Stats.Min | QgsRasterBandStats.Stats.Max)
    low, high = float(stats.minimumValue), float(stats.maximumValue)
    if not (math.isfinite(low) and math.isfinite(high)):
        low, high = 0.0, 1.0
    if high <= low:
        high = low + 1.0
    ramp = QgsStyle.defaultStyle().colorRamp(ramp_name)
    renderer = QgsSingleBandPseudoColorRenderer(layer.dataProvider(), 1)
    renderer.setClassificationMin(low)
    renderer.setClassificationMax(high)
    renderer.createShader(
        ramp, QgsColorRampShader.Type.Interpolated, QgsColorRampShader.ClassificationMode.Continuous, 5
    )
    return renderer


def add_above(layer: QgsMapLayer, anchor_id: str | None, project: QgsProject | None = None) -> QgsMapLayer:
    """Add ``layer`` to the project, in the layer tree just above the layer ``anchor_id``.

    Falls back to the top of the tree when the anchor is not in the project any more.
    """
    project = project or QgsProject.instance()
    project.addMapLayer(layer, False)
    root = project.layerTreeRoot()
    anchor = root.findLayer(anchor_id) if anchor_id else None
    if anchor is not None and anchor.parent() is not None:
        parent = anchor.parent()
        index = parent.children().index(anchor)
        parent.insertLayer(index, layer)
    else:
        root.insertLayer(0, layer)
    return layer


def _place(
    layer: QgsMapLayer, anchor_id: str | None, group: QgsLayerTreeGroup | None, project: QgsProject | None
) -> QgsMapLayer:
    if group is not None:
        return add_to_group(layer, group, project)
    return add_above(layer, anchor_id, project)


def add_class_map(
    path: str,
    classes: Sequence[ClassInfo],
    name: str,
    anchor_id: str | None = None,
    *,
    opacity: float = 0.7,
    project: QgsProject | None = None,
    group: QgsLayerTreeGroup | None = None,
    header: str = "",
) -> QgsRasterLayer:
    """Open a class-map GeoTIFF as a layer styled with ``classes``.

    It goes into ``group`` (a run group) when given, else just above the anchor layer; ``header``
    replaces the legend's "Band 1: …" header (the model's name).
    """
    layer = QgsRasterLayer(path, name, "gdal")
    if not layer.isValid():
        raise OSError(f"QGIS cannot open the class map {path}")
    renderer = paletted_renderer(layer, classes)
    renderer.setOpacity(opacity)
    layer.setRenderer(renderer)
    layer.setCustomProperty(vocabulary.KIND_PROPERTY, vocabulary.KIND_CLASS_MAP)
    _place(layer, anchor_id, group, project)
    if header:
        set_legend_header(layer, header, project)
    return layer


def _add_styled(
    path: str,
    name: str,
    renderer,
    kind: str,
    anchor_id: str | None,
    project: QgsProject | None,
    group: QgsLayerTreeGroup | None = None,
) -> QgsRasterLayer:
    layer = QgsRasterLayer(path, name, "gdal")
    if not layer.isValid():
        raise OSError(f"QGIS cannot open the {kind.replace('_', ' ')} raster {path}")
    layer.setRenderer(renderer(layer))
    layer.setCustomProperty(vocabulary.KIND_PROPERTY, kind)
    _place(layer, anchor_id, group, project)
    return layer


def add_confidence(
    path: str,
    name: str,
    anchor_id: str | None = None,
    project: QgsProject | None = None,
    group: QgsLayerTreeGroup | None = None,
) -> QgsRasterLayer:
    """Open a confidence GeoTIFF as a grey-ramp layer and add it, unticked (in ``group`` or above the anchor)."""
    layer = _add_styled(path, name, confidence_renderer, vocabulary.KIND_CONFIDENCE, anchor_id, project, group)
    node = (project or QgsProject.instance()).layerTreeRoot().findLayer(layer.id())
    if node is not None:
        node.setItemVisibilityChecked(False)
    return layer


def add_value_map(
    path: str,
    name: str,
    anchor_id: str | None = None,
    *,
    project: QgsProject | None = None,
    group: QgsLayerTreeGroup | None = None,
) -> QgsRasterLayer:
    """Open a regression head's float GeoTIFF as a pseudocolour layer (in ``group`` or above the anchor)."""
    return _add_styled(path, name, value_renderer, vocabulary.KIND_VALUE_MAP, anchor_id, project, group)


def set_opacity(layer: QgsRasterLayer, opacity: float) -> None:
    """Set a raster layer's opacity (0..1) and repaint it."""
    renderer = layer.renderer()
    if renderer is not None:
        renderer.setOpacity(max(0.0, min(1.0, opacity)))
        layer.triggerRepaint()


def extent_in_crs(
    rect: QgsRectangle, rect_crs: QgsCoordinateReferenceSystem, target_crs: QgsCoordinateReferenceSystem
) -> tuple[float, float, float, float]:
    """A rectangle as ``(xmin, ymin, xmax, ymax)`` in another CRS (its bounding box there).

    Args:
        rect: the rectangle, in ``rect_crs``.
        rect_crs: its CRS.
        target_crs: the CRS wanted (a layer's).

    Returns:
        The extent; ``rect`` as it is when either CRS is invalid or both are the same.
    """
    if rect_crs.isValid() and target_crs.isValid() and rect_crs != target_crs:
        rect = QgsCoordinateTransform(rect_crs, target_crs, QgsProject.instance()).transformBoundingBox(rect)
    return (rect.xMinimum(), rect.yMinimum(), rect.xMaximum(), rect.yMaximum())


def pixel_value(layer: QgsRasterLayer, point: QgsPointXY, point_crs: QgsCoordinateReferenceSystem) -> float | None:
    """Band 1 of ``layer`` at a map point (in ``point_crs``); None outside the layer or on nodata."""
    if layer is None or not layer.isValid():
        return None
    if point_crs.isValid() and layer.crs().isValid() and point_crs != layer.crs():
        transform = QgsCoordinateTransform(point_crs, layer.crs(), QgsProject.instance())
        point = transform.transform(point)
    if not layer.extent().contains(point):
        return None
    result = layer.dataProvider().identify(point, QgsRaster.IdentifyFormat.IdentifyFormatValue)
    if not result.isValid():
        return None
    found = result.results().get(1)
    if found is None:
        return None
    try:
        number = float(found)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(number) else number


def class_name(classes: Sequence[ClassInfo], value: float | None) -> str:
    """``name (value)`` for a class value, ``—`` for none."""
    if value is None:
        return "—"
    code = int(value)
    for c in classes:
        if c.value == code:
            return f"{c.name} ({code})"
    return f"class {code}"


def palette_classes(layer: QgsMapLayer | None) -> tuple[ClassInfo, ...]:
    """The classes of a layer drawn with a paletted renderer (value, legend label, colour); else ()."""
    if not isinstance(layer, QgsRasterLayer) or not isinstance(layer.renderer(), QgsPalettedRasterRenderer):
        return ()
    return tuple(
        ClassInfo(int(c.value), c.label or f"class {int(c.value)}", c.color.name()) for c in layer.renderer().classes()
    )


def vector_value_at(
    layer: QgsVectorLayer, field: str, point: QgsPointXY, point_crs: QgsCoordinateReferenceSystem
) -> tuple[object, int | None]:
    """``(value of field, feature id)`` of the first polygon containing a point; ``(None, None)`` if none."""
    if layer is None or not layer.isValid() or layer.fields().indexOf(field) < 0:
        return None, None
    if point_crs.isValid() and layer.crs().isValid() and point_crs != layer.crs():
        point = QgsCoordinateTransform(point_crs, layer.crs(), QgsProject.instance()).transform(point)
    probe = QgsGeometry.fromPointXY(point)
    request = QgsFeatureRequest().setFilterRect(probe.boundingBox())
    for feature in layer.getFeatures(request):
        if feature.geometry().contains(probe):
            return feature[field], feature.id()
    return None, None


@dataclass(frozen=True)
class PixelReport:
    """What the identify tool shows for one map point.

    Attributes:
        predicted: predicted class value, or None outside the class map / on nodata.
        confidence: probability of the predicted class (0..1), or None.
        reference: reference class value, or None.
    """

    predicted: float | None
    confidence: float | None
    reference: float | None


def identify(
    point: QgsPointXY,
    point_crs: QgsCoordinateReferenceSystem,
    prediction: QgsRasterLayer | None,
    *,
    confidence: QgsRasterLayer | None = None,
    reference: QgsMapLayer | None = None,
    reference_field: str = "",
) -> PixelReport:
    """Predicted class, confidence and reference class at a map point."""
    ref_value = None
    if isinstance(reference, QgsRasterLayer):
        ref_value = pixel_value(reference, point, point_crs)
    elif isinstance(reference, QgsVectorLayer) and reference_field:
        raw, _fid = vector_value_at(reference, reference_field, point, point_crs)
        try:
            ref_value = float(raw) if raw is not None else None
        except (TypeError, ValueError):
            ref_value = None
    conf = pixel_value(confidence, point, point_crs) if confidence is not None else None
    if conf is not None and conf < 0:  # the confidence raster's nodata (-1)
        conf = None
    return PixelReport(pixel_value(prediction, point, point_crs) if prediction is not None else None, conf, ref_value)
