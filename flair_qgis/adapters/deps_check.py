"""Which third-party modules the plugin needs, which ones a feature needs, and what to do when one is missing.

:data:`REQUIREMENTS` lists every third-party module the plugin cannot load without, with the Debian
package (installed by ``scripts/setup.sh``) and the pip distribution (offered by the installer,
:mod:`.deps_install`) that provide it; :data:`QUANTIZE`, :data:`VECTORIZE` and :data:`REVIEW` the
ones only one feature needs, checked when it runs; ``tests/test_imports.py`` fails when a module in ``flair_qgis/``
imports anything else. rtree is deliberately absent: polygon references are indexed with shapely's
``STRtree`` (shapely 1.8 and 2.x), and rtree 1.4.1 from PyPI crashed QGIS 3.22 during scoring, so it
is never offered.
"""

from __future__ import annotations

import importlib
import importlib.util
import ntpath
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from ..i18n import tr
from .deps_install import DependencyError, install_command_text


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
"""Needed by ``flair:quantize`` (with ``onnxruntime.quantization``, which imports onnx), and used by
segmentation to wrap the model's graph (:data:`~flair_qgis.adapters.deps_install.FAST_PATH`: the
dependency dialog installs it with onnxruntime). The plugin loads and segments without it (on the
host path, with a warning), and :func:`quantize_dependency_error` names it when ``flair:quantize``
runs. ``make setup`` installs it into the project's venv (requirements-dev.txt);
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

REVIEW = VECTORIZE
"""The review's confidence intervals need scipy too (the same package): Clopper-Pearson and
Korn-Graubard bounds are beta quantiles (``scipy.special.betaincinv``), the degrees-of-freedom factor
Student's t (``scipy.stats``), imported inside :mod:`flair_qgis.core.review.intervals`. Without it
``flair:review_report`` and the Review tab still give every estimate and standard error; the
intervals are null with a note saying what to install, and :func:`review_dependency_error` words it."""

REVIEW_MODULES = ("scipy.special", "scipy.stats")


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


def onnx_dependency_error(feature: str, modules: Sequence[str] = ("onnx",)) -> str | None:
    """What to install before ``feature``, which needs the onnx package, can run, or None when
    ``modules`` import."""
    install = tr(
        "Install onnx into the plugin's folder with:\n{command}\n(make setup installs it into the project's "
        "environment from requirements-dev.txt.)"
    ).format(command=install_command_text(QUANTIZE[0].pip))
    return optional_dependency_error(feature, modules, install)


def quantize_dependency_error() -> str | None:
    """What to install before ``flair:quantize`` can run, or None when its modules import.

    ``onnxruntime.quantization`` fails to import without onnx, or with an onnx that does not fit it.
    """
    return onnx_dependency_error("flair:quantize", QUANTIZE_MODULES)


def vectorize_dependency_error(platform: str | None = None) -> str | None:
    """What to install before polygons can be written, or None when scipy's modules import."""
    install = tr("{advice}\nOr install scipy into the plugin's folder with:\n{command}").format(
        advice=platform_advice([VECTORIZE[0].module], platform, requirements=VECTORIZE),
        command=install_command_text(VECTORIZE[0].pip),
    )
    feature = tr("Merging polygons (MIN_AREA_M2, FILL_HOLES_M2; 'Merge under', 'Fill holes under')")
    return optional_dependency_error(feature, VECTORIZE_MODULES, install)


def review_dependency_error(platform: str | None = None) -> str | None:
    """What to install before the review's figures get their intervals, or None when scipy imports."""
    install = tr("{advice}\nOr install scipy into the plugin's folder with:\n{command}").format(
        advice=platform_advice([REVIEW[0].module], platform, requirements=REVIEW),
        command=install_command_text(REVIEW[0].pip),
    )
    return optional_dependency_error(tr("Computing the review's intervals"), REVIEW_MODULES, install)


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
