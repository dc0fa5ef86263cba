"""The Review tab's "Reference code" picker (issue 40): where several codes of the reference's own
nomenclature count as the class decided, the interpreter names the one seen, the most frequent
first. Shown only for reviews drawn through a crosswalk, once the item's class has several codes, in
every mode (first, blind second, adjudication): the code picked goes with that mode's verdict."""

from __future__ import annotations

from collections.abc import Callable

from qgis.PyQt.QtWidgets import QComboBox, QHBoxLayout, QLabel, QWidget

from ...core.review import ReviewItem, ReviewSession
from ..widgets import tr


class CodeChooser(QWidget):
    """A label and a list of reference codes; picking one calls ``chosen(code)``.

    Args:
        chosen: what the tab does with a code (a verdict naming it).
    """

    def __init__(self, chosen: Callable[[str], object]) -> None:
        super().__init__()
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(QLabel(tr("Reference code")))
        self.combo = QComboBox()
        row.addWidget(self.combo, 1)
        self.combo.activated.connect(lambda index: index > 0 and chosen(self.combo.itemData(index)))
        self.setVisible(False)

    def show_for(self, session: ReviewSession | None, item: ReviewItem | None) -> None:
        """Offer the codes of the item's decided class when it has several; hide otherwise."""
        codes = ()
        if session is not None and session.codes is not None and item is not None and item.true_class is not None:
            codes = session.codes.codes_for(int(item.true_class))
        self.combo.clear()
        self.combo.addItem(tr("which one?"), None)
        for code in codes:
            self.combo.addItem(code, code)
        named = session.true_code(item) if codes and session is not None else None
        self.combo.setCurrentIndex(max(0, self.combo.findData(named)) if named else 0)
        self.setVisible(len(codes) > 1)
