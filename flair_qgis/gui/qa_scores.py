"""The QA tab's "Score" section: what to produce, the buttons, the summary, the class table and
the confusion matrix."""

from __future__ import annotations

from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtGui import QPixmap
from qgis.PyQt.QtWidgets import QCheckBox, QGroupBox, QHBoxLayout, QLabel, QPushButton, QVBoxLayout

from ..adapters import settings
from ..adapters.charts import confusion_image
from ..core.nomenclature import ClassInfo, default_color
from .widgets import ClassTable, tr

_MATRIX_WIDTH_PX = 360


def percent(value: float | None) -> str:
    """A 0..1 fraction as ``12.3 %``; ``—`` when undefined."""
    return "—" if value is None else f"{100.0 * value:.1f} %"


class ScoresSection(QGroupBox):
    """Toggles (error map, suspicious labels), Score / Export buttons and the scores shown."""

    def __init__(self) -> None:
        super().__init__(tr("Score"))
        form = QVBoxLayout(self)
        toggles = QHBoxLayout()
        self.error_check = QCheckBox(tr("Error map"))
        self.error_check.setChecked(settings.bool_value("error_map", True))
        self.suspicious_check = QCheckBox(tr("Suspicious labels"))
        self.suspicious_check.setToolTip(tr("Polygon references only: polygons ranked by disagreement with the model"))
        self.suspicious_check.setChecked(settings.bool_value("suspicious", True))
        toggles.addWidget(self.error_check)
        toggles.addWidget(self.suspicious_check)
        form.addLayout(toggles)
        buttons = QHBoxLayout()
        self.score_button = QPushButton(tr("Score this view"))
        self.export_button = QPushButton(tr("Export report…"))
        self.export_button.setEnabled(False)
        buttons.addWidget(self.score_button)
        buttons.addWidget(self.export_button)
        form.addLayout(buttons)
        self.summary_label = QLabel(tr("Pick a class map and a reference, then score the map view."))
        self.summary_label.setWordWrap(True)
        form.addWidget(self.summary_label)
        self.class_table = ClassTable([tr("IoU"), tr("Support")])
        form.addWidget(self.class_table)
        self.matrix_label = QLabel()
        self.matrix_label.setAlignment(Qt.AlignCenter)
        self.matrix_label.setToolTip(tr("Confusion matrix, rows = reference, columns = prediction, row shares"))
        form.addWidget(self.matrix_label)

    def remember_toggles(self) -> None:
        """Keep the toggles for the next session."""
        settings.set_value("error_map", self.error_check.isChecked())
        settings.set_value("suspicious", self.suspicious_check.isChecked())

    def show_report(self, report: dict, colours: dict[int, str]) -> None:
        """Fill the summary, the per-class table and the confusion heat map.

        Args:
            report: a scoring report.
            colours: class value -> colour (the class map's palette, the protocol's classes).
        """
        self.summary_label.setText(
            tr("mIoU {miou} — OA {oa} — {n} pixels ({protocol})").format(
                miou=percent(report.get("miou")),
                oa=percent(report.get("oa")),
                n=f"{report.get('pixels_evaluated', 0):,}",
                protocol=str(report.get("protocol", "")),
            )
        )
        rows = report.get("classes", [])
        classes = [
            ClassInfo(int(r["value"]), str(r.get("name") or r["value"]), colours.get(int(r["value"]), default_color(i)))
            for i, r in enumerate(rows)
        ]
        self.class_table.set_rows(classes, [(percent(r.get("iou")), f"{int(r.get('support') or 0):,}") for r in rows])
        pixmap = QPixmap.fromImage(confusion_image(report))
        if pixmap.width() > _MATRIX_WIDTH_PX:
            pixmap = pixmap.scaledToWidth(_MATRIX_WIDTH_PX, Qt.SmoothTransformation)
        self.matrix_label.setPixmap(pixmap)
