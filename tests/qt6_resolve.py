"""Run by tests/qt_names.py under `.venv-qt6` (PyQt6 from PyPI, no QGIS): which names resolve.

Reads a JSON list of [module, [attr, ...]] on stdin (module as in `qgis.PyQt.<module>`, e.g.
"QtCore"), writes a JSON list of booleans: whether `PyQt6.<module>.<attr>...` exists.
"""

import importlib
import json
import sys


def resolves(module_name: str, attrs: list[str]) -> bool:
    try:
        current = importlib.import_module(f"PyQt6.{module_name}")
    except ImportError:
        return False
    for attr in attrs:
        if not hasattr(current, attr):
            return False
        current = getattr(current, attr)
    return True


if __name__ == "__main__":
    json.dump([resolves(module, attrs) for module, attrs in json.load(sys.stdin)], sys.stdout)
