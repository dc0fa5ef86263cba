"""The FLAIR dock driven as a user does: model, layer, extent, Run; then the layer that appears."""

from __future__ import annotations

import os
import re

import numpy as np
import pytest
import rasterio
from gui_helpers import (
    TOY_CLASSES,
    add_raster,
    big_raster,
    copy_patch,
    expected_classes,
    messages,
    run_and_wait,
    toy_model,
    wait_for_task,
)
from qgis.core import (
    Qgis,
    QgsApplication,
    QgsFeature,
    QgsGeometry,
    QgsMapRendererParallelJob,
    QgsMapSettings,
    QgsPalettedRasterRenderer,
    QgsPointXY,
    QgsProject,
    QgsRasterLayer,
    QgsRectangle,
    QgsVectorLayer,
)
from qgis.PyQt.QtCore import QSize, Qt
from qgis.PyQt.QtGui import QColor
from qgis.PyQt.QtWidgets import QLabel

from flair_qgis.adapters import settings
from flair_qgis.core.engine.grid import affine_xy
from flair_qgis.core.vocabulary import EXTENT_CANVAS, EXTENT_DRAWN, EXTENT_LAYER, EXTENT_POLYGONS
from flair_qgis.i18n import tr


def new_result_layers(before: set[str]) -> list[QgsRasterLayer]:
    return [lyr for lid, lyr in QgsProject.instance().mapLayers().items() if lid not in before]


def test_run_over_layer_extent_adds_styled_class_map(plugin, qgis_iface, qtbot, tmp_path):
    dock = plugin.dock
    assert "FLAIR" in dock.windowTitle()
    image = copy_patch(tmp_path)
    layer = add_raster(image)
    model = toy_model(tmp_path)
    assert dock.set_model(str(model))
    dock.layer_combo.setLayer(layer)
    assert dock.bands() == (1, 2, 3, 4, 5)
    dock.set_extent_mode(EXTENT_LAYER)
    out = tmp_path / "out" / "classes.tif"
    out.parent.mkdir()
    dock.segment.run_section.output_widget.setFilePath(str(out))
    before = set(QgsProject.instance().mapLayers())
    log: list[tuple[str, str]] = []
    QgsApplication.messageLog().messageReceived.connect(lambda text, tag, _level: log.append((tag, text)))

    run_and_wait(qtbot, dock)

    added = new_result_layers(before)
    assert len(added) == 1
    result = added[0]
    assert result.source() == str(out)
    with rasterio.open(image) as src:
        expected = expected_classes(src.read())
    with rasterio.open(out) as dst:
        assert (dst.read(1) == expected).all()
    # Legend: the model's palette with class names, in the model's colours.
    renderer = result.renderer()
    assert isinstance(renderer, QgsPalettedRasterRenderer)
    got = {(c.value, c.label, c.color.name()) for c in renderer.classes()}
    assert got == {(c["value"], c["name"], c["color"]) for c in TOY_CLASSES}
    legend = [label for label, _color in result.legendSymbologyItems()]
    assert legend == [c["name"] for c in TOY_CLASSES]
    # On top of the layer tree (in the run's group), so the result is in sight.
    order = [n.layerId() for n in QgsProject.instance().layerTreeRoot().findLayers()]
    assert order.index(result.id()) == 0 and order.index(layer.id()) == 1
    # The message bar says it in plain words; the FLAIR log keeps the provider and the speed.
    info = messages(qgis_iface, Qgis.Info)
    assert any(re.fullmatch(r"FLAIR:Segmented 0\.01 km² on the CPU in \d+\.\d s", text) for text in info), info
    assert any(tag == "FLAIR" and "CPUExecutionProvider" in text and "km²/h" in text for tag, text in log)
    # Opacity slider drives the result layer.
    assert dock.segment.result_section.opacity_slider.isEnabled()
    dock.segment.result_section.opacity_slider.setValue(35)
    assert result.renderer().opacity() == pytest.approx(0.35)
    # The model is remembered.
    assert settings.recent_models()[0] == str(model)


def test_canvas_extent_run_and_render_overlay(plugin, qgis_iface, qgis_canvas, qtbot, tmp_path):
    dock = plugin.dock
    image = copy_patch(tmp_path)
    layer = add_raster(image)
    dock.set_model(str(toy_model(tmp_path)))
    dock.layer_combo.setLayer(layer)
    crs = layer.crs()
    qgis_canvas.setDestinationCrs(crs)
    full = layer.extent()
    view = QgsRectangle(full.xMinimum() + 20, full.yMinimum() + 30, full.xMinimum() + 60, full.yMinimum() + 60)
    qgis_canvas.setExtent(view)
    dock.set_extent_mode(EXTENT_CANVAS)
    # The canvas adjusts the view to its aspect ratio; what lies outside the patch is not run.
    view = qgis_canvas.extent().intersect(full)
    assert view.width() > 20 and view.height() > 20
    dock.confidence_check.setChecked(True)
    before = set(QgsProject.instance().mapLayers())

    run_and_wait(qtbot, dock)

    added = new_result_layers(before)
    class_map = next(lyr for lyr in added if lyr.customProperty("flair_qgis/kind") == "class_map")
    confidence = next(lyr for lyr in added if lyr.customProperty("flair_qgis/kind") == "confidence")
    with rasterio.open(class_map.source()) as dst:
        left, bottom, right, top = dst.bounds
        classes = dst.read(1)
        res = dst.res[0]
        # The grid covers the view, snapped outwards to whole pixels of the imagery.
        assert left <= view.xMinimum() < left + res and right - res < view.xMaximum() <= right
        assert bottom <= view.yMinimum() < bottom + res and top - res < view.yMaximum() <= top
        with rasterio.open(image) as src:
            window = src.window(left, bottom, right, top)
            expected = expected_classes(src.read(window=window))
    assert (classes == expected).all()
    with rasterio.open(confidence.source()) as conf:
        values = conf.read(1)
    assert values.shape == classes.shape and (values > 0).all() and (values <= 1).all()

    # Render the map with the overlay: not blank, and the palette's colours are there.
    map_settings = QgsMapSettings()
    map_settings.setLayers([class_map, layer])
    map_settings.setDestinationCrs(crs)
    map_settings.setExtent(view)
    map_settings.setOutputSize(QSize(200, 200))
    map_settings.setBackgroundColor(QColor("white"))
    job = QgsMapRendererParallelJob(map_settings)
    job.start()
    job.waitForFinished()
    rendered = job.renderedImage()
    png = tmp_path / "overlay.png"
    assert rendered.save(str(png))
    assert png.stat().st_size > 1000
    colors = {rendered.pixelColor(x, y).name() for x in range(0, 200, 7) for y in range(0, 200, 7)}
    assert len(colors) > 5 and colors != {"#ffffff"}


def test_selected_polygons_mask_outside(plugin, qtbot, tmp_path):
    dock = plugin.dock
    image = copy_patch(tmp_path)
    layer = add_raster(image)
    dock.set_model(str(toy_model(tmp_path)))
    dock.layer_combo.setLayer(layer)
    full = layer.extent()
    x0, y0 = full.xMinimum(), full.yMinimum()
    triangle = [QgsPointXY(x0 + 10, y0 + 10), QgsPointXY(x0 + 60, y0 + 15), QgsPointXY(x0 + 20, y0 + 70)]
    polygons = QgsVectorLayer("Polygon?crs=EPSG:2154", "areas", "memory")
    feature = QgsFeature()
    feature.setGeometry(QgsGeometry.fromPolygonXY([triangle]))
    other = QgsFeature()
    other.setGeometry(QgsGeometry.fromRect(QgsRectangle(x0 + 80, y0 + 80, x0 + 90, y0 + 90)))
    polygons.dataProvider().addFeatures([feature, other])
    QgsProject.instance().addMapLayer(polygons)
    polygons.selectByIds([f.id() for f in polygons.getFeatures()][:1])  # only the triangle
    dock.set_extent_mode(EXTENT_POLYGONS)
    dock.segment.extent_section.polygon_combo.setLayer(polygons)
    before = set(QgsProject.instance().mapLayers())

    run_and_wait(qtbot, dock)

    (result,) = new_result_layers(before)
    from shapely.geometry import Point, Polygon

    shape = Polygon([(p.x(), p.y()) for p in triangle])
    with rasterio.open(result.source()) as dst:
        classes = dst.read(1)
        nodata = dst.nodata
        transform = dst.transform
        left, bottom, right, top = dst.bounds
    # The grid is the triangle's bounding box.
    assert left <= x0 + 10 and right >= x0 + 60 and bottom <= y0 + 10 and top >= y0 + 70
    with rasterio.open(image) as src:
        expected = expected_classes(src.read(window=src.window(left, bottom, right, top)))
    inside = np.zeros(classes.shape, dtype=bool)
    for row in range(classes.shape[0]):
        for col in range(classes.shape[1]):
            x, y = affine_xy(transform, col + 0.5, row + 0.5)
            inside[row, col] = shape.contains(Point(x, y))
    assert inside.sum() > 1000 and (~inside).sum() > 1000
    assert (classes[~inside] == nodata).all()
    assert (classes[inside] == expected[inside]).all()


def test_drawn_rectangle_extent(plugin, qgis_canvas, qtbot, tmp_path):
    dock = plugin.dock
    image = copy_patch(tmp_path)
    layer = add_raster(image)
    dock.set_model(str(toy_model(tmp_path)))
    dock.layer_combo.setLayer(layer)
    dock.set_extent_mode(EXTENT_DRAWN)
    assert dock.segment.extent_section.draw_button.isVisible() or not dock.isVisible()
    dock.segment.extent_section.draw_button.setChecked(True)
    assert qgis_canvas.mapTool() is dock.segment.extent_section.rectangle_tool
    full = layer.extent()
    rect = QgsRectangle(full.xMinimum() + 4, full.yMinimum() + 4, full.xMinimum() + 16.4, full.yMinimum() + 9.8)
    dock.segment.extent_section.rectangle_tool.rectangle_drawn.emit(rect)  # what a drag on the map emits
    assert not dock.segment.extent_section.draw_button.isChecked()
    before = set(QgsProject.instance().mapLayers())
    dock.segment.extent_section.drawn_crs = layer.crs().authid()
    run_and_wait(qtbot, dock)
    (result,) = new_result_layers(before)
    with rasterio.open(result.source()) as dst:
        assert dst.width == 62 and dst.height == 29


def test_choosing_an_extent_mode_shows_its_fields_and_is_remembered(plugin):
    """The polygon picker shows for "Selected polygons", the draw button for "Rectangle drawn" (the combo
    drives them), and the Area row is there once."""
    section = plugin.dock.segment.extent_section
    for mode, shown, hidden in (
        (EXTENT_POLYGONS, section.polygon_combo, section.draw_button),
        (EXTENT_DRAWN, section.draw_button, section.polygon_combo),
        (EXTENT_CANVAS, None, section.polygon_combo),
    ):
        section.extent_combo.setCurrentIndex(section.extent_combo.findData(mode))  # what a user's choice does
        assert shown is None or not shown.isHidden(), mode
        assert hidden.isHidden(), mode
        assert settings.value("extent_mode") == mode
    areas = [label for label in section.findChildren(QLabel) if label.text() == tr("Area")]
    assert len(areas) == 1


def test_model_that_cannot_feed_from_layer_disables_run(plugin, tmp_path):
    dock = plugin.dock
    three = tmp_path / "rgb.tif"
    with rasterio.open(copy_patch(tmp_path)) as src:
        profile = src.profile | {"count": 3}
        data = src.read([1, 2, 3])
    with rasterio.open(three, "w", **profile) as dst:
        dst.write(data)
    layer = add_raster(three)
    dock.set_model(str(toy_model(tmp_path, 5)))
    dock.layer_combo.setLayer(layer)
    assert not dock.segment.run_section.run_button.isEnabled()
    assert (
        "5 bands" in dock.segment.run_section.reason_label.text()
        and "3" in dock.segment.run_section.reason_label.text()
    )
    # A three-band model runs from it.
    dock.set_model(str(toy_model(tmp_path, 3)))
    assert dock.segment.run_section.run_button.isEnabled(), dock.segment.run_section.reason_label.text()
    assert dock.segment.run_section.reason_label.text() == ""


def test_unreadable_model_shows_reason(plugin, tmp_path):
    dock = plugin.dock
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"not a model at all")
    assert not dock.set_model(str(bad))
    assert "not a readable ONNX model" in dock.segment.model_section.model_card.summary.text()
    assert not dock.segment.run_section.run_button.isEnabled()


def test_extent_outside_layer_is_a_message_not_a_task(plugin, qgis_iface, qgis_canvas, tmp_path):
    dock = plugin.dock
    layer = add_raster(copy_patch(tmp_path))
    dock.set_model(str(toy_model(tmp_path)))
    dock.layer_combo.setLayer(layer)
    qgis_canvas.setDestinationCrs(layer.crs())
    full = layer.extent()
    qgis_canvas.setExtent(
        QgsRectangle(full.xMaximum() + 100, full.yMaximum() + 100, full.xMaximum() + 200, full.yMaximum() + 200)
    )
    dock.set_extent_mode(EXTENT_CANVAS)
    before = set(QgsProject.instance().mapLayers())
    assert dock.segment.run() is None
    assert dock.segment.task is None
    warnings = " ".join(messages(qgis_iface, Qgis.Warning))
    assert "does not intersect" in warnings
    assert messages(qgis_iface, Qgis.Critical) == []
    assert set(QgsProject.instance().mapLayers()) == before


def test_no_selected_polygon_is_a_message(plugin, qgis_iface, tmp_path):
    dock = plugin.dock
    layer = add_raster(copy_patch(tmp_path))
    dock.set_model(str(toy_model(tmp_path)))
    dock.layer_combo.setLayer(layer)
    polygons = QgsVectorLayer("Polygon?crs=EPSG:2154", "areas", "memory")
    QgsProject.instance().addMapLayer(polygons)
    dock.set_extent_mode(EXTENT_POLYGONS)
    dock.segment.extent_section.polygon_combo.setLayer(polygons)
    assert dock.segment.run() is None
    assert any("No polygon is selected" in m for m in messages(qgis_iface, Qgis.Warning))


def test_cuda_asked_without_cuda_warns_and_runs_on_cpu(plugin, qgis_iface, qtbot, tmp_path):
    from flair_qgis.core.engine.sessions import cuda_available

    if cuda_available():
        pytest.skip("this machine has CUDA")
    dock = plugin.dock
    layer = add_raster(copy_patch(tmp_path))
    dock.set_model(str(toy_model(tmp_path)))
    dock.layer_combo.setLayer(layer)
    dock.set_extent_mode(EXTENT_LAYER)
    dock.segment.run_section.device_combo.setCurrentIndex(dock.segment.run_section.device_combo.findData("cuda"))
    assert "CPU" in dock.segment.run_section.device_warning.text()
    run_and_wait(qtbot, dock)
    warnings = " ".join(messages(qgis_iface, Qgis.Warning))
    assert "CUDA" in warnings and "CPU" in warnings
    assert "on the CPU" in " ".join(messages(qgis_iface, Qgis.Info))
    assert settings.device() == "cuda"


def _start_long_run(plugin, tmp_path):
    dock = plugin.dock
    source = big_raster(tmp_path / "in" / "big.tif")
    layer = add_raster(source)
    dock.set_model(str(toy_model(tmp_path)))
    dock.layer_combo.setLayer(layer)
    dock.set_extent_mode(EXTENT_LAYER)
    dock.segment.run_section.tile_spin.setValue(64)
    dock.segment.run_section.overlap_spin.setValue(0)
    dock.segment.run_section.batch_spin.setValue(1)
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    dock.segment.run_section.output_widget.setFilePath(str(out_dir / "classes.tif"))
    dock.confidence_check.setChecked(True)
    task = dock.segment.run()
    assert task is not None
    return dock, layer, out_dir, task


def test_cancel_mid_run_leaves_no_layer_and_no_file(plugin, qgis_iface, qtbot, tmp_path):
    before = None
    dock, _layer, out_dir, task = _start_long_run(plugin, tmp_path)
    before = set(QgsProject.instance().mapLayers())
    qtbot.waitUntil(lambda: task.progress() > 0, timeout=30000)
    assert dock.segment.run_section.cancel_button.isEnabled()
    qtbot.mouseClick(dock.segment.run_section.cancel_button, Qt.LeftButton)
    wait_for_task(qtbot, dock)
    assert set(QgsProject.instance().mapLayers()) == before
    assert list(out_dir.iterdir()) == []
    assert any("Canceled" in m for m in messages(qgis_iface, Qgis.Info))
    assert messages(qgis_iface, Qgis.Critical) == []
    assert dock.segment.run_section.run_button.isEnabled()


def test_layer_removed_while_running_ends_cleanly(plugin, qgis_iface, qtbot, tmp_path):
    dock, layer, out_dir, task = _start_long_run(plugin, tmp_path)
    qtbot.waitUntil(lambda: task.progress() > 0, timeout=30000)
    QgsProject.instance().removeMapLayer(layer.id())
    wait_for_task(qtbot, dock)
    assert list(out_dir.iterdir()) == []
    assert any("was removed from the project" in m for m in messages(qgis_iface, Qgis.Warning))
    assert messages(qgis_iface, Qgis.Critical) == []
    assert [lyr for lyr in QgsProject.instance().mapLayers().values() if lyr.customProperty("flair_qgis/kind")] == []


def test_identify_shows_predicted_confidence_and_reference(plugin, qtbot, tmp_path):
    dock = plugin.dock
    image = copy_patch(tmp_path)
    mask = copy_patch(tmp_path, "MSK_000473.tif")
    layer = add_raster(image)
    reference = add_raster(mask)
    reference.setCrs(layer.crs())  # the FLAIR masks carry a LOCAL_CS Lambert-93 CRS
    dock.set_model(str(toy_model(tmp_path)))
    dock.layer_combo.setLayer(layer)
    dock.set_extent_mode(EXTENT_LAYER)
    dock.confidence_check.setChecked(True)
    run_and_wait(qtbot, dock)
    qa = dock.qa
    assert qa.prediction_combo.currentLayer().customProperty("flair_qgis/kind") == "class_map"
    qa.reference_combo.setLayer(reference)
    with rasterio.open(image) as src, rasterio.open(mask) as msk:
        row, col = 100, 321
        x, y = src.xy(row, col)
        predicted = int(expected_classes(src.read(window=((row, row + 1), (col, col + 1))))[0, 0])
        ref_value = int(msk.read(1)[row, col])
    text = qa.identify_at(QgsPointXY(x, y))
    name = next(c["name"] for c in TOY_CLASSES if c["value"] == predicted)
    assert f"Predicted: {name} ({predicted})" in text
    # The reference is named by the protocol (FLAIR #1 codes by default).
    from flair_qgis.core.nomenclature import FLAIR1_CLASSES

    ref_name = next(c.name for c in FLAIR1_CLASSES if c.value == ref_value)
    assert f"reference: {ref_name} ({ref_value})" in text
    confidence = float(text.split("(confidence ")[1].split(")")[0])
    assert 0 < confidence <= 1
    # Without a confidence layer, no empty confidence field.
    qa.confidence_combo.setLayer(None)
    text = qa.identify_at(QgsPointXY(x, y))
    assert "confidence" not in text and "— —" not in text
    assert text == f"Predicted: {name} ({predicted}) — reference: {ref_name} ({ref_value})"


def test_an_unnamed_class_map_outlives_qgis_temporary_folder(plugin, qtbot, tmp_path):
    """No file and no output folder given: the class map goes to the plugin's folder in the QGIS
    profile while the project is unsaved, then to ``flair_outputs`` beside the project once it is
    saved; never into QGIS's Processing temporary folder, which QGIS deletes when it quits."""
    from qgis.core import QgsProcessingUtils

    dock = plugin.dock
    layer = add_raster(copy_patch(tmp_path))
    dock.set_model(str(toy_model(tmp_path)))
    dock.layer_combo.setLayer(layer)
    dock.set_extent_mode(EXTENT_LAYER)
    assert dock.segment.run_section.output_widget.filePath() == "" and settings.output_folder() == ""
    temporary = os.path.realpath(QgsProcessingUtils.tempFolder())
    written = []
    for save_project in (False, True):
        if save_project:
            (tmp_path / "site").mkdir()
            assert QgsProject.instance().write(str(tmp_path / "site" / "survey.qgz"))
        before = set(QgsProject.instance().mapLayers())
        run_and_wait(qtbot, dock)
        (result,) = [lyr for lyr in new_result_layers(before) if isinstance(lyr, QgsRasterLayer)]
        path = os.path.realpath(result.source())
        assert os.path.isfile(path) and not path.startswith(temporary + os.sep)
        written.append(path)
    profile = os.path.realpath(QgsApplication.qgisSettingsDirPath())
    assert os.path.dirname(written[0]) == os.path.join(profile, "flair_qgis", "outputs")
    assert os.path.dirname(written[1]) == os.path.realpath(tmp_path / "site" / "flair_outputs")
    for path in written:
        os.remove(path)


def test_fp16_on_the_cpu_is_a_message_not_a_task(plugin, qgis_iface, tmp_path):
    dock = plugin.dock
    layer = add_raster(copy_patch(tmp_path))
    dock.set_model(str(toy_model(tmp_path)))
    dock.layer_combo.setLayer(layer)
    dock.set_extent_mode(EXTENT_LAYER)
    run_section = dock.segment.run_section
    run_section.device_combo.setCurrentIndex(run_section.device_combo.findData("cpu"))
    run_section.precision_combo.setCurrentIndex(run_section.precision_combo.findData("fp16"))
    before = set(QgsProject.instance().mapLayers())
    assert dock.segment.run() is None
    assert dock.segment.task is None
    assert "Half precision (fp16) runs on CUDA only" in " ".join(messages(qgis_iface, Qgis.Warning))
    assert messages(qgis_iface, Qgis.Critical) == []
    assert set(QgsProject.instance().mapLayers()) == before
    run_section.precision_combo.setCurrentIndex(run_section.precision_combo.findData("fp32"))
