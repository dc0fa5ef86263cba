"""The Review tab with two interpreters: the reviewer name is kept, the second interpreter reviews
the double items blind with the same keys, and the Disagreements queue shows both classes and
takes the adjudicated one."""

from __future__ import annotations

import pytest
from gui_helpers import show_review_tab
from qgis.PyQt.QtCore import Qt
from review_data import demo_prediction

from flair_qgis.adapters import settings
from flair_qgis.core.review import SampleRequest, create_review
from flair_qgis.core.review.store import ReviewStore
from flair_qgis.gui.review.review_panel import REVIEWER_KEY


@pytest.fixture(scope="module")
def inputs(flair_provider, tmp_path_factory):
    return demo_prediction(tmp_path_factory.mktemp("review-two"))


@pytest.fixture
def panel(plugin, qgis_canvas, inputs, qtbot):
    widget = show_review_tab(plugin, qgis_canvas, inputs[2])
    yield widget
    widget.mode_combo.setCurrentIndex(0)
    widget.close_review()


def _as(panel, name: str, mode: str) -> None:
    panel.reviewer_edit.setText(name)
    panel.reviewer_edit.editingFinished.emit()
    panel.mode_combo.setCurrentIndex(panel.mode_combo.findData(mode))


def test_second_interpreter_blind_then_disagreements(panel, inputs, tmp_path, qtbot):
    prediction, confidence, reference = inputs
    review = tmp_path / "review.gpkg"
    create_review(
        SampleRequest(
            str(prediction), str(review), samples=20, min_per_class=2, seed=2, reference_raster=str(reference),
            confidence_path=str(confidence), double_review=0.25,
        )
    )  # fmt: skip
    _as(panel, "ana", "first")
    assert panel.open_review(str(review))
    for _ in range(20):
        qtbot.keyClick(panel, Qt.Key_C)
    assert settings.str_value(REVIEWER_KEY) == "ana"
    _as(panel, "ben", "second")
    session = panel.session
    with ReviewStore.open(review) as store:
        doubles = store.doubles()
    assert len(session.items) == len(doubles) == 5
    assert panel.progress.text() == "0 / 5 reviewed"  # blind: the first verdicts are not shown
    position = next(k for k, key in enumerate(session.keys[:9]) if key.info.value != session.current.label_class)
    qtbot.keyClick(panel, getattr(Qt, f"Key_{position + 1}"))  # another class than the label
    for _ in range(4):
        qtbot.keyClick(panel, Qt.Key_C)
    with ReviewStore.open(review) as store:
        second = store.second_reviews()
        disputed = store.disagreements()
    assert sorted(second) == sorted(doubles) and {r.reviewer for r in second.values()} == {"ben"}
    assert len(disputed) == 1
    _as(panel, "chief", "adjudicate")
    assert [i.item_id for i in panel.session.items] == disputed
    first, chosen, _ = panel.session.opinions()
    names = {k.info.value: k.info.name for k in panel.session.keys}
    assert f"first: {names[first]} ({first}), second: {names[chosen]} ({chosen})" in panel.headline.text()
    qtbot.keyClick(panel, Qt.Key_C)  # the label (the first interpreter's class) wins
    with ReviewStore.open(review) as store:
        assert store.adjudications()[disputed[0]][:2] == (first, "chief")
