"""Shared plumbing of the flair algorithms: errors, feedback hooks, translation."""

from __future__ import annotations

from collections.abc import Callable

from qgis.core import QgsProcessingAlgorithm, QgsProcessingException, QgsProcessingFeedback
from qgis.PyQt.QtCore import QCoreApplication

from ..core.errors import Canceled, FlairError
from ..i18n import TR_CONTEXT


def tr(text: str) -> str:
    """Translate a user-visible string."""
    return QCoreApplication.translate(TR_CONTEXT, text)


class FlairAlgorithm(QgsProcessingAlgorithm):
    """Base class: ids in the ``flair`` group and core errors turned into Processing errors."""

    def createInstance(self) -> QgsProcessingAlgorithm:
        return type(self)()

    def group(self) -> str:
        return ""

    def groupId(self) -> str:
        return ""

    @staticmethod
    def hooks(feedback: QgsProcessingFeedback) -> tuple[Callable[[], bool], Callable[[float], None]]:
        """``(is_canceled, on_progress)`` for the core, bound to a Processing feedback."""
        return feedback.isCanceled, feedback.setProgress

    @staticmethod
    def run_core(feedback: QgsProcessingFeedback, work: Callable[[], object]) -> object:
        """Run core work, turning core errors into ``QgsProcessingException``.

        A cancel is not an error for the user, but Processing must not publish outputs: it is
        reported in the log and raised as an exception that says so.
        """
        try:
            return work()
        except Canceled as err:
            feedback.reportError(tr("Canceled: nothing was written."), fatalError=False)
            raise QgsProcessingException(tr("Canceled by the user; no output was written.")) from err
        except FlairError as err:
            raise QgsProcessingException(str(err)) from err
