"""The "Crosswalk…" dialog: which model class each value of the reference's class field counts as.

It lists the field's distinct values in the map view with their feature counts (read by
:class:`~flair_qgis.adapters.crosswalk_project.DistinctValuesTask`, in the background), most
frequent first, and gives each a class picker: the model's classes with their colours, or "not
scored". A CSV (``reference,class``) can be loaded and saved; "OK" gives the crosswalk that
:meth:`CrosswalkDialog.crosswalk` builds, which the tab keeps with the project.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from qgis.core import QgsApplication, QgsRectangle, QgsVectorLayer
from qgis.PyQt.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from ... import i18n
from ...adapters.crosswalk_project import DistinctValuesTask, crosswalk_csv, crosswalk_of_text
from ...core.errors import FlairError
from ...core.nomenclature import ClassInfo
from ...core.score import Crosswalk, read_crosswalk
from ...i18n import class_label
from ...i18n.errors import error_text
from ..widgets import swatch, tr

VALUE, FEATURES, CLASS = 0, 1, 2


class CrosswalkDialog(QDialog):
    """Edit a crosswalk for ``field`` of ``layer``.

    Args:
        layer: the reference polygons.
        field: their class field.
        classes: the model's classes, offered in each picker.
        view: the map view in the layer's CRS (the values are read there); None = the whole layer.
        crosswalk: the crosswalk to start from (kept with the project, or loaded), or None.
        parent: the parent widget.
    """

    def __init__(
        self,
        layer: QgsVectorLayer,
        field: str,
        classes: Sequence[ClassInfo],
        view: QgsRectangle | None,
        crosswalk: Crosswalk | None = None,
        parent=None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("Crosswalk: {field}").format(field=field))
        self.layer, self.field, self.classes = layer, field, tuple(classes)
        self.name = crosswalk.name if crosswalk is not None else f"{layer.name()}.{field}.csv"
        self.start = {value: target for value, target in (crosswalk.rows if crosswalk is not None else ())}
        self.task: DistinctValuesTask | None = None
        layout = QVBoxLayout(self)
        self.status = QLabel(tr("Reading the field's values in the map view…"))
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        self.table = QTableWidget(0, 3)
        self.table.setHorizontalHeaderLabels([tr("Value"), tr("Features"), tr("Class")])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(CLASS, QHeaderView.ResizeMode.Stretch)
        layout.addWidget(self.table)
        files = QHBoxLayout()
        self.load_button = QPushButton(tr("Load CSV…"))
        self.save_button = QPushButton(tr("Save CSV…"))
        self.load_button.clicked.connect(self._load_dialog)
        self.save_button.clicked.connect(self._save_dialog)
        files.addWidget(self.load_button)
        files.addWidget(self.save_button)
        layout.addLayout(files)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(560, 480)  # a window of its own: the class names fit, whatever the dock's width
        self._fill({value: None for value in self.start})
        self.read_values(view)

    # ------------------------------------------------------------------ values
    def read_values(self, view: QgsRectangle | None) -> DistinctValuesTask:
        """Count the features per value in ``view`` in the background; the table fills when done."""
        self.task = DistinctValuesTask(self.layer, self.field, view, self._on_counted)
        QgsApplication.taskManager().addTask(self.task)
        return self.task

    def _on_counted(self, task: DistinctValuesTask) -> None:
        self.task = None
        if task.error is not None:
            self.status.setText(error_text(task.error) if isinstance(task.error, FlairError) else str(task.error))
            return
        counts = dict(task.counts)
        counts.pop(None, None)
        known = {self.value_at(row): self.target_at(row) for row in range(self.table.rowCount())}
        self.start.update({v: t for v, t in known.items() if t is not None})
        self._fill({**{v: None for v in self.start}, **counts})
        self.status.setText(
            tr("{n} values over {features} features in the map view.").format(
                n=i18n.integer(len(counts)), features=i18n.integer(sum(counts.values()))
            )
        )

    def _fill(self, counts: dict[str, int | None]) -> None:
        """One row per value, the most frequent first (values only in the crosswalk last)."""
        order = sorted(counts, key=lambda v: (-(counts[v] or 0), v))
        self.table.setRowCount(len(order))
        for row, value in enumerate(order):
            self.table.setItem(row, VALUE, QTableWidgetItem(value))
            n = counts[value]
            self.table.setItem(row, FEATURES, QTableWidgetItem("—" if n is None else i18n.integer(n)))
            self.table.setCellWidget(row, CLASS, self._picker(self.start.get(value)))
        self.table.resizeColumnToContents(VALUE)
        self.table.resizeColumnToContents(FEATURES)

    def _picker(self, target: str | None) -> QComboBox:
        combo = QComboBox()
        combo.addItem(tr("not scored"), None)
        for cls in self.classes:
            combo.addItem(swatch(cls.color or "#000000"), f"{cls.value} {class_label(cls.name)}", cls.value)
        combo.setCurrentIndex(max(0, self._index_of(combo, target)))
        return combo

    def _index_of(self, combo: QComboBox, target: str | None) -> int:
        """The picker's row for a crosswalk's ``class`` cell (a value, or a name in any language)."""
        if target is None:
            return 0
        try:
            code = next(iter(Crosswalk((("x", target),)).resolve(self.classes).codes.values()))
        except FlairError:
            return 0
        return combo.findData(code)

    def value_at(self, row: int) -> str:
        """The reference value of a row."""
        return self.table.item(row, VALUE).text()

    def target_at(self, row: int) -> str | None:
        """The class value picked for a row (as text), None for "not scored"."""
        data = self.table.cellWidget(row, CLASS).currentData()
        return None if data is None else str(data)

    def choose(self, value: str, class_value: int | None) -> None:
        """Pick ``class_value`` (None: not scored) for ``value``, as a click in its picker would."""
        for row in range(self.table.rowCount()):
            if self.value_at(row) == value:
                combo = self.table.cellWidget(row, CLASS)
                combo.setCurrentIndex(max(0, combo.findData(class_value)))

    # --------------------------------------------------------------- crosswalk
    def crosswalk(self) -> Crosswalk:
        """The crosswalk the table says: one line per value given a class."""
        rows = [(self.value_at(r), t) for r in range(self.table.rowCount()) if (t := self.target_at(r)) is not None]
        text = crosswalk_csv(Crosswalk(tuple(rows)))
        return crosswalk_of_text(text, self.name)

    def load_csv(self, path: str) -> None:
        """Take the classes of a crosswalk CSV for the values it lists (its other values are added).

        Raises:
            InputError: unreadable or malformed CSV.
        """
        loaded = read_crosswalk(path)
        self.name = loaded.name
        self.start = dict(loaded.rows)
        counts = {self.value_at(r): self._count_at(r) for r in range(self.table.rowCount())}
        self._fill({**{v: None for v in self.start}, **counts})

    def _count_at(self, row: int) -> int | None:
        text = self.table.item(row, FEATURES).text()
        digits = "".join(ch for ch in text if ch.isdigit())
        return int(digits) if digits else None

    def save_csv(self, path: str) -> str:
        """Write the crosswalk as CSV (UTF-8); returns the path."""
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(crosswalk_csv(self.crosswalk()))
        self.name = os.path.basename(path)
        return path

    def _load_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, tr("Load crosswalk"), "", tr("CSV (*.csv)"))
        if path:
            try:
                self.load_csv(path)
            except FlairError as err:
                self.status.setText(error_text(err))

    def _save_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, tr("Save crosswalk"), self.name, tr("CSV (*.csv)"))
        if path:
            self.save_csv(path)

    def done(self, result: int) -> None:
        if self.task is not None:  # a read still running: its end no longer concerns this dialog
            self.task.done = lambda _task: None
            self.task.cancel()
            self.task = None
        super().done(result)
