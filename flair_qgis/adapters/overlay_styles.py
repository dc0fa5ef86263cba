"""Styles of the scoring overlays: suspicious-label outlines and the error map's legend wording."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from qgis.core import QgsPalettedRasterRenderer, QgsRasterLayer, QgsVectorLayer

from ..core.score import CORRECT, ERROR_WORDS, NOT_EVALUATED


def style_suspicious(layer: QgsVectorLayer) -> None:
    """Draw ranked labels as outlines readable over any class map: a black line on a white halo.

    Colour carries no suspicion level (the list and the attribute table give it), so no outline
    competes with the class colours; symbol levels draw every halo first, so a polygon's outline is
    never hidden under its neighbours' halos.
    """
    from qgis.core import QgsFillSymbol, QgsSimpleFillSymbolLayer, QgsSingleSymbolRenderer

    symbol = QgsFillSymbol.createSimple({"color": "0,0,0,0", "outline_color": "#ffffff", "outline_width": "1.2"})
    core = QgsSimpleFillSymbolLayer.create({"color": "0,0,0,0", "outline_color": "#111111", "outline_width": "0.5"})
    symbol.appendSymbolLayer(core)
    renderer = QgsSingleSymbolRenderer(symbol)
    renderer.setUsingSymbolLevels(True)
    layer.setRenderer(renderer)


def localize_error_legend(layer: QgsRasterLayer, words: Sequence[str], class_label: Callable[[str], str] = str) -> None:
    """Relabel an error map's legend (written in English by the core) in the user's language.

    Args:
        layer: the error map, styled by its ``.qml`` sidecar (a paletted renderer).
        words: not evaluated, correct, and the missed-class wording with ``{name}`` and ``{value}``.
        class_label: turns an English class name into the displayed one.
    """
    renderer = layer.renderer()
    if not isinstance(renderer, QgsPalettedRasterRenderer):
        return
    # "missed: {name} ({value})" -> ^missed: (?P<name>.*) \((?P<value>-?[0-9]+)\)$
    pieces = re.split(r"\{(name|value)\}", ERROR_WORDS[2])
    groups = {"name": "(?P<name>.*)", "value": "(?P<value>-?[0-9]+)"}
    missed = re.compile("^" + "".join(groups[p] if i % 2 else re.escape(p) for i, p in enumerate(pieces)) + "$")
    for entry in renderer.classes():
        value = int(entry.value)
        if value == NOT_EVALUATED:
            label = words[0]
        elif value == CORRECT:
            label = words[1]
        else:
            found = missed.match(entry.label)
            if not found:
                continue
            label = words[2].format(name=class_label(found["name"]), value=found["value"])
        renderer.setLabel(value, label)


def error_words() -> tuple[str, str, str]:
    """The error map's legend wording in the plugin's language.

    See :data:`~flair_qgis.core.score.errormap.ERROR_WORDS`.
    """
    from ..i18n import tr

    return (tr("not evaluated"), tr("correct"), tr("missed: {name} ({value})"))
