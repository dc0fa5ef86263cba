"""Every module path the docstrings and comments of ``flair_qgis/`` name exists (``ast`` and
``tokenize`` read the sources; nothing is imported).

A reference is checked when it is

- a dotted name ``flair_qgis.x.y[.name[.attr]]`` anywhere in a docstring, string statement or comment;
- the target of a Sphinx role (``:mod:``, ``:func:``, ``:class:``, ``:meth:``, ``:data:``,
  ``:attr:``, ``:exc:``) that is absolute (``flair_qgis...``) or relative (``.module.name``,
  ``~.module.name``, resolved from the module's package as a relative import would be);
- a source path ``core/.../name.py`` (``adapters/``, ``gui/``... too, with or without
  ``flair_qgis/`` in front).

It exists when its longest module prefix is a module of the plugin and what follows is nothing, a
top-level name of that module (a definition, an assignment or an import, followed to where it is
defined) or ``Class.attr`` (a method, class attribute, field or ``self.attr`` of that class or of
a base class defined in the plugin). A role target with no dot in front (``:class:`Grid```,
``:meth:`close```, ``:func:`job.run_job```) must name something in its module or package, or
anything defined anywhere in the plugin; one that starts with a builtin or a name the plugin never
defines (``:class:`numpy.ndarray```) is another library's.
"""

from __future__ import annotations

import ast
import builtins
import io
import re
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "flair_qgis"
ROOT = "flair_qgis"

ROLE = re.compile(r":(?:py:)?(?:mod|func|class|meth|data|attr|exc):`([^`]+)`")
DOTTED = re.compile(r"(?<![\w.])flair_qgis(?:\.[A-Za-z_]\w*)+")
SOURCE_PATH = re.compile(r"(?<![\w/.])(?:flair_qgis/)?((?:core|adapters|gui|processing|scale|i18n)/(?:\w+/)*\w+\.py)\b")
MAX_HOPS = 8
"""How many re-exports a name is followed through before it counts as not found (a cycle)."""


@dataclass
class _Module:
    """What a module defines at its top level, read from its syntax tree."""

    package: str
    names: set[str] = field(default_factory=set)
    imports: dict[str, str] = field(default_factory=dict)
    """Local name -> the absolute dotted name it was imported as."""
    classes: dict[str, set[str]] = field(default_factory=dict)
    """Class name -> its methods, class attributes, fields and ``self.`` attributes."""
    bases: dict[str, list[str]] = field(default_factory=dict)
    """Class name -> the dotted names of its bases, as written."""
    defined: set[str] = field(default_factory=set)
    """Every function, class and attribute name defined anywhere in the module, nested ones too."""


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _package_of(path: Path) -> str:
    name = _module_name(path)
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def _absolute(package: str, level: int, module: str | None) -> str:
    """The absolute name of ``from <level dots><module> import ...`` written in ``package``."""
    base = package.split(".")
    base = base[: len(base) - (level - 1)] if level else []
    return ".".join([*base, module] if module else base)


def _targets(node: ast.AST) -> Iterator[ast.expr]:
    """The expressions an assignment statement binds."""
    if isinstance(node, ast.Assign):
        for target in node.targets:
            yield from ast.walk(target)  # type: ignore[misc]
    elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
        yield node.target


def _class_members(node: ast.ClassDef) -> set[str]:
    members: set[str] = set()
    for statement in node.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            members.add(statement.name)
        members |= {t.id for t in _targets(statement) if isinstance(t, ast.Name)}
    for sub in ast.walk(node):
        for target in _targets(sub):
            if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
                if target.value.id == "self":
                    members.add(target.attr)
    return members


def _top_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Module-level statements, including those under ``if``/``try``/``with`` (not in functions)."""
    for statement in body:
        yield statement
        if isinstance(statement, (ast.If, ast.Try, ast.With, ast.For, ast.While)):
            for branch in ("body", "orelse", "finalbody"):
                yield from _top_level(getattr(statement, branch, []))
            for handler in getattr(statement, "handlers", []):
                yield from _top_level(handler.body)


def _read_module(tree: ast.Module, package: str) -> _Module:
    module = _Module(package)
    for statement in _top_level(tree.body):
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            module.names.add(statement.name)
        elif isinstance(statement, ast.ClassDef):
            module.names.add(statement.name)
            module.classes[statement.name] = _class_members(statement)
            module.bases[statement.name] = [ast.unparse(base) for base in statement.bases]
        elif isinstance(statement, ast.Import):
            for alias in statement.names:
                local = alias.asname or alias.name.partition(".")[0]
                module.imports[local] = alias.name if alias.asname else local
        elif isinstance(statement, ast.ImportFrom):
            stem = _absolute(package, statement.level, statement.module)
            for alias in statement.names:
                module.imports[alias.asname or alias.name] = f"{stem}.{alias.name}"
        module.names |= {t.id for t in _targets(statement) if isinstance(t, ast.Name)}
    module.names |= set(module.imports)
    module.defined = (module.names - set(module.imports)).union(*module.classes.values(), *_nested_definitions(tree))
    return module


def _nested_definitions(tree: ast.Module) -> Iterator[set[str]]:
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield {node.name}
        elif isinstance(node, ast.ClassDef):
            yield {node.name} | _class_members(node)


def build_index(package_dir: Path = PACKAGE) -> dict[str, _Module]:
    """Every module of the plugin, by its dotted name."""
    return {
        _module_name(path): _read_module(ast.parse(path.read_text()), _package_of(path))
        for path in sorted(package_dir.rglob("*.py"))
    }


def resolves(index: dict[str, _Module], dotted: str, hops: int = 0) -> bool:
    """Whether ``dotted`` names a module of the plugin, or a name or ``Class.attr`` in one."""
    if not dotted.startswith(ROOT + ".") and dotted != ROOT:
        return True  # outside the plugin (numpy, typing...): not ours to check
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        module = index.get(".".join(parts[:cut]))
        if module is not None:
            return _in_module(index, module, parts[cut:], hops)
    return False


def _in_module(index: dict[str, _Module], module: _Module, rest: list[str], hops: int) -> bool:
    if not rest:
        return True
    head, *tail = rest
    if head in module.classes:
        return not tail or (len(tail) == 1 and _has_member(index, module, head, tail[0], hops))
    if head in module.imports:
        return hops < MAX_HOPS and resolves(index, ".".join([module.imports[head], *tail]), hops + 1)
    return not tail and head in module.names


def _has_member(index: dict[str, _Module], module: _Module, cls: str, member: str, hops: int) -> bool:
    """Whether ``cls`` of ``module`` or one of its bases defined in the plugin has ``member``."""
    if member in module.classes[cls]:
        return True
    for base in module.bases[cls]:
        head, _, attr_path = base.partition(".")
        if head in module.classes and not attr_path and head != cls:
            if _has_member(index, module, head, member, hops):
                return True
        elif head in module.imports and hops < MAX_HOPS:
            origin = ".".join(filter(None, [module.imports[head], attr_path, member]))
            if origin.startswith(ROOT + ".") and resolves(index, origin, hops + 1):
                return True
    return False


def _role_target(body: str, package: str) -> str:
    """The absolute dotted name a role's text points at; a bare name is returned as written."""
    target = body.rpartition("<")[2].rstrip(">") if "<" in body else body
    target = target.strip().lstrip("!~").removesuffix("()")
    if target.startswith("."):
        level = len(target) - len(target.lstrip("."))
        return _absolute(package, level, target.lstrip("."))
    return target


def _bare_exists(index: dict[str, _Module], name: str, target: str) -> bool:
    """Whether a role target with no dot in front names something of module ``name`` or the plugin."""
    head, _, member = target.partition(".")
    if hasattr(builtins, head):
        return True
    if resolves(index, f"{name}.{target}") or resolves(index, f"{index[name].package}.{target}"):
        return True
    if target in index[name].defined and not member:
        return True
    everywhere = [module for module in index.values() if head in module.defined]
    if not everywhere:
        return bool(member)  # another library's dotted name (numpy.ndarray, pyproj.Geod)
    return not member or any(member in module.classes.get(head, ()) for module in everywhere)


def _texts(source: str) -> Iterator[tuple[int, str]]:
    """``(first line, text)`` of every string statement (docstrings included) and comment."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            if isinstance(node.value.value, str):
                yield node.lineno, node.value.value
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string


def _references(text: str, package: str) -> Iterator[tuple[int, str, str]]:
    """``(line offset, as written, what it must name)``; dotted names, or paths under flair_qgis/."""
    for match in ROLE.finditer(text):
        yield text.count("\n", 0, match.start()), match.group(0), _role_target(match.group(1), package)
    for match in DOTTED.finditer(text):
        yield text.count("\n", 0, match.start()), match.group(0), match.group(0)
    for match in SOURCE_PATH.finditer(text):
        yield text.count("\n", 0, match.start()), match.group(0), match.group(1)


def stale_references(index: dict[str, _Module], name: str, source: str) -> list[str]:
    """``line: reference -> target`` for every reference in module ``name`` that names nothing."""
    package = index[name].package
    stale: dict[tuple[int, str], str] = {}
    for first_line, text in _texts(source):
        for offset, written, target in _references(text, package):
            if target.endswith(".py"):
                found = (PACKAGE / target).is_file()
            elif target.startswith(ROOT + "."):
                found = resolves(index, target)
            else:
                found = _bare_exists(index, name, target)
            if not found:
                stale.setdefault((first_line + offset, target), written)
    return [f"{line}: {stale[line, target]} -> {target}" for line, target in sorted(stale)]


def test_docstrings_and_comments_name_existing_paths() -> None:
    index = build_index()
    stale = [
        f"{path.relative_to(PACKAGE.parent)}:{entry}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for entry in stale_references(index, _module_name(path), path.read_text())
    ]
    assert not stale, f"{len(stale)} references name nothing:\n" + "\n".join(stale)


def test_a_stale_reference_is_found() -> None:
    """The check itself can fail: a scratch module naming what moved or never was."""
    index = build_index()
    source = (
        '"""Cuts :class:`.grid.Grid` into :func:`~.grid.nowhere` (see :mod:`.writer`).\n\n'
        "Started by :func:`start_warm_up`, unlike :class:`numpy.ndarray` or :exc:`ValueError`.\n"
        'Written by :meth:`flair_qgis.core.engine.geotiff.AtomicGeoTiff.no_such_method`.\n"""\n'
        "# flair_qgis.core.segment.writer moved; core/engine/grid.py stays, core/segment/grid.py went\n"
    )
    index["flair_qgis.core.engine.scratch"] = _Module("flair_qgis.core.engine")
    stale = stale_references(index, "flair_qgis.core.engine.scratch", source)
    assert [entry.partition(" -> ")[2] for entry in stale] == [
        "flair_qgis.core.engine.grid.nowhere",
        "flair_qgis.core.engine.writer",
        "start_warm_up",
        "flair_qgis.core.engine.geotiff.AtomicGeoTiff.no_such_method",
        "core/segment/grid.py",
        "flair_qgis.core.segment.writer",
    ]
