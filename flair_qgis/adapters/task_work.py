"""The body of a QgsTask's ``run()``: one core call on QGIS's pooled thread, its errors kept for
``finished()``.

A cancel is information, not an error; a :class:`~flair_qgis.core.errors.FlairError` is shown as a
warning in its own words; anything else is shown as critical with its traceback in the log. Only
``finished()``, on the main thread, shows them.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from typing import Any

from ..core.errors import Canceled, FlairError
from .proj_threads import keep_proj_context


def run_work(task: Any, work: Callable[[], object]) -> bool:
    """Run ``work()`` for ``task`` (on the task's thread); True when it finished.

    On failure ``task.error`` holds the exception and, for an unexpected one,
    ``task.error_traceback`` its traceback; a cancel leaves both as they are and is kept in
    ``task.canceled`` (it lists the files the job removed).
    """
    keep_proj_context()  # before any pyproj use on this pooled thread
    try:
        work()
    except Canceled as err:
        task.canceled = err
        return False
    except FlairError as err:
        task.error = err
        return False
    except Exception as err:  # reported on the main thread as critical, with the traceback in the log
        task.error = err
        task.error_traceback = traceback.format_exc()
        return False
    return True
