"""The dock's "Model" section: recent models, a browse button and the model card."""

from __future__ import annotations

import os

from qgis.PyQt.QtCore import Qt, pyqtSignal
from qgis.PyQt.QtWidgets import (
    QComboBox,
    QFileDialog,
    QGroupBox,
    QHBoxLayout,
    QProgressBar,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ...adapters import settings
from ...i18n import tr
from ..widgets import ModelCard
from .model_list import model_entries


class ModelSection(QGroupBox):
    """Choose a model (recent ones, or a file) and see what it eats and returns.

    Signals:
        model_chosen(str): the user picked a model file; the dock reads it.
        describe_requested(): the user asked to describe the model (shown when its metadata leaves
            the normalisation or classes to a guess).
        describe_canceled(): the user canceled the description under way.
    """

    model_chosen = pyqtSignal(str)
    describe_requested = pyqtSignal()
    describe_canceled = pyqtSignal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(tr("Model"), parent)
        layout = QVBoxLayout(self)
        row = QHBoxLayout()
        self.model_combo = QComboBox()
        self.model_combo.setToolTip(tr("Recently used models"))
        self.model_combo.activated.connect(lambda i: self.model_chosen.emit(self.model_combo.itemData(i) or ""))
        browse = QToolButton()
        browse.setText("…")
        browse.setToolTip(tr("Choose an ONNX model file"))
        browse.clicked.connect(self._browse)
        row.addWidget(self.model_combo, 1)
        row.addWidget(browse)
        layout.addLayout(row)
        self.model_card = ModelCard()
        layout.addWidget(self.model_card)
        self.describe_button = QPushButton(tr("Describe this model…"))
        self.describe_button.setToolTip(
            tr("Give the model its bands, normalisation and classes, in a copy written beside it")
        )
        self.describe_button.clicked.connect(self.describe_requested.emit)
        self.describe_button.setVisible(False)
        layout.addWidget(self.describe_button)
        layout.addLayout(self._describe_progress_row())
        self.current_path = ""

    def _describe_progress_row(self) -> QHBoxLayout:
        """The progress of a description under way and its Cancel button (hidden until one runs)."""
        row = QHBoxLayout()
        self.describe_progress = QProgressBar()
        self.describe_progress.setRange(0, 100)
        self.describe_progress.setFormat(tr("Writing the described copy… %p%"))
        self.describe_cancel = QPushButton(tr("Cancel"))
        self.describe_cancel.clicked.connect(self.describe_canceled.emit)
        row.addWidget(self.describe_progress, 1)
        row.addWidget(self.describe_cancel)
        self.set_describing(False)
        return row

    def set_describing(self, running: bool) -> None:
        """Show the progress and Cancel of a description that starts (True), hide them when it ended."""
        self.describe_progress.setValue(0)
        self.describe_progress.setVisible(running)
        self.describe_cancel.setVisible(running)
        self.describe_button.setEnabled(not running)

    def show_describe_progress(self, percent: float) -> None:
        """The description's progress bar at ``percent``."""
        self.describe_progress.setValue(int(percent))

    def _browse(self) -> None:
        start = os.path.dirname(self.current_path) if self.current_path else settings.str_value("last_model_dir", "")
        path, _ = QFileDialog.getOpenFileName(self, tr("Choose an ONNX model"), start, tr("ONNX models (*.onnx)"))
        if path:
            self.model_chosen.emit(path)

    def fill_recent(self, current: str = "") -> None:
        """List the recently used models, ``current`` selected (none when empty)."""
        self.current_path = current
        self.model_combo.blockSignals(True)
        self.model_combo.clear()
        for label, path in model_entries(settings.recent_models()):
            self.model_combo.addItem(label, path)
            self.model_combo.setItemData(self.model_combo.count() - 1, path, Qt.ItemDataRole.ToolTipRole)
        index = self.model_combo.findData(os.path.abspath(current)) if current else -1
        self.model_combo.setCurrentIndex(index)
        self.model_combo.blockSignals(False)
