"""The "New review" box stratified by confidence, with a second interpreter: its fields, the word when
the confidence layer is missing, the review it writes through flair:sample on the demo model's real
class map and confidence, the Review tab's headline, and all of it in a 298 px dock, in English and
in French."""

from __future__ import annotations

import sqlite3

import pytest
from gui_helpers import add_raster, messages, show_review_tab
from layout_helpers import show_at_dock_width
from qgis.core import Qgis
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtWidgets import QWidget
from review_data import demo_prediction
from test_i18n import french_qgis  # noqa: F401 - the fr_FR profile fixture

from flair_qgis.core.review import SampleRequest, create_review
from flair_qgis.gui.review.review_panel import ReviewPanel

DOCK_PX = 298
"""The dock's default width in QGIS (the box must fit it without a horizontal scrollbar)."""


@pytest.fixture(scope="module")
def inputs(flair_provider, tmp_path_factory):
    return demo_prediction(tmp_path_factory.mktemp("review-box"))


@pytest.fixture
def panel(plugin, qgis_canvas, inputs, qtbot):
    widget = show_review_tab(plugin, qgis_canvas, inputs[2])
    yield widget
    widget.close_review()


def _by_confidence(box) -> None:
    box.setCollapsed(False)
    box.design_combo.setCurrentIndex(box.design_combo.findData("stratified_confidence"))


def _shown(box, widget) -> bool:
    """The row is there for the person (label and field), whether or not the dock is on screen."""
    return not widget.isHidden() and not box.form.labelForField(widget).isHidden()


def _strata(path) -> list[tuple[int, int, int, str | None]]:
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT stratum, pixels, map_class, confidence_band FROM review_strata").fetchall()


def _least(widget) -> int:
    """The width a layout gives a widget at least: its minimum width when set, else its hint."""
    return widget.minimumWidth() or widget.minimumSizeHint().width()


def _fits(plugin, qtbot) -> list[str]:
    """What of the Review tab is wider than a 298 px dock lets it be (its widest widgets named)."""
    dock = plugin.dock
    show_at_dock_width(dock, qtbot, DOCK_PX)
    dock.tabs.setCurrentIndex(dock.tabs.count() - 1)
    qtbot.wait(50)
    area = dock.tabs.currentWidget()
    room = area.viewport().width()
    box = dock.findChild(ReviewPanel).create_box
    wide = [
        f"{type(w).__name__} {getattr(w, 'text', lambda: '')()!r} {_least(w)} px"
        for w in (box, *box.findChildren(QWidget))
        if w.isVisibleTo(dock) and _least(w) > room
    ]
    if area.widget().minimumSizeHint().width() > room or area.horizontalScrollBar().isVisible():
        wide.append(f"tab {area.widget().minimumSizeHint().width()} px > {room} px")
    return wide


def test_confidence_fields_only_for_stratified_by_confidence(panel, inputs, qgis_iface, tmp_path):
    box = panel.create_box
    box.setCollapsed(False)
    assert box.design_combo.currentData() == "stratified"
    assert not _shown(box, box.threshold_spin) and not _shown(box, box.low_share_spin)
    assert _shown(box, box.double_spin) and box.double_spin.value() == 0  # every design can have one
    assert box.threshold_spin.value() == pytest.approx(0.7) and box.low_share_spin.value() == 50
    box.prediction_combo.setLayer(add_raster(inputs[0]))
    _by_confidence(box)
    assert _shown(box, box.threshold_spin) and _shown(box, box.low_share_spin)
    assert box.threshold_spin.isEnabled() and box.low_share_spin.isEnabled()
    # No confidence layer yet: the box says what is needed, and refuses before Processing runs.
    assert box.confidence_combo.currentLayer() is None and not box.confidence_hint.isHidden()
    assert "confidence layer" in box.confidence_hint.text()
    qgis_iface.messageBar().clear_messages()
    box.output_widget.setFilePath(str(tmp_path / "refused.gpkg"))
    assert box.start() is None
    assert "FLAIR:" + box.confidence_hint.text() in messages(qgis_iface, Qgis.MessageLevel.Warning)
    assert not (tmp_path / "refused.gpkg").exists()
    box.confidence_combo.setLayer(add_raster(inputs[1]))
    assert box.confidence_hint.isHidden()
    box.design_combo.setCurrentIndex(box.design_combo.findData("random"))
    assert not _shown(box, box.threshold_spin) and not box.threshold_spin.isEnabled()


def test_box_fits_a_298px_dock_with_every_field_shown(plugin, panel, qtbot):
    _by_confidence(panel.create_box)  # the most rows: split fields and the missing-layer sentence
    assert not panel.create_box.confidence_hint.isHidden()
    assert _fits(plugin, qtbot) == []


def test_box_writes_a_review_stratified_by_confidence_with_double_review(panel, inputs, qtbot, tmp_path):
    prediction, confidence, _reference = inputs
    box = panel.create_box
    box.prediction_combo.setLayer(add_raster(prediction))
    _by_confidence(box)
    box.confidence_combo.setLayer(add_raster(confidence))
    box.threshold_spin.setValue(0.8)
    box.low_share_spin.setValue(40)
    box.samples_spin.setValue(60)
    box.min_spin.setValue(2)  # issue 34: 0 and 1 are refused
    box.double_spin.setValue(25)
    path = tmp_path / "by_confidence.gpkg"
    box.output_widget.setFilePath(str(path))
    assert box.start() is not None
    qtbot.waitUntil(lambda: box.task is None, timeout=120000)
    session = panel.session
    assert session is not None and session.store.path == str(path)
    items = session.items
    assert len(items) == 60
    with sqlite3.connect(path) as conn:
        doubles = conn.execute("SELECT count(*) FROM review WHERE double = 1").fetchone()[0]
        design = dict(conn.execute("SELECT key, value FROM review_design").fetchall())
    assert doubles == 15  # 25 % of 60, spread over the strata
    assert design["design"] == "stratified_confidence"
    assert float(design["confidence_threshold"]) == pytest.approx(0.8)
    assert float(design["low_confidence_share"]) == pytest.approx(0.4)
    assert float(design["double_review"]) == pytest.approx(0.25)
    strata = _strata(path)
    assert {band for *_rest, band in strata} == {"low", "high"}
    assert all(
        map_class == stratum // 2 and band == ("low", "high")[stratum % 2] for stratum, _n, map_class, band in strata
    )
    # 40 % of the items where the model is below 0.8, read from the real confidence raster.
    low = [i for i in items if i.stratum % 2 == 0]
    assert len(low) == 24
    assert all(i.confidence < 0.8 for i in low) and all(i.confidence >= 0.8 for i in items if i.stratum % 2 == 1)
    with_pixels = sum(1 for _s, n, _c, _b in strata if n > 0)
    assert panel.headline.text() == f"Stratified by confidence, {with_pixels} strata · No verdict yet."
    for _ in range(3):
        qtbot.keyClick(panel, Qt.Key_C)
    missing = with_pixels - len({i.stratum for i in session.items if i.verdict == "correct"})
    assert panel.headline.text().startswith(
        f"Stratified by confidence, {with_pixels} strata · "
        f"map accuracy incomplete: {missing} of {with_pixels} strata without a reviewed item"
    )


def test_box_and_headline_in_french(french_qgis, plugin, qgis_canvas, inputs, qtbot, tmp_path):  # noqa: F811
    prediction, confidence, reference = inputs
    panel = show_review_tab(plugin, qgis_canvas, reference)
    box = panel.create_box
    box.prediction_combo.setLayer(add_raster(prediction))
    _by_confidence(box)
    assert box.design_combo.currentText() == "stratifié par confiance"
    labels = [box.form.labelForField(w).text() for w in (box.threshold_spin, box.low_share_spin, box.double_spin)]
    assert labels == ["Seuil de confiance", "Éléments sous le seuil", "Second interprète"]
    assert box.confidence_hint.text().startswith("Le plan stratifié par confiance demande la couche de confiance")
    failures = []
    box.failed.connect(failures.append)
    box.output_widget.setFilePath(str(tmp_path / "refusée.gpkg"))
    assert box.start() is None and failures == [box.confidence_hint.text()]
    wide = _fits(plugin, qtbot)
    assert wide == [], "\n".join(wide)  # French words are longer
    path = tmp_path / "revue.gpkg"
    create_review(
        SampleRequest(
            str(prediction), str(path), design="stratified_confidence", samples=30, min_per_class=2, seed=4,
            reference_raster=str(reference), confidence_path=str(confidence), double_review=0.2,
        )
    )  # fmt: skip
    assert panel.open_review(str(path))
    strata = sum(1 for _s, n, _c, _b in _strata(path) if n > 0)
    assert panel.headline.text() == f"Stratifié par confiance, {strata} strates · Aucun verdict pour l'instant."
    qtbot.keyClick(panel, Qt.Key_C)
    assert f"précision de la carte incomplète : {strata - 1} strates sur {strata} sans élément revu" in (
        panel.headline.text()
    )
    panel.close_review()


def test_box_refuses_min_per_class_below_two_and_warns_of_few_pairs(panel, inputs, tmp_path, plugin, qtbot):
    """Issue 34: MIN_PER_CLASS 0 or 1 leaves a class without an interval for ever; kappa and AC1 get
    no interval below 50 pairs (DOUBLE_REVIEW 10 % of the default 200 items gives 20)."""
    show_at_dock_width(plugin.dock, qtbot, DOCK_PX)  # on screen, as the user opens the box
    plugin.dock.tabs.setCurrentIndex(plugin.dock.tabs.count() - 1)
    box = panel.create_box
    box.setCollapsed(True)
    box.double_spin.setValue(0)
    box.setCollapsed(False)  # the group box shows every child again: the empty warning stays hidden
    assert box.pairs_hint.isHidden()
    box.prediction_combo.setLayer(add_raster(inputs[0]))
    failures = []
    box.failed.connect(failures.append)
    box.output_widget.setFilePath(str(tmp_path / "refused.gpkg"))
    box.min_spin.setValue(1)
    assert box.start() is None and failures[-1].startswith("Min. per class must be at least 2")
    assert not (tmp_path / "refused.gpkg").exists()
    box.design_combo.setCurrentIndex(box.design_combo.findData("random"))
    assert box._refusal(str(tmp_path / "refused.gpkg")) == ""  # no class minimum in a random sample
    box.double_spin.setValue(0)  # the dock lives for the whole session: an earlier test left 25 %
    assert box.pairs_hint.isHidden()  # no second interpreter
    box.samples_spin.setValue(200)
    box.double_spin.setValue(10)
    assert not box.pairs_hint.isHidden()
    assert box.pairs_hint.text().startswith("20 items for the second interpreter: kappa and AC1 get no interval")
    box.double_spin.setValue(25)
    assert box.pairs_hint.isHidden()  # 50 pairs
    box.design_combo.setCurrentIndex(box.design_combo.findData("stratified_label"))
    assert box.design_combo.currentText() == "stratified by class and label"
    box.min_spin.setValue(2)
    box.reference_combo.setLayer(None)
    assert "needs the labels under review" in box._refusal(str(tmp_path / "refused.gpkg"))


def test_headline_says_where_an_interval_is_withheld(tmp_path):
    """A stratum with a single reviewed item leaves the label-error rate and OA without an interval:
    the Review tab says so instead of showing a bare figure."""
    import geopandas as gpd

    from flair_qgis.core.review.report import review_report
    from flair_qgis.core.review.schema import create_review_file
    from flair_qgis.core.review.store import ReviewStore
    from flair_qgis.gui.review.review_view import headline_text

    rows = [(1, 1, 1)] * 19 + [(1, 1, 2)] + [(2, 2, 2)]
    n = len(rows)
    items = gpd.GeoDataFrame(
        {"item_id": range(1, n + 1), "stratum": [r[0] for r in rows], "map_class": [r[1] for r in rows],
         "label_class": [r[1] for r in rows]},
        geometry=gpd.points_from_xy(range(n), [0] * n), crs="EPSG:2154",
    )  # fmt: skip
    path = str(tmp_path / "single.gpkg")
    create_review_file(path, items, {1: 9_000, 2: 1_000}, 1.0, {"design": "stratified"})
    with ReviewStore.open(path) as store:
        for k, (_h, label, truth) in enumerate(rows):
            store.set_verdict(k + 1, "correct" if label == truth else "wrong", truth, "t")
        text = headline_text(review_report(store))
    assert "Label errors 4.5 % (not enough items for an interval)" in text
    assert "map OA 95.5 % (not enough items for an interval)" in text


def test_headline_of_a_partial_grid_gives_no_figure(tmp_path):
    """Issue 34: a grid review stopped part-way covers part of the map: no figure until every item."""
    import geopandas as gpd

    from flair_qgis.core.review.report import review_report
    from flair_qgis.core.review.schema import create_review_file
    from flair_qgis.core.review.store import ReviewStore
    from flair_qgis.gui.review.review_view import headline_text

    n = 40
    items = gpd.GeoDataFrame(
        {"item_id": range(1, n + 1), "stratum": [0] * n, "map_class": [1] * n, "label_class": [1] * n},
        geometry=gpd.points_from_xy(range(n), [0] * n), crs="EPSG:2154",
    )  # fmt: skip
    path = str(tmp_path / "grid.gpkg")
    create_review_file(path, items, {1: 9_000, 2: 1_000}, 1.0, {"design": "grid"})
    with ReviewStore.open(path) as store:
        for k in range(16):
            store.set_verdict(k + 1, "correct", 1, "t")
        text = headline_text(review_report(store))
    assert text == "figures once every grid item is reviewed (24 to go)"
