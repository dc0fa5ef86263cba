"""IGN masks with an engineering "Lambert-93" CRS: the one-click offer to treat them as EPSG:2154."""

from __future__ import annotations

import hashlib

from gui_helpers import copy_patch
from layout_helpers import show_at_dock_width
from qgis.core import QgsProject, QgsRasterLayer
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtWidgets import QPushButton

from flair_qgis.adapters.local_crs import is_local_lambert93


def _digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _offer_buttons(iface) -> list[QPushButton]:
    return iface.messageBar().findChildren(QPushButton, "FlairTreatAsLambert93")


def test_local_lambert93_mask_gets_the_offer_and_the_click_sets_epsg2154(plugin, qgis_iface, qtbot, tmp_path):
    show_at_dock_width(plugin.dock, qtbot)
    qgis_iface.messageBar().clearWidgets()
    mask = copy_patch(tmp_path, "MSK_000473.tif")  # LOCAL_CS["RGF93 v1 / Lambert-93", ...]
    before = _digest(mask)
    layer = QgsRasterLayer(str(mask), "MSK_000473")
    assert layer.isValid() and is_local_lambert93(layer.crs()) and layer.crs().authid() == ""
    QgsProject.instance().addMapLayer(layer)

    buttons = _offer_buttons(qgis_iface)
    assert len(buttons) == 1
    assert buttons[0].text() == "Treat as EPSG:2154"
    qtbot.mouseClick(buttons[0], Qt.LeftButton)

    assert layer.crs().authid() == "EPSG:2154"
    assert _digest(mask) == before  # the file is never touched
    reopened = QgsRasterLayer(str(mask), "again")
    assert reopened.crs().authid() == "" and is_local_lambert93(reopened.crs())


def test_no_offer_for_a_mask_already_in_epsg2154_or_an_image(plugin, qgis_iface, tmp_path):
    qgis_iface.messageBar().clearWidgets()
    for name in ("MSK_084558.tif", "IMG_000473.tif"):
        layer = QgsRasterLayer(str(copy_patch(tmp_path, name)), name)
        assert layer.crs().authid() == "EPSG:2154"
        QgsProject.instance().addMapLayer(layer)
    assert _offer_buttons(qgis_iface) == []
