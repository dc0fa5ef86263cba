"""What trips a French photo-interpreter (issue 22), driven through the real dock under fr_FR:
a review never lost with QGIS's temporary folder, a resumed review reloading its layers, the
class field default, the class map pre-selected, and no English sentence in the QA loop."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from gui_helpers import add_raster, messages
from qgis.core import Qgis, QgsProcessingUtils, QgsProject, QgsVectorLayer
from qgis.PyQt.QtCore import Qt
from review_data import demo_prediction
from test_i18n import french_qgis  # noqa: F401 - the fr_FR profile fixture

from flair_qgis.core.review import SampleRequest, create_review
from flair_qgis.gui.review.review_panel import ReviewPanel

TESTS = Path(__file__).resolve().parent
ENGLISH = re.compile(
    r"\b(the|and|with|without|choose|pick|does not|cannot|field|review|scoring|items?|labels?|"
    r"reviewed|errors?|map view|class map|saved|found|missing|more|tiles?|band|shift|random|grid|stratified|"
    r"wrong|unsure|next|previous|confidence|key|value)\b",
    re.IGNORECASE,
)
"""English words a French UI must not show (code identifiers and class codes are allowed)."""


@pytest.fixture(scope="module")
def inputs(flair_provider, tmp_path_factory):
    return demo_prediction(tmp_path_factory.mktemp("french"))


def _english(texts) -> list[str]:
    return [t for t in texts if t and ENGLISH.search(re.sub(r"\{[^}]*\}|/[\w./-]+|[A-Z_]{3,}", "", t))]


def _session_env(home: Path) -> dict:
    env = dict(os.environ, HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), XDG_DATA_HOME=str(home / ".local"))
    env["QGIS_CUSTOM_CONFIG_PATH"] = str(home / "qgis")  # the profile: settings and the plugin's data folder
    env["TMPDIR"] = str(home / "tmp")
    (home / "tmp").mkdir(parents=True, exist_ok=True)
    return env


def _session(args, env) -> dict:
    done = subprocess.run(
        [sys.executable, str(TESTS / "review_restart_session.py"), *args],
        env=env, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    assert lines, done.stdout[-2000:] + done.stderr[-3000:]
    return json.loads(lines[-1][len("RESULT ") :])


def test_review_with_default_path_survives_a_qgis_restart(inputs, tmp_path):
    """The class map lies in QGIS's temporary folder (a Processing run's temporary output); the review
    file is left empty. After QGIS quits and starts again the verdicts are found."""
    prediction, _confidence, reference = inputs
    env = _session_env(tmp_path / "profile")
    given = _session(["give", str(prediction), str(reference)], env)
    assert given["class_map"] == "prediction"  # pre-selected: the only single-band paletted raster
    assert not given["path"].startswith(given["temp"])
    assert given["path"] in given["path_label"]  # the path is shown before creating
    assert given["path"].startswith(str(tmp_path / "profile"))  # the plugin's data folder (unsaved project)
    assert sorted(given["verdicts"].values()) == ["correct", "correct", "unsure"]
    shutil.rmtree(given["temp"], ignore_errors=True)  # what QGIS does to it on exit, whatever the version
    found = _session(["find"], env)
    assert found["path"] == given["path"]
    assert found["verdicts"] == given["verdicts"]
    # The class map went with the temporary folder: the tab says which input is missing, the
    # labels are reloaded from the review's design, and a verdict waits for a loaded layer.
    assert "prediction.tif" in found["status"] and "FLAIR:" + found["status"] in found["messages"]
    assert not found["prediction_layer"] and found["labels_layer"]
    assert found["verdict_accepted_after_restart"] is True  # the labels are loaded: the item is seen over them


def test_last_review_missing_is_said_with_its_path(french_qgis, qgis_iface, qgis_new_project, tmp_path):  # noqa: F811
    from flair_qgis.adapters import settings
    from flair_qgis.plugin import FlairPlugin

    gone = str(tmp_path / "gone_review.gpkg")
    plugin = FlairPlugin(qgis_iface)
    try:
        plugin.initGui()
        settings.set_value("review/last_path", gone)
        qgis_iface.messageBar().clear_messages()
        plugin.show_dock(True)
        panel = plugin.dock.findChild(ReviewPanel)
        assert panel.status_label.text().startswith("La dernière revue est introuvable : elle était " + gone)
        assert "FLAIR:" + panel.status_label.text() in messages(qgis_iface, Qgis.MessageLevel.Warning)
    finally:
        plugin.unload()


def test_review_path_under_the_temporary_folder_is_refused(french_qgis, plugin, inputs, qtbot):  # noqa: F811
    add_raster(inputs[0])
    panel = plugin.dock.findChild(ReviewPanel)
    box = panel.create_box
    box.setCollapsed(False)
    assert box.prediction_combo.currentLayer().name() == os.path.basename(str(inputs[0]))
    failures = []
    box.failed.connect(failures.append)
    box.output_widget.setFilePath(os.path.join(QgsProcessingUtils.tempFolder(), "revue.gpkg"))
    assert box.start() is None
    assert failures and "dossier temporaire de QGIS" in failures[0]
    assert not os.path.exists(os.path.join(QgsProcessingUtils.tempFolder(), "revue.gpkg"))
    # Left empty: a named file in the plugin's data folder (the project is unsaved), shown.
    box.output_widget.setFilePath("")
    assert box.output_path().endswith(os.path.join("flair_qgis", "reviews", "prediction_review.gpkg"))
    assert box.path_label.text() == "Enregistrée dans : " + box.output_path()


def test_new_review_preselects_the_class_map_not_the_imagery(plugin, inputs, flair_data):
    add_raster(inputs[0])
    add_raster(flair_data / "IMG_000473.tif")  # 5-band imagery, added last (on top)
    plugin.dock.window().show()  # the QGIS window, dock and all, on screen
    plugin.dock.tabs.setCurrentIndex(plugin.dock.tabs.count() - 1)  # the Review tab in sight
    box = plugin.dock.findChild(ReviewPanel).create_box
    box.prediction_combo.setLayer(QgsProject.instance().mapLayersByName("IMG_000473.tif")[0])
    box.setCollapsed(True)
    box.setCollapsed(False)  # opening "New review"
    assert box.prediction_combo.currentLayer().bandCount() == 1


def test_resumed_review_reloads_labels_and_waits_for_a_layer(french_qgis, plugin, inputs, tmp_path, qtbot):  # noqa: F811
    prediction, _confidence, reference = inputs
    labels = shutil.copy(reference, tmp_path / "labels.tif")
    path = tmp_path / "review.gpkg"
    create_review(SampleRequest(str(prediction), str(path), design="random", samples=5, seed=3,
                                reference_raster=str(labels), reference_name="MSK"))  # fmt: skip
    QgsProject.instance().removeAllMapLayers()
    panel = plugin.dock.findChild(ReviewPanel)
    plugin.dock.tabs.setCurrentIndex(plugin.dock.tabs.count() - 1)
    assert panel.open_review(str(path))
    # Both inputs reloaded from the review's design table.
    assert panel.layer_combos["M"].currentLayer().source() == str(prediction)
    assert panel.layer_combos["R"].currentLayer().source() == str(labels)
    panel.close_review()
    QgsProject.instance().removeAllMapLayers()
    # Now both are gone (deleted with a temporary folder): the tab names them, C is refused.
    moved = shutil.move(str(prediction), tmp_path / "elsewhere.tif")
    os.remove(labels)
    try:
        assert panel.open_review(str(path))
    finally:
        shutil.move(moved, str(prediction))
    assert "Introuvable : la carte de classes " + str(prediction) in panel.status_label.text()
    assert "les étiquettes " + str(labels) in panel.status_label.text()
    qtbot.keyClick(panel, Qt.Key_C)
    assert panel.session.reviewed_count() == 0
    assert "Ni carte de classes ni étiquettes" in panel.status_label.text()
    layer = add_raster(reference)  # the person loads the labels from where they are now
    panel.layer_combos["R"].setLayer(layer)
    qtbot.keyClick(panel, Qt.Key_C)
    assert panel.session.reviewed_count() == 1


def _labels_with_ids(path: Path, reference_raster: Path) -> QgsVectorLayer:
    """16 x 16 squares over the patch with fields fid (key), id (one per square) and code_18 (the
    mask's class at the square's centre)."""
    import geopandas as gpd
    import rasterio
    from shapely.geometry import box

    with rasterio.open(reference_raster) as src:
        data, (left, _bottom, right, top) = src.read(1), src.bounds
    step_px = data.shape[0] // 16
    step_m = (right - left) / 16
    squares, codes = [], []
    for row in range(16):
        for col in range(16):
            x0, y1 = left + col * step_m, top - row * step_m
            squares.append(box(x0, y1 - step_m, x0 + step_m, y1))
            codes.append(int(data[row * step_px + step_px // 2, col * step_px + step_px // 2]))
    rows = {"id": list(range(1, len(squares) + 1)), "code_18": codes}
    gpd.GeoDataFrame(rows, geometry=squares, crs="EPSG:2154").to_file(path, layer="labels")
    layer = QgsVectorLayer(f"{path}|layername=labels", "labels", "ogr")
    assert layer.isValid()
    QgsProject.instance().addMapLayer(layer)
    return layer


def test_class_field_default_and_identifier_message_in_french(french_qgis, plugin, inputs, tmp_path, qgis_canvas):  # noqa: F811
    prediction, _confidence, reference = inputs
    add_raster(prediction)
    labels = _labels_with_ids(tmp_path / "labels.gpkg", reference)
    assert labels.featureCount() > 130  # more distinct ids than 13 classes x 10
    qa = plugin.dock.qa
    qa.reference_combo.setLayer(labels)
    assert qa.field_combo.currentField() == "code_18"  # not fid, not id
    review_box = plugin.dock.findChild(ReviewPanel).create_box
    review_box.reference_combo.setLayer(labels)
    assert review_box.field_combo.currentField() == "code_18"
    qa.field_combo.setField("id")
    warning = qa.layers.field_warning.text()
    assert warning.startswith("Le champ « id » ressemble à un identifiant, pas à une classe")
    qgis_iface = plugin.iface
    qgis_iface.messageBar().clear_messages()
    assert qa.score_view() is None  # refused before scoring
    assert "FLAIR:" + warning in messages(qgis_iface, Qgis.MessageLevel.Warning)


def test_error_messages_list_five_values_and_name_options_where_shown(french_qgis, plugin):  # noqa: F811
    from flair_qgis.core.errors import InputError
    from flair_qgis.core.score.metrics import undeclared_params
    from flair_qgis.core.score.protocols import get_protocol
    from flair_qgis.i18n.errors import PROCESSING, error_text

    protocol = get_protocol("flair1")
    undeclared = {"reference": {500500 + i: 2500 for i in range(200)}, "prediction": {}}
    err = InputError("english", key="undeclared_values", params=undeclared_params(protocol, undeclared))
    dock_text = error_text(err)
    assert (
        "500500 (2500 px), 500501 (2500 px), 500502 (2500 px), 500503 (2500 px), 500504 (2500 px) … et 195 de plus"
        in dock_text
    )
    assert "500505" not in dock_text
    assert "IGNORE_CLASSES" not in dock_text and "REMAP" not in dock_text  # no such widget in the dock
    assert "identifiant" in dock_text  # 200 values for 13 classes
    processing_text = error_text(err, PROCESSING)
    assert "IGNORE_CLASSES" in processing_text and "… et 195 de plus" in processing_text
    assert _english([dock_text]) == []


def test_qa_loop_shows_no_english_sentence(french_qgis, plugin, inputs, qtbot, qgis_canvas):  # noqa: F811
    from gui_helpers import score_and_wait
    from qgis.PyQt.QtWidgets import QAbstractButton, QComboBox, QGroupBox, QLabel

    prediction, _confidence, reference = inputs
    add_raster(prediction)
    mask = add_raster(reference)
    qgis_canvas.setExtent(mask.extent())
    qa = plugin.dock.qa
    qa.prediction_combo.setLayer(QgsProject.instance().mapLayersByName(os.path.basename(str(prediction)))[0])
    score_and_wait(qa, qtbot, mask, error_map=True)
    review = Path(str(prediction)).parent / "fr_review.gpkg"
    if review.exists():
        review.unlink()
    create_review(SampleRequest(str(prediction), str(review), design="stratified", samples=20, min_per_class=2,
                                seed=2, reference_raster=str(reference), reference_name="MSK"))  # fmt: skip
    panel = plugin.dock.findChild(ReviewPanel)
    assert panel.open_review(str(review))
    qtbot.keyClick(panel, Qt.Key_C)
    texts = []
    for tab in (qa, panel):
        for widget in tab.findChildren(QLabel):
            texts.append(re.sub(r"<[^>]+>", " ", widget.text()))
        texts += [w.text() for w in tab.findChildren(QAbstractButton)]
        texts += [w.title() for w in tab.findChildren(QGroupBox)]
        for combo in tab.findChildren(QComboBox):
            if combo is qa.protocol_combo:
                continue  # protocol names are identifiers (flair1, custom)
            texts += [
                combo.itemText(i)
                for i in range(combo.count())
                if not combo.itemData(i) or combo.itemText(i) != combo.itemData(i)
            ]
    texts += [qa.class_table.horizontalHeaderItem(i).text() for i in range(qa.class_table.columnCount())]
    texts += [panel.class_table.item(r, 1).text() for r in range(panel.class_table.rowCount())]
    texts += [panel.progress.text()]
    texts += messages(plugin.iface, Qgis.MessageLevel.Info) + messages(plugin.iface, Qgis.MessageLevel.Warning)
    layer_names = [layer.name() for layer in QgsProject.instance().mapLayers().values()]
    assert _english(texts) == []
    # Numbers follow the locale: "262 144 pixels", "12,3 %"; the card names classes in French.
    assert re.search(r"\d[\u00a0\u202f]\d{3} pixels", qa.summary_label.text())
    assert re.search(r"\d,\d\u00a0%", qa.summary_label.text())
    assert "Maj+chiffre" in plugin.dock.findChild(QLabel, "keys_hint").text()
    assert panel.card.text()
    assert layer_names


def test_band_pickers_and_task_names_in_french(french_qgis, plugin, inputs, tmp_path, qtbot, qgis_canvas):  # noqa: F811
    import numpy as np
    from gui_helpers import score_and_wait
    from rasters import write_raster

    unnamed = write_raster(tmp_path / "unnamed.tif", np.zeros((5, 8, 8), dtype=np.uint8))  # no band descriptions
    dock = plugin.dock
    dock.layer_combo.setLayer(add_raster(unnamed))
    assert dock.band_combos, "the demo model asks for bands"
    texts = [dock.band_combos[0].itemText(i) for i in range(dock.band_combos[0].count())]
    assert "Bande 1" in texts and not any(t.startswith("Band ") for t in texts)
    prediction, _confidence, reference = inputs
    add_raster(prediction)
    mask = add_raster(reference)
    qgis_canvas.setExtent(mask.extent())
    qa = dock.qa
    qa.prediction_combo.setLayer(QgsProject.instance().mapLayersByName(os.path.basename(str(prediction)))[0])
    qa.reference_combo.setLayer(mask)
    task = qa.score_view()
    assert task.description() == "FLAIR : évaluation de la vue"
    qtbot.waitUntil(lambda: qa.task is None, timeout=60000)
    score_and_wait(qa, qtbot, mask)


def test_local_lambert93_offer_beside_the_reference_picker(french_qgis, plugin, tmp_path):  # noqa: F811
    from gui_helpers import copy_patch

    mask = add_raster(copy_patch(tmp_path, "MSK_000473.tif"))  # LOCAL_CS["RGF93 v1 / Lambert-93", ...]
    plugin.dock.window().show()
    plugin.dock.tabs.setCurrentIndex(1)  # Evaluate
    layers = plugin.dock.qa.layers
    layers.reference_combo.setLayer(mask)
    assert layers.crs_row.isVisible() and layers.crs_button.text() == "Traiter comme EPSG:2154"
    layers.crs_button.click()
    assert mask.crs().authid() == "EPSG:2154" and not layers.crs_row.isVisible()


def test_demo_model_card_and_run_group_read_in_french(french_qgis, plugin, qtbot, tmp_path):  # noqa: F811
    from gui_helpers import copy_patch, run_and_wait
    from layout_helpers import legend_texts, top_nodes

    from flair_qgis.adapters.layer_tree import extent_text
    from flair_qgis.core.vocabulary import EXTENT_LAYER

    dock = plugin.dock  # a first start: on the bundled demo model
    card = dock.segment.model_section.model_card.summary.text()
    assert "Petit U-Net de démonstration (encodeur ResNet-18" in card and "voir resources/models/MODEL_CARD.md" in card
    assert _english([re.sub(r"<[^>]+>", " ", card)]) == []
    # French typography: a non-breaking space before each colon of the card's labels.
    assert "Taille des tuiles\u00a0:" in card and "tuiles:" not in card
    # French numbers: a decimal comma in the model's resolution.
    assert "0,2\u00a0m" in card and "0.2 m" not in card
    image = add_raster(copy_patch(tmp_path))
    dock.layer_combo.setLayer(image)
    dock.set_extent_mode(EXTENT_LAYER)
    run_and_wait(qtbot, dock)
    group = top_nodes()[0]
    assert re.fullmatch(r"U-Net de démonstration FLAIR \(6 patchs\) — 102 × 102 m — \d\d:\d\d:\d\d", group.name())
    assert legend_texts(group.children()[0].layer())[:2] == ["U-Net de démonstration FLAIR (6 patchs)", "bâtiment"]
    assert extent_text(12_345, 3_400) == "12,3 × 3,4 km"  # the locale's decimal mark


def test_follow_view_status_beside_its_toggle_in_sight(french_qgis, plugin, qtbot, qgis_canvas, tmp_path):  # noqa: F811
    """At the default dock width (298 px) and a low height, the Segment tab scrolls, yet the status line of
    "Follow the view" is in sight beside its toggle, outside the scrolled part, in French."""
    from gui_helpers import copy_patch
    from layout_helpers import show_at_dock_width, top_nodes
    from qgis.core import QgsRectangle
    from qgis.PyQt.QtCore import QRect

    from flair_qgis.adapters import settings

    settings.set_value("cache_folder", str(tmp_path / "cache"))
    settings.set_value("output_folder", str(tmp_path))
    dock, follow = plugin.dock, plugin.dock.follow
    show_at_dock_width(dock, qtbot, 298, 500)
    image = add_raster(copy_patch(tmp_path))
    dock.layer_combo.setLayer(image)
    qgis_canvas.setDestinationCrs(image.crs())
    e = image.extent()
    qgis_canvas.setExtent(QgsRectangle(e.xMinimum(), e.yMaximum() - 40, e.xMinimum() + 40, e.yMaximum()))
    dock.tabs.setCurrentIndex(0)
    follow.toggle.setChecked(True)
    qtbot.waitUntil(lambda: follow.task is None and follow.live_layer() is not None, timeout=60000)
    qtbot.wait(50)
    status, toggle = follow.status, follow.toggle
    assert re.fullmatch(r"depuis le cache : \d+ sur \d+ tuiles?, \d+,\d\d s\.", status.text())
    assert top_nodes()[0].name() == "FLAIR vue en direct — U-Net de démonstration FLAIR (6 patchs)"
    area = dock.scroll_areas[0]
    assert area.verticalScrollBar().maximum() > 0  # the tab's content is taller than the dock: it scrolls
    assert not area.isAncestorOf(status) and not area.isAncestorOf(toggle)
    assert status.isVisible() and toggle.isVisible()
    status_rect = QRect(status.mapTo(dock, status.rect().topLeft()), status.size())
    toggle_rect = QRect(toggle.mapTo(dock, toggle.rect().topLeft()), toggle.size())
    assert dock.rect().contains(status_rect) and dock.rect().contains(toggle_rect)
    assert status_rect.left() >= toggle_rect.right() and status_rect.top() <= toggle_rect.center().y()
    # Scrolling the tab does not move them.
    area.verticalScrollBar().setValue(area.verticalScrollBar().maximum())
    assert QRect(status.mapTo(dock, status.rect().topLeft()), status.size()) == status_rect


def test_band_count_refusal_in_french(french_qgis, plugin, tmp_path):  # noqa: F811
    """A one-band layer for the five-band demo model: the Segment tab says why in French."""
    import numpy as np
    from rasters import write_raster

    single = write_raster(tmp_path / "single.tif", np.zeros((1, 8, 8), dtype=np.uint8))
    dock = plugin.dock
    channels = dock.segment.model.inputs[0].channels
    dock.set_input_layer(0, add_raster(single))
    reason = dock.segment.run_section.reason_label.text()
    assert reason.startswith(f"Le modèle attend {channels} bandes mais la couche n'en a que 1 :"), reason
    assert _english([reason]) == []
    assert not dock.segment.run_section.run_button.isEnabled()


def test_withheld_intervals_and_review_box_warnings_in_french(french_qgis, plugin, inputs, tmp_path):  # noqa: F811
    """Issue 34 in French: a figure whose interval is withheld says so in the Review tab's headline,
    the New review box refuses a minimum per class below 2 and warns below 50 double-reviewed items."""
    import geopandas as gpd

    from flair_qgis.core.review.report import review_report
    from flair_qgis.core.review.schema import create_review_file
    from flair_qgis.core.review.store import ReviewStore
    from flair_qgis.gui.review.review_view import headline_text

    rows = [(1, 1, 1)] * 19 + [(1, 1, 2)] + [(2, 2, 2)]  # stratum 2: a single item, no variance
    n = len(rows)
    items = gpd.GeoDataFrame(
        {"item_id": range(1, n + 1), "stratum": [r[0] for r in rows], "map_class": [r[1] for r in rows],
         "label_class": [r[1] for r in rows]},
        geometry=gpd.points_from_xy(range(n), [0] * n), crs="EPSG:2154",
    )  # fmt: skip
    path = str(tmp_path / "seul.gpkg")
    create_review_file(path, items, {1: 9_000, 2: 1_000}, 1.0, {"design": "stratified"})
    with ReviewStore.open(path) as store:
        for k, (_h, label, truth) in enumerate(rows):
            store.set_verdict(k + 1, "correct" if label == truth else "wrong", truth, "t")
        text = headline_text(review_report(store))
    assert text.count("(pas assez d'éléments pour un intervalle)") == 2, text
    assert _english([text]) == []
    add_raster(inputs[0])
    box = plugin.dock.findChild(ReviewPanel).create_box
    box.setCollapsed(False)
    failures = []
    box.failed.connect(failures.append)
    box.output_widget.setFilePath(str(tmp_path / "refusee.gpkg"))
    box.min_spin.setValue(1)
    assert box.start() is None and failures[-1].startswith("Le min. par classe doit valoir au moins 2")
    box.samples_spin.setValue(200)
    box.double_spin.setValue(10)
    assert box.pairs_hint.text().startswith("20 éléments pour le second interprète")
    box.design_combo.setCurrentIndex(box.design_combo.findData("stratified_label"))
    assert box.design_combo.currentText() == "stratifié par classe et étiquette"
    assert _english([failures[-1], box.pairs_hint.text()]) == []
