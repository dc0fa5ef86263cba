"""The entries of the dock's model picker: the bundled demo model, then the models used recently.

The demo model ships inside the plugin (``resources/models/flair-demo-unet.onnx``, in the QGIS
profile's ``python/plugins/flair_qgis/`` once installed), so a new user has something to run
from the first start without looking for it.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from ...i18n import tr
from ...resource_paths import resources_path

DEMO_MODEL_FILE = "flair-demo-unet.onnx"


def demo_model_path() -> str | None:
    """The bundled demo model's file, or None when this installation lacks it."""
    path = resources_path("models", DEMO_MODEL_FILE)
    return os.path.abspath(path) if os.path.isfile(path) else None


def demo_model_label() -> str:
    """How the picker names the demo model: what it is and that it is not accurate."""
    return tr("Demo model (FLAIR, 6 patches — low accuracy)")


def model_entries(recent: Sequence[str]) -> list[tuple[str, str]]:
    """``(label, path)`` per picker entry: the models used recently (file names), and the demo model.

    The demo model is listed once, under its own label, wherever it stands among the recent ones.
    """
    demo = demo_model_path()
    entries = [
        (demo_model_label() if demo and os.path.abspath(path) == demo else os.path.basename(path), path)
        for path in recent
    ]
    if demo and all(os.path.abspath(path) != demo for _label, path in entries):
        entries.append((demo_model_label(), demo))
    return entries


def start_model(recent: Sequence[str]) -> str | None:
    """The model the dock opens on: the last one used, else the demo model."""
    return recent[0] if recent else demo_model_path()
