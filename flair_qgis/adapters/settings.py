"""Per-user settings of the plugin, stored with QgsSettings under the ``flair_qgis/`` prefix.

Only plain values are stored (strings, ints, lists of strings), so a profile can be copied
between QGIS versions. Each setting has one getter and one setter here; widgets never read
QgsSettings themselves.
"""

from __future__ import annotations

import os

from qgis.core import QgsSettings

PREFIX = "flair_qgis/"
MAX_RECENT_MODELS = 8


def _settings() -> QgsSettings:
    return QgsSettings()


def value(key: str, default: object = None, type_: type | None = None) -> object:
    """The stored value of ``flair_qgis/<key>``, or ``default``."""
    settings = _settings()
    if type_ is None:
        return settings.value(PREFIX + key, default)
    return settings.value(PREFIX + key, default, type_)


def set_value(key: str, new_value: object) -> None:
    """Store ``flair_qgis/<key>``."""
    _settings().setValue(PREFIX + key, new_value)


def recent_models() -> list[str]:
    """Model files used before, most recent first, those that still exist only."""
    stored = _settings().value(PREFIX + "recent_models", [])
    if isinstance(stored, str):  # QSettings returns a bare string for one-element lists
        stored = [stored]
    return [p for p in (stored or []) if isinstance(p, str) and os.path.isfile(p)]


def remember_model(path: str) -> list[str]:
    """Put ``path`` first in the recent models (at most :data:`MAX_RECENT_MODELS`); return the list."""
    path = os.path.abspath(path)
    models = [path] + [p for p in recent_models() if os.path.abspath(p) != path]
    models = models[:MAX_RECENT_MODELS]
    _settings().setValue(PREFIX + "recent_models", models)
    return models


def device() -> str:
    """The device last chosen: ``auto``, ``cuda`` or ``cpu``."""
    chosen = str(value("device", "auto") or "auto")
    return chosen if chosen in ("auto", "cuda", "cpu") else "auto"


def set_device(new_device: str) -> None:
    """Remember the device choice."""
    set_value("device", new_device)


def output_folder() -> str:
    """Folder where class maps go when the user names no file ('' = the default, see :func:`run_folder`)."""
    return str(value("output_folder", "") or "")


def run_folder(folder: str = "") -> str:
    """The folder a dock run writes its files into, created if needed.

    Args:
        folder: the user's output folder; '' for ``flair_outputs`` beside the saved project, or
            the plugin's folder in the QGIS profile (:func:`.review_files.default_run_folder`).

    Returns:
        The folder.
    """
    if not folder:
        from .review_files import default_run_folder

        return default_run_folder()
    os.makedirs(folder, exist_ok=True)
    return folder


def str_value(key: str, default: str = "") -> str:
    """A text setting, ``default`` when unset."""
    stored = value(key, default)
    return str(stored) if stored is not None else default


def int_value(key: str, default: int) -> int:
    """An integer setting, ``default`` when unset or unreadable."""
    try:
        return int(value(key, default))
    except (TypeError, ValueError):
        return default


def float_value(key: str, default: float) -> float:
    """A decimal setting, ``default`` when unset or unreadable."""
    try:
        return float(value(key, default))
    except (TypeError, ValueError):
        return default


def bool_value(key: str, default: bool) -> bool:
    """A boolean setting (QSettings stores them as 'true'/'false' strings)."""
    stored = value(key, default)
    if isinstance(stored, str):
        return stored.lower() in ("true", "1", "yes")
    return bool(stored)


DEFAULT_CACHE_MB = 2048
DEFAULT_FOLLOW_BUDGET_MPX = 16.0


def cache_max_bytes() -> int:
    """Size limit of a tile cache folder (setting ``cache_size_mb``, default 2 GB)."""
    return max(0, int_value("cache_size_mb", DEFAULT_CACHE_MB)) * 1024 * 1024


def follow_view_budget_px() -> int:
    """Largest view "Follow the view" segments, in pixels at the model's resolution
    (setting ``follow_view_budget_mpx``, default 16 Mpx)."""
    try:
        mpx = float(value("follow_view_budget_mpx", DEFAULT_FOLLOW_BUDGET_MPX))
    except (TypeError, ValueError):
        mpx = DEFAULT_FOLLOW_BUDGET_MPX
    return int(max(0.0, mpx) * 1e6)


def cache_folder() -> str:
    """The dock's tile cache folder (setting ``cache_folder``; default in the QGIS profile)."""
    from qgis.core import QgsApplication

    default = os.path.join(QgsApplication.qgisSettingsDirPath(), "flair_qgis", "tile_cache")
    return str_value("cache_folder", "") or default
