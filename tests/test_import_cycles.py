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
    # No edge from a module to its own package: Python starts the package's __init__ before the module,
    # but the module only needs it started (it is in sys.modules), not finished, so a package that
    # names its public names (``from .model import ModelInfo``) is no loop. A module that imports a
    # name back from its package (``from . import x``) is an explicit edge and is checked.
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


# The direction of imports between core/ jobs, and from gui/ and processing/ into core/: test_layering.py.
