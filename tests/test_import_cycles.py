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


# Jobs of core/, lowest first: a module may import its own job, a lower one, or the shared modules.
CORE_LAYERS = {"segment": 0, "score": 1, "review": 2, "benchmark": 2, "quantize": 2, "vectorize": 3}
SHARED = {"errors", "paths", "atomic", "crs", "nomenclature", "vocabulary"}


def _core_job(module: str) -> str | None:
    """``segment`` for ``flair_qgis.core.segment.grid``; ``""`` for a shared module; None outside core."""
    parts = module.split(".")
    if parts[:2] != ["flair_qgis", "core"] or len(parts) < 3:
        return None
    return parts[2] if parts[2] in CORE_LAYERS else ""


def _all_imports(path: Path, name: str) -> list[tuple[int, str]]:
    """Every plugin module ``path`` imports, lazy imports inside functions included, with the line."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            base = base[: len(base) - (node.level - 1)] if node.level else []
            stem = ".".join([*base, node.module] if node.module else base)
            found += [(node.lineno, stem)] + [(node.lineno, f"{stem}.{alias.name}") for alias in node.names]
    return [(line, target) for line, target in found if target.startswith("flair_qgis.")]


def test_core_imports_point_down():
    """segment <- score <- review, benchmark; shared modules import no job; no job imports a sibling."""
    core = PACKAGE / "core"
    root_modules = {p.stem for p in core.glob("*.py")} - {"__init__"}
    assert root_modules == SHARED, f"only the shared modules live at core/ root, found {sorted(root_modules ^ SHARED)}"
    wrong = []
    for path in core.rglob("*.py"):
        name = _module_name(path)
        job = _core_job(name)
        for line, target in _all_imports(path, name):
            target_job = _core_job(target)
            if target_job is None and target.startswith("flair_qgis."):
                wrong.append(f"{path.relative_to(PACKAGE)}:{line} imports {target} from outside core")
            elif target_job in ("", None) or target_job == job:
                continue
            elif job == "" or CORE_LAYERS[target_job] >= CORE_LAYERS[job]:
                wrong.append(f"{path.relative_to(PACKAGE)}:{line} imports {target} ({job or 'shared'} -> {target_job})")
    assert not wrong, "imports that point up or sideways:\n" + "\n".join(sorted(set(wrong)))
