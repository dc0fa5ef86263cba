"""The dock with a model that carries no metadata: its card says what is guessed and offers "Describe
this model…"; the run log says it too; the dialog writes a described copy beside the model (the
original unchanged) and the dock switches to it."""

from __future__ import annotations

import hashlib
import os

import numpy as np
import pytest
from gui_helpers import add_raster, copy_patch, run_and_wait
from layout_helpers import DOCK_WIDTH_PX, horizontal_overflow, show_at_dock_width
from qgis.core import QgsApplication
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtWidgets import QDialogButtonBox
from test_i18n import french_qgis  # noqa: F401 - the fixture
from toy_models import conv_model

from flair_qgis.adapters.describe_task import DescribeTask
from flair_qgis.core.describe import guessed_note
from flair_qgis.core.vocabulary import EXTENT_LAYER
from flair_qgis.gui.segment import segment_panel
from flair_qgis.gui.segment.describe_dialog import DescribeDialog
from flair_qgis.i18n.errors import note_text

NOTHING = "Canceled: nothing had been written."
REMOVED_COPY = "Canceled: removed what the run had written (plain_described.onnx)."
GUESSED = "Guessed, the model does not declare them: normalisation (pixels / 255), classes (0..12)."


def _wait(qtbot, dock, task) -> None:
    """Wait until the dock's description ended: its task's ``finished()`` ran on the main thread and
    the task manager let it go."""
    qtbot.waitUntil(
        lambda: dock.segment.describe_task is None and task not in QgsApplication.taskManager().tasks(), timeout=60000
    )


def _sha(path) -> str:
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


def _plain(tmp_path):
    weights = np.random.default_rng(3).normal(size=(13, 5, 1, 1)).astype(np.float32)
    return conv_model(tmp_path / "models" / "plain.onnx", weights)


def test_the_card_shows_the_guess_and_the_run_log_says_it(plugin, qtbot, tmp_path):
    dock = plugin.dock
    model = _plain(tmp_path)
    assert dock.set_model(str(model))
    section = dock.segment.model_section
    show_at_dock_width(dock, qtbot)
    assert GUESSED in section.model_card.summary.text()
    assert section.describe_button.isVisible() and section.describe_button.text() == "Describe this model…"
    assert horizontal_overflow(dock, qtbot) == []
    dock.layer_combo.setLayer(add_raster(copy_patch(tmp_path)))
    dock.set_extent_mode(EXTENT_LAYER)
    dock.segment.run_section.output_widget.setFilePath(str(tmp_path / "classes.tif"))
    log: list[tuple[str, str]] = []
    QgsApplication.messageLog().messageReceived.connect(lambda text, tag, _level: log.append((tag, text)))
    run_and_wait(qtbot, dock)
    assert (
        "FLAIR",
        "plain declares neither its normalisation nor its classes: this run guesses pixels / 255 and classes 0..12. "
        "Describe the model once (flair:describe_model, or 'Describe this model…' on the dock's model card).",
    ) in log


def test_the_dialog_writes_a_copy_beside_the_model_and_the_dock_opens_it(plugin, qtbot, tmp_path):
    dock = plugin.dock
    model = _plain(tmp_path)
    before = _sha(model)
    assert dock.set_model(str(model))
    dialog = DescribeDialog(dock.model, dock)
    qtbot.addWidget(dialog)
    # Only the presets that fit 5 bands and 13 outputs; the one that fits is picked and fills the fields.
    choices = [dialog.preset_combo.itemData(i) for i in range(dialog.preset_combo.count())]
    assert choices == ["none", "flair1"] and dialog.preset_combo.currentData() == "flair1"
    assert dialog.bands_edit.text() == "R,G,B,NIR,ELEV"
    assert dialog.mean_edit.text() == "105.08,110.87,101.82,106.38,53.26"
    assert dialog.classes_edit.toPlainText().splitlines()[0] == "1:building:#db0e9a"
    dialog.show()
    qtbot.waitExposed(dialog)
    # Usable beside a dock of the default width: it needs little more, and opens narrow.
    assert dialog.minimumSizeHint().width() <= DOCK_WIDTH_PX + 60 and dialog.width() <= 420
    ok = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
    dialog.classes_edit.setPlainText("\n".join(f"{v}:c{v}" for v in range(1, 14)))
    dialog.tile_spin.setValue(256)
    qtbot.mouseClick(ok, Qt.LeftButton)
    assert dialog.request is not None and dialog.result() == dialog.DialogCode.Accepted

    task = dock.segment.describe_model(dialog)

    # The copy is written in a task: the dock shows its progress and keeps the model until it ends.
    section = dock.segment.model_section
    assert (
        task is not None and dock.segment.describe_task is task and task.description() == "FLAIR: describing plain.onnx"
    )
    assert not section.describe_progress.isHidden() and not section.describe_cancel.isHidden()
    assert not section.describe_button.isEnabled() and dock.model.path == str(model)
    _wait(qtbot, dock, task)
    written = str(tmp_path / "models" / "plain_described.onnx")
    assert section.describe_progress.isHidden() and section.describe_cancel.isHidden()
    assert _sha(model) == before
    assert dock.model is not None and dock.model.path == written and dock.model.guessed == frozenset()
    assert "Guessed" not in section.model_card.summary.text()
    assert not section.describe_button.isVisible()
    assert section.model_card.classes.rowCount() == 13 and section.model_card.classes.item(0, 1).text() == "c1"
    assert dock.model.tile_size_px == 256 and dock.model.input.band_names == ("R", "G", "B", "NIR", "ELEV")
    assert section.model_combo.currentData() == written


def test_a_class_count_that_does_not_fit_is_refused_in_the_message_bar(plugin, qgis_iface, qtbot, tmp_path):
    dock = plugin.dock
    model = _plain(tmp_path)
    assert dock.set_model(str(model))
    dialog = DescribeDialog(dock.model, dock)
    qtbot.addWidget(dialog)
    dialog.preset_combo.setCurrentIndex(0)
    dialog.classes_edit.setPlainText("building")
    ok = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
    qtbot.mouseClick(ok, Qt.LeftButton)  # a typing error is said in the dialog, which stays open
    assert dialog.request is None and not dialog.error.isHidden()
    assert (
        dialog.error.text()
        == "Class entry 'building' is not value:name or value:name:#rrggbb (e.g. 1:building:#db0e9a)."
    )
    dialog.classes_edit.setPlainText("1:building:#db0e9a")
    dialog.scale_edit.setText("255")
    dialog.mean_edit.clear()
    dialog.std_edit.clear()
    qtbot.mouseClick(ok, Qt.LeftButton)
    task = dock.segment.describe_model(dialog)
    assert task is not None
    _wait(qtbot, dock, task)
    warnings = [m for m in qgis_iface.messageBar().get_messages(1)]  # Qgis.MessageLevel.Warning
    assert any("plain.onnx has 13 output channel(s) but 1 class(es) were given" in m for m in warnings), warnings
    assert dock.model is not None and dock.model.path == str(model)
    assert not (tmp_path / "models" / "plain_described.onnx").exists()


def test_the_guess_and_the_button_speak_french(french_qgis, plugin, tmp_path):  # noqa: F811
    dock = plugin.dock
    model = _plain(tmp_path)
    assert dock.set_model(str(model))
    section = dock.segment.model_section
    assert "Devinées, le modèle ne les déclare pas : normalisation (pixels / 255), classes (0..12)." in (
        section.model_card.summary.text()
    )
    assert section.describe_button.text() == "Décrire ce modèle…"
    note = guessed_note(dock.model)
    assert note is not None
    assert note_text(note).startswith(
        "plain ne déclare ni sa normalisation ni ses classes : ce calcul suppose pixels / 255 et les classes 0..12."
    )


def _start(dock, qtbot, model):
    """Open the dialog on ``model`` with its preset and 13 typed classes, accept it, start the task."""
    assert dock.set_model(str(model))
    dialog = DescribeDialog(dock.model, dock)
    qtbot.addWidget(dialog)
    dialog.classes_edit.setPlainText("\n".join(f"{v}:c{v}" for v in range(1, 14)))
    dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok).click()
    task = dock.segment.describe_model(dialog)
    assert task is not None
    return task


def _canceled_cleanly(dock, qgis_iface, model, before: list[str]) -> str:
    """The folder as before, the dock still on the original, its Describe button back; the message."""
    assert sorted(os.listdir(model.parent)) == before  # no copy, no hidden temporary file
    assert dock.model is not None and dock.model.path == str(model) and dock.model.guessed
    section = dock.segment.model_section
    assert section.describe_button.isEnabled() and section.describe_progress.isHidden()
    shown = [m for m in qgis_iface.messageBar().get_messages(0) if "Canceled" in m]  # Qgis.Info
    assert shown
    return shown[-1]


def test_the_dock_s_cancel_button_leaves_no_copy(plugin, qgis_iface, qtbot, tmp_path):
    dock = plugin.dock
    model = _plain(tmp_path)
    before, sha = sorted(os.listdir(model.parent)), _sha(model)
    task = _start(dock, qtbot, model)
    # Clicked before finished() runs on the main thread: whether the job had begun, written the
    # copy or returned, the description is canceled and leaves nothing.
    qtbot.mouseClick(dock.segment.model_section.describe_cancel, Qt.LeftButton)
    _wait(qtbot, dock, task)
    message = _canceled_cleanly(dock, qgis_iface, model, before)
    assert message in (f"FLAIR:{NOTHING}", f"FLAIR:{REMOVED_COPY}")
    assert _sha(model) == sha


@pytest.mark.parametrize("threshold", [0.0, 55.0, 100.0, None])
def test_a_cancel_at_any_point_leaves_no_copy(plugin, qgis_iface, qtbot, tmp_path, monkeypatch, threshold):
    """Canceled at the job's first progress report, mid-way, once the copy is in place (100 %) and
    once the job returned (None): the folder is as it was and the message says what was removed."""

    class CancelingTask(DescribeTask):
        def setProgress(self, percent: float) -> None:
            super().setProgress(percent)
            if threshold is not None and percent >= threshold:
                self.cancel()

        def _work(self) -> None:
            super()._work()
            if threshold is None:
                self.cancel()

    monkeypatch.setattr(segment_panel, "DescribeTask", CancelingTask)
    dock = plugin.dock
    model = _plain(tmp_path)
    before = sorted(os.listdir(model.parent))
    task = _start(dock, qtbot, model)
    _wait(qtbot, dock, task)
    message = _canceled_cleanly(dock, qgis_iface, model, before)
    written = threshold is None or threshold == 100.0
    assert message == f"FLAIR:{REMOVED_COPY if written else NOTHING}"
