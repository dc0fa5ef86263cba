"""The Review tab's figures: each estimate with its 95 % interval and the interval's method by name
(issue 42), in a box below the controls; the report's figures, as ``flair:review_report`` writes them."""

from __future__ import annotations

import html

from qgis.gui import QgsCollapsibleGroupBox
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtWidgets import QLabel, QVBoxLayout

from ...core.review import ClassAccuracy, ReviewReport, ReviewSession
from ...i18n import class_label, decimal, percent
from ..widgets import tr


def method_name(method: str | None) -> str:
    """An interval's method as the tab names it (the report's ``interval`` values)."""
    names = {
        "korn-graubard": tr("Korn–Graubard"),
        "clopper-pearson": tr("Clopper–Pearson (exact)"),
        "clopper-pearson-finite-population": tr("exact, finite population"),
        "census": tr("census: every unit reviewed"),
        "normal": tr("normal"),
        "gwet": tr("Student t on Gwet's variance"),
    }
    return names.get(method or "", method or "")


def _hectares(value: float | None) -> str:
    return "—" if value is None else decimal(value, 2) + " ha"


def _row(figure: str, value: str, bounds, method: str | None, shown=percent, none: str = "") -> str:
    """One figure as two short lines (the tab is as narrow as a dock): its name, then the estimate,
    the interval (or why there is none) and the interval's method."""
    if bounds:
        interval = f"[{shown(bounds[0])}–{shown(bounds[1])}]"
        method_text = f"<span> · {html.escape(method_name(method))}</span>"
    else:
        interval = f"<i>{html.escape(none or tr('not enough items for an interval'))}</i>"
        method_text = ""
    return f"<p><b>{html.escape(figure)}</b><br/>{value} {interval}{method_text}</p>"


def figures_html(report: ReviewReport | None) -> str:
    """The figures, one per paragraph; "" before any figure exists (partial grid, missing strata, no verdict)."""
    if report is None:
        return ""
    rows = []
    errors = report.label_errors
    if errors.probability_sample and errors.rate is not None:
        rows.append(_row(tr("Label errors"), percent(errors.rate), errors.ci95, errors.interval))
    accuracy = report.map_accuracy
    if accuracy is not None and accuracy.complete and accuracy.overall_accuracy is not None:
        oa, method = accuracy.overall_accuracy_ci95, accuracy.overall_accuracy_interval
        rows.append(_row(tr("Overall accuracy"), percent(accuracy.overall_accuracy), oa, method))
        for c in accuracy.classes:
            rows.extend(_class_rows(c))
    rows.extend(_agreement_rows(report))
    if not rows:
        return ""
    return "".join(rows)


def _class_rows(c: ClassAccuracy) -> list[str]:
    """A class's user's and producer's accuracy and its area; "no item" where no sampled item
    belongs to the class."""
    empty = tr("no item") if not c.reference_items and c.users_accuracy is None else ""
    name = class_label(c.name)
    return [
        _row(
            tr("{name}: user's accuracy").format(name=name),
            percent(c.users_accuracy),
            c.users_accuracy_ci95,
            c.users_accuracy_interval,
            none=empty,
        ),
        _row(
            tr("{name}: producer's accuracy").format(name=name),
            percent(c.producers_accuracy),
            c.producers_accuracy_ci95,
            c.producers_accuracy_interval,
            none=empty,
        ),
        _row(
            tr("{name}: area").format(name=name), _hectares(c.area_ha), c.area_ha_bounds, c.area_ha_interval, _hectares
        ),
    ]


def _agreement_rows(report: ReviewReport) -> list[str]:
    """Kappa and AC1 where two interpreters decided the same items."""
    figures = report.agreement.coefficients
    if not figures.get("items"):
        return []
    out = []
    for key, name in (("kappa", tr("Cohen's kappa")), ("ac1", tr("Gwet's AC1"))):
        value = figures.get(key)
        if value is not None:
            bounds = figures.get(f"{key}_ci95")
            out.append(_row(name, decimal(value, 3), bounds, "gwet", lambda v: decimal(v, 3)))
    return out


class FiguresBox(QgsCollapsibleGroupBox):
    """The figures of :func:`figures_html` in a box below the review's controls, collapsed until the
    person opens it (the item and its verdict buttons stay where the eye works), hidden while empty."""

    def __init__(self) -> None:
        super().__init__(tr("Figures and intervals"))
        self.setObjectName("review_figures")
        self.setCollapsed(True)
        self.label = QLabel()
        self.label.setTextFormat(Qt.TextFormat.RichText)
        self.label.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.label)
        self.setVisible(False)

    def text(self) -> str:
        """The figures as shown."""
        return self.label.text()

    def show_report(self, report: ReviewReport | None) -> None:
        text = figures_html(report)
        self.label.setText(text)
        self.setVisible(bool(text))


def strata_with_pixels(session: ReviewSession) -> int:
    """The review's strata that hold pixels (the headline counts them)."""
    return sum(1 for pixels in session.store.strata.values() if pixels > 0)
