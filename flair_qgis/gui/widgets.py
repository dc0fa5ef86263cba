"""Small widgets of the dock: the model card, the dependency banner, the class table."""

from __future__ import annotations

from collections.abc import Sequence

from qgis.PyQt.QtCore import QCoreApplication, Qt, pyqtSignal
from qgis.PyQt.QtGui import QColor, QIcon, QPixmap
from qgis.PyQt.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..core.model import ModelInfo
from ..core.nomenclature import ClassInfo


def tr(text: str) -> str:
    """Translate a user-visible string of the dock."""
    return QCoreApplication.translate("FlairDock", text)


def swatch(color: str, size: int = 14) -> QIcon:
    """A square icon filled with ``color``."""
    pixmap = QPixmap(size, size)
    pixmap.fill(QColor(color))
    return QIcon(pixmap)


class ClassTable(QTableWidget):
    """Classes with a colour swatch: value, name and optional extra columns."""

    def __init__(self, extra_headers: Sequence[str] = (), parent: QWidget | None = None) -> None:
        super().__init__(parent)
        headers = [tr("Value"), tr("Class"), *extra_headers]
        self.setColumnCount(len(headers))
        self.setHorizontalHeaderLabels(headers)
        self.verticalHeader().setVisible(False)
        self.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.horizontalHeader().setSectionResizeMode(1, QHeaderView.Stretch)
        self.setMinimumHeight(90)

    def set_rows(self, classes: Sequence[ClassInfo], extra: Sequence[Sequence[str]] = ()) -> None:
        """One row per class; ``extra[i]`` fills the extra columns of row ``i``."""
        self.setRowCount(len(classes))
        for row, cls in enumerate(classes):
            value = QTableWidgetItem(swatch(cls.color), str(cls.value))
            value.setData(Qt.UserRole, cls.value)
            self.setItem(row, 0, value)
            self.setItem(row, 1, QTableWidgetItem(cls.name))
            for col, text in enumerate(extra[row] if row < len(extra) else (), start=2):
                item = QTableWidgetItem(text)
                item.setTextAlignment(int(Qt.AlignRight | Qt.AlignVCenter))
                self.setItem(row, col, item)
        self.resizeColumnToContents(0)


class ModelCard(QWidget):
    """What a model eats and returns: bands, resolution, tile size, provider, classes."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.classes = ClassTable()
        layout.addWidget(self.summary)
        layout.addWidget(self.classes)
        self.show_model(None)

    def show_model(self, model: ModelInfo | None, provider: str = "", error: str = "") -> None:
        """Fill the card from a model (None clears it; ``error`` explains why it is empty)."""
        if model is None:
            self.summary.setText(error or tr("No model chosen."))
            self.classes.set_rows(())
            self.classes.setVisible(False)
            return
        spec = model.input
        heads = model.segmentation_outputs()
        classes = heads[0].classes if heads else ()
        resolution = f"{spec.resolution_m:g} m" if spec.resolution_m else tr("not declared (layer's own)")
        fixed = tr(" (fixed)") if spec.tile_size_px else ""
        lines = [
            f"<b>{tr('Input bands')}:</b> {', '.join(spec.band_names)}",
            f"<b>{tr('Resolution')}:</b> {resolution}",
            f"<b>{tr('Tile size')}:</b> {model.tile_size_px} px{fixed}, {tr('overlap')} {model.overlap_px} px",
            f"<b>{tr('Classes')}:</b> {len(classes)}",
            f"<b>{tr('Runs on')}:</b> {provider}",
        ]
        if model.description:
            lines.insert(0, f"<i>{model.description}</i>")
        self.summary.setText("<br>".join(lines))
        self.classes.set_rows(classes)
        self.classes.setVisible(bool(classes))


class DependencyBanner(QFrame):
    """Shown when onnxruntime does not import: the exact command and a one-click install.

    Signals:
        install_requested(): the user clicked the install button (the dock asks to confirm).
    """

    install_requested = pyqtSignal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.StyledPanel)
        self.setStyleSheet("DependencyBanner { background: #fff4d6; }")
        layout = QVBoxLayout(self)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.command = QLineEdit()
        self.command.setReadOnly(True)
        row = QHBoxLayout()
        self.install_button = QPushButton(tr("Install onnxruntime"))
        self.install_button.clicked.connect(self.install_requested.emit)
        row.addStretch(1)
        row.addWidget(self.install_button)
        layout.addWidget(self.message)
        layout.addWidget(QLabel(tr("Or run this command, then restart QGIS:")))
        layout.addWidget(self.command)
        layout.addLayout(row)

    def show_missing(self, package: str, command: str, reason: str) -> None:
        """Explain that ``package`` is missing and how to get it."""
        self.message.setText(
            tr(
                "The FLAIR plugin needs <b>{package}</b> to run models; it is not available in this QGIS ({reason})."
            ).format(package=package, reason=reason)
        )
        self.install_button.setText(tr("Install {package}").format(package=package))
        self.install_button.setProperty("package", package)
        self.command.setText(command)
        self.command.setCursorPosition(0)
        self.setVisible(True)
