"""Finds the Qt and QGIS names a module uses that would break under QGIS 4 (Qt6).

Every `qgis.PyQt` name a module imports, and every attribute chain that starts at one
(`Qt.AlignmentFlag.AlignRight`, `QMessageBox.StandardButton.Yes`), must resolve in PyQt5 (the
QGIS 3 bindings running here) and in PyQt6: a name found in only one of them is a crash in the
other QGIS. PyQt6 is resolved in a separate interpreter (`.venv-qt6`, PyQt6 from PyPI), because
the two bindings cannot share a process with QGIS.

QGIS's own enums have the same trap: QGIS 4 drops the short form (`QgsTask.CanCancel`) and keeps
the scoped one (`QgsTask.Flag.CanCancel`). A chain whose last step is an enum value reached
through its owner class rather than through its enum type is reported with the scoped name to
write, found by asking the running QGIS bindings which enum the value belongs to.

Run as a script for a report: `.venv/bin/python tests/qt_names.py [files...]`.
"""

from __future__ import annotations

import ast
import enum
import importlib
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
QT6_PYTHON = REPO / ".venv-qt6" / "bin" / "python"
QT6_RESOLVER = Path(__file__).with_name("qt6_resolve.py")
QT_PACKAGE = "qgis.PyQt"
# qgis.utils is left out: its `iface` exists only inside a running QGIS application.
QGIS_PACKAGES = ("qgis.core", "qgis.gui", "qgis.analysis")


Source = tuple[str, tuple[str, ...]]  # (binding module, attribute path), e.g. ("QtCore", ("Qt",))


@dataclass(frozen=True)
class NameUse:
    """One use of a binding name, with the places it may come from.

    `sources` has one (module, attributes) pair, e.g. ("QtCore", ("Qt", "AlignmentFlag")) or
    ("qgis.core", ("QgsTask", "Flag", "CanCancel")); a compatibility import (`try: from
    qgis.PyQt.QtGui import QAction` / `except ImportError: from qgis.PyQt.QtWidgets import
    QAction`) gives one pair per branch, and the name is fine when some branch resolves in each Qt.
    """

    path: str
    line: int
    sources: tuple[Source, ...]

    @property
    def is_qt(self) -> bool:
        return not self.sources[0][0].startswith("qgis.")

    def dotted(self) -> str:
        module, attrs = self.sources[0]
        return ".".join((module, *attrs))

    def where(self) -> str:
        return f"{self.path}:{self.line}"


def _source(module: str, name: str) -> Source | None:
    if module == QT_PACKAGE:
        return (name, ())
    if module.startswith(QT_PACKAGE + "."):
        return (module[len(QT_PACKAGE) + 1 :], (name,))
    if module in QGIS_PACKAGES:
        return (module, (name,))
    return None


def _guarded_imports(tree: ast.Module) -> dict[int, int]:
    """id(ImportFrom) -> id(Try) for imports inside a `try` that catches ImportError."""
    guarded = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Try):
            continue
        caught = {
            name.id
            for handler in node.handlers
            if handler.type is not None
            for name in ast.walk(handler.type)
            if isinstance(name, ast.Name)
        }
        if caught & {"ImportError", "ModuleNotFoundError"}:
            branches = node.body + [stmt for handler in node.handlers for stmt in handler.body]
            for stmt in branches:
                if isinstance(stmt, ast.ImportFrom):
                    guarded[id(stmt)] = id(node)
    return guarded


def _imports(tree: ast.Module) -> dict[tuple[int, str], tuple[int, list[Source]]]:
    """(import group, local name) -> (first line, sources); a group is one import or one try."""
    guarded = _guarded_imports(tree)
    found: dict[tuple[int, str], tuple[int, list[Source]]] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or node.module is None:
            continue
        for alias in node.names:
            source = _source(node.module, alias.name)
            if source is None:
                continue
            key = (guarded.get(id(node), id(node)), alias.asname or alias.name)
            found.setdefault(key, (node.lineno, []))[1].append(source)
    return found


def _chain(node: ast.Attribute) -> tuple[str, list[str]] | None:
    """(root name, attributes) of `Root.a.b.c`; None when the chain starts at a call or a subscript."""
    attrs: list[str] = []
    current: ast.expr = node
    while isinstance(current, ast.Attribute):
        attrs.append(current.attr)
        current = current.value
    if not isinstance(current, ast.Name):
        return None
    return current.id, attrs[::-1]


def name_uses(path: Path, source: str | None = None) -> list[NameUse]:
    """Every Qt/QGIS name a module imports and every attribute chain rooted at one of them."""
    text = path.read_text(encoding="utf-8") if source is None else source
    tree = ast.parse(text, filename=str(path))
    shown = str(path.relative_to(REPO)) if path.is_absolute() and path.is_relative_to(REPO) else str(path)
    imports = _imports(tree)
    uses = [
        NameUse(shown, line, tuple(sources)) for line, sources in imports.values() if any(attrs for _, attrs in sources)
    ]
    bound = {name: sources for (_, name), (_, sources) in sorted(imports.items(), key=lambda i: i[1][0])}
    inner = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or id(node) in inner:
            continue
        chain = _chain(node)
        if chain is None or chain[0] not in bound:
            continue
        sources = tuple((module, prefix + tuple(chain[1])) for module, prefix in bound[chain[0]])
        uses.append(NameUse(shown, node.lineno, sources))
    return uses


def _resolve(root: object, attrs: tuple[str, ...]) -> list[object]:
    """The objects along `root.a.b…`, as far as they resolve."""
    objects = [root]
    for attr in attrs:
        try:
            objects.append(getattr(objects[-1], attr))
        except AttributeError:
            break
    return objects


def _is_enum_value(value: object) -> bool:
    # sip enums (PyQt5, QGIS < 3.36) are int subclasses whose type's metatype is sip.enumtype;
    # newer bindings use Python enums.
    return isinstance(value, enum.Enum) or type(type(value)).__name__ == "enumtype"


def _module_here(module: str) -> object | None:
    try:
        return importlib.import_module(module if module.startswith("qgis.") else f"{QT_PACKAGE}.{module}")
    except ImportError:
        return None


def _resolves_here(source: Source) -> bool:
    module = _module_here(source[0])
    return module is not None and len(_resolve(module, source[1])) == len(source[1]) + 1


def short_form_enum(source: Source) -> str | None:
    """The scoped spelling of a short-form enum (`QgsTask.CanCancel` -> `QgsTask.Flag.CanCancel`)."""
    module_name, attrs = source
    objects = _resolve(_module_here(module_name), attrs)
    if len(objects) != len(attrs) + 1 or len(attrs) < 2:
        return None
    owner, value = objects[-2], objects[-1]
    if not _is_enum_value(value) or owner is type(value):
        return None
    enum_type = type(value)
    if getattr(owner, enum_type.__name__, None) is not enum_type:
        return None
    return ".".join((module_name, *attrs[:-1], enum_type.__name__, attrs[-1]))


def _resolves_in_pyqt6(sources: list[Source]) -> list[bool]:
    request = json.dumps([[module, list(attrs)] for module, attrs in sources])
    done = subprocess.run(
        [str(QT6_PYTHON), str(QT6_RESOLVER)], input=request, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(f"{QT6_RESOLVER.name} failed under {QT6_PYTHON}:\n{done.stderr}")
    return [bool(flag) for flag in json.loads(done.stdout)]


def problems(uses: list[NameUse]) -> list[str]:
    """One line per name that would break under one of the two Qts: `file:line: name: why`."""
    qt_sources = sorted({source for use in uses if use.is_qt for source in use.sources})
    in_qt6 = dict(zip(qt_sources, _resolves_in_pyqt6(qt_sources))) if qt_sources else {}
    found = []
    for use in uses:
        here = [source for source in use.sources if _resolves_here(source)]
        scoped = short_form_enum(here[0]) if here else None
        if use.is_qt:
            qt6 = any(in_qt6[source] for source in use.sources)
            if here and not qt6:
                hint = f"; write {scoped}" if scoped else ""
                found.append(f"{use.where()}: {use.dotted()} resolves in PyQt5 only{hint}")
            elif qt6 and not here:
                found.append(f"{use.where()}: {use.dotted()} resolves in PyQt6 only")
            elif not here:
                found.append(f"{use.where()}: {use.dotted()} resolves in neither PyQt5 nor PyQt6")
        elif not here:
            found.append(f"{use.where()}: {use.dotted()} does not resolve in this QGIS")
        elif scoped is not None:
            found.append(f"{use.where()}: {use.dotted()} is a short-form enum, removed in QGIS 4; write {scoped}")
    return sorted(set(found))


def package_files() -> list[Path]:
    return sorted((REPO / "flair_qgis").rglob("*.py")) + sorted((REPO / "scripts").glob("*.py"))


if __name__ == "__main__":
    files = [Path(arg).resolve() for arg in sys.argv[1:]] or package_files()
    lines = problems([use for path in files for use in name_uses(path)])
    sys.stdout.write("".join(line + "\n" for line in lines))
    sys.exit(1 if lines else 0)
