"""The dock's "Follow the view": one run per settled view, cancel on move, one live layer, scores follow."""

from __future__ import annotations

import os

import numpy as np
import pytest
import rasterio
from gui_helpers import add_raster, big_raster, copy_patch, expected_classes, run_and_wait, toy_model
from layout_helpers import group_kinds, top_nodes
from qgis.core import QgsLayerTreeGroup, QgsProject, QgsRectangle
from test_gui_qa import independent_flair1

from flair_qgis.adapters import settings
from flair_qgis.adapters.live_view import LIVE_KIND
from flair_qgis.core.vocabulary import EXTENT_LAYER
from flair_qgis.gui.evaluate.follow_view import DEBOUNCE_MS


def _view(layer, col0: int, row0: int, cols: int, rows: int) -> QgsRectangle:
    """A map rectangle over layer pixels ``[row0, row0 + rows) x [col0, col0 + cols)``."""
    e = layer.extent()
    res = layer.rasterUnitsPerPixelX()
    x0, y1 = e.xMinimum() + col0 * res, e.yMaximum() - row0 * res
    return QgsRectangle(x0, y1 - rows * res, x0 + cols * res, y1)


def _pixels(path: str, layer, view: QgsRectangle) -> tuple[np.ndarray, tuple[int, int]]:
    """The live file's pixels and the ``(row, col)`` of its origin in the input layer."""
    with rasterio.open(path) as src:
        res = layer.rasterUnitsPerPixelX()
        col0 = round((src.transform.c - layer.extent().xMinimum()) / res)
        row0 = round((layer.extent().yMaximum() - src.transform.f) / res)
        return src.read(1), (row0, col0)


@pytest.fixture
def follow_setup(plugin, qgis_canvas, tmp_path):
    settings.set_value("cache_folder", str(tmp_path / "cache"))
    settings.set_value("output_folder", str(tmp_path / "out"))
    os.makedirs(tmp_path / "out", exist_ok=True)
    dock = plugin.dock

    def setup(raster_path, tile_px: int = 256):
        layer = add_raster(raster_path)
        dock.set_model(str(toy_model(tmp_path)))
        dock.layer_combo.setLayer(layer)
        dock.segment.run_section.tile_spin.setValue(tile_px)
        dock.segment.run_section.overlap_spin.setValue(0)
        qgis_canvas.setDestinationCrs(layer.crs())
        return dock, dock.follow, layer

    return setup


def _settled(qtbot, follow, runs: int) -> None:
    qtbot.waitUntil(
        lambda: follow.runs_started == runs and follow.task is None and follow.live_layer() is not None, timeout=60000
    )


def test_two_quick_moves_make_one_run_per_settled_view(follow_setup, qgis_canvas, qtbot, tmp_path):
    _dock, follow, layer = follow_setup(copy_patch(tmp_path))
    image = rasterio.open(layer.source()).read()
    follow.toggle.setChecked(True)
    qgis_canvas.setExtent(_view(layer, 0, 0, 200, 150))
    qgis_canvas.setExtent(_view(layer, 100, 120, 300, 200))  # before the first view settles
    _settled(qtbot, follow, 1)
    qtbot.wait(3 * DEBOUNCE_MS)
    assert follow.runs_started == 1
    pixels, (row0, col0) = _pixels(follow.live_layer().source(), layer, qgis_canvas.extent())
    assert row0 <= 120 and col0 <= 100 and row0 + pixels.shape[0] >= 320 and col0 + pixels.shape[1] >= 400
    window = image[:, row0 : row0 + pixels.shape[0], col0 : col0 + pixels.shape[1]]
    assert np.array_equal(pixels, expected_classes(window))
    qgis_canvas.setExtent(_view(layer, 300, 300, 150, 150))
    _settled(qtbot, follow, 2)
    qtbot.wait(3 * DEBOUNCE_MS)
    assert follow.runs_started == 2


def test_a_quick_second_move_cancels_the_first_run(follow_setup, qgis_canvas, qtbot, tmp_path):
    _dock, follow, layer = follow_setup(big_raster(tmp_path / "big.tif", 2048), tile_px=64)
    qgis_canvas.setExtent(layer.extent())  # 1024 tiles: long enough to be caught mid-way
    follow.toggle.setChecked(True)
    qtbot.waitUntil(lambda: follow.task is not None, timeout=10000)
    first = follow.task
    first_output = first.prepared.plan.request.output_path
    qgis_canvas.setExtent(_view(layer, 0, 0, 256, 256))
    assert first.isCanceled()
    _settled(qtbot, follow, 2)
    assert not os.path.exists(first_output)  # a cancelled view leaves nothing behind
    pixels, (row0, col0) = _pixels(follow.live_layer().source(), layer, qgis_canvas.extent())
    assert (row0, col0) == (0, 0) and pixels.shape[0] == 256 and 256 <= pixels.shape[1] < 2048  # the second view


def test_the_live_layer_is_updated_in_place(follow_setup, qgis_canvas, qtbot, tmp_path):
    _dock, follow, layer = follow_setup(copy_patch(tmp_path))
    image = rasterio.open(layer.source()).read()
    qgis_canvas.setExtent(_view(layer, 0, 0, 256, 256))
    follow.toggle.setChecked(True)
    _settled(qtbot, follow, 1)
    live = follow.live_layer()
    first_id, first_path = live.id(), live.source()
    qgis_canvas.setExtent(_view(layer, 256, 256, 256, 256))
    _settled(qtbot, follow, 2)
    assert follow.live_layer().id() == first_id
    assert live.source() != first_path and not os.path.exists(first_path)
    pixels, (row0, col0) = _pixels(live.source(), layer, qgis_canvas.extent())
    assert row0 == 256 and pixels.shape[0] == 256  # the second view (wider: the canvas is)
    window = image[:, row0 : row0 + pixels.shape[0], col0 : col0 + pixels.shape[1]]
    assert np.array_equal(pixels, expected_classes(window))
    assert live.renderer().type() == "paletted"
    live_layers = [
        lyr for lyr in QgsProject.instance().mapLayers().values() if lyr.customProperty("flair_qgis/kind") == LIVE_KIND
    ]
    assert [lyr.id() for lyr in live_layers] == [first_id]
    # Off: an ordinary layer the user keeps; moving the view no longer runs anything.
    follow.toggle.setChecked(False)
    assert QgsProject.instance().mapLayer(first_id) is live
    assert live.customProperty("flair_qgis/kind") == "class_map"
    qgis_canvas.setExtent(_view(layer, 0, 0, 100, 100))
    qtbot.wait(3 * DEBOUNCE_MS)
    assert follow.runs_started == 2 and follow.task is None


def test_the_scores_follow_the_view(follow_setup, qgis_canvas, qtbot, tmp_path):
    dock, follow, layer = follow_setup(copy_patch(tmp_path))
    reference = add_raster(copy_patch(tmp_path, "MSK_000473.tif"))
    qa = dock.qa
    qa.reference_combo.setLayer(reference)
    qa.protocol_combo.setCurrentIndex(qa.protocol_combo.findData("flair1"))
    follow.toggle.setChecked(True)
    reports = []
    for col0, row0 in ((0, 0), (300, 250)):
        qgis_canvas.setExtent(_view(layer, col0, row0, 200, 200))
        _settled(qtbot, follow, len(reports) + 1)
        qtbot.waitUntil(lambda: qa.task is None and qa.report is not None and qa.report not in reports, timeout=30000)
        report = qa.report
        reports.append(report)
        assert qa.prediction_combo.currentLayer().id() == follow.live_layer_id
        xmin, ymin, xmax, ymax = report["extent"]
        with rasterio.open(follow.live_layer().source()) as p, rasterio.open(reference.source()) as m:
            pred = p.read(1, window=p.window(xmin, ymin, xmax, ymax).round_offsets().round_lengths())
            ref = m.read(1, window=m.window(xmin, ymin, xmax, ymax).round_offsets().round_lengths())
        _ious, miou, oa = independent_flair1(pred, ref)
        assert report["miou"] == pytest.approx(miou, abs=1e-9)
        assert report["oa"] == pytest.approx(oa, abs=1e-9)
        assert report["pixels_evaluated"] == pred.size >= 200 * 200
        assert f"mIoU {100 * miou:.1f} %" in qa.summary_label.text()
    assert reports[0]["oa"] != reports[1]["oa"]


def test_a_view_over_the_pixel_budget_says_zoom_in(follow_setup, qgis_canvas, qtbot, tmp_path):
    settings.set_value("follow_view_budget_mpx", 0.1)
    _dock, follow, layer = follow_setup(copy_patch(tmp_path))
    qgis_canvas.setExtent(layer.extent())  # 512 x 512 px = 0.26 Mpx
    follow.toggle.setChecked(True)
    qtbot.waitUntil(lambda: "Zoom in to segment" in follow.status.text(), timeout=5000)
    assert "0.3 Mpx" in follow.status.text() and follow.runs_started == 0
    qgis_canvas.setExtent(_view(layer, 0, 0, 200, 200))  # 0.05 Mpx (4:3 canvas): within the budget
    _settled(qtbot, follow, 1)


def test_web_layers_go_through_the_cache_only_when_ticked(follow_setup, qgis_canvas, tmp_path):
    """ "Cache web layers" is off by default; ticked, the view's run asks the core to cache web layers."""
    from flair_qgis.adapters.segment_request import prepare_segment

    dock, follow, layer = follow_setup(copy_patch(tmp_path))
    qgis_canvas.setExtent(_view(layer, 0, 0, 256, 256))
    assert not follow.cache_remote.isChecked()
    assert follow._request().cache_remote is False
    assert prepare_segment(follow._request(), dock.model).plan.request.cache_remote is False
    follow.cache_remote.setChecked(True)
    request = follow._request()
    assert request.cache_remote is True and request.cache_folder == str(tmp_path / "cache")
    assert prepare_segment(request, dock.model).plan.request.cache_remote is True


def _class_maps_top_first() -> list[str]:
    """Ids of the class-map layers (live or not) in the layer tree, in drawing order: top first."""
    root = QgsProject.instance().layerTreeRoot()
    kinds = ("class_map", LIVE_KIND)
    layers = [root.findLayer(lid).layer() for lid in root.findLayerIds()]
    return [layer.id() for layer in layers if layer.customProperty("flair_qgis/kind") in kinds]


def test_the_live_layer_lies_on_top_in_one_group_across_re_scores(follow_setup, qgis_canvas, qtbot, tmp_path):
    """An earlier run's class map covers every view; the live layer is drawn above it, and five
    re-scored views leave one live group (the overlays replaced in it), not five."""
    dock, follow, layer = follow_setup(copy_patch(tmp_path))
    reference = add_raster(copy_patch(tmp_path, "MSK_000473.tif"))
    dock.set_extent_mode(EXTENT_LAYER)
    run_and_wait(qtbot, dock)
    earlier = top_nodes()[0]
    earlier_map = earlier.findLayerIds()[0]
    qa = dock.qa
    qa.reference_combo.setLayer(reference)
    qa.protocol_combo.setCurrentIndex(qa.protocol_combo.findData("flair1"))
    qa.error_check.setChecked(True)
    follow.toggle.setChecked(True)
    reports: list = []
    for col0, row0 in ((0, 0), (150, 100), (300, 250), (60, 300), (280, 20)):
        qgis_canvas.setExtent(_view(layer, col0, row0, 200, 200))
        _settled(qtbot, follow, len(reports) + 1)
        qtbot.waitUntil(lambda: qa.task is None and qa.report is not None and qa.report not in reports, timeout=30000)
        reports.append(qa.report)
        live_group = top_nodes()[0]
        assert isinstance(live_group, QgsLayerTreeGroup)
        assert live_group.name() == "FLAIR live view — toy5"
        assert group_kinds(live_group) == ["error_map", LIVE_KIND]  # this view's error map only
        assert _class_maps_top_first() == [follow.live_layer_id, earlier_map]
    groups = [node for node in top_nodes() if isinstance(node, QgsLayerTreeGroup)]
    assert [g.name() for g in groups] == ["FLAIR live view — toy5", earlier.name()]
    assert [n.name() for n in top_nodes()[2:]] == [reference.name(), layer.name()]
    # Off: the group stays, an ordinary run group the user keeps.
    live_id = follow.live_layer_id
    follow.toggle.setChecked(False)
    assert top_nodes()[0].name() == "FLAIR view — toy5" and live_id in top_nodes()[0].findLayerIds()


def test_a_run_made_while_following_is_covered_by_the_next_view(follow_setup, qgis_canvas, qtbot, tmp_path):
    """A Run clicked while following puts its group on top; the next settled view raises the live group
    above it again, without making a second live group."""
    dock, follow, layer = follow_setup(copy_patch(tmp_path))
    qgis_canvas.setExtent(_view(layer, 0, 0, 200, 200))
    follow.toggle.setChecked(True)
    _settled(qtbot, follow, 1)
    live_group_name = top_nodes()[0].name()
    dock.set_extent_mode(EXTENT_LAYER)
    run_and_wait(qtbot, dock)
    assert follow.live_layer_id not in top_nodes()[0].findLayerIds()
    qgis_canvas.setExtent(_view(layer, 200, 200, 200, 200))
    _settled(qtbot, follow, 2)
    assert follow.live_layer_id in top_nodes()[0].findLayerIds()
    assert _class_maps_top_first()[0] == follow.live_layer_id
    names = [node.name() for node in top_nodes() if isinstance(node, QgsLayerTreeGroup)]
    assert names.count(live_group_name) == 1 and len(names) == 2
    # Dragged out of its group to the bottom: the next view puts it back on top, in a group again.
    root = QgsProject.instance().layerTreeRoot()
    node = root.findLayer(follow.live_layer_id)
    root.addChildNode(node.clone())
    node.parent().removeChildNode(node)
    qgis_canvas.setExtent(_view(layer, 100, 300, 200, 200))
    _settled(qtbot, follow, 3)
    assert top_nodes()[0].name() == live_group_name and _class_maps_top_first()[0] == follow.live_layer_id
