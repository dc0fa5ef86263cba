"""Typed errors of the core. Their text is shown to users as is: it says what to do.

Core has no Qt, so it cannot translate. An error a user meets often carries a message ``key``
and its ``params`` besides its English text: the GUI and Processing look the key up in their
own wording and language (:func:`flair_qgis.i18n.errors.error_text`); without a key the English
text is shown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


class FlairError(Exception):
    """Base class of every error a user can act on.

    Args:
        message: the English text (what ``str(err)`` gives).
        key: a message key the GUI and Processing translate, or None.
        params: the key's arguments (plain values, lists of values).
    """

    def __init__(self, message: str = "", *, key: str | None = None, params: Mapping[str, object] | None = None):
        super().__init__(message)
        self.key = key
        self.params = dict(params or {})


class ModelError(FlairError):
    """The model file cannot be used (unreadable, not ONNX, inconsistent metadata)."""


class InputError(FlairError):
    """The raster, extent, bands or output paths do not fit the request."""


class NotSupportedError(FlairError):
    """The request is valid but this version cannot run it yet."""


class Canceled(Exception):  # noqa: N818 - a cancel is information, not an error
    """The user canceled the run; nothing was written."""


MAX_LISTED = 5
"""A message lists at most this many values, then "… and N more"."""


def listed(values: Sequence[object], more: str = "… and {n} more") -> str:
    """``values`` joined by commas, at most :data:`MAX_LISTED` of them, then ``more`` with the count left."""
    shown = ", ".join(str(v) for v in values[:MAX_LISTED])
    left = len(values) - MAX_LISTED
    return shown + (" " + more.format(n=left) if left > 0 else "")
