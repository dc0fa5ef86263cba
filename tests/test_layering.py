"""The plugin's layers, read from its imports (``ast``, nothing is imported).

- ``gui/`` and ``processing/`` reach ``core`` only through the shared root modules, a job
  package's public names (its ``__init__.py`` lists them in ``__all__``) or the job's entry module;
  anything finer goes through ``adapters/``.
- No module imports another module's private name (``from .apply import _decided`` means it is
  not private).
- ``core/`` jobs import only downward: the jobs each may use are listed in :data:`CORE_USES`.

Lazy imports inside functions count as much as module-level ones.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "flair_qgis"
CORE = "flair_qgis.core"

SHARED = {"errors", "paths", "atomic", "crs", "nomenclature", "vocabulary", "areas", "classes", "cuda"}
"""The modules at ``core/`` root: every layer and every job may use them."""

CORE_USES = {
    "segment": set(),
    "score": {"segment"},
    "vectorize": {"segment", "score"},
    "quantize": {"segment"},
    "review": {"score", "segment"},
    "benchmark": {"score", "segment"},
}
"""The other jobs each ``core/`` job may import (besides the shared modules)."""

ENTRY_MODULES = {"segment": "job", "score": "job", "review": "job", "vectorize": "job", "quantize": "job",
                 "benchmark": "runner"}  # fmt: skip
"""The one module per job that callers outside ``core/`` may import directly: its entry point."""


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _imports(path: Path) -> Iterator[tuple[int, str, list[str]]]:
    """``(line, module, names)`` for every import in ``path``; ``names`` is [] for ``import module``."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, []
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            base = base[: len(base) - (node.level - 1)] if node.level else []
            stem = ".".join([*base, node.module] if node.module else base)
            yield node.lineno, stem, [alias.name for alias in node.names]


def _public_names(package: Path) -> set[str]:
    """The names a package's ``__init__.py`` lists in ``__all__`` (empty when it has none)."""
    init = package / "__init__.py"
    if not init.exists():
        return set()
    for node in ast.parse(init.read_text()).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return {elt.value for elt in ast.walk(node.value) if isinstance(elt, ast.Constant)}
    return set()


def core_access_errors(module: str, names: list[str]) -> list[str]:
    """Why an import of ``module`` (``names`` from it) from gui/ or processing/ is not allowed ([] when it is)."""
    parts = module.split(".")
    if parts[:2] != ["flair_qgis", "core"]:
        return []
    if len(parts) == 2:  # from flair_qgis.core import vocabulary
        wrong = [n for n in names if n not in SHARED] or ([] if names else ["flair_qgis.core"])
        return [f"{CORE}.{n} (a job package: import its public names)" for n in wrong]
    job = parts[2]
    if job in SHARED or (job in ENTRY_MODULES and parts[3:] == [ENTRY_MODULES[job]]):
        return []
    if job in ENTRY_MODULES and len(parts) == 3:
        public = _public_names(PACKAGE / "core" / job)
        entry = ENTRY_MODULES[job]
        return [f"{module}.{n} (not in its __all__)" for n in names or ["*"] if n not in public and n != entry]
    return [f"{module} (an inner module of a job: use the package's public names, its {ENTRY_MODULES.get(job)} "
            "module or adapters/)"]  # fmt: skip


def test_gui_and_processing_reach_core_through_public_names():
    wrong = []
    for name, path in _modules().items():
        if not name.startswith(("flair_qgis.gui", "flair_qgis.processing")):
            continue
        for line, module, names in _imports(path):
            wrong += [f"{path.relative_to(PACKAGE)}:{line} imports {why}" for why in core_access_errors(module, names)]
    assert not wrong, "gui/ and processing/ reaching into core/:\n" + "\n".join(wrong)


def test_no_private_name_crosses_a_module():
    modules = _modules()
    wrong = []
    for name, path in modules.items():
        for line, module, names in _imports(path):
            if not module.startswith("flair_qgis") or module == name:
                continue
            private = [n for n in names if n.startswith("_") and not n.startswith("__")]
            wrong += [f"{path.relative_to(PACKAGE)}:{line} imports {module}.{n}" for n in private]
    assert not wrong, "private names imported from another module (make them public or move them):\n" + "\n".join(wrong)


def _core_job(module: str) -> str | None:
    """``segment`` for ``flair_qgis.core.segment.grid``; ``""`` for a shared module; None outside core."""
    parts = module.split(".")
    if parts[:2] != ["flair_qgis", "core"] or len(parts) < 3:
        return None
    return parts[2] if parts[2] in CORE_USES else ""


def test_core_jobs_import_only_downward():
    """The listed jobs below, the shared modules, nothing outside core/; shared modules import no job."""
    core = PACKAGE / "core"
    root_modules = {p.stem for p in core.glob("*.py")} - {"__init__"}
    assert root_modules == SHARED, f"only the shared modules live at core/ root, found {sorted(root_modules ^ SHARED)}"
    jobs = {p.name for p in core.iterdir() if (p / "__init__.py").exists()}
    assert jobs == set(CORE_USES), f"every core/ job is listed in CORE_USES: {sorted(jobs ^ set(CORE_USES))}"
    wrong = []
    for name, path in _modules().items():
        job = _core_job(name)
        if job is None:
            continue
        for line, module, names in _imports(path):
            targets = [module] + [f"{module}.{n}" for n in names] if module == CORE else [module]
            for target in targets:
                target_job = _core_job(target)
                where = f"{path.relative_to(PACKAGE)}:{line} imports {target}"
                if target_job is None and target.startswith("flair_qgis") and target != CORE:
                    wrong.append(f"{where} from outside core")
                elif target_job and target_job != job and target_job not in CORE_USES.get(job, set()):
                    wrong.append(f"{where} ({job or 'shared'} -> {target_job})")
    assert not wrong, "core/ imports that point up or sideways:\n" + "\n".join(sorted(set(wrong)))
