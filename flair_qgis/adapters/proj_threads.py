"""Keep pyproj's PROJ context alive in QGIS's worker threads.

pyproj 3.7 keeps one PROJ context per thread: the C pointer in thread-specific storage, its owner
in a Python ``threading.local``. QGIS runs tasks and Processing algorithms on pooled Qt threads,
and PyQt drops the Python thread state (and so the ``threading.local``) when each call returns:
the context is destroyed while the thread keeps the pointer, and the next task that uses pyproj
on that reused thread crashes (QGIS 3.40 on Debian 13: "Fatal Python error: Segmentation fault").
:func:`keep_proj_context`, called first in every worker entry point, keeps each thread's context
for the life of the process (one small context per pooled thread).
"""

from __future__ import annotations

import threading

# Native thread id -> pyproj's context manager for that thread (kept so it is never freed).
_KEPT: dict[int, object] = {}
_LOCK = threading.Lock()


def _per_thread_contexts():
    """pyproj's ``_context`` module when it keeps one context per thread (pyproj 3.7+), else None."""
    try:
        from pyproj import _context  # type: ignore[attr-defined]
    except ImportError:  # older pyproj (Debian 12's 3.4), or none: nothing to keep
        return None
    if not hasattr(_context, "get_context_manager") or not hasattr(_context, "_set_context_data_dir"):
        return None
    return _context


def kept_threads() -> set[int]:
    """Native ids of the threads whose pyproj context is kept (empty with an older pyproj).

    Returns:
        A copy of the ids.
    """
    with _LOCK:
        return set(_KEPT)


def keep_proj_context() -> None:
    """Make sure this thread's pyproj context outlives the current Python thread state.

    Call it at the start of code that runs on a QGIS worker thread, before any pyproj use. Does
    nothing with a pyproj without per-thread contexts.
    """
    _context = _per_thread_contexts()
    if _context is None:
        return
    # Creates this thread's context when it has none (a new thread, or one whose id the system
    # reused); with a context from an earlier task, kept below, it only sets the data folder again.
    _context._set_context_data_dir()
    # None (or no attribute) when the context was made under an earlier thread state of this
    # thread and kept then: replacing that kept manager would free the context.
    try:
        manager = _context.get_context_manager()
    except AttributeError:
        manager = None
    if manager is None:
        return
    with _LOCK:
        _KEPT[threading.get_native_id()] = manager
