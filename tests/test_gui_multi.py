"""The FLAIR dock with multi-input models (one layer picker per input) and multi-head models
(extra class maps, regression value maps, per-image values summarised in the message bar)."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest
import rasterio
from conftest import DEEPNESS_DATA
from gui_helpers import add_raster, big_raster, messages, run_and_wait, toy_model, wait_for_task
from qgis.core import (
    Qgis,
    QgsPalettedRasterRenderer,
    QgsProject,
    QgsRasterLayer,
    QgsSingleBandPseudoColorRenderer,
)
from rasters import random_image, read, write_raster
from test_segment_multi import expected_vegetation_index, fusion_model, three_head_model

from flair_qgis.core.engine.grid import affine_xy
from flair_qgis.core.vocabulary import EXTENT_LAYER

ORIGIN = (650000.0, 6860000.0)


def flair_layers(before: set[str]) -> dict[str, QgsRasterLayer]:
    """Layers the run added, by ``flair_qgis/kind`` (one per kind is enough here) and by head name."""
    added = [lyr for lid, lyr in QgsProject.instance().mapLayers().items() if lid not in before]
    return {lyr.customProperty("flair_qgis/head") or lyr.customProperty("flair_qgis/kind"): lyr for lyr in added}


def tree_order() -> list[str]:
    return [n.layerId() for n in QgsProject.instance().layerTreeRoot().findLayers()]


def fusion_inputs(tmp_path):
    """An RGBI image (0.2 m) and a DEM (0.4 m) over the same ground, and the fusion model."""
    rgbi = random_image(128, 96, bands=4, seed=1)
    dem = random_image(64, 48, bands=1, seed=2)
    folder = tmp_path / "in"
    folder.mkdir(exist_ok=True)
    a = write_raster(folder / "rgbi.tif", rgbi, res=0.2, origin=ORIGIN)
    b = write_raster(folder / "dem.tif", dem, res=0.4, origin=ORIGIN)
    return rgbi, dem, a, b, fusion_model(tmp_path / "models" / "fusion.onnx")


def test_two_input_model_gets_two_pickers_and_runs(plugin, qgis_iface, qtbot, tmp_path):
    (tmp_path / "models").mkdir()
    rgbi, dem, a, b, model = fusion_inputs(tmp_path)
    aerial_layer = add_raster(a)
    dem_layer = add_raster(b)
    dock = plugin.dock
    dock.layer_combo.setLayer(aerial_layer)
    assert dock.set_model(str(model))

    # One picker per model input, named by modality and channel count; the second starts empty.
    assert len(dock.segment.inputs_section.inputs) == 2
    assert [p.label.text() for p in dock.segment.inputs_section.inputs] == [
        "AERIAL_RGBI (3 bands)",
        "DEM_ELEV (1 band)",
    ]
    assert dock.input_layer(0) is aerial_layer and dock.input_layer(1) is None
    assert not dock.segment.run_section.run_button.isEnabled()
    reason = dock.segment.run_section.reason_label.text()
    assert "input 2" in reason and "DEM_ELEV" in reason and dock.segment.run_section.reason_label.isVisibleTo(dock)
    # The aerial channels follow the model's declared bands 4, 1, 2 (NIR, R, G of an RGBI file).
    assert dock.input_bands(0) == (4, 1, 2)
    assert [dock.segment.inputs_section.inputs[0].bands_form.itemAt(i, 0).widget().text() for i in range(3)] == [
        "NIR",
        "R",
        "G",
    ]
    assert "DEM_ELEV" in dock.segment.model_section.model_card.summary.text()

    dock.set_input_layer(1, dem_layer)
    assert dock.input_bands(1) == (1,)
    assert dock.segment.run_section.run_button.isEnabled(), dock.segment.run_section.reason_label.text()
    dock.set_extent_mode(EXTENT_LAYER)
    dock.segment.run_section.tile_spin.setValue(64)
    dock.segment.run_section.overlap_spin.setValue(16)
    out = tmp_path / "out" / "fused.tif"
    out.parent.mkdir()
    dock.segment.run_section.output_widget.setFilePath(str(out))
    before = set(QgsProject.instance().mapLayers())

    run_and_wait(qtbot, dock)

    added = flair_layers(before)
    assert set(added) == {"scores"}
    result = added["scores"]
    assert result.source() == str(out)
    aerial = rgbi[[3, 0, 1]].astype(np.float32)
    dem_up = ((dem[0].astype(np.float32) - 100) / 2).repeat(2, axis=0).repeat(2, axis=1)
    expected = np.argmax(aerial + dem_up, axis=0) + 1
    got = read(out)
    assert got.shape == (128, 96)
    assert (got == expected).all()
    assert [label for label, _c in result.legendSymbologyItems()] == ["a", "b", "c"]
    order = tree_order()
    assert order.index(result.id()) == 0  # on top of the layer tree, in the run's group
    assert messages(qgis_iface, Qgis.Critical) == []

    # A single-input model brings the dock back to one unnamed picker.
    assert dock.set_model(str(toy_model(tmp_path, 4)))
    assert (
        len(dock.segment.inputs_section.inputs) == 1
        and dock.segment.inputs_section.inputs[0].label.text() == "Raster layer"
    )


def test_second_input_without_layer_disables_run(plugin, qgis_iface, tmp_path):
    (tmp_path / "models").mkdir()
    _rgbi, _dem, a, b, model = fusion_inputs(tmp_path)
    dock = plugin.dock
    aerial_layer = add_raster(a)
    dem_layer = add_raster(b)
    dock.layer_combo.setLayer(aerial_layer)
    dock.set_model(str(model))
    dock.set_input_layer(1, dem_layer)
    assert dock.segment.run_section.run_button.isEnabled(), dock.segment.run_section.reason_label.text()
    dock.set_input_layer(1, None)
    assert not dock.segment.run_section.run_button.isEnabled()
    assert dock.segment.run_section.reason_label.text() == "Choose a raster layer for input 2, DEM_ELEV (1 band)."
    # Run is refused even when called directly: a message, no task.
    dock.set_extent_mode(EXTENT_LAYER)
    assert dock.segment.run() is None and dock.segment.task is None
    assert any("input 2" in m and "DEM_ELEV" in m for m in messages(qgis_iface, Qgis.Warning))
    # A channel left without a band is a reason too.
    dock.set_input_layer(1, dem_layer)
    dock.segment.inputs_section.inputs[0].band_combos[1].setCurrentIndex(0)
    assert not dock.segment.run_section.run_button.isEnabled()
    assert (
        "Input 1" in dock.segment.run_section.reason_label.text()
        and "'R'" not in dock.segment.run_section.reason_label.text()
    )
    assert "R" in dock.segment.run_section.reason_label.text().split("channel(s)")[1]


def test_three_heads_add_class_map_value_map_and_tile_summary(plugin, qgis_iface, qtbot, tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    image = random_image(128, 128, bands=4, seed=5)
    raster = write_raster(folder / "img.tif", image, origin=ORIGIN)
    model = three_head_model(tmp_path / "three.onnx")
    layer = add_raster(raster)
    dock = plugin.dock
    dock.layer_combo.setLayer(layer)
    assert dock.set_model(str(model))
    assert (
        len(dock.segment.inputs_section.inputs) == 1
        and dock.segment.inputs_section.inputs[0].label.text() == "Raster layer"
    )
    assert "height (regression, cm, per pixel)" in dock.segment.model_section.model_card.summary.text()
    dock.set_extent_mode(EXTENT_LAYER)
    dock.segment.run_section.tile_spin.setValue(64)
    dock.segment.run_section.overlap_spin.setValue(0)
    out = tmp_path / "out" / "three.tif"
    out.parent.mkdir()
    dock.segment.run_section.output_widget.setFilePath(str(out))
    before = set(QgsProject.instance().mapLayers())

    run_and_wait(qtbot, dock)

    added = flair_layers(before)
    assert set(added) == {"seg", "height"}
    x = (image.astype(np.float32) - 128) / 64
    seg = added["seg"]
    assert seg.customProperty("flair_qgis/kind") == "class_map"
    assert (read(seg.source()) == np.argmax(x, axis=0)).all()
    # The regression head: its own layer, a pseudocolour ramp, the unit in the name, 2 * x[0] per pixel.
    height = added["height"]
    assert height.customProperty("flair_qgis/kind") == "value_map"
    assert height.name().endswith("height (cm)")
    assert isinstance(height.renderer(), QgsSingleBandPseudoColorRenderer)
    assert height.renderer().classificationMin() == pytest.approx(float((2 * x[0]).min()), abs=1e-5)
    assert height.renderer().classificationMax() == pytest.approx(float((2 * x[0]).max()), abs=1e-5)
    np.testing.assert_allclose(read(height.source()), 2 * x[0], atol=1e-6)
    order = tree_order()
    assert order.index(seg.id()) < order.index(height.id()) < order.index(layer.id())
    # The per-image head: one value per 64 px tile, summarised in the message bar.
    stages = [
        [3, 5, 7, 9][int(np.argmax(x[:, r : r + 64, c : c + 64].mean(axis=(1, 2))))] for r in (0, 64) for c in (0, 64)
    ]
    csv_path = str(tmp_path / "out" / "three_tiles.csv")
    summary = (
        f"Per-image output 'stage' over 4 tiles: mean {np.mean(stages):.4g}, min {min(stages):.4g}, "
        f"max {max(stages):.4g} ({csv_path})."
    )
    assert f"FLAIR:{summary}" in messages(qgis_iface, Qgis.Info)
    assert len(set(stages)) > 1
    with open(csv_path, newline="") as handle:
        assert sorted(float(row["stage"]) for row in csv.DictReader(handle)) == sorted(stages)
    assert summary in dock.segment.result_section.result_label.text()


def test_extra_segmentation_head_is_a_styled_class_map(plugin, qtbot, tmp_path):
    model = DEEPNESS_DATA / "dummy_model" / "dummy_segmentation_models" / "two_outputs_softmax_bsx2x512x512.onnx"
    folder = tmp_path / "in"
    folder.mkdir()
    raster = write_raster(folder / "img.tif", random_image(300, 200, bands=3), origin=ORIGIN)
    layer = add_raster(raster)
    dock = plugin.dock
    dock.layer_combo.setLayer(layer)
    assert dock.set_model(str(model))
    dock.set_extent_mode(EXTENT_LAYER)
    out = tmp_path / "out" / "two.tif"
    out.parent.mkdir()
    dock.segment.run_section.output_widget.setFilePath(str(out))
    before = set(QgsProject.instance().mapLayers())

    run_and_wait(qtbot, dock)

    added = [lyr for lid, lyr in QgsProject.instance().mapLayers().items() if lid not in before]
    assert len(added) == 2
    extra = next(lyr for lyr in added if lyr.customProperty("flair_qgis/kind") == "head_class_map")
    main = next(lyr for lyr in added if lyr.customProperty("flair_qgis/kind") == "class_map")
    assert isinstance(extra.renderer(), QgsPalettedRasterRenderer)
    with rasterio.open(extra.source()) as dst:
        declared = json.loads(dst.tags(1)["CLASSES"])
        values = set(np.unique(dst.read(1)).tolist())
    legend = {(c.value, c.label, c.color.name()) for c in extra.renderer().classes()}
    assert legend == {(c["value"], c["name"], c["color"].lower()) for c in declared}
    assert "Beer" in {c.label for c in extra.renderer().classes()}
    assert values <= {c["value"] for c in declared}
    assert "Tea" in {c.label for c in main.renderer().classes()}
    assert extra.name().endswith(extra.customProperty("flair_qgis/head"))
    # The QA panel scores the main class map.
    assert dock.qa.prediction_combo.currentLayer() is main


def test_removing_second_input_while_running_ends_cleanly(plugin, qgis_iface, qtbot, tmp_path):
    aerial = big_raster(tmp_path / "in" / "big_rgbi.tif", size_px=2048, bands=4)
    dem_path = tmp_path / "in" / "big_dem.tif"
    dem = np.random.default_rng(3).integers(0, 255, size=(1, 1024, 1024), dtype=np.uint8)
    write_raster(dem_path, dem, res=0.4, origin=(650000.0, 6860000.0), tiled=True)
    aerial_layer = add_raster(aerial)
    dem_layer = add_raster(dem_path)
    dock = plugin.dock
    dock.layer_combo.setLayer(aerial_layer)
    dock.set_model(str(fusion_model(tmp_path / "fusion.onnx")))
    dock.set_input_layer(1, dem_layer)
    dock.set_extent_mode(EXTENT_LAYER)
    dock.segment.run_section.tile_spin.setValue(64)
    dock.segment.run_section.overlap_spin.setValue(0)
    dock.segment.run_section.batch_spin.setValue(1)
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    dock.segment.run_section.output_widget.setFilePath(str(out_dir / "classes.tif"))
    task = dock.segment.run()
    assert task is not None
    qtbot.waitUntil(lambda: task.progress() > 0, timeout=30000)
    QgsProject.instance().removeMapLayer(dem_layer.id())
    wait_for_task(qtbot, dock)
    assert list(out_dir.iterdir()) == []
    warnings = messages(qgis_iface, Qgis.Warning)
    assert any("'big_dem.tif' was removed from the project" in m for m in warnings), warnings
    assert messages(qgis_iface, Qgis.Critical) == []
    assert [lyr for lyr in QgsProject.instance().mapLayers().values() if lyr.customProperty("flair_qgis/kind")] == []
    assert dock.segment.task is None


def test_regression_only_model_adds_a_value_map(plugin, qgis_iface, qtbot, tmp_path):
    """Deepness' vegetation-index regressor: VI = (2G - R - B) / (2G + R + B) x 1.1 at 5.5 cm."""

    folder = tmp_path / "in"
    folder.mkdir()
    ortho = folder / "ortho.tif"
    ortho.write_bytes((DEEPNESS_DATA / "dummy_fotomap_small.tif").read_bytes())
    model = DEEPNESS_DATA / "dummy_model" / "dummy_regression_models" / "dummy_regression_model.onnx"
    layer = add_raster(ortho)
    dock = plugin.dock
    dock.layer_combo.setLayer(layer)
    assert dock.set_model(str(model))
    for combo, band in zip(dock.band_combos, (1, 2, 3)):
        combo.setCurrentIndex(combo.findData(band))
    dock.set_extent_mode(EXTENT_LAYER)
    out = tmp_path / "out" / "vi.tif"
    out.parent.mkdir()
    dock.segment.run_section.output_widget.setFilePath(str(out))
    dock.confidence_check.setChecked(True)
    assert dock.segment.run() is None
    assert any("no confidence" in m for m in messages(qgis_iface, Qgis.Warning))
    dock.confidence_check.setChecked(False)
    before = set(QgsProject.instance().mapLayers())

    run_and_wait(qtbot, dock)

    added = [lyr for lid, lyr in QgsProject.instance().mapLayers().items() if lid not in before]
    assert len(added) == 1
    (vi,) = added
    assert vi.customProperty("flair_qgis/kind") == "value_map"
    assert isinstance(vi.renderer(), QgsSingleBandPseudoColorRenderer)
    with rasterio.open(out) as dst:
        got = dst.read(1)
        grid = {"transform": dst.transform, "width": dst.width, "height": dst.height}
    expected, valid = expected_vegetation_index(ortho, **grid)
    inside = valid & np.isfinite(expected)
    assert inside.mean() > 0.9
    np.testing.assert_allclose(got[inside], expected[inside], atol=1e-4)
    assert vi.renderer().classificationMin() == pytest.approx(float(np.nanmin(got)), abs=1e-5)
    # Not a class map: the QA panel is not pointed at it.
    assert dock.qa.prediction_combo.currentLayer() is not vi


def test_selected_polygons_mask_every_head(plugin, qtbot, tmp_path):
    from qgis.core import QgsFeature, QgsGeometry, QgsPointXY, QgsVectorLayer
    from shapely.geometry import Point, Polygon

    from flair_qgis.core.vocabulary import EXTENT_POLYGONS

    folder = tmp_path / "in"
    folder.mkdir()
    image = random_image(128, 128, bands=4, seed=7)
    layer = add_raster(write_raster(folder / "img.tif", image, origin=ORIGIN))
    with rasterio.open(layer.source()) as src:
        image_transform = src.transform
    dock = plugin.dock
    dock.layer_combo.setLayer(layer)
    dock.set_model(str(three_head_model(tmp_path / "three.onnx")))
    x0, y1 = ORIGIN
    triangle = [QgsPointXY(x0 + 1, y1 - 1), QgsPointXY(x0 + 24, y1 - 3), QgsPointXY(x0 + 5, y1 - 25)]
    polygons = QgsVectorLayer("Polygon?crs=EPSG:2154", "areas", "memory")
    feature = QgsFeature()
    feature.setGeometry(QgsGeometry.fromPolygonXY([triangle]))
    polygons.dataProvider().addFeatures([feature])
    QgsProject.instance().addMapLayer(polygons)
    polygons.selectAll()
    dock.set_extent_mode(EXTENT_POLYGONS)
    dock.segment.extent_section.polygon_combo.setLayer(polygons)
    dock.segment.run_section.tile_spin.setValue(64)
    dock.segment.run_section.overlap_spin.setValue(0)
    before = set(QgsProject.instance().mapLayers())

    run_and_wait(qtbot, dock)

    added = flair_layers(before)
    with rasterio.open(added["seg"].source()) as dst:
        classes, nodata, transform = dst.read(1), dst.nodata, dst.transform
        col0, row0 = (round(v) for v in affine_xy(~image_transform, dst.bounds.left, dst.bounds.top))
    heights = read(added["height"].source())
    shape = Polygon([(p.x(), p.y()) for p in triangle])
    rows, cols = classes.shape
    inside = np.array(
        [[shape.contains(Point(*affine_xy(transform, c + 0.5, r + 0.5))) for c in range(cols)] for r in range(rows)]
    )
    assert inside.sum() > 1000 and (~inside).sum() > 1000
    x = (image[:, row0 : row0 + rows, col0 : col0 + cols].astype(np.float32) - 128) / 64
    assert (classes[~inside] == nodata).all()
    assert (classes[inside] == np.argmax(x, axis=0)[inside]).all()
    assert np.isnan(heights[~inside]).all()
    np.testing.assert_allclose(heights[inside], 2 * x[0][inside], atol=1e-6)
