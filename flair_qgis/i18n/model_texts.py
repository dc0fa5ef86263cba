"""Texts a model carries in its metadata (``name``, ``description``), in the user's language.

Metadata is free text written by a model's author, in one language: it is shown as written. The
models the plugin ships are the exception: their texts are known, so they are translated like any
other string of the plugin. They are recognised by the SHA-256 of their English text, not by the
model's name alone: a retrained demo model with a new description then shows its own English text
(and the test of the French card fails) rather than a stale translation. Metadata is only read as
text, never evaluated.
"""

from __future__ import annotations

import hashlib

from . import tr


def text_key(text: str) -> str:
    """The key of a metadata text: the first 16 hex digits of the SHA-256 of its stripped UTF-8."""
    return hashlib.sha256(text.strip().encode("utf-8")).hexdigest()[:16]


def _bundled_texts() -> dict[str, str]:
    """Key of an English metadata text of a bundled model -> that text in the user's language."""
    return {
        # resources/models/flair-demo-unet.onnx, metadata "name"
        "7f1755b883c15a68": tr("FLAIR demo U-Net (6 patches)"),
        # resources/models/flair-demo-unet.onnx, metadata "description"
        "099faa3ec49ffcda": tr(
            "Tiny demonstration U-Net (ResNet-18 encoder, 16 channels wide) trained from scratch in 6 minutes on CPU "
            "on 6 real FLAIR #1 patches (000473, 002115, 034217, 036294, 050549, 087873). Not a production model: it "
            "shows the FLAIR #1 input and output conventions, its accuracy is low (see resources/models/MODEL_CARD.md)."
        ),
    }


def model_text(text: str) -> str:
    """A model's metadata text as the user reads it: a bundled model's in the plugin's language,
    any other model's as its author wrote it."""
    if not text:
        return text
    return _bundled_texts().get(text_key(text), text)
