"""Pictures of scores, drawn with Qt (QImage + QPainter): no plotting library needed.

:func:`confusion_image` draws the row-normalised confusion matrix of a report: each row (a
reference class) sums to 100 %, the cell colour is the share, the diagonal is what was right.
:func:`draw_confusion` saves it as PNG: the ``chart`` of
:func:`flair_qgis.core.score.report.publish_report`, which writes it atomically beside the report.
"""

from __future__ import annotations

from qgis.PyQt.QtCore import QRect, Qt
from qgis.PyQt.QtGui import QColor, QFont, QImage, QPainter

from ..core.errors import InputError
from ..i18n import tr

_CELL_PX = 44
_MARGIN_PX = 16


def _share_color(share: float) -> QColor:
    """White (0 %) to deep blue (100 %)."""
    share = min(max(share, 0.0), 1.0)
    return QColor(int(255 - 222 * share), int(255 - 160 * share), int(255 - 75 * share))


def _title(report: dict) -> str:
    """``flair1: mIoU 34.33 %   OA 80.44 %   (262144 px)``."""
    miou, oa = report.get("miou"), report.get("oa")
    return (
        f"{report.get('protocol', '')}: mIoU {'-' if miou is None else f'{100 * miou:.2f}'} %   "
        f"OA {'-' if oa is None else f'{100 * oa:.2f}'} %   ({report.get('pixels_evaluated', 0)} px)"
    )


def confusion_image(report: dict) -> QImage:
    """The report's row-normalised confusion matrix as an image.

    Args:
        report: a report JSON document (:meth:`flair_qgis.core.score.ScoreReport.to_report`,
            :func:`flair_qgis.core.score.metrics.build_report`).
    """
    matrix = report["confusion_matrix"]
    labels = report["confusion_labels"]
    names = report.get("confusion_names") or [str(v) for v in labels]
    k = len(labels)
    font = QFont("DejaVu Sans", 9)
    bold = QFont("DejaVu Sans", 10, QFont.Weight.Bold)
    label_px = 10 + 7 * max((len(f"{v} {n}") for v, n in zip(labels, names)), default=4)
    title_px = 56
    width = _MARGIN_PX * 2 + label_px + k * _CELL_PX
    height = title_px + _MARGIN_PX * 2 + label_px + k * _CELL_PX
    image = QImage(max(width, 420), height, QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        painter.setFont(bold)
        painter.drawText(_MARGIN_PX, 22, _title(report))
        painter.setFont(font)
        painter.drawText(_MARGIN_PX, 42, "rows: reference, columns: prediction, cells: % of the row")
        x0 = _MARGIN_PX + label_px
        y0 = title_px + _MARGIN_PX + label_px
        for j, (value, name) in enumerate(zip(labels, names)):
            painter.save()
            painter.translate(x0 + j * _CELL_PX + _CELL_PX // 2 + 4, y0 - 6)
            painter.rotate(-90)
            painter.drawText(0, 0, f"{value} {name}")
            painter.restore()
        for i, row in enumerate(matrix):
            total = sum(row)
            y = y0 + i * _CELL_PX
            painter.setPen(QColor("black"))
            painter.drawText(
                QRect(_MARGIN_PX, y, label_px - 6, _CELL_PX),
                int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter),
                f"{labels[i]} {names[i]}",
            )
            for j, count in enumerate(row):
                share = count / total if total else 0.0
                cell = QRect(x0 + j * _CELL_PX, y, _CELL_PX, _CELL_PX)
                painter.fillRect(cell, _share_color(share) if total else QColor("#eeeeee"))
                painter.setPen(QColor("#d00000") if i == j else QColor("#cccccc"))
                painter.drawRect(cell.adjusted(0, 0, -1, -1))
                if total and count:
                    painter.setPen(QColor("white") if share > 0.55 else QColor("black"))
                    painter.drawText(
                        cell, int(Qt.AlignmentFlag.AlignCenter), f"{100 * share:.0f}" if share >= 0.005 else "<1"
                    )
    finally:
        painter.end()
    return image


def draw_confusion(report: dict, path: str) -> None:
    """Save :func:`confusion_image` as PNG to ``path`` (a file :func:`publish_report` publishes).

    Raises:
        InputError: the image cannot be written there.
    """
    if not confusion_image(report).save(path, "PNG"):
        raise InputError(tr("Cannot write the confusion-matrix picture {path}.").format(path=path))
