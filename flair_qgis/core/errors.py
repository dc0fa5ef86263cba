"""Typed errors of the core. Their text is shown to users as is: it says what to do.

Core has no Qt, so it cannot translate. Every error the core raises is made from a key of the
message catalogue (:mod:`flair_qgis.core.messages`) and its parameters: ``str(err)`` is the
English template formatted with them; the GUI and Processing translate the template and format
it with the same parameters (:func:`flair_qgis.i18n.errors.error_text`). An error without a key
(raised outside the core) shows its text as is.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import TypeVar

from .messages import CATALOGUE

_E = TypeVar("_E", bound="FlairError")


class FlairError(Exception):
    """Base class of every error a user can act on.

    Args:
        message: the English text (what ``str(err)`` gives).
        key: a message key the GUI and Processing translate, or None.
        params: the key's arguments (plain values, lists of values, or the error a message wraps).
    """

    def __init__(self, message: str = "", *, key: str | None = None, params: Mapping[str, object] | None = None):
        super().__init__(message)
        self.key = key
        self.params = dict(params or {})
        #: The files the failed job had written and removed (:func:`flair_qgis.core.atomic.job_outputs`).
        self.removed: tuple[str, ...] = ()

    @classmethod
    def of(cls: type[_E], key: str, /, **params: object) -> _E:
        """The error of catalogued message ``key``, its English text the template formatted with ``params``.

        A list parameter is written in full, comma-separated ("–" when empty): logs and
        ``scripts/flair`` keep every value, the dock and Processing show the first few; tuples,
        such as array shapes, as Python writes them.
        """
        text = CATALOGUE[key].template.format(**{name: english(value) for name, value in params.items()})
        return cls(text, key=key, params=params)


class ModelError(FlairError):
    """The model file cannot be used (unreadable, not ONNX, inconsistent metadata)."""


class InputError(FlairError):
    """The raster, extent, bands or output paths do not fit the request."""


class NotSupportedError(FlairError):
    """The request is valid but this version cannot run it yet."""


class Canceled(Exception):  # noqa: N818 - a cancel is information, not an error
    """The user canceled the run; whatever the job had written is removed.

    A job raises it bare where it polls the cancel; the job's entry point
    (:func:`flair_qgis.core.atomic.job_outputs`) raises it again with the files it removed, so
    the message says what was removed or that nothing had been written.

    Args:
        message: the English text; empty for :func:`canceled_message` of ``removed``.
        removed: the files the job had written and removed (absolute paths).
    """

    def __init__(self, message: str = "", *, removed: Sequence[str] = ()):
        self.removed = tuple(removed)
        super().__init__(message or canceled_message(self.removed))


def canceled_message(removed: Sequence[str]) -> str:
    """The English text of a cancel: the files removed (by name), or that nothing had been written."""
    if not removed:
        return "Canceled by the user; nothing had been written."
    return f"Canceled by the user; removed what the run had written: {_names(removed)}."


def removed_message(removed: Sequence[str]) -> str:
    """The English sentence a failed job's error adds: the files removed ("" when none was)."""
    if not removed:
        return ""
    return f"Removed what the run had written: {_names(removed)}."


def _names(paths: Sequence[str]) -> str:
    """The file names of ``paths``, all of them: a user must be able to tell what is gone."""
    return ", ".join(os.path.basename(path) for path in paths)


MAX_LISTED = 5
"""A message lists at most this many values, then "… and N more"."""


def english(value: object) -> object:
    """A message parameter as the English text shows it: a list comma-separated, in full."""
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) if value else "–"
    return value


def listed(values: Sequence[object], more: str = "… and {n} more") -> str:
    """``values`` joined by commas, at most :data:`MAX_LISTED` of them, then ``more`` with the count left."""
    shown = ", ".join(str(v) for v in values[:MAX_LISTED])
    left = len(values) - MAX_LISTED
    return shown + (" " + more.format(n=left) if left > 0 else "")
