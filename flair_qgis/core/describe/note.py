"""The run log's line on a model whose normalisation or classes the engine guesses.

A model with no metadata runs with pixels / 255 and classes 0..C-1 (:attr:`ModelInfo.guessed
<flair_qgis.core.engine.ModelInfo>` says which): the run says so, in one catalogued line the shells
translate (a :class:`~flair_qgis.core.engine.Note`), and points to the describe job that fixes it once.
"""

from __future__ import annotations

from ..engine import GUESSED_CLASSES, GUESSED_NORMALISATION, ModelInfo, Note


def guessed_note(model: ModelInfo) -> Note | None:
    """The line saying what the engine guesses for ``model``; None when its metadata declares it all."""
    normalisation = GUESSED_NORMALISATION in model.guessed
    classes = GUESSED_CLASSES in model.guessed
    if not (normalisation or classes):
        return None
    heads = [o for o in model.outputs if o.classes]
    values = [c.value for c in heads[0].classes] if heads else [0]
    key = "guessed_normalisation_classes" if normalisation and classes else None
    key = key or ("guessed_normalisation" if normalisation else "guessed_classes")
    return Note.of(key, model=model.display_name, first=min(values), last=max(values))
