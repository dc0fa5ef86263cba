"""The plugin's layers, read from its imports (``ast``, nothing is imported).

- Everything outside ``core/`` (``gui/``, ``processing/``, ``adapters/``, ``scale/``, ``i18n/``,
  ``cli.py``, ``plugin.py``) reaches it only through the shared root modules, the public names of
  the engine or of a job package (their ``__init__.py`` lists them in ``__all__``) or the job's
  entry module; anything finer goes through ``adapters/`` or a public name.
- No module imports another module's private name (``from .apply import _decided`` means it is
  not private).
- ``core/engine/`` (the layer every job runs on) imports only the shared modules.
- ``core/`` jobs import only downward: the engine's modules, and the public names of the jobs each
  may use (listed in :data:`CORE_USES`), never another job's inner modules.

Lazy imports inside functions count as much as module-level ones.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "flair_qgis"
CORE = "flair_qgis.core"

SHARED = {
    "errors",
    "messages",
    "paths",
    "atomic",
    "crs",
    "nomenclature",
    "model_presets",
    "vocabulary",
    "areas",
    "classes",
    "cuda",
    "safe_xml",
}
"""The modules at ``core/`` root: every layer and every job may use them."""

ENGINE = "engine"
"""The package every job runs on (grid, pixel sources, GeoTIFF writer, model, sessions, wrapped graph)."""

CORE_USES = {
    "segment": set(),
    "score": {"segment"},
    "vectorize": {"segment", "score"},
    "quantize": {"segment"},
    "review": {"score", "segment"},
    "benchmark": {"score", "segment"},
    "describe": set(),
}
"""The other jobs each ``core/`` job may import (besides the shared modules)."""

ENTRY_MODULES = {
    "segment": "job",
    "score": "job",
    "review": "job",
    "vectorize": "job",
    "quantize": "job",
    "benchmark": "runner",
    "describe": "job",
}
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
    """Why an import of ``module`` (``names`` from it) from outside ``core/`` is not allowed ([] when it is)."""
    parts = module.split(".")
    if parts[:2] != ["flair_qgis", "core"]:
        return []
    if len(parts) == 2:  # from flair_qgis.core import vocabulary
        wrong = [n for n in names if n not in SHARED] or ([] if names else ["flair_qgis.core"])
        return [f"{CORE}.{n} (a job package: import its public names)" for n in wrong]
    job = parts[2]
    if job in SHARED or (job in ENTRY_MODULES and parts[3:] == [ENTRY_MODULES[job]]):
        return []
    if (job in ENTRY_MODULES or job == ENGINE) and len(parts) == 3:
        public = _public_names(PACKAGE / "core" / job)
        entry = ENTRY_MODULES.get(job)
        return [f"{module}.{n} (not in its __all__)" for n in names or ["*"] if n not in public and n != entry]
    if job == ENGINE:
        return [f"{module} (an inner module of the engine: import {CORE}.engine's public names)"]
    entry = ENTRY_MODULES.get(job)
    return [f"{module} (an inner module of a job: use the package's public names, its {entry} module or adapters/)"]


def _outside_core(name: str) -> bool:
    return name.startswith("flair_qgis") and not name.startswith(CORE)


def test_everything_outside_core_reaches_it_through_public_names():
    wrong = []
    for name, path in _modules().items():
        if not _outside_core(name):
            continue
        for line, module, names in _imports(path):
            wrong += [f"{path.relative_to(PACKAGE)}:{line} imports {why}" for why in core_access_errors(module, names)]
    assert not wrong, "modules outside core/ reaching into its inner modules:\n" + "\n".join(wrong)


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
    """``segment`` for ``flair_qgis.core.segment.plan``; ``engine`` for the engine's modules; ``""`` for a
    shared module; None outside core."""
    parts = module.split(".")
    if parts[:2] != ["flair_qgis", "core"] or len(parts) < 3:
        return None
    return parts[2] if parts[2] in CORE_USES or parts[2] == ENGINE else ""


def core_import_error(job: str, target: str) -> str:
    """Why module of ``job`` (``""``: shared; ``engine``) may not import ``target``; ``""`` when it may."""
    target_job = _core_job(target)
    if target_job is None:
        return "from outside core" if target.startswith("flair_qgis") and target != CORE else ""
    if target_job in ("", job):
        return ""
    if target_job == ENGINE:
        return "" if job else "(shared -> engine)"
    if target_job not in CORE_USES.get(job, set()):
        return f"({job or 'shared'} -> {target_job})"
    if target != f"{CORE}.{target_job}":
        return f"(an inner module of {target_job}: import the package's public names)"
    return ""


def test_core_jobs_import_only_downward():
    """Shared modules import no job nor the engine; the engine imports no job; jobs import the engine
    and the public names of the jobs listed below them; nothing in core/ imports from outside it."""
    core = PACKAGE / "core"
    root_modules = {p.stem for p in core.glob("*.py")} - {"__init__"}
    assert root_modules == SHARED, f"only the shared modules live at core/ root, found {sorted(root_modules ^ SHARED)}"
    jobs = {p.name for p in core.iterdir() if (p / "__init__.py").exists()} - {ENGINE}
    assert jobs == set(CORE_USES), f"every core/ job is listed in CORE_USES: {sorted(jobs ^ set(CORE_USES))}"
    wrong = []
    for name, path in _modules().items():
        job = _core_job(name)
        if job is None:
            continue
        for line, module, names in _imports(path):
            targets = [module] + [f"{module}.{n}" for n in names] if module == CORE else [module]
            for target in targets:
                why = core_import_error(job, target)
                if why:
                    wrong.append(f"{path.relative_to(PACKAGE)}:{line} imports {target} {why}")
    assert not wrong, "core/ imports that point up or sideways:\n" + "\n".join(sorted(set(wrong)))
