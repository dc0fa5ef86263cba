"""The names of a segmentation job's outputs, decided from its request in one place.

A run named by the user writes its class map where asked (``.tif`` added when missing); the
dock's unnamed runs get a new file named after the model and the layer in the run folder, and
its live view a new file per view. The confidence, the further heads and the per-tile values
go beside the class map (:func:`beside`). The shells call these functions; none builds a name.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable

CONFIDENCE_SUFFIX = "confidence"
TILE_VALUES_SUFFIX = "tiles"


def beside(output_path: str, suffix: str, extension: str) -> str:
    """A file beside the class map: ``<stem>_<suffix><extension>`` (the suffix made file-safe)."""
    stem = os.path.splitext(output_path)[0]
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in suffix)
    return f"{stem}_{safe}{extension}"


def class_map_path(path: str) -> str:
    """The class map file the user named, as a GeoTIFF (``.tif`` added when missing)."""
    return path if path.lower().endswith((".tif", ".tiff")) else path + ".tif"


def confidence_path_for(output_path: str) -> str:
    """The confidence raster beside a class map: ``<stem>_confidence.tif``."""
    return beside(output_path, CONFIDENCE_SUFFIX, ".tif")


def run_output_path(
    folder: str, layer_name: str, model_path: str, stamp: str, exists: Callable[[str], bool] = os.path.exists
) -> str:
    """A new class map for an unnamed run: ``flair_<model>_<layer>_<stamp>.tif`` in ``folder``.

    Args:
        folder: the run folder.
        layer_name: the first input layer's name.
        model_path: the model file (its name, without extension, comes first).
        stamp: the time stamp that makes the name new (``%Y%m%d_%H%M%S``).
        exists: whether a path is taken; a taken name gets ``_2``, ``_3``... (never overwritten).
    """
    model = os.path.splitext(os.path.basename(model_path))[0]
    slug = re.sub(r"[^A-Za-z0-9_-]+", "_", f"{model}_{layer_name}")[:60]
    path = os.path.join(folder, f"flair_{slug}_{stamp}.tif")
    index = 1
    while exists(path):
        index += 1
        path = os.path.join(folder, f"flair_{slug}_{stamp}_{index}.tif")
    return path


def live_output_path(folder: str, stamp: str) -> str:
    """The class map of one view of the dock's live view: ``live_<stamp>.tif`` in ``folder``."""
    return os.path.join(folder, f"live_{stamp}.tif")
