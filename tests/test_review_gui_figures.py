"""The Review tab shows each figure with its 95 % interval and the interval's method by name
(issue 42), in English and in French, driven through the real dock on a real review file."""

from __future__ import annotations

import html
import re

import pytest
from gui_helpers import show_review_tab
from review_data import demo_prediction
from test_i18n import french_qgis  # noqa: F401 - the fr_FR profile fixture

from flair_qgis.core.review import SampleRequest, create_review, review_report
from flair_qgis.core.review.store import ReviewStore
from flair_qgis.i18n import percent


@pytest.fixture(scope="module")
def inputs(flair_provider, tmp_path_factory):
    return demo_prediction(tmp_path_factory.mktemp("review-figures"))


def _decided_review(inputs, folder) -> str:
    """A stratified review of the demo prediction, every item decided: the map class is the true
    class except on every fifth item (the next class in the list)."""
    prediction, confidence, reference = inputs
    path = str(folder / "review.gpkg")
    create_review(
        SampleRequest(str(prediction), path, design="stratified", samples=40, min_per_class=4, seed=3,
                      reference_raster=str(reference), reference_name=str(reference), confidence_path=str(confidence))
    )  # fmt: skip
    with ReviewStore.open(path) as store:
        items = store.items()
        classes = sorted({int(i.map_class) for i in items})
        for k, item in enumerate(items):
            truth = int(item.map_class) if k % 5 else classes[(classes.index(int(item.map_class)) + 1) % len(classes)]
            store.set_verdict(item.item_id, "correct" if truth == item.label_class else "wrong", truth, "t")
    return path


FIGURE = re.compile(r"<p><b>(.*?)</b><br/>(.*?) (\[.*?\]|<i>.*?</i>)(?:<span> · (.*?)</span>)?</p>")


def _cells(text: str) -> list[list[str]]:
    """The figures as shown: [figure, estimate, interval, method] per paragraph."""
    rows = [list(m.groups(default="")) for m in FIGURE.finditer(text)]
    assert len(rows) == text.count("<p>"), "every paragraph is a figure"
    return [[html.unescape(re.sub(r"<[^>]+>", "", c)) for c in row] for row in rows]


def test_each_figure_has_its_interval_and_method(plugin, qgis_canvas, inputs, tmp_path):
    path = _decided_review(inputs, tmp_path)
    with ReviewStore.open(path) as store:
        report = review_report(store)
    panel = show_review_tab(plugin, qgis_canvas, inputs[2])
    assert panel.open_review(path)
    assert not panel.figures.isHidden()
    assert panel.figures.title() == "Figures and intervals"
    rows = [["header"], *_cells(panel.figures.text())]
    by_name = {r[0]: r for r in rows[1:]}
    oa = report.map_accuracy
    low, high = oa.overall_accuracy_ci95
    shown = [percent(oa.overall_accuracy), f"[{percent(low)}–{percent(high)}]"]
    assert by_name["Overall accuracy"][1:3] == shown
    assert by_name["Overall accuracy"][3] == "Korn–Graubard"
    for c in oa.classes:
        area = by_name[f"{c.name}: area"]
        assert area[1].endswith(" ha") and area[3] == ("Korn–Graubard" if c.area_ha_bounds else "")
        ua = by_name[f"{c.name}: user's accuracy"]
        expected = {"clopper-pearson": "Clopper–Pearson (exact)", "korn-graubard": "Korn–Graubard",
                    "clopper-pearson-finite-population": "exact, finite population"}  # fmt: skip
        assert ua[3] == (expected[c.users_accuracy_interval] if c.users_accuracy_ci95 else "")
    assert by_name["Label errors"][3] == "Korn–Graubard"


def test_the_figures_speak_french(french_qgis, plugin, qgis_canvas, inputs, tmp_path):  # noqa: F811
    path = _decided_review(inputs, tmp_path)
    panel = show_review_tab(plugin, qgis_canvas, inputs[2])
    assert panel.open_review(path)
    assert panel.figures.title() == "Indicateurs et intervalles"
    rows = [["header"], *_cells(panel.figures.text())]
    names = [r[0] for r in rows[1:]]
    assert "Précision globale" in names and "Erreurs d'étiquette" in names
    assert any(n.endswith(" : surface") for n in names) and any(n.endswith(" : précision utilisateur") for n in names)
    methods = {r[3] for r in rows[1:]} - {""}
    assert "Korn–Graubard" in methods and methods <= {
        "Korn–Graubard",
        "Clopper–Pearson (exact)",
        "exact, population finie",
    }
    assert all(r[1].endswith(" ha") for r in rows[1:] if r[0].endswith(" : surface"))


def test_the_figures_fit_the_dock_in_french(french_qgis, plugin, qgis_canvas, inputs, tmp_path, qtbot):  # noqa: F811
    """Opened, the figures box of a decided review stays within a normal dock's width (a table of
    four columns and a long box title once pushed the whole tab past it)."""
    from layout_helpers import horizontal_overflow, show_at_dock_width

    panel = show_review_tab(plugin, qgis_canvas, inputs[2])
    assert panel.open_review(_decided_review(inputs, tmp_path))
    panel.figures.setCollapsed(False)
    show_at_dock_width(plugin.dock, qtbot)
    assert horizontal_overflow(plugin.dock, qtbot) == []
