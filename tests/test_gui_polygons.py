"""The Segment tab's "Also as polygons", driven from a 300 px dock: the polygons land in the run's
group over the class map, styled with the class palette, exact or cleaned as asked."""

from __future__ import annotations

import numpy as np
import pytest
import rasterio
from gui_helpers import TOY_CLASSES, add_raster, copy_patch, messages, run_and_wait, toy_model
from layout_helpers import group_kinds, horizontal_overflow, legend_texts, show_at_dock_width, top_nodes
from qgis.core import Qgis, QgsCategorizedSymbolRenderer
from vector_helpers import overlap_area, rasterized, read_polygons, union_area

from flair_qgis.adapters import settings
from flair_qgis.core.vocabulary import EXTENT_LAYER
from flair_qgis.gui.segment.run_section import RunSection


def _ready(plugin, qtbot, tmp_path):
    """The dock at its default width, the toy model on a real FLAIR patch, the output file named."""
    dock = plugin.dock
    show_at_dock_width(dock, qtbot)
    image = add_raster(copy_patch(tmp_path))
    assert dock.set_model(str(toy_model(tmp_path)))
    dock.layer_combo.setLayer(image)
    dock.set_extent_mode(EXTENT_LAYER)
    out = tmp_path / "out" / "classes.tif"
    out.parent.mkdir()
    dock.segment.run_section.output_widget.setFilePath(str(out))
    return dock, out


def test_also_as_polygons_adds_exact_styled_polygons_over_the_class_map(plugin, qgis_iface, qtbot, tmp_path):
    dock, out = _ready(plugin, qtbot, tmp_path)
    assert (
        not dock.segment.run_section.polygons_check.isChecked()
        and not dock.segment.run_section.min_area_spin.isVisible()
    )  # off by default
    dock.confidence_check.setChecked(True)
    dock.segment.run_section.polygons_check.setChecked(True)
    assert dock.segment.run_section.min_area_spin.isVisible() and dock.segment.run_section.min_area_spin.text() == "off"
    assert horizontal_overflow(dock, qtbot) == []

    run_and_wait(qtbot, dock)

    group = top_nodes()[0]
    assert group_kinds(group) == ["polygons", "class_map", "confidence"]
    layer = group.children()[0].layer()
    path = out.parent / "classes_polygons.gpkg"
    assert layer.source().startswith(str(path)) and layer.name().endswith(" — polygons")
    frame = read_polygons(path)
    assert layer.featureCount() == len(frame) > 10
    with rasterio.open(out) as src:
        assert np.array_equal(rasterized(frame, out), src.read(1))  # uncleaned: the class map, pixel for pixel
    assert frame["confidence"].between(0, 1).all()
    # The class palette, the class names in the legend.
    renderer = layer.renderer()
    assert isinstance(renderer, QgsCategorizedSymbolRenderer) and renderer.classAttribute() == "class"
    colors = {int(c.value()): c.symbol().color().name() for c in renderer.categories()}
    assert colors == {c["value"]: c["color"] for c in TOY_CLASSES}
    assert legend_texts(layer) == [c["name"] for c in TOY_CLASSES]
    info = messages(qgis_iface, Qgis.Info)
    assert any(f"{len(frame)} polygon(s) written to {path}" in text for text in info), info
    assert messages(qgis_iface, Qgis.Critical) == []


def _edges(geometry):
    """``(dx, dy)`` of every edge of a polygon's rings."""
    rings = [geometry.exterior, *geometry.interiors]
    return [np.diff(np.asarray(ring.coords), axis=0) for ring in rings]


def test_polygon_cleaning_from_the_dock_and_remembered(plugin, qgis_iface, qtbot, tmp_path):
    dock, out = _ready(plugin, qtbot, tmp_path)
    dock.segment.run_section.polygons_check.setChecked(True)
    dock.segment.run_section.min_area_spin.setValue(5)

    run_and_wait(qtbot, dock)
    with rasterio.open(out) as src:
        valid_m2 = (src.read_masks(1) > 0).sum() * abs(src.transform.a * src.transform.e)
    merged = read_polygons(out.parent / "classes_polygons.gpkg")
    assert merged["area_m2"].min() >= 5 and merged["area_m2"].sum() == pytest.approx(valid_m2)

    dock.segment.run_section.simplify_spin.setValue(0.4)
    run_and_wait(qtbot, dock)
    simplified = read_polygons(out.parent / "classes_polygons.gpkg")
    # One coverage still: valid, no overlap, no gap; and edges that are no longer pixel edges.
    assert simplified.geometry.is_valid.all()
    assert overlap_area(simplified) == pytest.approx(0, abs=1e-6)
    assert union_area(simplified) == pytest.approx(valid_m2)
    edges = np.concatenate([e for geometry in simplified.geometry for e in _edges(geometry)])
    assert (np.abs(edges).min(axis=1) > 1e-9).any()  # diagonal edges
    assert group_kinds(top_nodes()[0]) == ["polygons", "class_map"]
    # The next dock starts with the same choice.
    assert settings.bool_value("polygons", False) and settings.float_value("polygon_min_area_m2", 0) == 5
    again = RunSection()
    assert again.polygons_check.isChecked() and again.simplify_spin.value() == pytest.approx(0.4)
    assert messages(qgis_iface, Qgis.Critical) == []
