"""Pictures of the dock in use (docs/screenshots when FLAIR_SCREENSHOTS=1): the dock and the map render."""

from __future__ import annotations

import os

from conftest import REPO
from gui_helpers import add_raster, copy_patch, run_and_wait, toy_model
from qgis.core import QgsMapRendererParallelJob, QgsMapSettings, QgsRectangle
from qgis.PyQt.QtCore import QSize
from qgis.PyQt.QtGui import QColor, QImage

from flair_qgis.core.vocabulary import EXTENT_LAYER


def _distinct_colors(image: QImage, step: int = 9) -> int:
    return len({image.pixel(x, y) for x in range(0, image.width(), step) for y in range(0, image.height(), step)})


def test_dock_and_map_screenshots(plugin, qgis_canvas, qtbot, tmp_path):
    folder = REPO / "docs" / "screenshots" if os.environ.get("FLAIR_SCREENSHOTS") == "1" else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    dock = plugin.dock
    image = copy_patch(tmp_path)
    mask = copy_patch(tmp_path, "MSK_000473.tif")
    layer = add_raster(image)
    model = toy_model(tmp_path)
    dock.set_model(str(model))
    dock.layer_combo.setLayer(layer)
    dock.set_extent_mode(EXTENT_LAYER)
    dock.confidence_check.setChecked(True)
    run_and_wait(qtbot, dock)
    dock.resize(460, 1500)
    dock.show()
    dock.scroll_areas[0].verticalScrollBar().setValue(0)
    shot = dock.grab()
    assert shot.save(str(folder / "dock_segment.png"))
    assert _distinct_colors(shot.toImage()) > 10

    reference = add_raster(mask)
    qgis_canvas.setDestinationCrs(layer.crs())
    qgis_canvas.setExtent(layer.extent())
    qa = dock.qa
    qa.reference_combo.setLayer(reference)
    qa.protocol_combo.setCurrentIndex(qa.protocol_combo.findData("flair1"))
    qa.score_view()
    qtbot.waitUntil(lambda: qa.task is None, timeout=30000)
    assert qa.report is not None
    qa.identify_at(layer.extent().center())
    dock.tabs.setCurrentWidget(dock.tabs.widget(1))
    dock.resize(460, 1300)
    shot = dock.grab()
    assert shot.save(str(folder / "dock_evaluate.png"))
    assert _distinct_colors(shot.toImage()) > 10

    settings = QgsMapSettings()
    settings.setLayers([qa.prediction_combo.currentLayer(), layer])
    settings.setDestinationCrs(layer.crs())
    full = layer.extent()
    settings.setExtent(QgsRectangle(full))
    settings.setOutputSize(QSize(512, 512))
    settings.setBackgroundColor(QColor("white"))
    job = QgsMapRendererParallelJob(settings)
    job.start()
    job.waitForFinished()
    rendered = job.renderedImage()
    assert rendered.save(str(folder / "map_overlay.png"))
    assert _distinct_colors(rendered) > 20
