"""Shared plumbing of the flair algorithms: errors, feedback hooks, translation, MODEL files."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from qgis.core import QgsProcessingAlgorithm, QgsProcessingContext, QgsProcessingException, QgsProcessingFeedback
from qgis.PyQt.QtCore import QCoreApplication

from ..adapters.proj_threads import keep_proj_context
from ..core.errors import Canceled, FlairError, ModelError
from ..i18n import TR_CONTEXT
from ..i18n.errors import PROCESSING, error_text
from ..i18n.removed import canceled_text, with_removed


def tr(text: str) -> str:
    """Translate a user-visible string."""
    return QCoreApplication.translate(TR_CONTEXT, text)


MODEL = "MODEL"
PYTORCH_SUFFIXES = (".pt", ".pth", ".ckpt", ".pkl", ".pickle", ".safetensors")
"""File names of PyTorch weights and checkpoints (pickles, zip archives, safetensors)."""


def model_file_error(path: str) -> str | None:
    """What to tell a user whose MODEL is not an ``.onnx`` file; None when it is one (or empty).

    Judged by the file name only: a PyTorch file is never opened, let alone unpickled. An
    ``.onnx`` name holding a pickle is caught when the core reads the model.

    Args:
        path: the MODEL parameter's file.

    Returns:
        The message (the dock's text for PyTorch files), or None.
    """
    name = os.path.basename(path or "")
    if not name or name.lower().endswith(".onnx"):
        return None
    if name.lower().endswith(PYTORCH_SUFFIXES):
        return error_text(ModelError.of("model_is_pickle", file=name), PROCESSING)
    return tr("MODEL must be an ONNX model (.onnx); {name} is not one.").format(name=name)


class FlairAlgorithm(QgsProcessingAlgorithm):
    """Base class: ids in the ``flair`` group and core errors turned into Processing errors."""

    def checkParameterValues(self, parameters: dict[str, Any], context: QgsProcessingContext) -> tuple[bool, str]:
        """Say what to do with a non-ONNX MODEL, instead of QGIS's "Incorrect parameter value".

        Processing (dialog, ``processing.run``, ``qgis_process``) calls this before running:
        the message is shown as is, nothing is loaded and nothing is written.
        """
        if self.parameterDefinition(MODEL) is not None and parameters.get(MODEL) not in (None, ""):
            message = model_file_error(self.parameterAsFile(parameters, MODEL, context))
            if message:
                return False, message
        return super().checkParameterValues(parameters, context)

    def prepareAlgorithm(
        self, parameters: dict[str, Any], context: QgsProcessingContext, feedback: QgsProcessingFeedback
    ) -> bool:
        """Run :meth:`capture` on the main thread, turning core errors into Processing errors."""
        try:
            self.capture(parameters, context)
        except FlairError as err:
            raise QgsProcessingException(error_text(err, PROCESSING)) from err
        return True

    def capture(self, parameters: dict[str, Any], context: QgsProcessingContext) -> None:
        """Read the parameters and layers into what ``processAlgorithm`` needs (main thread).

        ``processAlgorithm`` runs in a worker thread and touches no layer, so everything it needs
        is captured here; nothing by default.

        Raises:
            FlairError: bad input (reported as a ``QgsProcessingException`` with its text).
        """

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
        reported in the log and raised as an exception that says so. The job has removed what it
        had written; both messages say which files (``removed``), or that nothing had been written.
        """
        keep_proj_context()  # Processing runs algorithms on pooled threads too
        try:
            return work()
        except Canceled as err:
            message = canceled_text(err.removed)
            feedback.reportError(message, fatalError=False)
            raise QgsProcessingException(message) from err
        except FlairError as err:
            raise QgsProcessingException(with_removed(error_text(err, PROCESSING), err)) from err
