"""The Evaluate tab's "Crosswalk…" (issue 40), driven in a real headless QGIS: a reference whose class
field holds OCS GE-like text codes is offered a crosswalk; the dialog lists the field's values in the
view with their feature counts (read in a QgsTask), each with a class picker; "OK" keeps it with the
project (a saved and reopened project finds it); scoring the view through it gives the figures of
the same polygons recoded to integers, and the tab names the values it leaves out."""

from __future__ import annotations

import numpy as np
import pytest
from crosswalk_helpers import DECIDUOUS, PATCH, TEXT, UNLISTED, UNLISTED_CLASS, text_and_integer_polygons
from eval_helpers import image_crs, perturb, read_mask, write_raster
from gui_helpers import score_and_wait
from layout_helpers import show_at_dock_width
from qgis.core import QgsProject, QgsRasterLayer, QgsVectorLayer
from test_i18n import french_qgis  # noqa: F401 - the fr_FR profile fixture

from flair_qgis.adapters.crosswalk_project import project_crosswalk
from flair_qgis.core.score import Reference, get_protocol, score

# What the interpreter picks: the FLAIR code of each text code (herbaceous left "not scored").
PICKS = {**{text: code for code, text in TEXT.items() if text != UNLISTED}, **{d: 7 for d in DECIDUOUS}}


@pytest.fixture
def layers(tmp_path, qgis_canvas):
    mask, profile = read_mask(PATCH)
    crs = image_crs()
    pred_path = write_raster(tmp_path / "pred.tif", perturb(mask, 42, 0.1, list(range(1, 14))), profile, crs=crs)
    text_gdf, int_gdf = text_and_integer_polygons(mask, profile["transform"], crs)
    text_gdf.to_file(tmp_path / "ocsge.gpkg", layer="ocsge", driver="GPKG")
    prediction = QgsRasterLayer(str(pred_path), "prediction")
    reference = QgsVectorLayer(f"{tmp_path / 'ocsge.gpkg'}|layername=ocsge", "ocsge", "ogr")
    assert prediction.isValid() and reference.isValid()
    QgsProject.instance().addMapLayers([prediction, reference])
    qgis_canvas.setDestinationCrs(prediction.crs())
    qgis_canvas.setExtent(prediction.extent())
    yield {"prediction": prediction, "reference": reference, "pred_path": pred_path, "text": text_gdf,
           "int": int_gdf, "tmp": tmp_path}  # fmt: skip
    QgsProject.instance().removeAllMapLayers()


def _open_dialog(plugin, qtbot, layers):
    qa = plugin.dock.qa
    show_at_dock_width(plugin.dock, qtbot)
    qa.prediction_combo.setLayer(layers["prediction"])
    qa.reference_combo.setLayer(layers["reference"])
    qa.field_combo.setField("cs")
    qa.protocol_combo.setCurrentIndex(qa.protocol_combo.findData("flair1"))
    assert qa.layers.crosswalk_row.isVisibleTo(qa) and qa.layers.crosswalk() is None
    dialog = qa.open_crosswalk()
    dialog.show()
    qtbot.waitUntil(lambda: dialog.task is None, timeout=30000)
    return qa, dialog


def test_the_dialog_lists_values_and_counts_and_the_project_keeps_it(plugin, qtbot, layers, tmp_path):
    qa, dialog = _open_dialog(plugin, qtbot, layers)
    expected = layers["text"]["cs"].value_counts()
    listed = {dialog.value_at(r): int(dialog.table.item(r, 1).text().replace("\u202f", "").replace(",", ""))
              for r in range(dialog.table.rowCount())}  # fmt: skip
    assert listed == {k: int(v) for k, v in expected.items()}
    counts = [listed[dialog.value_at(r)] for r in range(dialog.table.rowCount())]
    assert counts == sorted(counts, reverse=True)  # the most frequent first
    assert all(dialog.target_at(r) is None for r in range(dialog.table.rowCount()))  # nothing guessed
    for value, code in PICKS.items():
        dialog.choose(value, code)
    dialog.accept()
    kept = qa.layers.crosswalk()
    assert kept is not None and dict(kept.rows) == {v: str(c) for v, c in PICKS.items()}
    assert "7" in qa.layers.crosswalk_label.text()
    # Saved with the project, found again when it is reopened.
    project_path = str(tmp_path / "project.qgz")
    assert QgsProject.instance().write(project_path)
    QgsProject.instance().clear()
    assert QgsProject.instance().read(project_path)
    reopened = QgsProject.instance().mapLayersByName("ocsge")[0]
    assert dict(project_crosswalk(reopened, "cs").rows) == dict(kept.rows)


def test_scoring_the_view_through_the_crosswalk(plugin, qtbot, layers):
    qa, dialog = _open_dialog(plugin, qtbot, layers)
    for value, code in PICKS.items():
        dialog.choose(value, code)
    dialog.accept()
    score_and_wait(qa, qtbot, layers["reference"], "cs")
    recoded = score(str(layers["pred_path"]), Reference(polygons=layers["int"], field="code"), get_protocol("flair1"))
    expected = recoded.to_report()
    for key in ("miou", "oa", "pixels_evaluated", "confusion_matrix"):
        assert qa.report[key] == expected[key], key
    unmapped = qa.report["crosswalk"]["unmapped"]
    assert [row["value"] for row in unmapped] == [UNLISTED] and unmapped[0]["pixels"] > 0
    assert qa.scores.unmapped_label.isVisibleTo(qa) and UNLISTED in qa.scores.unmapped_label.text()


def test_save_and_load_csv(plugin, qtbot, layers, tmp_path):
    _qa, dialog = _open_dialog(plugin, qtbot, layers)
    dialog.choose("CS1.1.1.1", 1)
    path = dialog.save_csv(str(tmp_path / "mine.csv"))
    assert open(path, encoding="utf-8").read() == "reference,class\nCS1.1.1.1,1\n"
    (tmp_path / "other.csv").write_text("reference,class\nCS2.1.2,brushwood\nCS9,water\n", encoding="utf-8")
    dialog.load_csv(str(tmp_path / "other.csv"))
    picked = {dialog.value_at(r): dialog.target_at(r) for r in range(dialog.table.rowCount())}
    # Loaded classes by name; a value of the CSV absent from the view is listed too; the rest not scored.
    assert picked["CS2.1.2"] == "8" and picked["CS9"] == "5" and picked["CS1.1.1.1"] is None
    assert np.count_nonzero([t is not None for t in picked.values()]) == 2


def test_a_text_field_without_crosswalk_points_to_the_button(plugin, qtbot, layers, qgis_iface):
    from qgis.core import Qgis

    qa = plugin.dock.qa
    qa.prediction_combo.setLayer(layers["prediction"])
    qa.reference_combo.setLayer(layers["reference"])
    qa.field_combo.setField("cs")
    qa.protocol_combo.setCurrentIndex(qa.protocol_combo.findData("flair1"))
    qa.score_view()
    qtbot.waitUntil(lambda: qa.task is None, timeout=30000)
    shown = qgis_iface.messageBar().get_messages(Qgis.MessageLevel.Warning)
    assert any("Crosswalk…" in text and "'CS" in text for text in shown), shown


def test_a_numeric_field_of_other_codes_is_offered_the_crosswalk(plugin, qtbot, layers, qgis_iface):
    """Integer codes of another nomenclature (11, 21, … 101: the FLAIR code times ten plus one) are
    numbers, so the tab cannot tell before scoring; the score refuses them, the tab then offers
    "Crosswalk…" and says so, and through a crosswalk picked in the dialog the view scores as the
    same polygons recoded to the classes."""
    from qgis.core import Qgis

    codes = {text: code for code, text in TEXT.items()} | dict.fromkeys(DECIDUOUS, 7)
    numeric = layers["text"].assign(nomen=[10 * codes[t] + 1 for t in layers["text"]["cs"]]).drop(columns="cs")
    numeric.to_file(layers["tmp"] / "other.gpkg", layer="other", driver="GPKG")
    reference = QgsVectorLayer(f"{layers['tmp'] / 'other.gpkg'}|layername=other", "other", "ogr")
    assert reference.isValid() and reference.fields().field("nomen").isNumeric()
    QgsProject.instance().addMapLayer(reference)
    qa = plugin.dock.qa
    show_at_dock_width(plugin.dock, qtbot)
    qa.prediction_combo.setLayer(layers["prediction"])
    qa.reference_combo.setLayer(reference)
    qa.field_combo.setField("nomen")
    qa.protocol_combo.setCurrentIndex(qa.protocol_combo.findData("flair1"))
    assert not qa.layers.crosswalk_row.isVisibleTo(qa)  # numbers: nothing read before scoring
    assert qa.score_view() is not None
    qtbot.waitUntil(lambda: qa.task is None, timeout=60000)
    assert qa.report is None
    shown = qgis_iface.messageBar().get_messages(Qgis.MessageLevel.Warning)
    assert any("Crosswalk…" in text and "reference values 21 (" in text for text in shown), shown
    assert "Crosswalk…" in qa.summary_label.text()
    assert qa.layers.crosswalk_row.isVisibleTo(qa)
    assert "not the model's classes" in qa.layers.crosswalk_label.text()
    dialog = qa.open_crosswalk()
    dialog.show()
    qtbot.waitUntil(lambda: dialog.task is None, timeout=30000)
    assert {dialog.value_at(r) for r in range(dialog.table.rowCount())} == {str(10 * c + 1) for c in codes.values()}
    for code in set(codes.values()) - {UNLISTED_CLASS}:
        dialog.choose(str(10 * code + 1), code)
    dialog.accept()
    score_and_wait(qa, qtbot, reference, "nomen")
    recoded = score(str(layers["pred_path"]), Reference(polygons=layers["int"], field="code"), get_protocol("flair1"))
    expected = recoded.to_report()
    for key in ("miou", "oa", "pixels_evaluated", "confusion_matrix"):
        assert qa.report[key] == expected[key], key
    assert [row["value"] for row in qa.report["crosswalk"]["unmapped"]] == [str(10 * UNLISTED_CLASS + 1)]


def test_the_crosswalk_offer_in_both_languages(french_qgis):  # noqa: F811
    """The dock's pointer to "Crosswalk…" for numbers the protocol does not know, in French too; not
    for class map values alone, nor for a field with so many values that it is an identifier."""
    from flair_qgis import i18n
    from flair_qgis.core.errors import InputError
    from flair_qgis.i18n.errors import crosswalk_offer

    def refusal(reference, prediction=()):
        params = {"protocol": "flair1", "reference": list(reference), "prediction": list(prediction)}
        return InputError.of("undeclared_values", **params, classes=list(range(1, 14)), values="", class_map="")

    codes = refusal(["21 (40 px)", "31 (7 px)"])
    assert crosswalk_offer(codes) == (
        "Protocol flair1 does not know reference values 21 (40 px), 31 (7 px) (its classes are 1, 2, 3, 4, 5 … "
        "and 8 more). Click Crosswalk… under the class field to say which class each of these values counts as, "
        "or pick the protocol of these layers under 'Protocol'."
    )
    assert crosswalk_offer(refusal([], ["40 (3 px)"])) is None
    assert crosswalk_offer(refusal([f"{v} (1 px)" for v in range(1000, 1200)])) is None
    assert crosswalk_offer(InputError.of("no_common_pixel")) is None
    assert i18n.install_translator() == "fr"
    try:
        assert crosswalk_offer(codes).endswith(
            "Cliquez sur Correspondance… sous le champ de classe pour dire à quelle classe correspond chacune de "
            "ces valeurs, ou choisissez le protocole de ces couches sous « Protocole »."
        )
        assert crosswalk_offer(codes).startswith("Le protocole flair1 ne connaît pas les valeurs de référence 21")
    finally:
        i18n.remove_translator()
