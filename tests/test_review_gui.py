"""The Review tab driven with key presses: verdicts land in the GeoPackage at once, a plugin
reload resumes, the corrected reference follows the verdicts, two sessions on one file."""

from __future__ import annotations

import sqlite3

import pytest
from gui_helpers import add_raster, messages, show_review_tab
from qgis.core import Qgis, QgsPointXY, QgsProject
from qgis.PyQt.QtCore import Qt
from review_data import demo_prediction, read_band, value_at

from flair_qgis.core.review import SampleRequest, create_review
from flair_qgis.core.review.apply import apply_review_raster
from flair_qgis.core.review.store import ReviewStore
from flair_qgis.gui.review.review_panel import ReviewPanel


@pytest.fixture(scope="module")
def inputs(flair_provider, tmp_path_factory):
    return demo_prediction(tmp_path_factory.mktemp("review-gui"))


@pytest.fixture
def review(inputs, tmp_path):
    prediction, confidence, reference = inputs
    path = tmp_path / "review.gpkg"
    create_review(
        SampleRequest(
            str(prediction), str(path), design="stratified", samples=30, min_per_class=3, seed=1,
            reference_raster=str(reference), reference_name=str(reference), confidence_path=str(confidence),
        )
    )  # fmt: skip
    return path


@pytest.fixture
def panel(plugin, qgis_canvas, inputs, qtbot):
    return show_review_tab(plugin, qgis_canvas, inputs[2])


def _stored(path) -> dict[int, tuple]:
    with ReviewStore.open(path) as store:
        return {i.item_id: (i.verdict, i.true_class) for i in store.items()}


def test_keys_write_each_verdict_to_the_geopackage_at_once(panel, review, qtbot, qgis_canvas):
    assert panel.open_review(str(review))
    session = panel.session
    first = session.current
    assert first.item_id == 1 and panel.progress.text() == "0 / 30 reviewed"
    # The map shows the item with its pixel outlined; the card names its classes.
    point = QgsPointXY(first.bounds[0], first.bounds[1])
    assert qgis_canvas.extent().contains(point)
    outline = panel.highlight.band.asGeometry().boundingBox()
    assert outline.width() == pytest.approx(0.2, abs=1e-6) and outline.contains(point)
    assert f"({first.map_class})" in panel.card.text() and f"({first.label_class})" in panel.card.text()

    qtbot.keyClick(panel, Qt.Key_C)
    assert _stored(review)[1] == ("correct", first.label_class)  # on disk before the next key
    assert session.current.item_id == 2 and panel.progress.text() == "1 / 30 reviewed"
    second = session.current
    key_class = session.keys[2].info.value  # the third class in the list has key 3
    qtbot.keyClick(panel, Qt.Key_3)
    expected = "correct" if key_class == second.label_class else "wrong"
    assert _stored(review)[2] == (expected, key_class)
    qtbot.keyClick(panel, Qt.Key_U)
    assert _stored(review)[3] == ("unsure", None)
    if len(session.keys) > 10:  # Shift+1: the eleventh class
        qtbot.keyClick(panel, Qt.Key_1, Qt.ShiftModifier)
        assert _stored(review)[4][1] == session.keys[10].info.value
    else:
        qtbot.keyClick(panel, Qt.Key_N)
    assert session.current.item_id == 5
    qtbot.keyClick(panel, Qt.Key_Space)
    qtbot.keyClick(panel, Qt.Key_P)
    assert session.current.item_id == 5
    # A few verdicts leave strata without a reviewed item: no figure yet, the headline says why.
    assert "incomplete" in panel.headline.text() and "unsure" in panel.headline.text()
    assert panel.class_table.rowCount() == len(session.keys)
    assert panel.class_table.item(2, 2).text() == "3"


def test_toggle_keys_show_and_hide_layers(panel, review, qtbot):
    panel.open_review(str(review))
    prediction = panel.layer_combos["M"].currentLayer()
    assert prediction is not None  # opened with the review when it was not loaded
    node = QgsProject.instance().layerTreeRoot().findLayer(prediction.id())
    before = node.itemVisibilityChecked()
    qtbot.keyClick(panel, Qt.Key_M)
    assert node.itemVisibilityChecked() is not before
    reference = panel.layer_combos["R"].currentLayer()
    assert reference is not None
    qtbot.keyClick(panel, Qt.Key_R)
    assert not QgsProject.instance().layerTreeRoot().findLayer(reference.id()).itemVisibilityChecked()


def test_filter_shows_only_items_not_yet_reviewed(panel, review, qtbot):
    panel.open_review(str(review))
    for _ in range(3):
        qtbot.keyClick(panel, Qt.Key_C)
    panel.unreviewed_check.setChecked(True)
    qtbot.keyClick(panel, Qt.Key_P)
    assert panel.session.current.item_id == 4  # 1..3 reviewed: nothing before 4 to go back to
    panel.unreviewed_check.setChecked(False)
    qtbot.keyClick(panel, Qt.Key_P)
    assert panel.session.current.item_id == 3


def test_plugin_reload_resumes_where_the_review_stopped(plugin, panel, review, qtbot, qgis_iface):
    from flair_qgis.plugin import FlairPlugin

    panel.open_review(str(review))
    for key in (Qt.Key_C, Qt.Key_C, Qt.Key_U, Qt.Key_C):
        qtbot.keyClick(panel, key)
    plugin.unload()
    again = FlairPlugin(qgis_iface)
    again.initGui()
    again.show_dock(True)
    try:
        resumed = again.dock.findChild(ReviewPanel)
        assert resumed.session is not None and resumed.session.store.path == str(review)
        assert resumed.session.current.item_id == 5
        assert resumed.progress.text() == "4 / 30 reviewed"
    finally:
        again.unload()


def test_corrected_reference_matches_the_verdicts(panel, review, inputs, qtbot, tmp_path):
    reference = inputs[2]
    panel.open_review(str(review))
    decided = {}
    for key, position in ((Qt.Key_1, 0), (Qt.Key_2, 1), (Qt.Key_C, None), (Qt.Key_4, 3), (Qt.Key_U, None)):
        item = panel.session.current
        qtbot.keyClick(panel, key)
        value = item.label_class if position is None else panel.session.keys[position].info.value
        if key != Qt.Key_U:
            decided[item.bounds[:2]] = value
    out = apply_review_raster(str(reference), str(review), str(tmp_path / "fixed.tif"))
    for (x, y), value in decided.items():
        assert value_at(out.output, x, y) == value
    changed = (read_band(reference) != read_band(out.output)).sum()
    assert changed == sum(1 for (x, y), v in decided.items() if value_at(reference, x, y) != v)


def test_same_review_open_twice_last_write_wins_and_file_stays_whole(panel, review, qtbot, qgis_iface):
    panel.open_review(str(review))
    other = ReviewPanel(qgis_iface, panel.dock)  # a second QGIS session on the same file
    try:
        assert other.open_review(str(review))
        assert other.session.current.item_id == panel.session.current.item_id == 1
        qtbot.keyClick(panel, Qt.Key_C)
        qtbot.keyClick(other, Qt.Key_2)  # the other session decides item 1 too, later
        value = other.session.keys[1].info.value
        assert _stored(review)[1][1] == value
        qtbot.keyClick(panel, Qt.Key_P)  # back on item 1: the tab shows what the file holds
        assert panel.session.current.true_class == value
    finally:
        other.close_review()
        other.deleteLater()
    conn = sqlite3.connect(review)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()


def test_another_schema_is_refused_with_a_message(panel, inputs, tmp_path, qgis_iface):
    import geopandas as gpd
    from shapely.geometry import Point

    other = tmp_path / "points.gpkg"
    gpd.GeoDataFrame({"a": [1]}, geometry=[Point(0, 0)], crs="EPSG:2154").to_file(other, layer="points")
    assert not panel.open_review(str(other))
    assert panel.session is None
    assert any("not a review GeoPackage" in m for m in messages(qgis_iface, Qgis.Warning))


def test_new_review_box_samples_and_opens_the_review(panel, inputs, qtbot, tmp_path):
    prediction = add_raster(inputs[0])
    box = panel.create_box
    box.prediction_combo.setLayer(prediction)
    box.samples_spin.setValue(25)
    box.min_spin.setValue(2)
    box.output_widget.setFilePath(str(tmp_path / "new.gpkg"))
    assert box.start() is not None
    qtbot.waitUntil(lambda: box.task is None, timeout=60000)
    assert panel.session is not None and panel.progress.text() == "0 / 25 reviewed"
    assert box.start() is None  # the file exists now: never replaced from the tab


def test_note_is_saved_with_enter_and_keys_still_work(panel, review, qtbot):
    panel.open_review(str(review))
    panel.note_edit.setFocus()
    qtbot.keyClicks(panel.note_edit, "shadow: cannot see the roof")
    qtbot.keyClick(panel.note_edit, Qt.Key_Return)
    with ReviewStore.open(review) as store:
        assert store.item(1).note == "shadow: cannot see the roof" and store.item(1).verdict == ""
    qtbot.keyClick(panel, Qt.Key_C)
    assert _stored(review)[1][0] == "correct"


def test_new_review_of_the_map_view_only(panel, inputs, qtbot, tmp_path, qgis_canvas):
    prediction = add_raster(inputs[0])
    qgis_canvas.setDestinationCrs(prediction.crs())
    full = prediction.extent()
    view = full.buffered(-full.width() / 4)
    qgis_canvas.setExtent(view)
    box = panel.create_box
    box.prediction_combo.setLayer(prediction)
    box.view_check.setChecked(True)
    box.samples_spin.setValue(20)
    box.output_widget.setFilePath(str(tmp_path / "view.gpkg"))
    shown = qgis_canvas.extent()  # opening the review then zooms to its first item
    assert box.start() is not None
    qtbot.waitUntil(lambda: box.task is None, timeout=60000)
    assert all(shown.contains(QgsPointXY(i.bounds[0], i.bounds[1])) for i in panel.session.items)
    assert sum(panel.session.store.strata.values()) < 0.75 * 512 * 512  # the view, not the whole patch


def test_keys_work_on_the_map_while_the_review_tab_is_shown(plugin, panel, review, qtbot, qgis_canvas):
    from layout_helpers import show_at_dock_width

    show_at_dock_width(plugin.dock, qtbot)
    plugin.dock.tabs.setCurrentIndex(plugin.dock.tabs.count() - 1)
    panel.open_review(str(review))
    assert panel.isVisible()
    qtbot.keyClick(qgis_canvas, Qt.Key_C)  # the interpreter's focus is on the map
    assert _stored(review)[1][0] == "correct"
    plugin.dock.tabs.setCurrentIndex(0)  # another tab: the map's keys are QGIS's again
    qtbot.keyClick(qgis_canvas, Qt.Key_C)
    assert _stored(review)[2][0] == ""


@pytest.mark.parametrize(
    ("key", "shifted", "digit"),
    [(Qt.Key_1, False, 1), (Qt.Key_0, False, 0), (Qt.Key_1, True, 1),  # digits, with or without Shift
     (Qt.Key_Exclam, True, 1), (Qt.Key_ParenRight, True, 0),  # US layout, Shift
     (Qt.Key_Ampersand, False, 1), (Qt.Key_Eacute, False, 2), (Qt.Key_Agrave, False, 0),  # AZERTY
     (Qt.Key_A, False, None)],
)  # fmt: skip
def test_digit_keys_on_us_and_french_keyboards(key, shifted, digit):
    from flair_qgis.gui.review.review_keys import digit_of

    assert digit_of(key, shifted) == digit


def test_error_map_is_found_by_what_it_is_never_by_its_name(run_alg, panel, inputs, review, tmp_path):
    """flair:evaluate's error map, loaded as Processing loads it (no kind tag), is recognised by the
    tag its GeoTIFF carries; a raster merely named "errors" is not; the Evaluate tab's kind tag wins."""
    from qgis.core import QgsRasterLayer

    from flair_qgis.adapters.review_layers import error_map_layer
    from flair_qgis.core import vocabulary

    prediction, _confidence, reference = inputs
    QgsProject.instance().addMapLayer(QgsRasterLayer(str(reference), "errors"))
    assert error_map_layer() is None
    out = run_alg(
        "flair:evaluate",
        {"PREDICTION": str(prediction), "REFERENCE": str(reference), "PROTOCOL": "flair1",
         "OUTPUT_REPORT": str(tmp_path / "report.json"), "OUTPUT_ERROR_MAP": str(tmp_path / "scored.tif")},
    )  # fmt: skip
    written = QgsProject.instance().addMapLayer(QgsRasterLayer(out["OUTPUT_ERROR_MAP"], "scored"))
    assert not written.customProperty(vocabulary.KIND_PROPERTY)
    assert error_map_layer() is written
    assert panel.open_review(str(review)) and panel.layer_combos["E"].currentLayer() is written
    tagged = QgsRasterLayer(out["OUTPUT_ERROR_MAP"], "Fehler")
    tagged.setCustomProperty(vocabulary.KIND_PROPERTY, vocabulary.KIND_ERROR_MAP)
    QgsProject.instance().addMapLayer(tagged)
    assert error_map_layer() is tagged


def test_a_verdict_waits_until_the_item_was_seen_over_a_layer(panel, review, qtbot):
    """The rule lives in the session: the tab says why, nothing is written, and the item is
    accepted once shown over a loaded class map."""
    assert panel.open_review(str(review))
    session = panel.session
    prediction = panel.layer_combos["M"].currentLayer()
    assert prediction is not None  # reloaded from the design table
    panel.layer_combos["M"].setLayer(None)
    panel.layer_combos["R"].setLayer(None)
    first = session.current
    qtbot.keyClick(panel, Qt.Key_C)
    assert _stored(review)[first.item_id][0] == "" and session.current.item_id == first.item_id
    assert panel.status_label.text().startswith("No class map or labels on the map")
    panel.layer_combos["M"].setLayer(prediction)  # seen now, over the class map
    qtbot.keyClick(panel, Qt.Key_C)
    assert _stored(review)[first.item_id][0] == "correct"
