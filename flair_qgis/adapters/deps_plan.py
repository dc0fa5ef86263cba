"""What the dependency dialog offers: which packages pip installs, which ones come from elsewhere, from
where, how many MB, and what a failed onnxruntime import means. Pure functions of their arguments.

The download sizes are pip's own choice for each platform (``pip install --dry-run --report
--platform ... --python-version ... --only-binary=:all:``, wheel sizes from the registry), recorded in
docs/install.md and re-checked by ``tests/test_deps_resolution.py`` where the registry answers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..i18n import tr
from .deps_platform import onnxruntime_requirement, shown_proxy

RUNTIME_MB = {"win32": 38, "darwin-arm64": 39, "darwin-x86_64": 62, "linux": 45}
"""MB downloaded for onnxruntime and onnx with their dependencies (numpy included), Python 3.12."""
GPU_MB = 1360
"""MB downloaded for onnxruntime-gpu[cuda,cudnn] and onnx on Windows, Python 3.12 (15 wheels)."""
GEO_MB = 85
"""MB downloaded for rasterio, geopandas, shapely and pyproj with their dependencies (pandas, pyogrio)."""

PYPI = "https://pypi.org"


@dataclass(frozen=True)
class InstallPlan:
    """What the dialog offers.

    Attributes:
        pip: the requirements pip installs (empty: nothing to offer, the text says what to do).
        elsewhere: the modules the user installs another way (QGIS's own installer on Windows).
        megabytes: the estimated download.
        gpu: the GPU build with NVIDIA's CUDA wheels is part of it.
    """

    pip: tuple[str, ...]
    elsewhere: tuple[str, ...]
    megabytes: int
    gpu: bool


def platform_key(platform: str, machine: str) -> str:
    """The :data:`RUNTIME_MB` key of this platform (``machine``: ``platform.machine()``)."""
    if platform.startswith("win"):
        return "win32"
    if platform == "darwin":
        return "darwin-arm64" if machine.lower() in ("arm64", "aarch64") else "darwin-x86_64"
    return "linux"


def install_plan(
    missing: Sequence[str],
    runtime: bool,
    *,
    platform: str,
    machine: str,
    cuda: bool,
    driver_cuda: int | None,
    version: Sequence[int],
) -> InstallPlan:
    """The packages to install for ``missing`` modules (and onnxruntime with onnx when ``runtime``).

    On Windows the geospatial modules are never offered through pip: their wheels bring a GDAL of
    their own whose DLLs clash with QGIS's; QGIS's installer (OSGeo4W) builds them against its GDAL.
    """
    pip: list[str] = []
    elsewhere: list[str] = []
    megabytes = 0
    gpu = False
    if runtime:
        requirement = onnxruntime_requirement(cuda, driver_cuda, version)
        gpu = requirement.startswith("onnxruntime-gpu")
        pip += [requirement, "onnx"]
        megabytes += GPU_MB if gpu else RUNTIME_MB[platform_key(platform, machine)]
    geo = [name for name in missing if name not in ("onnxruntime", "onnx")]
    if geo and platform.startswith("win"):
        elsewhere += geo
    elif geo:
        pip += geo
        megabytes += GEO_MB
    return InstallPlan(tuple(pip), tuple(elsewhere), megabytes, gpu)


def plan_text(plan: InstallPlan, target: str, python: str | None, proxy: str | None, command: str) -> str:
    """The dialog's text: what pip installs, from where, how much, into which folder, with which Python."""
    if not plan.pip:
        return ""
    source = PYPI if not proxy else tr("{index} through the proxy {proxy}").format(index=PYPI, proxy=shown_proxy(proxy))
    size = tr("about {mb} MB").format(mb=f"{plan.megabytes:,}".replace(",", " "))
    if plan.gpu:
        size = tr("{size}, most of it NVIDIA's CUDA and cuDNN wheels for the GPU").format(size=size)
    if python is None:
        return tr(
            "The Python interpreter of this QGIS was not found next to it, so the plugin cannot run pip. "
            "Open a terminal and run this command (on macOS the interpreter is inside QGIS.app, as shown), "
            "then restart QGIS:\n{command}"
        ).format(command=command)
    return tr(
        "Install {packages} with pip?\nFrom: {source}\nDownload: {size}\nInto: {target} (used only by this "
        "plugin)\nWith: {python}"
    ).format(packages=", ".join(plan.pip), source=source, size=size, target=target, python=python)


def dll_clash_advice(platform: str, error: str, command: str) -> str | None:
    """What a failed onnxruntime import on Windows means, or None when it is not the DLL clash.

    Inside QGIS, Qt and QGIS load their Microsoft C++ runtime (``msvcp140.dll``) before onnxruntime;
    when that copy is older than the one onnxruntime was built with, onnxruntime's DLL fails to
    initialise ("DLL load failed while importing onnxruntime_pybind11_state"): onnxruntime issue
    26127, the same clash with PyQt5 imported first.
    """
    if not platform.startswith("win") or "dll load failed" not in error.lower():
        return None
    return tr(
        "onnxruntime is installed but its DLL did not load inside QGIS ({error}). This is the clash of "
        "onnxruntime issue 26127: QGIS loads an older Microsoft C++ runtime (msvcp140.dll) before "
        "onnxruntime. Install the latest Microsoft Visual C++ Redistributable 2015-2022 (x64) from "
        "https://aka.ms/vs/17/release/vc_redist.x64.exe and restart QGIS; if QGIS still ships the older "
        "copy, update QGIS, or install an onnxruntime built with the older runtime:\n{command}"
    ).format(error=error, command=command)
