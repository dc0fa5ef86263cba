"""French translation: every tr() string translated, the plugin speaking French under a French QGIS."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest
from conftest import REPO
from qgis.core import QgsSettings

from flair_qgis import i18n
from flair_qgis.core.nomenclature import (
    FLAIR1_CLASSES,
    FLAIRHUB_CROPTYPE_CLASSES,
    FLAIRHUB_LANDCOVER_CLASSES,
    french_name,
)

TS = REPO / "flair_qgis" / "i18n" / "flair_qgis_fr.ts"
PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def ts_messages() -> dict[str, tuple[str, str | None]]:
    """source -> (translation, type attribute) of the French .ts."""
    found = {}
    for message in ET.parse(TS).iter("message"):
        translation = message.find("translation")
        found[message.findtext("source")] = (translation.text or "", translation.get("type"))
    return found


def tr_literals() -> set[str]:
    """Every literal string passed to a plugin tr() helper, found by parsing the sources."""
    strings = set()
    for path in (REPO / "flair_qgis").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "tr"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                strings.add(node.args[0].value)
    return strings


def catalogue_strings() -> dict[str, str]:
    """Every template of the message catalogue (core and scale/) (by key) and every word its messages take as a
    parameter (by itself): error_text() translates them with tr(), but no tr("...") names them."""
    import flair_qgis.core as core
    from flair_qgis.core.messages import CATALOGUE, WORDS

    for package in (REPO / "flair_qgis" / "core").glob("*/messages.py"):
        __import__(f"{core.__name__}.{package.parent.name}")  # each package registers its messages
    __import__("flair_qgis.scale")  # distributed runs' refusals, met through Processing's SCHEDULER too
    return {**{key: m.template for key, m in CATALOGUE.items()}, **{word: word for word in WORDS}}


def test_every_catalogue_template_has_a_french_translation_with_its_placeholders():
    messages = ts_messages()
    strings = catalogue_strings()
    assert len(strings) > 200
    missing = sorted(key for key, source in strings.items() if source not in messages)
    assert missing == [], "add these catalogue templates to flair_qgis_fr.ts: " + repr(missing[:5])
    for key, source in strings.items():
        text, kind = messages[source]
        assert text.strip() and kind not in ("unfinished", "obsolete"), key
        assert sorted(PLACEHOLDER.findall(source)) == sorted(PLACEHOLDER.findall(text)), key


def test_no_string_is_listed_twice():
    """lrelease warns of a source listed twice in one context (it keeps one translation)."""
    sources = [message.findtext("source") for message in ET.parse(TS).iter("message")]
    assert sorted({s for s in sources if sources.count(s) > 1}) == []


def test_every_string_is_translated_with_the_same_placeholders():
    messages = ts_messages()
    literals = tr_literals() | set(catalogue_strings().values())
    assert len(literals) > 150
    missing = sorted(literals - set(messages))
    assert missing == [], "run scripts/update-translations and translate: " + repr(missing[:5])
    unfinished = sorted(s for s, (text, kind) in messages.items() if kind in ("unfinished", "obsolete") or not text)
    assert unfinished == []
    for source, (text, _kind) in messages.items():
        assert sorted(PLACEHOLDER.findall(source)) == sorted(PLACEHOLDER.findall(text)), source
    # Translated, not copied: most strings differ from the English.
    assert sum(text != source for source, (text, _k) in messages.items()) > 0.8 * len(messages)


def test_french_class_names_of_the_ign_nomenclatures():
    assert french_name("deciduous") == "feuillu"
    assert french_name("Herbaceous vegetation") == "pelouse"
    assert french_name("impervious surface") == "zone imperméable"
    assert french_name("AMATU") == "AMATU"  # EPPO codes are not translated
    for table in (FLAIR1_CLASSES, FLAIRHUB_LANDCOVER_CLASSES, FLAIRHUB_CROPTYPE_CLASSES):
        untranslated = [c.name for c in table if french_name(c.name) == c.name]
        assert untranslated == []


@pytest.fixture
def french_qgis(tmp_path, monkeypatch):
    """QGIS set to French, with the .qm compiled as make package compiles it."""
    lrelease = shutil.which("lrelease") or shutil.which("/usr/lib/qt5/bin/lrelease")
    if lrelease is None:
        pytest.skip("lrelease (qttools5-dev-tools) is not installed; make setup installs it")
    subprocess.run([lrelease, "-silent", str(TS), "-qm", str(tmp_path / "flair_qgis_fr.qm")], check=True)
    monkeypatch.setattr(i18n, "QM_FOLDER", str(tmp_path))
    settings = QgsSettings()
    settings.remove("flair_qgis")  # a first start: the dock opens on the demo model
    before = settings.value("locale/userLocale", None)
    settings.setValue("locale/userLocale", "fr_FR")
    yield
    if before is None:
        settings.remove("locale/userLocale")
    else:
        settings.setValue("locale/userLocale", before)
    i18n.remove_translator()


def test_dock_speaks_french_under_a_french_qgis(french_qgis, qgis_iface, qgis_new_project, qtbot):
    from layout_helpers import horizontal_overflow, show_at_dock_width

    from flair_qgis.plugin import FlairPlugin

    plugin = FlairPlugin(qgis_iface)
    try:
        plugin.initGui()
        assert plugin.action.text() == "Segmentation FLAIR"
        plugin.show_dock(True)
        dock = plugin.dock
        assert dock.windowTitle() == "Segmentation FLAIR"
        assert [dock.tabs.tabText(i) for i in range(2)] == ["Segmenter", "Évaluer"]
        assert dock.qa.score_button.text() == "Évaluer cette vue"
        assert dock.segment.run_section.run_button.text() == "Lancer"
        assert i18n.class_label("deciduous") == "feuillu"
        # The demo model's card lists IGN's French class names; the picker names it in French.
        card = dock.segment.model_section.model_card.classes
        assert [card.item(r, 1).text() for r in range(3)] == ["bâtiment", "zone perméable", "zone imperméable"]
        assert (
            dock.segment.model_section.model_combo.currentText()
            == "Modèle de démonstration (FLAIR, 6 patchs — peu précis)"
        )
        # French words are longer: the dock still fits its default 300 px.
        show_at_dock_width(dock, qtbot)
        assert horizontal_overflow(dock, qtbot) == []
    finally:
        plugin.unload()
    # Unloading removes the translator: the plugin's strings are English again.
    assert i18n.tr("Segment") == "Segment"
    assert i18n.class_label("deciduous") == "deciduous"


def test_english_qgis_keeps_english(qgis_iface, qgis_new_project, monkeypatch, tmp_path):
    monkeypatch.setattr(i18n, "QM_FOLDER", str(tmp_path))  # no .qm at all: nothing to install
    assert i18n.install_translator("fr_FR") == "en"
    assert i18n.tr("Segment") == "Segment"


def test_counts_take_the_right_number_in_each_language(french_qgis):
    from qgis.PyQt.QtCore import QCoreApplication

    assert i18n.install_translator() == "fr"
    skipped = (i18n.tr("{n} item skipped"), i18n.tr("{n} items skipped"))
    assert [i18n.counted(n, *skipped) for n in (0, 1, 2, 1500)] == [
        "0 élément sauté", "1 élément sauté", "2 éléments sautés", f"{i18n.integer(1500)} éléments sautés",
    ]  # fmt: skip
    assert i18n.tiles(1) == "1 tuile"
    i18n.remove_translator()
    assert QCoreApplication.translate(i18n.TR_CONTEXT, "{n} tiles") == "{n} tiles"
    assert [i18n.counted(n, "{n} item skipped", "{n} items skipped") for n in (0, 1, 2)] == [
        "0 items skipped", "1 item skipped", "2 items skipped",
    ]  # fmt: skip
