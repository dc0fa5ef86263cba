"""The Review tab: one item at a time, one key per verdict, every verdict saved at once.

Keys (on the tab, or on the map while a review is open): ``C`` label correct, ``1``..``9``/``0``
true class (``Shift`` for the next ten; the class list shows the keys), ``U`` unsure, ``N`` or
``Space`` next, ``P`` previous, ``M``/``R``/``E`` show or hide the prediction, the labels and the
error map. The logic lives in :class:`~flair_qgis.core.review.session.ReviewSession`.
"""

from __future__ import annotations

import getpass
import os

from qgis.core import Qgis, QgsMapLayerProxyModel
from qgis.gui import QgsFileWidget, QgsMapLayerComboBox
from qgis.PyQt.QtCore import QEvent, Qt
from qgis.PyQt.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ...adapters import settings
from ...adapters.review_files import is_temporary, missing_review_message, temporary_path_message
from ...adapters.review_layers import ensure_raster, error_map_layer, labels_layer
from ...core.errors import FlairError
from ...core.review import ItemNotSeenError, ReviewSession, ReviewStore
from ...i18n.errors import error_text
from ..widgets import ClassTable, compact, tr
from .review_codes import CodeChooser
from .review_create import ReviewCreateBox
from .review_figures import FiguresBox, strata_with_pixels
from .review_keys import digit_of
from .review_view import HeldReview, ItemHighlight, card_html, headline_text, toggle_layer

LAST_REVIEW_KEY = "review/last_path"
REVIEWER_KEY = "review/reviewer"


class ReviewPanel(QWidget):
    """Open or create a review, then decide item after item.

    Args:
        iface: the QGIS interface.
        dock: the FLAIR dock (message bar helpers).
    """

    def __init__(self, iface, dock) -> None:
        super().__init__()
        self.iface = iface
        self.dock = dock
        self._held = HeldReview()
        self.destroyed.connect(self._held.release)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._build()
        last = settings.str_value(LAST_REVIEW_KEY)
        if last and os.path.isfile(last):
            self.open_review(last)
        elif last:
            self._say(missing_review_message(last))

    def _build(self) -> None:
        layout = QVBoxLayout(self)
        self.file_widget = QgsFileWidget()
        self.file_widget.setFilter("GeoPackage (*.gpkg)")
        self.file_widget.fileChanged.connect(lambda path: path and self.open_review(path))
        row = QHBoxLayout()
        row.addWidget(QLabel(tr("Review")))
        row.addWidget(self.file_widget)
        layout.addLayout(row)
        layout.addLayout(self._interpreter_row())
        self.create_box = ReviewCreateBox(self.iface.mapCanvas())
        self.create_box.setCollapsed(True)
        self.create_box.created.connect(self.open_review)
        self.create_box.failed.connect(lambda text: self.dock.push(text, Qgis.MessageLevel.Warning))
        self.create_box.crashed.connect(self.dock.report_unexpected)
        layout.addWidget(self.create_box)
        self.status_label = QLabel()  # what went wrong on opening, where the person looks
        self.status_label.setWordWrap(True)
        self.status_label.setVisible(False)
        layout.addWidget(self.status_label)
        self.progress = QProgressBar()
        self.progress.setFormat(tr("%v / %m reviewed"))
        self.headline = QLabel()
        self.headline.setWordWrap(True)
        self.card = QLabel()
        self.card.setTextFormat(Qt.TextFormat.RichText)
        self.card.setWordWrap(True)
        self.note_edit = QLineEdit()
        self.note_edit.setPlaceholderText(tr("Note on this item (Enter saves it)"))
        self.note_edit.returnPressed.connect(self._save_note)
        self.figures = FiguresBox()
        self.code_chooser = CodeChooser(lambda code: self._act(lambda s: s.choose_code(code), verdict=True))
        for widget in (self.progress, self.headline, self.card, self.code_chooser, self.note_edit):
            layout.addWidget(widget)
        layout.addLayout(self._verdict_buttons())
        self.unreviewed_check = QCheckBox(tr("Unreviewed items only"))
        self.unreviewed_check.toggled.connect(self._on_filter)
        self.advance_check = QCheckBox(tr("Next after a verdict"))
        self.advance_check.setChecked(True)
        layout.addWidget(self.unreviewed_check)
        layout.addWidget(self.advance_check)
        hint = QLabel(tr("True class: click it, or press its key (Shift+digit from the 11th class on)."))
        hint.setObjectName("keys_hint")
        hint.setWordWrap(True)
        layout.addWidget(hint)
        self.class_table = ClassTable([tr("Key")])
        self.class_table.cellClicked.connect(self._on_class_clicked)
        self.class_table.horizontalHeader().setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        layout.addWidget(self.class_table)
        layout.addLayout(self._layer_form())
        layout.addWidget(self.figures)
        layout.addStretch(1)
        self.show_current()

    def _verdict_buttons(self) -> QGridLayout:
        """Previous, next, correct and unsure buttons, two by two: the tab fits a normal dock width."""
        buttons = QGridLayout()
        for position, (text, tip, action) in enumerate(
            (
                ("◀ P", tr("Previous item"), lambda: self._act(lambda s: s.move(-1))),
                ("N ▶", tr("Next item (N or Space)"), lambda: self._act(lambda s: s.move(1))),
                (
                    tr("Correct C"),
                    tr("The label is correct"),
                    lambda: self._act(lambda s: s.confirm(), advance=True, verdict=True),
                ),
                (
                    tr("Unsure U"),
                    tr("Cannot tell"),
                    lambda: self._act(lambda s: s.unsure(), advance=True, verdict=True),
                ),
            )
        ):
            button = QPushButton(text)
            button.setToolTip(tip)
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # keys stay with the tab
            button.clicked.connect(action)
            buttons.addWidget(button, position // 2, position % 2)
        return buttons

    def _layer_form(self) -> QFormLayout:
        """Layer combos for the prediction [M], the labels [R] and the error map [E], empty at first."""
        layers = QFormLayout()
        self.layer_combos = {}
        for key, label in (("M", tr("Prediction")), ("R", tr("Labels")), ("E", tr("Error map"))):
            combo = QgsMapLayerComboBox()
            combo.setFilters(QgsMapLayerProxyModel.Filter.RasterLayer | QgsMapLayerProxyModel.Filter.PolygonLayer)
            combo.setAllowEmptyLayer(True)
            combo.setLayer(None)
            combo.layerChanged.connect(self._mark_seen)
            self.layer_combos[key] = compact(combo)
            layers.addRow(f"{label} [{key}]", combo)
        return layers

    @property
    def session(self) -> ReviewSession | None:
        """The open review, or None."""
        return self._held.session

    @property
    def highlight(self) -> ItemHighlight | None:
        """The map highlight of the open review, or None."""
        return self._held.highlight

    # ----------------------------------------------------------------- review file
    def _interpreter_row(self) -> QHBoxLayout:
        """Who reviews (kept in the QGIS settings, written with every verdict) and as what: first
        interpreter, second interpreter (the double items, blind), or the Disagreements queue."""
        self.reviewer_edit = QLineEdit(str(settings.str_value(REVIEWER_KEY) or getpass.getuser()))
        self.reviewer_edit.editingFinished.connect(self._on_interpreter)
        self.mode_combo = QComboBox()
        for mode, label in (
            ("first", tr("First review")),
            ("second", tr("Second review (blind)")),
            ("adjudicate", tr("Disagreements")),
        ):
            self.mode_combo.addItem(label, mode)
        self.mode_combo.currentIndexChanged.connect(self._on_interpreter)
        row = QHBoxLayout()
        for widget in (QLabel(tr("Reviewer")), self.reviewer_edit, self.mode_combo):
            row.addWidget(widget)
        return row

    def _on_interpreter(self, *_args: object) -> None:
        settings.set_value(REVIEWER_KEY, self.reviewer_edit.text().strip())
        if self.session is not None:
            self.open_review(self.session.store.path)

    def _say(self, text: str, level=Qgis.MessageLevel.Warning) -> None:
        """A message in the tab (it stays in sight) and in the message bar."""
        self.status_label.setText(text)
        self.status_label.setVisible(bool(text))
        if text:
            self.dock.push(text, level)

    def open_review(self, path: str) -> bool:
        """Open a review GeoPackage and go to its first item not yet reviewed.

        The class map and the labels are reloaded from the review's design table; when one cannot be
        found the tab says which, and verdicts wait until an item has been seen over a loaded layer.
        """
        try:
            store = ReviewStore.open(path)
        except FlairError as err:
            self._say(error_text(err))
            return False
        self.close_review()
        self._say("")
        reviewer = self.reviewer_edit.text().strip() or getpass.getuser()
        self._held.session = ReviewSession(
            store, reviewer=reviewer, mode=self.mode_combo.currentData(), layer_shown=self._layer_loaded
        )
        self.session.only_unreviewed = self.unreviewed_check.isChecked()
        settings.set_value(LAST_REVIEW_KEY, store.path)
        self.file_widget.blockSignals(True)
        self.file_widget.setFilePath(store.path)
        self.file_widget.blockSignals(False)
        design = store.design
        self._held.highlight = ItemHighlight(self.iface.mapCanvas(), design.get("crs_wkt", ""), store.pixel_size)
        missing = self._load_inputs(design)
        self.class_table.set_rows([k.info for k in self.session.keys], [[k.key] for k in self.session.keys])
        self.iface.mapCanvas().installEventFilter(self)
        if is_temporary(store.path):
            self._say(temporary_path_message(store.path))
        elif missing:
            self._say(
                tr(
                    "Cannot find {inputs}: pick the layers under Prediction [M] and Labels [R]; verdicts are "
                    "accepted once the item is seen over one of them."
                ).format(inputs=tr(" and ").join(missing))
            )
        self.show_current()
        self.setFocus()
        return True

    def _load_inputs(self, design: dict) -> list[str]:
        """Put the review's class map and labels in the layer combos (added to the project when
        needed); returns what cannot be found, in words."""
        missing = []
        prediction_path = design.get("prediction", "")
        prediction = ensure_raster(prediction_path)
        if prediction is None and prediction_path:
            missing.append(tr("the class map {path}").format(path=prediction_path))
        self.layer_combos["M"].setLayer(prediction)
        reference = labels_layer(design)
        named = design.get("reference_source") or design.get("reference", "")
        if reference is None and named:
            missing.append(tr("the labels {path}").format(path=named))
        self.layer_combos["R"].setLayer(reference)
        self.layer_combos["E"].setLayer(error_map_layer())
        return missing

    def _mark_seen(self, *_layer: object) -> None:
        """The current item is on the map (shown, or a layer changed under it): the session decides
        whether it counts as seen."""
        if self.session is not None:
            self.session.mark_seen()

    def _layer_loaded(self) -> bool:
        """A class map or labels layer is loaded (the session's ``layer_shown``)."""
        return any(
            (layer := self.layer_combos[key].currentLayer()) is not None and layer.isValid() for key in ("M", "R")
        )

    def close_review(self) -> None:
        """Close the open review (nothing to save: verdicts are already on disk)."""
        if self.session is not None:
            self.iface.mapCanvas().removeEventFilter(self)
        self._held.release()

    def shutdown(self) -> None:
        """The plugin is unloading."""
        self.close_review()

    # ----------------------------------------------------------------- showing
    def show_current(self):
        """Card, highlight, progress and figures for the current item; returns it."""
        session = self.session
        item = session.current if session is not None else None
        classes = {k.info.value: k.info for k in session.keys} if session is not None else {}
        total = len(session.items) if session is not None else 0
        code = session.reference_code(item) if session is not None else None
        self.card.setText(card_html(item, session.index if session else 0, total, classes, code))
        self.code_chooser.show_for(session, item)
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(session.reviewed_count() if session else 0)
        report = session.report() if session else None
        self.figures.show_report(report)
        headline = headline_text(report, strata=strata_with_pixels(session)) if report else ""
        if session is not None and session.mode == "adjudicate" and item is not None:
            first, second, _decided = session.opinions(item)
            named = {v: f"{classes[v].name} ({v})" if v in classes else str(v) for v in (first, second)}
            headline += " · " + tr("first: {first}, second: {second}").format(first=named[first], second=named[second])
        self.headline.setText(headline)
        self.note_edit.setText(item.note if item is not None else "")
        self.note_edit.setEnabled(item is not None)
        if item is not None and self.highlight is not None:
            self.highlight.show(item)
        self._mark_seen()
        return item

    def _act(self, action, advance: bool = False, verdict: bool = False):
        """Run a session action, then show the (next) item; errors go to the message bar.

        A verdict (``verdict=True``) is refused until the item has been seen over a loaded layer
        (:meth:`~flair_qgis.core.review.ReviewSession.check_seen`); the tab says so and stays put.
        """
        if self.session is None:
            return None
        try:
            if verdict:
                self.session.check_seen()
        except ItemNotSeenError:
            self._say(
                tr(
                    "No class map or labels on the map: load one (Prediction [M] or Labels [R]) and look at the item "
                    "before giving a verdict."
                )
            )
            return None
        try:
            action(self.session)
            if advance and self.advance_check.isChecked():
                self.session.move(1)
        except FlairError as err:
            self.dock.push(error_text(err), Qgis.MessageLevel.Warning)
        return self.show_current()

    def _save_note(self) -> None:
        self._act(lambda s: s.set_note(self.note_edit.text().strip()))
        self.setFocus()  # back to the keys

    def _on_filter(self, checked: bool) -> None:
        if self.session is not None:
            self.session.only_unreviewed = checked
            if checked and self.session.current is not None and self.session.current.reviewed:
                self.session.move(1)
            self.show_current()

    def _on_class_clicked(self, row: int, _column: int) -> None:
        value = self.class_table.item(row, 0).data(Qt.ItemDataRole.UserRole)
        self._act(lambda s: s.choose_class(int(value)), advance=True, verdict=True)

    # ----------------------------------------------------------------- keys
    def handle_key(self, key: int, modifiers, scan_code: int = 0) -> bool:
        """Act on a key press; True when the key was one of the review's."""
        if self.session is None or modifiers & (
            Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.MetaModifier
        ):
            return False
        shifted = bool(modifiers & Qt.KeyboardModifier.ShiftModifier)
        moves = {Qt.Key.Key_N: 1, Qt.Key.Key_Space: 1, Qt.Key.Key_P: -1}
        if key in moves:
            self._act(lambda s: s.move(moves[key]))
        elif key == Qt.Key.Key_C:
            self._act(lambda s: s.confirm(), advance=True, verdict=True)
        elif key == Qt.Key.Key_U:
            self._act(lambda s: s.unsure(), advance=True, verdict=True)
        elif key in (Qt.Key.Key_M, Qt.Key.Key_R, Qt.Key.Key_E):
            toggle_layer(self.layer_combos[chr(key)].currentLayer())
        else:
            digit = digit_of(key, shifted, scan_code)
            value = self.session.class_for_key(digit, shifted) if digit is not None else None
            if value is None:
                return False
            self._act(lambda s: s.choose_class(value), advance=True, verdict=True)
        return True

    def keyPressEvent(self, event) -> None:
        if not self.handle_key(event.key(), event.modifiers(), event.nativeScanCode()):
            super().keyPressEvent(event)

    def eventFilter(self, watched, event) -> bool:
        # On the map too, while the tab is shown: the interpreter's eyes and mouse are there.
        if event.type() == QEvent.Type.KeyPress and self.isVisible() and not event.isAutoRepeat():
            return self.handle_key(event.key(), event.modifiers(), event.nativeScanCode())
        return False
