"""Helpers for the GUI tests: data copies, synthetic rasters, the plugin with its dock, waiting on tasks."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import numpy as np
import rasterio
from affine import Affine
from conftest import FLAIR_DATA
from qgis.core import QgsProject, QgsRasterLayer
from qgis.PyQt.QtCore import Qt
from toy_models import identity_model

TOY_CLASSES = [
    {"value": 1, "name": "red", "color": "#e6194b"},
    {"value": 2, "name": "green", "color": "#3cb44b"},
    {"value": 3, "name": "blue", "color": "#4363d8"},
    {"value": 4, "name": "infrared", "color": "#f58231"},
    {"value": 5, "name": "elevation", "color": "#911eb4"},
]
"""Classes of the toy identity model: class ``i + 1`` wins where band ``i + 1`` is brightest."""

PATCH = "IMG_000473.tif"


def copy_patch(tmp_path: Path, name: str = PATCH) -> Path:
    """A private copy of a real FLAIR patch (tests never write next to repository data)."""
    folder = tmp_path / "in"
    folder.mkdir(exist_ok=True)
    target = folder / name
    shutil.copy(FLAIR_DATA / name, target)
    return target


def toy_model(tmp_path: Path, channels: int = 5, **extra: object) -> Path:
    """Identity model (class = argmax of the raw bands) with classes, colours and band names."""
    metadata = {
        "model_type": "Segmentor",
        "mean": [0.0] * channels,
        "std": [1.0] * channels,
        "classes": TOY_CLASSES[:channels],
        "bands": ["R", "G", "B", "NIR", "ELEV"][:channels],
        "tile_size": 256,
        "tiles_overlap": 0,
    }
    metadata.update(extra)
    return identity_model(tmp_path / "models" / f"toy{channels}.onnx", channels, metadata=metadata)


def expected_classes(image: np.ndarray) -> np.ndarray:
    """Class values the toy model gives to ``(bands, rows, cols)`` pixels: argmax + 1, first on ties."""
    return np.argmax(image, axis=0).astype(np.uint8) + 1


def big_raster(path: Path, size_px: int = 2048, bands: int = 5, seed: int = 0) -> Path:
    """A random uint8 GeoTIFF in EPSG:2154 at 0.2 m, big enough for a run to be canceled mid-way."""
    rng = np.random.default_rng(seed)
    data = rng.integers(0, 255, size=(bands, size_px, size_px), dtype=np.uint8)
    profile = {
        "driver": "GTiff", "width": size_px, "height": size_px, "count": bands, "dtype": "uint8",
        "crs": "EPSG:2154", "transform": Affine(0.2, 0, 650000.0, 0, -0.2, 6860000.0), "tiled": True,
    }  # fmt: skip
    path.parent.mkdir(parents=True, exist_ok=True)
    with rasterio.open(path, "w", **profile) as dst:
        dst.write(data)
    return path


def wait_for_task(qtbot, dock, timeout_ms: int = 60000) -> None:
    """Wait until the dock's run ended (its ``finished()`` ran on the main thread)."""
    qtbot.waitUntil(lambda: dock.segment.task is None, timeout=timeout_ms)


def messages(iface, level) -> list[str]:
    """Message bar texts of one level."""
    return list(iface.messageBar().get_messages(level))


def add_raster(path) -> QgsRasterLayer:
    """Load a raster into the project (it must be valid)."""
    layer = QgsRasterLayer(str(path), os.path.basename(str(path)))
    assert layer.isValid()
    QgsProject.instance().addMapLayer(layer)
    return layer


def run_and_wait(qtbot, dock) -> None:
    """Click Run (it must be enabled) and wait for the task to end."""
    assert dock.segment.run_section.run_button.isEnabled(), dock.segment.run_section.reason_label.text()
    qtbot.mouseClick(dock.segment.run_section.run_button, Qt.LeftButton)
    assert dock.segment.task is not None
    wait_for_task(qtbot, dock)


def score_and_wait(
    qa, qtbot, reference, field: str = "", error_map: bool | None = None, timeout_ms: int = 60000
) -> None:
    """Score the view against ``reference`` under flair1 with suspicious labels, and wait for the report.

    ``error_map`` ticks or unticks the error map; None leaves the box as it is.
    """
    qa.reference_combo.setLayer(reference)
    if field:
        qa.field_combo.setField(field)
    qa.protocol_combo.setCurrentIndex(qa.protocol_combo.findData("flair1"))
    if error_map is not None:
        qa.error_check.setChecked(error_map)
    qa.suspicious_check.setChecked(True)
    assert qa.score_view() is not None
    qtbot.waitUntil(lambda: qa.task is None, timeout=timeout_ms)
    assert qa.report is not None


def show_review_tab(plugin, canvas, labels_path):
    """The dock's Review tab in front, the labels raster loaded and the canvas shown: the panel."""
    from flair_qgis.gui.review.review_panel import ReviewPanel

    add_raster(labels_path)
    plugin.dock.tabs.setCurrentIndex(plugin.dock.tabs.count() - 1)
    canvas.show()
    return plugin.dock.findChild(ReviewPanel)
