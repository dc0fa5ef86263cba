"""The body of a QgsTask's ``run()``: one core call on QGIS's pooled thread, its errors kept for
``finished()``; :class:`JobTask`, the dock's cancellable tasks built on it.

A cancel is information, not an error; a :class:`~flair_qgis.core.errors.FlairError` is shown as a
warning in its own words; anything else is shown as critical with its traceback in the log. Only
``finished()``, on the main thread, shows them.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from typing import Any

from qgis.core import QgsTask

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


class JobTask(QgsTask):
    """A cancellable task that runs one core job in :meth:`_work` through :func:`run_work`.

    Subclasses set what their job needs, implement ``_work`` (on the task's thread) and
    ``finished`` (on the main thread, where ``done`` gets their outcome).

    Attributes:
        done: the subclass's callback, called by its ``finished``.
        error, error_traceback: what failed, as :func:`run_work` keeps it.
        canceled: the job's cancel, which says what it removed.
    """

    def __init__(self, title: str, done: Callable[..., None]) -> None:
        super().__init__(title, QgsTask.Flag.CanCancel)
        self.done = done
        self.error: BaseException | None = None
        self.error_traceback = ""
        self.canceled: Canceled | None = None

    def run(self) -> bool:
        return run_work(self, self._work)

    def _work(self) -> None:
        raise NotImplementedError
