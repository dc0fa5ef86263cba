"""The dependency dialogs as a user meets them: the dock's install of onnxruntime and the plugin's offer for
missing geospatial packages say what pip installs, from where, how many MB and with which Python; "No"
installs nothing."""

from __future__ import annotations

import sys

from qgis.PyQt.QtCore import QTimer
from qgis.PyQt.QtWidgets import QApplication, QMessageBox

from flair_qgis.adapters import deps


def _answer_no(seen: list[str]) -> None:
    """Read the next message box's text and press No (or close it), from the event loop it blocks."""

    def close() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, close)
            return
        seen.append(box.text())
        button = box.button(QMessageBox.StandardButton.No) or box.button(QMessageBox.StandardButton.Ok)
        button.click()

    QTimer.singleShot(20, close)


def test_the_dock_says_what_pip_installs_from_where_and_how_much(plugin):
    seen: list[str] = []
    _answer_no(seen)
    plugin.dock.install_dependencies()
    assert len(seen) == 1
    text = seen[0]
    plan = deps.machine_plan()
    assert f"Install {', '.join(plan.pip)} with pip?" in text
    assert "onnxruntime" in plan.pip[0] and ">=" in plan.pip[0] and plan.pip[1] == "onnx"
    assert "From: https://pypi.org" in text and f"about {plan.megabytes} MB" in text
    assert f"Into: {deps.deps_dir()}" in text and f"With: {deps.find_qgis_python()}" in text
    assert deps.deps_dir().endswith(f"python{sys.version_info[0]}.{sys.version_info[1]}")
    assert getattr(plugin.dock, "install_task", None) is None  # "No": nothing installs


def test_missing_geospatial_packages_are_offered_with_their_size_here(plugin):
    plugin.missing = ["rasterio", "geopandas"]
    seen: list[str] = []
    _answer_no(seen)
    plugin.offer_dependencies()
    assert len(seen) == 1
    text = seen[0]
    assert "FLAIR needs the Python package(s) rasterio, geopandas" in text
    assert "sudo apt install python3-rasterio python3-geopandas" in text  # this machine's advice (Linux)
    assert "Install rasterio, geopandas with pip?" in text and "about 85 MB" in text
    assert plugin.install_task is None
