"""Texts a model carries in its metadata (``name``, ``description``, INT8 speed-up), in the user's language.

Metadata is free text written by a model's author, in one language: it is shown as written. The
models the plugin ships are the exception: their texts are known, so they are translated like any
other string of the plugin. They are recognised by the SHA-256 of their English text, not by the
model's name alone: a retrained demo model with a new description then shows its own English text
(and the test of the French card fails) rather than a stale translation. Metadata is only read as
text, never evaluated.

:func:`int8_speed_text` turns the speed-up ``flair:quantize`` recorded into the model card's line,
and says where it was measured: a speed-up holds for the CPU and thread count it was measured
with, so another CPU gets "measured on <cpu>", not a claim about itself.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from ..core.quantize import CpuIdentity, cpu_identity, quantization_record
from . import counted, decimal, tr


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


def int8_speed_text(record: Mapping[str, Any] | None, here: CpuIdentity) -> str | None:
    """The model card's INT8 speed line, from the ``quantization`` metadata; None when none was measured.

    "INT8: 1.4× FP32 on this CPU (16 threads)" when the recorded CPU name and INT8 flags are this
    CPU's, else "INT8: 1.4× FP32 measured on <cpu> (16 threads)".

    Args:
        record: the model's ``quantization`` entry (:func:`flair_qgis.core.quantize.int8.quantization_record`).
        here: the CPU the card is shown on (:func:`flair_qgis.core.quantize.cpu.cpu_identity`).
    """
    record = record or {}
    speedup, threads = record.get("speedup"), record.get("threads")
    if not isinstance(speedup, (int, float)) or isinstance(speedup, bool) or not isinstance(threads, int):
        return None
    ratio, counted_threads = decimal(speedup, 1), counted(threads, tr("{n} thread"), tr("{n} threads"))
    if here.same_as(record.get("cpu"), record.get("cpu_flags")):
        return tr("INT8: {ratio}× FP32 on this CPU ({threads})").format(ratio=ratio, threads=counted_threads)
    cpu = str(record.get("cpu") or tr("another CPU"))
    return tr("INT8: {ratio}× FP32 measured on {cpu} ({threads})").format(ratio=ratio, cpu=cpu, threads=counted_threads)


def int8_card_speed(metadata: Mapping[str, str]) -> str | None:
    """:func:`int8_speed_text` of a model's metadata, on this machine's CPU."""
    return int8_speed_text(quantization_record(metadata), cpu_identity())
