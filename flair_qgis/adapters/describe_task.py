"""The dock's "Describe this model…" in the QGIS task manager.

A FLAIR-HUB model is hundreds of MB: reading it, writing the described copy and reading that back
(:func:`flair_qgis.core.describe.describe`) takes seconds, so :class:`DescribeTask` runs it on
QGIS's pooled thread with its own cancel and progress hooks, and hands the
:class:`DescribeOutcome` to the dock only in :meth:`DescribeTask.finished` (main thread again).
A cancel or a failure leaves no copy: the job removes it (:func:`flair_qgis.core.atomic.job_outputs`),
and a cancel that comes after the job returned removes it here (the job's own
:meth:`~flair_qgis.core.describe.DescribeResult.remove_outputs`).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

from ..core.describe import DescribeRequest, DescribeResult, describe
from ..i18n import tr
from ..i18n.removed import removed_files
from .task_work import JobTask


@dataclass
class DescribeOutcome:
    """How a description ended, handed to the dock on the main thread.

    Attributes:
        status: ``ok``, ``canceled`` or ``error``.
        request: what was asked.
        result: the job's result when ``ok`` (the copy and the engine's reading of it).
        error: the exception when ``error``.
        traceback: formatted traceback of an unexpected error, else ``""``.
        removed: the files the job had written and removed (a cancel, a failure).
    """

    status: str
    request: DescribeRequest
    result: DescribeResult | None = None
    error: BaseException | None = None
    traceback: str = ""
    removed: tuple[str, ...] = ()


class DescribeTask(JobTask):
    """Writes a described copy of a model in the background.

    Args:
        request: the dialog's frozen request.
        done: called on the main thread with the :class:`DescribeOutcome`.
    """

    def __init__(self, request: DescribeRequest, done: Callable[[DescribeOutcome], None]) -> None:
        name = os.path.basename(request.model_path)
        super().__init__(tr("FLAIR: describing {name}").format(name=name), done)
        self.request = request
        self.result: DescribeResult | None = None

    def _work(self) -> None:
        self.result = describe(self.request, self.isCanceled, self.setProgress)

    def finished(self, result: bool) -> None:
        outcome = DescribeOutcome(status="ok", request=self.request, result=self.result)
        if not result or self.result is None or self.isCanceled():
            # A cancel after the job returned finds the copy in place: the job's result removes it.
            removed = self.result.remove_outputs() if result and self.result is not None else ()
            outcome.status = "error" if self.error is not None else "canceled"
            outcome.result = None
            outcome.error = self.error
            outcome.traceback = self.error_traceback
            outcome.removed = removed or removed_files(self.canceled or self.error)
        self.done(outcome)
