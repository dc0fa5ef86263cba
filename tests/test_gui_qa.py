"""The QA tab: score the map view, per-class table against an independent count, overlays, export."""

from __future__ import annotations

import json

import numpy as np
import pytest
import rasterio
from gui_helpers import add_raster, copy_patch, messages, run_and_wait, score_and_wait, toy_model
from qgis.core import Qgis, QgsFeature, QgsField, QgsGeometry, QgsProject, QgsRasterLayer, QgsRectangle, QgsVectorLayer
from qgis.PyQt.QtCore import Qt, QVariant

from flair_qgis.core.engine.grid import affine_xy
from flair_qgis.core.vocabulary import EXTENT_LAYER


def independent_flair1(pred: np.ndarray, ref: np.ndarray) -> tuple[dict[int, float | None], float, float]:
    """FLAIR #1 by direct counting: codes 13..19 -> 13, IoU per class 1..12 over the full 13x13
    counts, classes absent from both sides skipped; OA over the evaluated classes' matrix."""
    ref = np.where(ref >= 13, 13, ref).astype(np.int64)
    pred = np.where(pred >= 13, 13, pred).astype(np.int64)
    ious: dict[int, float | None] = {}
    for c in range(1, 13):
        tp = int(np.sum((pred == c) & (ref == c)))
        fp = int(np.sum((pred == c) & (ref != c)))
        fn = int(np.sum((pred != c) & (ref == c)))
        ious[c] = None if tp + fp + fn == 0 else tp / (tp + fp + fn)
    present = [v for v in ious.values() if v is not None]
    return ious, float(np.mean(present)), float(np.mean(pred == ref))


@pytest.fixture
def scored_setup(plugin, qgis_canvas, qtbot, tmp_path):
    dock = plugin.dock
    image = copy_patch(tmp_path)
    mask = copy_patch(tmp_path, "MSK_000473.tif")
    layer = add_raster(image)
    dock.set_model(str(toy_model(tmp_path)))
    dock.layer_combo.setLayer(layer)
    dock.set_extent_mode(EXTENT_LAYER)
    dock.confidence_check.setChecked(True)
    run_and_wait(qtbot, dock)
    reference = add_raster(mask)
    qgis_canvas.setDestinationCrs(layer.crs())
    full = layer.extent()
    qgis_canvas.setExtent(
        QgsRectangle(full.xMinimum() + 10, full.yMinimum() + 10, full.xMinimum() + 70, full.yMinimum() + 55)
    )
    return dock, layer, reference, image, mask


def test_score_this_view_matches_independent_count(scored_setup, qgis_iface, qtbot, tmp_path):
    dock, layer, reference, _image, mask = scored_setup
    qa = dock.qa
    qa.reference_combo.setLayer(reference)
    qa.protocol_combo.setCurrentIndex(qa.protocol_combo.findData("flair1"))
    qa.error_check.setChecked(True)
    task = qa.score_view()
    assert task is not None, messages(qgis_iface, Qgis.Warning)
    qtbot.waitUntil(lambda: qa.task is None, timeout=30000)
    report = qa.report
    assert report is not None, messages(qgis_iface, Qgis.Warning) + messages(qgis_iface, Qgis.Critical)

    # Independent count over the scored extent (the view, snapped to the prediction's pixels).
    xmin, ymin, xmax, ymax = report["extent"]
    view = qa.canvas.extent().intersect(layer.extent())
    assert xmin <= view.xMinimum() and xmax >= view.xMaximum() and xmax - xmin < view.width() + 0.5
    pred_path = qa.prediction_combo.currentLayer().source()
    with rasterio.open(pred_path) as p, rasterio.open(mask) as m:
        win = p.window(xmin, ymin, xmax, ymax).round_offsets().round_lengths()
        pred = p.read(1, window=win)
        ref = m.read(1, window=win)
    ious, miou, oa = independent_flair1(pred, ref)
    assert report["miou"] == pytest.approx(miou, abs=1e-9)
    assert report["oa"] == pytest.approx(oa, abs=1e-9)
    assert report["pixels_evaluated"] == pred.size
    by_value = {row["value"]: row for row in report["classes"]}
    for value, iou in ious.items():
        if iou is None:
            assert by_value[value]["iou"] is None
        else:
            assert by_value[value]["iou"] == pytest.approx(iou, abs=1e-9)

    # What the user sees: the summary and the table rows.
    assert f"mIoU {100 * miou:.1f} %" in qa.summary_label.text()
    table = qa.class_table
    shown = {
        int(table.item(r, 0).text()): (table.item(r, 2).text(), table.item(r, 3).text())
        for r in range(table.rowCount())
    }
    for value, iou in ious.items():
        support = int(np.sum(np.where(ref >= 13, 13, ref) == value))
        assert shown[value][1].replace(",", "") == str(support)
        assert shown[value][0] == ("—" if iou is None else f"{100 * iou:.1f} %")
    # Colour swatches from the FLAIR #1 nomenclature (protocol classes).
    assert not table.item(0, 0).icon().isNull()
    assert qa.matrix_label.pixmap() is not None and not qa.matrix_label.pixmap().isNull()

    # The error map overlay.
    error_layers = [lyr for lyr in QgsProject.instance().mapLayers().values()
                    if lyr.customProperty("flair_qgis/kind") == "error_map"]  # fmt: skip
    assert len(error_layers) == 1 and isinstance(error_layers[0], QgsRasterLayer)

    # Export.
    out = tmp_path / "export" / "report.json"
    out.parent.mkdir()
    assert qa.export_report(str(out)) == str(out)
    written = json.loads(out.read_text())
    assert written["miou"] == pytest.approx(miou)
    assert (tmp_path / "export" / "report.csv").is_file()


def test_polygon_reference_suspicious_labels_and_zoom(scored_setup, qgis_canvas, qtbot):
    dock, layer, _reference, _image, _mask = scored_setup
    qa = dock.qa
    pred_path = qa.prediction_combo.currentLayer().source()
    with rasterio.open(pred_path) as p:
        pred = p.read(1)
        transform = p.transform
    full = layer.extent()
    polygons = QgsVectorLayer("Polygon?crs=EPSG:2154", "labels", "memory")
    polygons.dataProvider().addAttributes([QgsField("code", QVariant.Int)])
    polygons.updateFields()
    # Three 10 m squares: labelled with the model's majority class (agrees), and two with a class
    # the model never predicts there (disagree).
    squares = []
    for i, (dx, dy) in enumerate(((5, 5), (40, 40), (80, 20))):
        rect = QgsRectangle(
            full.xMinimum() + dx, full.yMinimum() + dy, full.xMinimum() + dx + 10, full.yMinimum() + dy + 10
        )
        c0, r0 = affine_xy(~transform, rect.xMinimum(), rect.yMaximum())
        row0, col0 = round(r0), round(c0)
        block = pred[row0 : row0 + 50, col0 : col0 + 50]
        majority = int(np.bincount(block.ravel()).argmax())
        code = majority if i == 0 else 12  # the toy model only predicts 1..5
        if i == 0:
            share = float(np.mean(block == majority))
        feature = QgsFeature(polygons.fields())
        feature.setGeometry(QgsGeometry.fromRect(rect))
        feature.setAttribute("code", code)
        squares.append((rect, code))
        polygons.dataProvider().addFeatures([feature])
    QgsProject.instance().addMapLayer(polygons)
    qgis_canvas.setExtent(full)
    score_and_wait(qa, qtbot, polygons, "code", timeout_ms=30000)
    ranked = qa.ranked
    assert len(ranked) == 3
    # The square labelled with the model's majority class is ranked last; its agreement is the
    # share of its pixels predicted as its label; the others have agreement 0.
    assert ranked.iloc[-1]["label"] == squares[0][1]
    assert ranked.iloc[-1]["agreement"] == pytest.approx(share, abs=0.01)
    assert list(ranked.iloc[:2]["agreement"]) == [0.0, 0.0]
    assert qa.suspicious_table.model().rowCount() == 3
    kinds = {lyr.customProperty("flair_qgis/kind") for lyr in QgsProject.instance().mapLayers().values()}
    assert "suspicious_labels" in kinds
    # Clicking the first row zooms to that polygon.
    qa.suspicious_table.clicked.emit(qa.suspicious_table.model().index(0, 1))
    first = ranked.geometry.iloc[0].bounds
    view = qgis_canvas.extent()
    assert view.contains(QgsRectangle(*first))
    assert view.width() < full.width() / 1.5 and view.height() < full.height() / 1.5


def test_scoring_without_reference_is_a_message(scored_setup, qgis_iface):
    dock = scored_setup[0]
    dock.qa.reference_combo.setLayer(None)
    assert dock.qa.score_view() is None
    assert any("REFERENCE" in m or "reference" in m for m in messages(qgis_iface, Qgis.Warning))
    assert messages(qgis_iface, Qgis.Critical) == []


def test_polygon_reference_in_another_crs_crosses_to_the_task_as_wkt(scored_setup, qgis_canvas, qtbot):
    """A polygon reference in WGS 84 is captured without a pyproj CRS (QGIS 3.40 crashed when a
    task used one) and the task still reprojects it onto the Lambert-93 prediction."""
    from qgis.core import QgsCoordinateReferenceSystem, QgsCoordinateTransform

    from flair_qgis.adapters.reference_input import capture_reference
    from flair_qgis.core.score.polygons import CRS_WKT_ATTR

    dock, layer, _reference, _image, _mask = scored_setup
    qa = dock.qa
    with rasterio.open(qa.prediction_combo.currentLayer().source()) as p:
        pred, transform = p.read(1), p.transform
    full = layer.extent()
    to_wgs84 = QgsCoordinateTransform(layer.crs(), QgsCoordinateReferenceSystem("EPSG:4326"), QgsProject.instance())
    polygons = QgsVectorLayer("Polygon?crs=EPSG:4326", "labels_wgs84", "memory")
    polygons.dataProvider().addAttributes([QgsField("code", QVariant.Int)])
    polygons.updateFields()
    # A 20 m square labelled with its majority class, drawn in WGS 84: scored right only if reprojected.
    rect = QgsRectangle(full.xMinimum() + 20, full.yMinimum() + 20, full.xMinimum() + 40, full.yMinimum() + 40)
    c0, r0 = affine_xy(~transform, rect.xMinimum(), rect.yMaximum())
    block = pred[round(r0) : round(r0) + 100, round(c0) : round(c0) + 100]
    majority = int(np.bincount(block.ravel()).argmax())
    geometry = QgsGeometry.fromRect(rect)
    geometry.transform(to_wgs84)
    feature = QgsFeature(polygons.fields())
    feature.setGeometry(geometry)
    feature.setAttribute("code", majority)
    polygons.dataProvider().addFeatures([feature])
    QgsProject.instance().addMapLayer(polygons)

    captured = capture_reference(polygons, "code")  # main thread: no feature read, the CRS as WKT
    assert isinstance(captured.polygons.crs_wkt, str) and "WGS 84" in captured.polygons.crs_wkt
    read = captured.polygons.read()  # what the task reads: no pyproj CRS, the WKT beside it
    assert read.crs is None and read.attrs[CRS_WKT_ATTR] == captured.polygons.crs_wkt and len(read) == 1

    qgis_canvas.setExtent(full)
    score_and_wait(qa, qtbot, polygons, "code", timeout_ms=30000)
    ranked = qa.ranked
    assert ranked is not None and len(ranked) == 1
    assert ranked.crs is None  # handed back to the main thread without the task's pyproj CRS
    # Reprojected onto the prediction's grid: about 20 m x 20 m at 0.2 m, agreeing as the block does.
    assert ranked.iloc[0]["pixels"] == pytest.approx(100 * 100, rel=0.05)
    assert ranked.iloc[0]["agreement"] == pytest.approx(float(np.mean(block == majority)), abs=0.02)
    assert ranked.geometry.iloc[0].bounds[0] == pytest.approx(rect.xMinimum(), abs=0.5)


def ranked_squares(rows: int):
    """``rows`` ranked unit squares, as :func:`flair_qgis.core.score.labels.rank_labels` returns them."""
    import geopandas as gpd
    from shapely.geometry import box

    return gpd.GeoDataFrame(
        {
            "rank": range(1, rows + 1),
            "label": [5] * rows,
            "label_name": ["impervious surface"] * rows,
            "predicted": [1.0] * (rows - 1) + [None],
            "predicted_name": ["building"] * (rows - 1) + [None],
            "agreement": [0.25] * rows,
            "suspicion": [0.75] * (rows - 1) + [float("nan")],
            "disagreeing_px": [1200] * rows,
        },
        geometry=[box(i, 0, i + 1, 1) for i in range(rows)],
        crs="EPSG:2154",
    )


@pytest.mark.parametrize("rows", [144, 1000])
def test_ranked_rows_reach_the_table_in_one_model_reset(qgis_canvas, qtbot, rows):
    """The scores of each view fill the suspicious-labels table in one model reset: filled cell by
    cell (a signal per cell, each re-laid out and measured by the view on screen), 144 rows blocked
    QGIS's main thread 240-620 ms at each re-score (heartbeat in the real desktop)."""
    from flair_qgis.gui.evaluate.qa_suspicious import SuspiciousTable

    table = SuspiciousTable(qgis_canvas)
    qtbot.addWidget(table)
    table.show()
    model = table.model()
    signals: list[str] = []
    for name in ("modelReset", "rowsInserted", "rowsRemoved", "dataChanged", "layoutChanged"):
        getattr(model, name).connect(lambda *_args, name=name: signals.append(name))
    crs = qgis_canvas.mapSettings().destinationCrs()
    for _fill in range(2):  # a score, then the same click again
        table.show_ranked(ranked_squares(rows), crs)
    assert signals == ["modelReset", "modelReset"]
    shown = min(rows, 200)
    assert model.rowCount() == shown and table.isVisible() and table.details_button.isVisible()
    texts = [[model.data(model.index(r, c)) for c in range(model.columnCount())] for r in (0, shown - 1)]
    assert texts[0] == ["1", "impervious surface (5)", "building (1)", "25 %", "0.75"]
    last = ["—", "25 %", "—"] if rows <= 200 else ["building (1)", "25 %", "0.75"]
    assert texts[1] == [str(shown), "impervious surface (5)", *last]
    assert [model.headerData(c, Qt.Orientation.Horizontal) for c in (0, 1, 4)] == ["Rank", "Label", "Suspicion"]
    details = table.open_details()
    assert details.table.rowCount() == shown and details.table.item(0, 5).text() == "1,200"
    table.show_ranked(None, crs)
    assert model.rowCount() == 0 and not table.isVisible()
