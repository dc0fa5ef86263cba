"""onnxruntime as a dependency: is it importable, which package fits this machine, installing it.

QGIS ships without onnxruntime. The plugin never installs anything at import time or silently:
the dock shows the exact command for the user's platform and offers a one-click install that
the user confirms. That install runs ``pip install --target`` into a folder the plugin owns in
the QGIS profile (``python/flair_qgis_deps``), which :func:`activate_deps_dir` appends to
``sys.path`` when the plugin starts. Appending (not prepending) keeps QGIS's own numpy first;
numpy is also pinned to the version QGIS already has, so pip never brings a second one that
would break GDAL's array bindings.

onnxruntime and onnxruntime-gpu overwrite each other's files: exactly one is installed,
onnxruntime-gpu when an NVIDIA driver answers (``nvidia-smi -L``).

:data:`REQUIREMENTS` lists every third-party module the plugin cannot load without, with the Debian
package (installed by ``scripts/setup.sh``) and the pip distribution (offered by this installer)
that provide it; :data:`QUANTIZE` and :data:`VECTORIZE` the ones only one feature needs, checked
when it runs; ``tests/test_imports.py`` fails when a module in ``flair_qgis/`` imports anything else.
rtree is deliberately absent: polygon references are indexed with shapely's ``STRtree`` (shapely
1.8 and 2.x), and rtree 1.4.1 from PyPI crashed QGIS 3.22 during scoring, so it is never offered.
"""

from __future__ import annotations

import importlib
import importlib.util
import ntpath
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from qgis.core import QgsApplication, QgsTask

from ..core.errors import FlairError
from ..i18n import tr

DEPS_FOLDER_NAME = "flair_qgis_deps"
_NVIDIA_SMI_TIMEOUT_S = 5


class DependencyError(FlairError):
    """A dependency could not be installed; the text says what to run by hand."""


def deps_dir() -> str:
    """The folder the plugin installs its Python dependencies into (inside the QGIS profile)."""
    return os.path.join(QgsApplication.qgisSettingsDirPath(), "python", DEPS_FOLDER_NAME)


def activate_deps_dir(folder: str | None = None) -> bool:
    """Append the plugin's dependency folder to ``sys.path`` when it exists.

    Called when the plugin starts (``initGui``), never at import.

    Returns:
        True when the folder exists and is on ``sys.path``.
    """
    folder = folder or deps_dir()
    if not os.path.isdir(folder):
        return False
    if folder not in sys.path:
        sys.path.append(folder)
    importlib.invalidate_caches()
    return True


@dataclass(frozen=True)
class Requirement:
    """A third-party module the plugin imports and the packages that provide it.

    Attributes:
        module: the import name.
        debian: the Debian package providing it (``scripts/setup.sh`` installs it, or a package
            that depends on it).
        pip: the PyPI distribution this installer offers where QGIS lacks the module.
    """

    module: str
    debian: str
    pip: str
    osgeo4w: str = ""  # the OSGeo4W package (Windows), built against QGIS's own GDAL


REQUIREMENTS = (
    Requirement("numpy", "python3-numpy", "numpy", "python3-numpy"),
    Requirement("affine", "python3-affine", "affine", "python3-rasterio"),  # rasterio's dependency
    Requirement("rasterio", "python3-rasterio", "rasterio", "python3-rasterio"),
    Requirement("shapely", "python3-shapely", "shapely", "python3-shapely"),
    Requirement("geopandas", "python3-geopandas", "geopandas", "python3-geopandas"),
    Requirement(
        "pyproj", "python3-pyproj", "pyproj", "python3-pyproj"
    ),  # geopandas brings it; imported for its thread contexts
)
"""Modules the plugin cannot load without (Debian's QGIS has them; other installers may not)."""

ONNXRUNTIME = Requirement("onnxruntime", "", "onnxruntime")
"""Checked apart (:func:`onnxruntime_status`): not packaged by Debian, pip installs it everywhere."""

WITH_QGIS = (
    Requirement("qgis", "python3-qgis", ""),
    Requirement("osgeo", "python3-gdal", ""),
)
"""Shipped by every QGIS (its own Python API and GDAL's): never checked nor offered."""

OPTIONAL = (
    Requirement("distributed", "", "distributed"),
    Requirement("cloudpickle", "", "cloudpickle"),
    Requirement("bokeh", "", "bokeh"),
)
"""Only for runs on a Dask scheduler (``SCHEDULER``; :mod:`flair_qgis.scale`), which says what to
install when they are missing: not checked at start nor offered. ``make setup`` installs
distributed (requirements-dev.txt), which brings cloudpickle; bokeh (the Dask dashboard) is
used only when present."""

QUANTIZE = (Requirement("onnx", "", "onnx"),)
"""Only for ``flair:quantize`` (with ``onnxruntime.quantization``, which imports onnx): the plugin
loads and segments without it, and :func:`quantize_dependency_error` names it only when
``flair:quantize`` runs. ``make setup`` installs it into the project's venv (requirements-dev.txt);
a QGIS where the plugin was installed from a ZIP gets it with the command the error gives."""

QUANTIZE_MODULES = ("onnx", "onnxruntime.quantization")

VECTORIZE = (Requirement("scipy", "python3-scipy", "scipy", "python3-scipy"),)
"""Only for merging polygons (``MIN_AREA_M2`` and ``FILL_HOLES_M2`` of ``flair:vectorize`` and
``OUTPUT_VECTOR``, the dock's "Merge under" and "Fill holes under"): :mod:`flair_qgis.core.vectorize`
joins the region graph with ``scipy.sparse.csgraph``, imported inside the function that does it.
Exact polygons are labelled and traced with numpy alone. The plugin loads, segments and writes
exact polygons without scipy; :func:`require_vectorize` names it only when a merge is asked for.
``scripts/setup.sh`` installs it (python3-scipy), so the tests run."""

VECTORIZE_MODULES = ("scipy.sparse.csgraph",)


def optional_dependency_error(feature: str, modules: Sequence[str], install: str) -> str | None:
    """What to install before ``feature`` can run, or None when all of ``modules`` import.

    Imports the modules, so it is called only when the feature runs, never at plugin load.

    Args:
        feature: what needs them, e.g. ``"flair:quantize"``.
        modules: the import names it needs.
        install: what to do about them (a command to run).
    """
    failures = []
    for name in modules:
        try:
            importlib.import_module(name)
        except (ImportError, OSError) as err:  # OSError: a wheel whose shared libraries do not load
            failures.append(f"{name} ({err})")
    if not failures:
        return None
    return tr("{feature} needs {modules}, which segmenting alone does not: {failures}. {install}").format(
        feature=feature, modules=", ".join(modules), failures="; ".join(failures), install=install
    )


def quantize_dependency_error() -> str | None:
    """What to install before ``flair:quantize`` can run, or None when its modules import.

    ``onnxruntime.quantization`` fails to import without onnx, or with an onnx that does not fit it.
    """
    install = tr(
        "Install onnx into the plugin's folder with:\n{command}\n(make setup installs it into the project's "
        "environment from requirements-dev.txt.)"
    ).format(command=install_command_text(QUANTIZE[0].pip))
    return optional_dependency_error("flair:quantize", QUANTIZE_MODULES, install)


def vectorize_dependency_error(platform: str | None = None) -> str | None:
    """What to install before polygons can be written, or None when scipy's modules import."""
    install = tr("{advice}\nOr install scipy into the plugin's folder with:\n{command}").format(
        advice=platform_advice([VECTORIZE[0].module], platform, requirements=VECTORIZE),
        command=install_command_text(VECTORIZE[0].pip),
    )
    feature = tr("Merging polygons (MIN_AREA_M2, FILL_HOLES_M2; 'Merge under', 'Fill holes under')")
    return optional_dependency_error(feature, VECTORIZE_MODULES, install)


def require_vectorize(min_area_m2: float, fill_holes_m2: float) -> None:
    """Refuse merging regions where scipy is missing (before any run starts).

    Exact polygons and ``SIMPLIFY_M`` need no scipy: only the merges of ``MIN_AREA_M2`` and
    ``FILL_HOLES_M2`` join the region graph with ``scipy.sparse.csgraph``.

    Raises:
        DependencyError: its text says what to install.
    """
    if min_area_m2 <= 0 and fill_holes_m2 <= 0:
        return
    missing = vectorize_dependency_error()
    if missing:
        raise DependencyError(missing)


REQUIRED_MODULES = tuple(requirement.module for requirement in REQUIREMENTS)
"""The import names of :data:`REQUIREMENTS`, in the order the check reports them."""


def missing_modules(names: Sequence[str] = REQUIRED_MODULES) -> list[str]:
    """The modules of ``names`` this Python cannot import (looked up, not imported)."""
    missing = []
    for name in names:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            missing.append(name)
    return missing


def platform_advice(
    missing: Sequence[str],
    platform: str | None = None,
    osgeo4w_root: str | None = None,
    requirements: Sequence[Requirement] = REQUIREMENTS,
) -> str:
    """What to do about missing modules on this platform (docs/install.md gives the evidence).

    Windows: QGIS's OSGeo4W-based installers package rasterio, geopandas, shapely, pyproj and scipy
    built against QGIS's own GDAL; a rasterio wheel from PyPI bundles a second GDAL whose DLLs
    clash with QGIS's in one process, so OSGeo4W's ``setup.bat`` is the way. macOS: the QGIS.app
    bundle is signed, so nothing is installed into it; pip installs into the profile folder.
    Linux: the distribution's packages.

    Args:
        missing: import names, e.g. ``["rasterio", "geopandas"]``.
        platform: ``sys.platform`` by default.
        osgeo4w_root: the QGIS install folder (``OSGEO4W_ROOT``, set by QGIS's Windows launcher).
        requirements: where ``missing`` is looked up (:data:`VECTORIZE` for scipy).
    """
    platform = platform or sys.platform
    wanted = [r for r in requirements if r.module in missing]
    if platform.startswith("win"):
        packages = " ".join(f"-P {name}" for name in dict.fromkeys(r.osgeo4w for r in wanted if r.osgeo4w))
        root = osgeo4w_root if osgeo4w_root is not None else os.environ.get("OSGEO4W_ROOT", "")
        setup = f'"{ntpath.join(root, "bin", "setup.bat")}"' if root else "setup.bat"
        return tr(
            "On Windows, install them with QGIS's own installer, which builds them against QGIS's GDAL "
            "(as administrator, then restart QGIS):\n{command}\n"
            "A rasterio wheel from pip carries its own GDAL DLLs, which can clash with QGIS's."
        ).format(command=f"{setup} -q -k {packages}")
    if platform == "darwin":
        return tr(
            "On macOS nothing is installed inside QGIS.app (that would break its code signature): pip "
            "installs into your QGIS profile folder, and the wheels of rasterio and geopandas bring their own "
            "GDAL and GEOS."
        )
    debian = " ".join(dict.fromkeys(r.debian for r in wanted if r.debian))
    return tr("On Debian or Ubuntu, the system packages fit QGIS best: {command}").format(
        command=f"sudo apt install {debian}"
    )


def onnxruntime_status() -> tuple[bool, str]:
    """Whether onnxruntime imports, and its version or the reason it does not.

    Returns:
        ``(True, "1.17.0")`` or ``(False, "No module named 'onnxruntime'")``.
    """
    try:
        module = importlib.import_module("onnxruntime")
    except (ImportError, OSError) as err:  # OSError: a wheel whose shared libraries do not load
        return False, str(err)
    return True, str(getattr(module, "__version__", "?"))


def cuda_present() -> bool:
    """True when an NVIDIA driver answers ``nvidia-smi -L`` on this machine."""
    exe = shutil.which("nvidia-smi")
    if exe is None:
        return False
    try:
        done = subprocess.run([exe, "-L"], capture_output=True, timeout=_NVIDIA_SMI_TIMEOUT_S, check=False)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0 and b"GPU" in done.stdout


def onnxruntime_package(cuda: bool | None = None) -> str:
    """``onnxruntime-gpu`` when CUDA is present, else ``onnxruntime``."""
    if cuda is None:
        cuda = cuda_present()
    return "onnxruntime-gpu" if cuda else "onnxruntime"


def python_executable() -> str:
    """The Python interpreter of this QGIS (``sys.executable`` is QGIS itself inside the desktop)."""
    exe = sys.executable or ""
    if os.path.basename(exe).lower().startswith("python"):
        return exe
    names = ("python.exe", "python3.exe") if os.name == "nt" else (
        f"python{sys.version_info.major}.{sys.version_info.minor}", "python3", "python")  # fmt: skip
    for folder in (sys.exec_prefix, os.path.join(sys.exec_prefix, "bin"), os.path.dirname(exe)):
        for name in names:
            candidate = os.path.join(folder, name)
            if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
                return candidate
    return shutil.which("python3") or shutil.which("python") or "python3"


def numpy_pin() -> str | None:
    """``numpy==<version QGIS runs>``, or None when numpy is not importable."""
    try:
        import numpy
    except ImportError:
        return None
    return f"numpy=={numpy.__version__}"


def pip_arguments(package: str, target: str, constraints_file: str | None = None) -> list[str]:
    """The pip command line installing ``package`` (one or more space-separated requirements) into ``target``."""
    args = [python_executable(), "-m", "pip", "install", "--disable-pip-version-check", "--upgrade",
            "--target", target]  # fmt: skip
    if constraints_file:
        args += ["--constraint", constraints_file]
    return [*args, *package.split()]


def install_command_text(package: str | None = None, target: str | None = None) -> str:
    """The exact command a user can paste into a terminal (quoted for this platform)."""
    args = pip_arguments(package or onnxruntime_package(), target or deps_dir())
    pin = numpy_pin()
    if pin:
        # The constraint file is temporary in the one-click install; by hand, pin numpy directly.
        args.insert(len(args) - len((package or onnxruntime_package()).split()), pin)
    if os.name == "nt":
        return subprocess.list2cmdline(args)
    return shlex.join(args)


def install(
    package: str,
    target: str,
    *,
    on_output: Callable[[str], None] | None = None,
    is_canceled: Callable[[], bool] | None = None,
    extra_args: Sequence[str] = (),
) -> None:
    """``pip install --target`` a package, numpy pinned to the running version.

    Args:
        package: requirement or wheel path.
        target: folder to install into (created).
        on_output: receives pip's output lines.
        is_canceled: polled between output lines; True stops pip.
        extra_args: more pip options (``--no-index`` in tests).

    Raises:
        DependencyError: pip failed or was stopped; the text holds the command to run by hand.
    """
    os.makedirs(target, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="flair_qgis_pip_") as tmp:
        constraints = None
        pin = numpy_pin()
        if pin:
            constraints = os.path.join(tmp, "constraints.txt")
            with open(constraints, "w", encoding="utf-8") as handle:
                handle.write(pin + "\n")
        args = pip_arguments(package, target, constraints)
        args[-1:-1] = list(extra_args)
        env = dict(os.environ, PIP_NO_INPUT="1", PYTHONNOUSERSITE="1")
        try:
            process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        except OSError as err:
            raise DependencyError(
                f"Could not start pip ({err}). Run this command in a terminal:\n{install_command_text(package, target)}"
            ) from err
        tail: list[str] = []
        assert process.stdout is not None
        for line in process.stdout:
            tail = ([*tail, line.rstrip()])[-20:]
            if on_output is not None:
                on_output(line.rstrip())
            if is_canceled is not None and is_canceled():
                process.kill()
                process.wait()
                raise DependencyError("The installation was stopped.")
        code = process.wait()
    if code != 0:
        raise DependencyError(
            f"pip could not install {package} (exit code {code}):\n"
            + "\n".join(tail[-8:])
            + f"\n\nRun this command in a terminal instead:\n{install_command_text(package, target)}"
        )
    activate_deps_dir(target)


class InstallTask(QgsTask):
    """Installs a package with pip in the background (QGIS task bar), then reports on the main thread.

    Args:
        package: requirement to install.
        target: folder to install into.
        done: called on the main thread with ``(ok, message)``.
    """

    def __init__(self, package: str, target: str, done: Callable[[bool, str], None]) -> None:
        super().__init__(f"Installing {package}", QgsTask.Flag.CanCancel)
        self.package = package
        self.target = target
        self.done = done
        self.error = ""
        self.lines = 0

    def _on_output(self, _line: str) -> None:
        # pip gives no percentage: show movement so the user sees it is working.
        self.lines += 1
        self.setProgress(min(95.0, 5.0 * self.lines))

    def run(self) -> bool:
        try:
            install(self.package, self.target, on_output=self._on_output, is_canceled=self.isCanceled)
        except DependencyError as err:
            self.error = str(err)
            return False
        return True

    def finished(self, result: bool) -> None:
        if result:
            activate_deps_dir(self.target)
            ok, detail = onnxruntime_status() if self.package.startswith("onnxruntime") else (True, "")
            self.done(ok, detail if ok else f"Installed, but onnxruntime does not import: {detail}")
        else:
            self.done(False, self.error or "The installation was canceled.")
