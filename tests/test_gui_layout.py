"""Where results land and how they read: one group per run at the top, legends a person can read."""

from __future__ import annotations

from gui_helpers import add_raster, copy_patch, messages, run_and_wait, toy_model
from layout_helpers import group_kinds, legend_texts, mask_polygons, top_nodes
from qgis.core import Qgis, QgsLayerTreeGroup, QgsPalettedRasterRenderer, QgsProject

from flair_qgis.adapters.segment_request import EXTENT_LAYER
from flair_qgis.core.nomenclature import FLAIR1_CLASSES


def _score(qa, qtbot, reference, field=""):
    qa.reference_combo.setLayer(reference)
    if field:
        qa.field_combo.setField(field)
    qa.protocol_combo.setCurrentIndex(qa.protocol_combo.findData("flair1"))
    qa.error_check.setChecked(True)
    qa.suspicious_check.setChecked(True)
    assert qa.score_view() is not None
    qtbot.waitUntil(lambda: qa.task is None, timeout=60000)
    assert qa.report is not None


def test_run_and_score_land_on_top_in_one_group_per_run(plugin, qgis_iface, qgis_canvas, qtbot, tmp_path):
    dock = plugin.dock
    image = add_raster(copy_patch(tmp_path))
    polygons = mask_polygons(copy_patch(tmp_path, "MSK_000473.tif"))
    QgsProject.instance().addMapLayer(polygons)
    dock.set_model(str(toy_model(tmp_path)))
    dock.layer_combo.setLayer(image)
    dock.set_extent_mode(EXTENT_LAYER)
    dock.confidence_check.setChecked(True)

    run_and_wait(qtbot, dock)
    first = top_nodes()[0]
    assert isinstance(first, QgsLayerTreeGroup)
    # Named for the model, the extent and the time.
    assert first.name().startswith("toy5 — 102 × 102 m — ")
    assert group_kinds(first) == ["class_map", "confidence"]
    class_map = first.children()[0].layer()
    # The legend header is the model, not "Band 1: … (Palette)"; then the class names.
    assert legend_texts(class_map) == ["toy5", "red", "green", "blue", "infrared", "elevation"]

    qgis_canvas.setDestinationCrs(image.crs())
    qgis_canvas.setExtent(image.extent())
    _score(dock.qa, qtbot, polygons, "code")
    group = top_nodes()[0]
    assert class_map.id() in group.findLayerIds()
    assert group_kinds(group) == ["suspicious_labels", "error_map", "class_map", "confidence"]
    # Nothing of the run is left outside its group, and the user's layers stay below.
    assert [n.name() for n in top_nodes()[1:]] == [polygons.name(), image.name()]

    # A second run goes on top; scoring the first run's class map again raises its group.
    run_and_wait(qtbot, dock)
    assert group_kinds(top_nodes()[0]) == ["class_map", "confidence"]
    dock.qa.use_prediction(class_map)
    _score(dock.qa, qtbot, polygons, "code")
    assert class_map.id() in top_nodes()[0].findLayerIds()
    assert group_kinds(top_nodes()[0]) == ["suspicious_labels", "error_map", "class_map", "confidence"]
    assert messages(qgis_iface, Qgis.Critical) == []

    # Removing the group removes the run from the project.
    run_ids = {child.layerId() for child in top_nodes()[0].findLayers()}
    QgsProject.instance().layerTreeRoot().removeChildNode(top_nodes()[0])
    qtbot.waitUntil(lambda: not run_ids & set(QgsProject.instance().mapLayers()), timeout=5000)
    assert image.id() in QgsProject.instance().mapLayers()


def test_error_map_reads_as_errors_not_as_a_class_map(plugin, qgis_canvas, qtbot, tmp_path):
    dock = plugin.dock
    image = add_raster(copy_patch(tmp_path))
    mask = add_raster(copy_patch(tmp_path, "MSK_000473.tif"))
    dock.set_model(str(toy_model(tmp_path)))
    dock.layer_combo.setLayer(image)
    dock.set_extent_mode(EXTENT_LAYER)
    run_and_wait(qtbot, dock)
    qgis_canvas.setDestinationCrs(image.crs())
    qgis_canvas.setExtent(image.extent())
    _score(dock.qa, qtbot, mask)

    error_map = top_nodes()[0].children()[0].layer()
    assert error_map.customProperty("flair_qgis/kind") == "error_map"
    renderer = error_map.renderer()
    assert isinstance(renderer, QgsPalettedRasterRenderer)
    entries = {int(c.value): c for c in renderer.classes()}
    # Correct pixels: a light see-through grey; not evaluated: transparent.
    assert entries[1].label == "correct" and entries[1].color.alpha() < 255
    assert min(entries[1].color.red(), entries[1].color.green(), entries[1].color.blue()) >= 200
    assert entries[0].color.alpha() == 0
    # Wrong pixels: "missed: deciduous (7)", in one red scale, never the class colours.
    deciduous = entries[2 + 6]
    assert deciduous.label == "missed: deciduous (7)"
    class_colours = {c.color for c in FLAIR1_CLASSES}
    for value, entry in entries.items():
        if value >= 2:
            assert entry.label.startswith("missed: ")
            assert entry.color.name() not in class_colours and entry.color.alpha() == 255
            assert entry.color.red() > 2 * max(entry.color.green(), entry.color.blue())  # red
    # A readable header, not a truncated band description.
    assert legend_texts(error_map)[0] == "Errors: the reference class the model missed"


def test_demo_model_is_in_the_picker_from_the_first_start(plugin):
    dock = plugin.dock  # fresh settings: nothing used yet
    labels = [dock.model_combo.itemText(i) for i in range(dock.model_combo.count())]
    assert labels == ["Demo model (FLAIR, 6 patches — low accuracy)"]
    demo = dock.model_combo.itemData(0)
    assert demo.endswith("resources/models/flair-demo-unet.onnx")
    # The dock opens on it, ready to run: no "No model chosen".
    assert dock.model is not None and dock.model.path == demo
    assert dock.model_combo.currentIndex() == 0
