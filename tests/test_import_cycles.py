"""No import loop between the plugin's modules (module-level imports; lazy imports inside functions excepted)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "flair_qgis"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, name: str, modules: set[str]) -> set[str]:
    """Plugin modules ``path`` imports at module level (classFactory's lazy import is not one)."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            base = base[: len(base) - (node.level - 1)] if node.level else []
            stem = ".".join([*base, node.module] if node.module else base)
            targets = [stem, *(f"{stem}.{alias.name}" for alias in node.names)]
        else:
            continue
        found |= {t for t in targets if t in modules and t != name}
    return found


def test_no_import_cycle():
    paths = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph = {name: _imports(path, name, set(paths)) for name, path in paths.items()}
    # A package's __init__ may import its own modules to name its public surface (``__all__``):
    # Python registers the package before running its __init__, so those modules load while it
    # runs. That holds only while no module takes a name from its own package's __init__
    # (test_no_module_imports_from_its_own_package); the edge is dropped here.
    for name, imported in graph.items():
        if paths[name].name == "__init__.py":
            imported -= {target for target in imported if target.startswith(name + ".")}
    # A module imports its package's __init__ first: count that edge too.
    for name, imported in graph.items():
        if "." in name and name.rsplit(".", 1)[0] in graph:
            imported.add(name.rsplit(".", 1)[0])
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in graph[node]:
            assert state.get(nxt) != 1, "import loop: " + " -> ".join([*trail, node, nxt])
            if nxt not in state:
                visit(nxt, [*trail, node])
        state[node] = 2

    for name in graph:
        if name not in state:
            visit(name, [])


def test_no_module_imports_from_its_own_package():
    """In a package whose __init__ imports its own modules, ``from . import name`` would read that
    __init__ half-run: a module imports the module that defines the name instead."""
    paths = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    reexporting = {
        name
        for name, path in paths.items()
        if path.name == "__init__.py" and any(t.startswith(name + ".") for t in _imports(path, name, set(paths)))
    }
    wrong = []
    for name, path in paths.items():
        package = name.rsplit(".", 1)[0]
        if path.name == "__init__.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.ImportFrom):
                continue
            base = package.split(".")
            base = base[: len(base) - (node.level - 1)] if node.level else []
            stem = ".".join([*base, node.module] if node.module else base)
            if stem in reexporting and (package == stem or package.startswith(stem + ".")):
                names = [a.name for a in node.names if f"{stem}.{a.name}" not in paths]
                wrong += [f"{path.relative_to(PACKAGE)}:{node.lineno} imports {n} from {stem}" for n in names]
    assert not wrong, "\n".join(wrong)


# The direction of imports between core/ jobs, and from gui/ and processing/ into core/: test_layering.py.
