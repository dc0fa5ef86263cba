"""The plugin's translations: one Qt translator following QGIS's locale, and French class names.

``pylupdate5`` files every plain ``tr("...")`` call of the plugin under the context ``@default``
(it only uses a class name for ``self.tr``), so the plugin's ``tr`` helpers look strings up in
that context: the ``.ts`` it generates then matches what the code asks for. The compiled ``.qm``
files sit next to this module (``make package`` builds them with ``lrelease``); a locale without
one leaves the plugin in English.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

from qgis.core import QgsApplication, QgsSettings
from qgis.PyQt.QtCore import QCoreApplication, QLocale, QTranslator

from ..core.nomenclature import ClassInfo, french_name

if TYPE_CHECKING:  # an annotation only: importing core.quantize at QGIS start would load rasterio
    from ..core.quantize import Int8Capability

TR_CONTEXT = "@default"
"""The translation context of every ``tr()`` call of the plugin (see the module docstring)."""

QM_FOLDER = os.path.dirname(os.path.abspath(__file__))
"""Where the compiled ``flair_qgis_<lang>.qm`` files are looked for (the package's own folder)."""
_state: dict[str, object] = {"translator": None, "language": "en"}


def tr(text: str) -> str:
    """Translate a user-visible string in the plugin's context."""
    return QCoreApplication.translate(TR_CONTEXT, text)


def qgis_locale() -> str:
    """The locale of QGIS's user interface, e.g. ``fr_FR``.

    The translation QGIS runs in comes first: it is the only trace of ``qgis --lang fr_FR``, which
    leaves ``locale/userLocale`` alone. Otherwise ``locale/userLocale``, which QGIS writes at start
    (chosen in the options or taken from the system); outside QGIS the system's locale.
    """
    app = QgsApplication.instance()
    running = app.translation() if isinstance(app, QgsApplication) else ""
    chosen = QgsSettings().value("locale/userLocale", "", type=str) or ""
    return running or chosen or QLocale.system().name()


def qm_path(locale: str) -> str | None:
    """The compiled translation for a locale (``fr_FR`` falls back to ``fr``), or None."""
    for name in (locale, locale.split("_", maxsplit=1)[0]):
        path = os.path.join(QM_FOLDER, f"flair_qgis_{name}.qm")
        if name and os.path.exists(path):
            return path
    return None


def install_translator(locale: str | None = None) -> str:
    """Install the plugin's translator for QGIS's locale (or ``locale``); returns the language used.

    Installing twice replaces the first translator. English (no ``.qm``) installs nothing.
    """
    remove_translator()
    locale = locale or qgis_locale()
    path = qm_path(locale)
    if path is None:
        return "en"
    translator = QTranslator()
    if not translator.load(path):
        return "en"
    QCoreApplication.installTranslator(translator)
    _state["translator"] = translator
    _state["language"] = locale.split("_")[0]
    return str(_state["language"])


def remove_translator() -> None:
    """Remove the plugin's translator (the plugin is unloading); the plugin speaks English again."""
    translator = _state["translator"]
    if isinstance(translator, QTranslator):
        QCoreApplication.removeTranslator(translator)
    _state["translator"] = None
    _state["language"] = "en"


def language() -> str:
    """The language the plugin speaks now (``en`` or ``fr``)."""
    return str(_state["language"])


def class_label(name: str) -> str:
    """A class name as the user reads it: IGN's French name under a French locale."""
    return french_name(name) if language() == "fr" else name


def localized(classes: Sequence[ClassInfo]) -> tuple[ClassInfo, ...]:
    """Classes with their names in the plugin's language (values and colours unchanged)."""
    return tuple(ClassInfo(c.value, class_label(c.name), c.color) for c in classes)


def int8_cpu_note(capability: Int8Capability) -> str | None:
    """What an INT8 user should know about this CPU, translated; None with a dot product or unknown flags.

    Without VNNI but with AVX2 (or AVX-512BW) INT8 still runs faster than FP32, only less so than
    with VNNI: the note says which path runs. "Expect little gain" is kept for CPUs with none.
    """
    if capability.integer_path:
        return tr(
            "INT8: no VNNI on this CPU; onnxruntime uses the slower {isa} integer path (still typically faster than FP32)"  # noqa: E501
        ).format(isa=capability.integer_path)
    if capability.little_gain:
        return tr("INT8: no VNNI, AVX2 or dot-product instructions on this CPU, expect little gain")
    return None


def number_locale() -> QLocale:
    """The locale numbers are written in: QGIS's under a translated UI ("262 144", "0,5"), else
    English digits ("262,144", "0.5") like the English words around them."""
    if language() == "en":
        return QLocale(QLocale.Language.English, QLocale.Country.UnitedStates)
    return QLocale(qgis_locale())


def integer(value: int) -> str:
    """An integer with the locale's digit grouping: ``262,144`` / ``262 144``."""
    return number_locale().toString(int(value))


def decimal(value: float, decimals: int = 1) -> str:
    """A number with ``decimals`` decimals and the locale's decimal mark: ``0.5`` / ``0,5``."""
    return number_locale().toString(float(value), "f", decimals)


def metres(value: float) -> str:
    """A length in metres, as short as exact: ``0.2 m`` / ``0,2 m`` (a no-break space in French)."""
    space = " " if language() == "en" else "\u00a0"
    return number_locale().toString(float(value), "g", 6) + space + "m"


def percent(fraction: float | None, decimals: int = 1) -> str:
    """A 0..1 fraction as a percentage, one format for every tab: ``12.3 %`` / ``12,3 %``
    (a no-break space before ``%`` in French); ``—`` when undefined."""
    if fraction is None:
        return "—"
    space = " " if language() == "en" else "\u00a0"  # French typography: no line break before %
    return decimal(100.0 * fraction, decimals) + space + "%"


def counted(count: int, one: str, many: str) -> str:
    """A count with its noun in the right number: ``one``/``many`` are translated templates with
    ``{n}``. French takes the singular for 0 and 1 ("0 élément sauté"), English for 1 only."""
    singular = abs(int(count)) == 1 or (int(count) == 0 and language() == "fr")
    return (one if singular else many).format(n=integer(count))


def tiles(count: int) -> str:
    """``1 tile``, ``2 tiles`` in the user's language."""
    return counted(count, tr("{n} tile"), tr("{n} tiles"))
