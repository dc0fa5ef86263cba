"""QGIS 4 (Qt6) readiness: every Qt and QGIS name the plugin uses resolves under both Qts.

`tests/qt_names.py` does the work; PyQt6 comes from PyPI into `.venv-qt6` (`make setup`).
"""

from pathlib import Path

from tests.qt_names import name_uses, package_files, problems


def test_every_name_in_the_plugin_resolves_in_pyqt5_and_pyqt6():
    found = problems([use for path in package_files() for use in name_uses(path)])
    assert found == [], "names that break under one Qt:\n" + "\n".join(found)


SCRATCH = """\
from qgis.core import QgsTask, Qgis
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtWidgets import QAction, QMessageBox, QHeaderView

try:
    from qgis.PyQt.QtGui import QShortcut
except ImportError:
    from qgis.PyQt.QtWidgets import QShortcut

align = Qt.AlignRight
scoped = Qt.AlignmentFlag.AlignRight
answer = QMessageBox.StandardButton.Yes
short_answer = QMessageBox.Yes
stretch = QHeaderView.ResizeMode.Stretch
flag = QgsTask.CanCancel
level = Qgis.MessageLevel.Warning
shortcut = QShortcut
"""


def test_the_check_names_file_line_and_the_scoped_spelling(tmp_path: Path):
    scratch = tmp_path / "scratch.py"
    scratch.write_text(SCRATCH, encoding="utf-8")
    found = problems(name_uses(scratch))
    where = str(scratch)
    assert found == sorted(
        [
            f"{where}:10: QtCore.Qt.AlignRight resolves in PyQt5 only; write QtCore.Qt.AlignmentFlag.AlignRight",
            f"{where}:13: QtWidgets.QMessageBox.Yes resolves in PyQt5 only;"
            " write QtWidgets.QMessageBox.StandardButton.Yes",
            f"{where}:15: qgis.core.QgsTask.CanCancel is a short-form enum, removed in QGIS 4;"
            " write qgis.core.QgsTask.Flag.CanCancel",
            f"{where}:3: QtWidgets.QAction resolves in PyQt5 only",
        ]
    )
