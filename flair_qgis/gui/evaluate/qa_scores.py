"""The QA tab's "Score" section: what to produce, the buttons, the summary, the class table and
the confusion matrix.

It fits a 300 px dock: the class table shows the class and its IoU (the other figures are in
"Details…"), and the confusion matrix is a thumbnail as wide as the dock that opens full size on
a click.
"""

from __future__ import annotations

from qgis.PyQt.QtGui import QPixmap
from qgis.PyQt.QtWidgets import QCheckBox, QGroupBox, QHBoxLayout, QLabel, QPushButton, QVBoxLayout

from ... import i18n
from ...adapters import settings
from ...adapters.charts import confusion_image
from ...core.nomenclature import ClassInfo, default_color
from ...core.score import ScoreReport
from ...i18n import class_label
from ..details import DetailsDialog, MatrixThumbnail, narrow
from ..widgets import ClassTable, tr

SUPPORT_COLUMN = 3
"""The class table's support column: in the details view only (the dock shows class and IoU)."""


def percent(value: float | None) -> str:
    """A 0..1 fraction as ``12.3 %`` (``12,3 %`` in French); ``—`` when undefined."""
    return i18n.percent(value)


class ScoresSection(QGroupBox):
    """Toggles (error map, suspicious labels), Score / Export buttons and the scores shown."""

    def __init__(self) -> None:
        super().__init__(tr("Score"))
        form = QVBoxLayout(self)
        self.error_check = QCheckBox(tr("Error map"))
        self.error_check.setChecked(settings.bool_value("error_map", True))
        self.suspicious_check = QCheckBox(tr("Suspicious labels"))
        self.suspicious_check.setToolTip(tr("Polygon references only: polygons ranked by disagreement with the model"))
        self.suspicious_check.setChecked(settings.bool_value("suspicious", True))
        form.addWidget(self.error_check)
        form.addWidget(self.suspicious_check)
        self.score_button = QPushButton(tr("Score this view"))
        form.addWidget(self.score_button)
        self.summary_label = QLabel(tr("Pick a class map and a reference, then score the map view."))
        self.summary_label.setWordWrap(True)
        form.addWidget(self.summary_label)
        self.unmapped_label = QLabel()  # reference values the crosswalk leaves out, with their share
        self.unmapped_label.setWordWrap(True)
        self.unmapped_label.setVisible(False)
        form.addWidget(self.unmapped_label)
        self.class_table = narrow(ClassTable([tr("IoU"), tr("Support")]))
        self.class_table.setColumnHidden(SUPPORT_COLUMN, True)
        form.addWidget(self.class_table)
        buttons = QHBoxLayout()
        self.details_button = QPushButton(tr("Details…"))
        self.details_button.setToolTip(tr("Every figure per class: IoU, precision, recall, F1, support"))
        self.details_button.setEnabled(False)
        self.details_button.clicked.connect(self.open_details)
        self.export_button = QPushButton(tr("Export…"))
        self.export_button.setToolTip(tr("Write the report: JSON, a per-class CSV and the confusion matrix PNG"))
        self.export_button.setEnabled(False)
        buttons.addWidget(self.details_button)
        buttons.addWidget(self.export_button)
        form.addLayout(buttons)
        self.matrix_caption = QLabel(tr("Confusion matrix (click to enlarge):"))
        self.matrix_caption.setWordWrap(True)
        self.matrix_caption.setVisible(False)
        form.addWidget(self.matrix_caption)
        self.matrix_label = MatrixThumbnail()
        self.matrix_label.setToolTip(
            tr("Confusion matrix, rows = reference, columns = prediction, row shares. Click to open it full size.")
        )
        form.addWidget(self.matrix_label)
        self.report: ScoreReport | None = None
        self.details: DetailsDialog | None = None

    def remember_toggles(self) -> None:
        """Keep the toggles for the next session."""
        settings.set_value("error_map", self.error_check.isChecked())
        settings.set_value("suspicious", self.suspicious_check.isChecked())

    def show_report(self, report: ScoreReport, colours: dict[int, str]) -> None:
        """Fill the summary, the per-class table and the confusion heat map.

        Args:
            report: a scoring report.
            colours: class value -> colour (the class map's palette, the protocol's classes).
        """
        self.report = report
        scores = report.scores
        self.summary_label.setText(
            tr("mIoU {miou} — OA {oa} — {n} pixels ({protocol})").format(
                miou=percent(scores.miou),
                oa=percent(scores.oa),
                n=i18n.integer(scores.pixels_evaluated or 0),
                protocol=str(scores.protocol),
            )
        )
        rows = scores.classes
        classes = [
            ClassInfo(int(r.value), class_label(str(r.name or r.value)), colours.get(int(r.value), default_color(i)))
            for i, r in enumerate(rows)
        ]
        self.class_table.set_rows(classes, [(percent(r.iou), i18n.integer(r.support or 0)) for r in rows])
        self.show_unmapped(report.crosswalk)
        self.matrix_label.set_image(QPixmap.fromImage(confusion_image(scores.to_report())))
        self.matrix_caption.setVisible(True)
        self.details_button.setEnabled(True)

    def show_unmapped(self, entry: dict | None) -> None:
        """Name the reference values the crosswalk leaves out (not scored) and their share of the view."""
        unmapped = (entry or {}).get("unmapped") or []
        shown = ", ".join(f"{row['value']} ({percent(row['share'])})" for row in unmapped[:8])
        more = tr(", and {n} more").format(n=len(unmapped) - 8) if len(unmapped) > 8 else ""
        self.unmapped_label.setText(tr("Not scored (not in the crosswalk): {values}").format(values=shown + more))
        self.unmapped_label.setVisible(bool(unmapped))

    def open_details(self) -> DetailsDialog | None:
        """Every figure of every class of the last report, in a window of its own."""
        if self.report is None:
            return None
        headers = [tr("Value"), tr("Class"), tr("IoU"), tr("Precision"), tr("Recall"), tr("F1"), tr("Support")]
        rows = [
            [
                str(r.value),
                class_label(str(r.name or r.value)),
                percent(r.iou),
                percent(r.precision),
                percent(r.recall),
                percent(r.f1),
                i18n.integer(r.support or 0),
            ]
            for r in self.report.scores.classes
        ]
        self.details = DetailsDialog(tr("Scores per class"), headers, rows, self)
        self.details.show()
        return self.details
