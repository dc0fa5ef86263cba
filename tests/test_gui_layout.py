"""Where results land and how they read: one group per run at the top, legends a person can read."""

from __future__ import annotations

import pytest
from gui_helpers import add_raster, copy_patch, messages, run_and_wait, score_and_wait, toy_model
from layout_helpers import (
    DOCK_WIDTH_PX,
    group_kinds,
    horizontal_overflow,
    legend_texts,
    mask_polygons,
    show_at_dock_width,
    top_nodes,
)
from qgis.core import Qgis, QgsGeometry, QgsLayerTreeGroup, QgsPalettedRasterRenderer, QgsProject
from qgis.PyQt.QtCore import Qt

from flair_qgis.core.nomenclature import FLAIR1_CLASSES
from flair_qgis.core.vocabulary import EXTENT_LAYER


def _score(qa, qtbot, reference, field=""):
    score_and_wait(qa, qtbot, reference, field, error_map=True)


def _run_with_confidence(plugin, qtbot, tmp_path):
    """The toy model run from a 300 px dock over a patch, with confidence; the patch's mask as polygons
    in the project. Returns ``(dock, image layer, polygon layer)``."""
    dock = plugin.dock
    show_at_dock_width(dock, qtbot)
    image = add_raster(copy_patch(tmp_path))
    polygons = mask_polygons(copy_patch(tmp_path, "MSK_000473.tif"))
    QgsProject.instance().addMapLayer(polygons)
    dock.set_model(str(toy_model(tmp_path)))
    dock.layer_combo.setLayer(image)
    dock.set_extent_mode(EXTENT_LAYER)
    dock.confidence_check.setChecked(True)
    run_and_wait(qtbot, dock)
    return dock, image, polygons


def test_run_and_score_land_on_top_in_one_group_per_run(plugin, qgis_iface, qgis_canvas, qtbot, tmp_path):
    dock, image, polygons = _run_with_confidence(plugin, qtbot, tmp_path)
    first = top_nodes()[0]
    assert isinstance(first, QgsLayerTreeGroup)
    # Named for the model, the extent and the time.
    assert first.name().startswith("toy5 — 102 × 102 m — ")
    assert group_kinds(first) == ["class_map", "confidence"]
    class_map = first.children()[0].layer()
    # The legend header is the model, not "Band 1: … (Palette)"; then the class names.
    assert legend_texts(class_map) == ["toy5", "red", "green", "blue", "infrared", "elevation"]
    assert legend_texts(first.children()[1].layer())[0] == "Confidence (0–1)"

    qgis_canvas.setDestinationCrs(image.crs())
    qgis_canvas.setExtent(image.extent())
    _score(dock.qa, qtbot, polygons, "code")
    group = top_nodes()[0]
    assert class_map.id() in group.findLayerIds()
    assert legend_texts(class_map)[0] == "toy5"  # the header survives the group's move to the top
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
    show_at_dock_width(dock, qtbot)
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
    # About 60 % opacity over the photo; correct pixels (light grey) and not evaluated: transparent.
    assert renderer.opacity() == pytest.approx(0.6)
    assert entries[1].label == "correct" and entries[1].color.alpha() == 0
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
    assert legend_texts(error_map)[0] == "Errors by reference class"


def test_scoring_a_class_map_again_replaces_its_overlays_group(plugin, qgis_canvas, qtbot, tmp_path):
    """A class map in no run group (a file the user opened) gets a "scored" group; scoring it again
    replaces that group rather than leaving an empty one behind."""
    dock = plugin.dock
    image = add_raster(copy_patch(tmp_path))
    mask = add_raster(copy_patch(tmp_path, "MSK_000473.tif"))
    prediction = add_raster(copy_patch(tmp_path, "MSK_000473.tif"))  # a perfect "prediction", ungrouped
    dock.qa.use_prediction(prediction)
    qgis_canvas.setDestinationCrs(image.crs())
    qgis_canvas.setExtent(image.extent())
    for _ in range(3):
        _score(dock.qa, qtbot, mask)
        groups = [node for node in top_nodes() if isinstance(node, QgsLayerTreeGroup)]
        assert len(groups) == 1 and group_kinds(groups[0]) == ["error_map"]
    assert [n.name() for n in top_nodes()[1:]] == [prediction.name(), mask.name(), image.name()]


def test_demo_model_is_in_the_picker_from_the_first_start(plugin):
    dock = plugin.dock  # fresh settings: nothing used yet
    labels = [
        dock.segment.model_section.model_combo.itemText(i)
        for i in range(dock.segment.model_section.model_combo.count())
    ]
    assert labels == ["Demo model (FLAIR, 6 patches — low accuracy)"]
    demo = dock.segment.model_section.model_combo.itemData(0)
    assert demo.endswith("resources/models/flair-demo-unet.onnx")
    # The dock opens on it, ready to run: no "No model chosen".
    assert dock.model is not None and dock.model.path == demo
    assert dock.segment.model_section.model_combo.currentIndex() == 0


def _scored_polygons(plugin, qgis_canvas, qtbot, tmp_path):
    """A demo-like session in a 300 px dock: a run with confidence, then the view scored against mask polygons."""
    dock, image, polygons = _run_with_confidence(plugin, qtbot, tmp_path)
    qgis_canvas.setDestinationCrs(image.crs())
    qgis_canvas.setExtent(image.extent())
    _score(dock.qa, qtbot, polygons, "code")
    return dock, image, polygons


def test_both_tabs_fit_a_300px_dock_without_horizontal_scrolling(plugin, qgis_canvas, qtbot, tmp_path):
    dock, _image, _polygons = _scored_polygons(plugin, qgis_canvas, qtbot, tmp_path)
    assert dock.minimumSizeHint().width() <= DOCK_WIDTH_PX
    assert horizontal_overflow(dock, qtbot) == []
    dock.tabs.setCurrentIndex(1)
    # What the evaluate tab must show at this width: the key columns, the buttons, the thumbnail.
    qa = dock.qa
    for widget in (qa.score_button, qa.export_button, qa.scores.details_button, qa.suspicious_table,
                   qa.suspicious_table.details_button, qa.matrix_label):  # fmt: skip
        assert widget.isVisible()
        right = widget.mapTo(dock, widget.rect().topRight()).x()
        assert right <= dock.width(), widget
    table = qa.suspicious_table
    columns = range(table.model().columnCount())
    shown = [table.model().headerData(c, Qt.Orientation.Horizontal) for c in columns if not table.isColumnHidden(c)]
    assert shown == ["Rank", "Label", "Suspicion"]
    assert table.height() >= 10 * table.verticalHeader().defaultSectionSize()
    # The rest in the details views; the matrix full size in its own window.
    details = table.open_details()
    assert [details.table.horizontalHeaderItem(c).text() for c in range(details.table.columnCount())] == [
        "Rank", "Label", "Model", "Agreement", "Suspicion", "Pixels in disagreement"
    ]  # fmt: skip
    assert details.table.rowCount() == min(len(qa.ranked), 200)
    scores = qa.scores.open_details()
    assert scores.table.columnCount() == 7 and scores.table.rowCount() == len(qa.report["classes"])
    thumbnail = qa.matrix_label
    assert thumbnail.pixmap().width() <= thumbnail.width() < thumbnail.full.width()
    qtbot.mouseClick(thumbnail, Qt.LeftButton)
    assert thumbnail.window is not None and thumbnail.window.isVisible()
    assert thumbnail.window.image.pixmap().size() == thumbnail.full.size()


def test_a_clicked_suspicious_row_is_outlined_on_the_map(plugin, qgis_canvas, qtbot, tmp_path):
    dock, _image, _polygons = _scored_polygons(plugin, qgis_canvas, qtbot, tmp_path)
    table = dock.qa.suspicious_table
    assert table.highlight.geometry() is None
    for row in (0, 3):
        rect = table.visualRect(table.model().index(row, 1)).center()
        qtbot.mouseClick(table.viewport(), Qt.LeftButton, pos=rect)
        outlined = table.highlight.geometry()
        expected = QgsGeometry.fromWkt(dock.qa.ranked.geometry.iloc[row].wkt)
        assert outlined is not None
        # The outline is that polygon (same area and place, canvas and layer both in EPSG:2154).
        assert abs(outlined.area() - expected.area()) < 1e-6 * expected.area() + 1e-6
        assert outlined.centroid().asPoint().distance(expected.centroid().asPoint()) < 1e-6
        assert qgis_canvas.extent().contains(expected.boundingBox())
    # Readable over any class map: a black band under a bright one, no fill.
    colours = [(band.strokeColor().name(), band.width()) for band in table.highlight.bands]
    assert colours == [("#000000", 5), ("#00e5ff", 2)]
    assert all(band.fillColor().alpha() == 0 for band in table.highlight.bands)


def test_the_suspicion_ranking_gets_the_model_confidence(plugin, qgis_iface, qgis_canvas, qtbot, tmp_path):
    dock = plugin.dock
    show_at_dock_width(dock, qtbot)
    qa = dock.qa
    # Asking for suspicious labels turns the confidence layer on for the next run.
    dock.confidence_check.setChecked(False)
    qa.suspicious_check.setChecked(False)
    qa.suspicious_check.setChecked(True)
    assert dock.confidence_check.isChecked()

    image = add_raster(copy_patch(tmp_path))
    polygons = mask_polygons(copy_patch(tmp_path, "MSK_000473.tif"))
    QgsProject.instance().addMapLayer(polygons)
    dock.set_model(str(toy_model(tmp_path)))
    dock.layer_combo.setLayer(image)
    dock.set_extent_mode(EXTENT_LAYER)
    run_and_wait(qtbot, dock)
    run_confidence = top_nodes()[0].children()[1].layer()
    assert run_confidence.customProperty("flair_qgis/kind") == "confidence"
    # The user cleared the confidence: scoring with suspicious labels takes the run's own again.
    qa.confidence_combo.setLayer(None)
    qgis_canvas.setDestinationCrs(image.crs())
    qgis_canvas.setExtent(image.extent())
    _score(qa, qtbot, polygons, "code")
    assert qa.confidence_combo.currentLayer() is run_confidence
    assert qa.ranked["mean_confidence"].notna().any()

    # A run without confidence: the scoring says how to rank better.
    dock.confidence_check.setChecked(False)
    run_and_wait(qtbot, dock)
    qa.confidence_combo.setLayer(None)
    qgis_iface.messageBar().clear_messages()
    _score(qa, qtbot, polygons, "code")
    assert any("tick 'Confidence layer'" in text for text in messages(qgis_iface, Qgis.Info))


def test_a_long_output_path_does_not_widen_the_segment_tab(plugin, qtbot, tmp_path):
    """The result line names the files written; a path is one long word, which once widened the
    Segment tab past the dock (seen in the desktop after a run with "Also as polygons")."""
    from flair_qgis.adapters import settings

    folder = tmp_path / ("a_long_folder_name_as_on_a_shared_drive_" * 3)
    folder.mkdir()
    settings.set_value("output_folder", str(folder))
    dock = plugin.dock
    dock.segment.run_section.polygons_check.setChecked(True)
    _run_with_confidence(plugin, qtbot, tmp_path)
    assert str(folder) in dock.segment.result_section.result_label.text().replace("\n", "")
    assert "polygon" in dock.segment.result_section.result_label.text()
    assert horizontal_overflow(dock, qtbot) == []


def test_two_hundred_suspicious_rows_are_measured_once(qgis_canvas, qtbot):
    """Filling the table (200 rows of 5 cells) refits the row heights once, not once per cell: a
    refit per cell measured every row's wrapped text 1000 times and froze QGIS 0.8 s when the
    scores of a Follow-the-view pan arrived (heartbeat stall dump: QTableView::sizeHintForRow)."""
    import geopandas as gpd
    from shapely.geometry import box

    from flair_qgis.gui.evaluate.qa_suspicious import SuspiciousTable

    class CountingTable(SuspiciousTable):
        measured = 0

        def sizeHintForRow(self, row):  # the Qt virtual resizeRowToContents calls
            CountingTable.measured += 1
            return super().sizeHintForRow(row)

    rows = 200
    ranked = gpd.GeoDataFrame(
        {
            "rank": range(1, rows + 1),
            "label": [5] * rows,
            "label_name": ["impervious surface, a long name that wraps"] * rows,
            "predicted": [1.0] * rows,
            "predicted_name": ["building"] * rows,
            "agreement": [0.25] * rows,
            "suspicion": [0.75] * rows,
            "disagreeing_px": [1200] * rows,
        },
        geometry=[box(i, 0, i + 1, 1) for i in range(rows)],
        crs="EPSG:2154",
    )
    table = CountingTable(qgis_canvas)
    qtbot.addWidget(table)
    table.resize(DOCK_WIDTH_PX, 400)
    table.show()
    qtbot.waitExposed(table)
    CountingTable.measured = 0
    table.show_ranked(ranked, qgis_canvas.mapSettings().destinationCrs())
    qtbot.waitUntil(lambda: CountingTable.measured >= rows)  # the posted refit runs, a few rows per event
    qtbot.wait(100)
    assert table.model().rowCount() == rows
    assert rows <= CountingTable.measured <= 3 * rows
    # The refit happened: the wrapped label makes rows taller than one line of text.
    assert table.rowHeight(0) > table.fontMetrics().height() * 1.5
