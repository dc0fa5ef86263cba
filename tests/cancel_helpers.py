"""Helpers of the cancel-contract tests: a folder's listing, a Processing feedback and dock tasks
that cancel themselves at a given progress."""

from __future__ import annotations

import os


def listing(folder) -> list[str]:
    """Every name in ``folder``, hidden temporary files included, sorted."""
    return sorted(os.listdir(folder))


def canceling_feedback(threshold: float):
    """A QgsProcessingFeedback that cancels the run the first time its progress reaches ``threshold``
    (0: at the first report), and keeps the errors reported (``run_alg`` joins them to the exception)."""
    from qgis.core import QgsProcessingFeedback

    class _Canceling(QgsProcessingFeedback):
        def __init__(self) -> None:
            super().__init__()
            self.errors: list[str] = []
            self.canceled_at: float | None = None

        def setProgress(self, percent: float) -> None:
            super().setProgress(percent)
            if self.canceled_at is None and percent >= threshold:
                self.canceled_at = percent
                self.cancel()

        def reportError(self, error: str, fatalError: bool = False) -> None:
            self.errors.append(error)
            super().reportError(error, fatalError)

    return _Canceling()


def run_task(task_class, prepared, threshold: float | None, cancel: bool = True, timeout_s: float = 120.0):
    """Run a dock task (``task_class(prepared, done)``) in QGIS's task manager; its outcome.

    Args:
        task_class: :class:`~flair_qgis.adapters.evaluate_task.EvaluateTask` or
            :class:`~flair_qgis.adapters.review_sample.SampleTask` (both report through ``setProgress``).
        prepared: what the task runs.
        threshold: cancel when the progress reaches it; None cancels once the job returned.
        cancel: False runs it to its end.
        timeout_s: how long to wait for ``finished()``.
    """
    import time

    from qgis.core import QgsApplication

    outcomes: list = []

    class _Canceling(task_class):
        def setProgress(self, percent: float) -> None:
            super().setProgress(percent)
            if cancel and threshold is not None and percent >= threshold:
                self.cancel()

        def _work(self) -> None:
            super()._work()
            if cancel and threshold is None:
                self.cancel()

    task = _Canceling(prepared, outcomes.append)
    QgsApplication.taskManager().addTask(task)
    deadline = time.monotonic() + timeout_s
    while not outcomes and time.monotonic() < deadline:
        QgsApplication.processEvents()
        time.sleep(0.01)
    assert outcomes, "the task did not finish"
    return outcomes[0]
