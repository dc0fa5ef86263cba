"""CUDA's shared libraries for onnxruntime-gpu: load them before the first CUDA session, name the missing one.

onnxruntime-gpu's CUDA provider links the NVIDIA driver (``libcuda``), the CUDA runtime, cuBLAS,
cuRAND and cuFFT, and loads cuDNN. A machine with only the driver has none of the others; the
``onnxruntime-gpu[cuda,cudnn]`` extras bring them as wheels under ``site-packages/nvidia``, which
``onnxruntime.preload_dlls()`` (onnxruntime >= 1.21) loads. From CUDA 13 those wheels moved into
one ``nvidia/cu13`` package (``lib`` on Linux, ``bin/x86_64`` on Windows; cuDNN stays in
``nvidia/cudnn``), which onnxruntime's preload found only from its fix of issue #29198; so
:func:`prepare_cuda` also loads every library itself from both layouts, then by name.

When CUDA still does not load, onnxruntime only logs it and runs on the CPU: :func:`prepare_cuda`
has tried each library with a real ``dlopen``, and :func:`failure_reason` names the first that
failed and what installs it. :func:`list_gpus` names the GPUs (the dock's device list, ``--gpus``).

A shared module (standard library only; onnxruntime inside the functions): the dependency dialog
imports it where rasterio may be missing, so it lives outside the ``segment`` package.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import io
import os
import platform
import shutil
import site
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "CUDA12_PACKAGE",
    "CudaCheck",
    "CudaLibrary",
    "Gpu",
    "cuda_libraries",
    "driver_cuda_major",
    "driver_reason",
    "failure_reason",
    "find_library",
    "list_gpus",
    "load_libraries",
    "no_window_options",
    "nvidia_dirs",
    "parse_driver_cuda",
    "parse_gpu_query",
    "prepare_cuda",
]

PIP_FIX = "pip install 'onnxruntime-gpu[cuda,cudnn]' in the plugin's Python"


@dataclass(frozen=True)
class CudaLibrary:
    """One shared library the CUDA provider needs.

    Attributes:
        name: the file name the loader looks for (``libcudnn.so.9``, ``cudnn64_9.dll``).
        fix: what installs it when it is missing.
    """

    name: str
    fix: str


@dataclass(frozen=True)
class CudaCheck:
    """What :func:`prepare_cuda` found.

    Attributes:
        missing: ``(library, loader error)`` of each library that did not load, in load order.
        loaded: the paths or names that loaded.
        preload_output: what ``onnxruntime.preload_dlls()`` printed (it prints instead of raising).
        built_cuda: the CUDA major version onnxruntime-gpu was built for.
        driver_cuda: the newest CUDA the driver runs, e.g. ``12020`` for 12.2 (``cuDriverGetVersion``),
            or None when the driver does not load.
    """

    missing: tuple[tuple[CudaLibrary, str], ...] = ()
    loaded: tuple[str, ...] = ()
    preload_output: str = ""
    built_cuda: int = 13
    driver_cuda: int | None = None


LAST_CUDA12_RELEASE = "1.26"
"""The last onnxruntime-gpu on PyPI built for CUDA 12 (1.27 and later: CUDA 13; 1.27's extras name
wheels that do not exist)."""

CUDA12_PACKAGE = "onnxruntime-gpu[cuda,cudnn]<1.27"
"""What a driver older than CUDA 13 runs (``scripts/setup.sh`` and the dependency dialog choose it)."""


def parse_driver_cuda(smi_text: str) -> int | None:
    """The CUDA major version in ``nvidia-smi``'s header (``CUDA Version: 12.2``), or None."""
    marker = "CUDA Version:"
    if marker not in smi_text:
        return None
    version = (smi_text.split(marker, 1)[1].split(maxsplit=1) or [""])[0]
    major = version.split(".", maxsplit=1)[0]
    return int(major) if major.isdigit() else None


def cuda_libraries(cuda_major: int, windows: bool = False, cudnn_major: int = 9) -> tuple[CudaLibrary, ...]:
    """The libraries onnxruntime-gpu built for CUDA ``cuda_major`` needs, dependencies first.

    cuFFT's major version is CUDA's minus one (11 with CUDA 12, 12 with CUDA 13); cuRAND's is 10.
    """
    toolkit = f"{PIP_FIX}, or install the CUDA {cuda_major} toolkit"
    cudnn = f"{PIP_FIX}, or install cuDNN {cudnn_major}"
    cufft = cuda_major - 1
    if windows:
        names = [
            f"cudart64_{cuda_major}.dll",
            f"cublasLt64_{cuda_major}.dll",
            f"cublas64_{cuda_major}.dll",
            f"cufft64_{cufft}.dll",
        ]
        driver = CudaLibrary("nvcuda.dll", "install the NVIDIA driver")
        return (driver, *(CudaLibrary(n, toolkit) for n in names), CudaLibrary(f"cudnn64_{cudnn_major}.dll", cudnn))
    names = [
        f"libcudart.so.{cuda_major}",
        f"libcublasLt.so.{cuda_major}",
        f"libcublas.so.{cuda_major}",
        "libcurand.so.10",
        f"libcufft.so.{cufft}",
    ]
    driver = CudaLibrary("libcuda.so.1", "install the NVIDIA driver (nvidia-smi must answer)")
    return (driver, *(CudaLibrary(n, toolkit) for n in names), CudaLibrary(f"libcudnn.so.{cudnn_major}", cudnn))


def nvidia_dirs(site_dirs: Sequence[str], cuda_major: int, windows: bool = False) -> list[str]:
    """The folders of ``site_dirs`` where NVIDIA's wheels put CUDA and cuDNN, those that exist.

    CUDA >= 13 has one package per CUDA version (``nvidia/cu13/lib``; ``nvidia/cu13/bin/x86_64``
    on Windows); CUDA 12 one per component (``nvidia/cublas/lib``...). cuDNN is ``nvidia/cudnn``.
    """
    sub = ("bin",) if windows else ("lib",)
    arch = ("bin", "arm64" if platform.machine().lower() in ("arm64", "aarch64") else "x86_64")
    if cuda_major >= 13:
        parts = [(f"cu{cuda_major}", *(arch if windows else sub))]
    else:
        parts = [(component, *sub) for component in ("cuda_runtime", "cublas", "curand", "cufft", "cuda_nvrtc")]
    parts.append(("cudnn", *sub))
    found = []
    for root in site_dirs:
        for part in parts:
            folder = os.path.join(root, "nvidia", *part)
            if os.path.isdir(folder) and folder not in found:
                found.append(folder)
    return found


def find_library(name: str, folders: Sequence[str]) -> str | None:
    """The first ``folder/name`` that is a file, or None (then the loader's own search path decides)."""
    for folder in folders:
        path = os.path.join(folder, name)
        if os.path.isfile(path):
            return path
    return None


def load_libraries(libraries: Sequence[CudaLibrary], folders: Sequence[str]) -> CudaCheck:
    """``dlopen`` each library, from ``folders`` when it is there, else by name; globally visible.

    Loaded globally (``RTLD_GLOBAL``) so the CUDA provider's own references resolve to them. A name
    already loaded (by ``preload_dlls`` or PyTorch) loads again at no cost.
    """
    missing, loaded = [], []
    for library in libraries:
        target = find_library(library.name, folders) or library.name
        try:
            ctypes.CDLL(target, mode=getattr(ctypes, "RTLD_GLOBAL", 0))
        except OSError as err:
            # A found file failing on a dependency is reported by the dependency's name alone.
            text = str(err) if target == library.name or str(err).startswith(target) else f"{target}: {err}"
            missing.append((library, text))
        else:
            loaded.append(target)
    return CudaCheck(missing=tuple(missing), loaded=tuple(loaded))


def driver_reason(check: CudaCheck) -> str:
    """Why a driver that loads cannot run this onnxruntime-gpu (too old a CUDA); ``""`` when it can."""
    if check.driver_cuda is None or check.driver_cuda // 1000 >= check.built_cuda:
        return ""
    driver = f"{check.driver_cuda // 1000}.{check.driver_cuda % 1000 // 10}"
    return (
        f"the NVIDIA driver runs CUDA up to {driver} but this onnxruntime-gpu needs CUDA {check.built_cuda}: "
        f"update the driver, or pip install '{CUDA12_PACKAGE}' (CUDA 12) in the plugin's Python"
    )


def failure_reason(check: CudaCheck) -> str:
    """Why CUDA does not load and how to fix it, from the first missing library; ``""`` when none is.

    A library found nowhere is "not found"; one found but failing (a damaged file, or one of its
    own dependencies missing) "could not be loaded", with the loader's words.
    """
    if not check.missing:
        return driver_reason(check)
    library, error = check.missing[0]
    # The loader's message starts with what was asked for: a path when the file was found.
    found_nowhere = os.sep not in error.split(":", 1)[0]
    what = "not found" if found_nowhere else f"could not be loaded ({error})"
    others = [lib.name for lib, _ in check.missing[1:]]
    also = f" (also missing: {', '.join(others)})" if others else ""
    return f"{library.name} {what}{also}: {library.fix}"


_LOCK = threading.Lock()
_DONE: dict[str, CudaCheck] = {}  # the one check of this process, under "check"


def prepare_cuda(site_dirs: Sequence[str] | None = None) -> CudaCheck:
    """Load CUDA's libraries before the first CUDA session, once per process; the result is kept.

    Calls ``onnxruntime.preload_dlls()`` when the installed onnxruntime has it, then
    :func:`load_libraries` from :func:`nvidia_dirs` (both wheel layouts), then by name.

    Args:
        site_dirs: where NVIDIA's wheels may be (default: this Python's site-packages and ``sys.path``).
    """
    with _LOCK:
        if "check" not in _DONE:
            _DONE["check"] = _prepare(site_dirs)
        return _DONE["check"]


def _prepare(site_dirs: Sequence[str] | None) -> CudaCheck:
    import onnxruntime as ort

    preload: Callable[[], None] | None = getattr(ort, "preload_dlls", None)
    printed = io.StringIO()
    if preload is not None:
        # It prints what fails instead of raising; kept for the log. A missing folder raises.
        with contextlib.redirect_stdout(printed), contextlib.suppress(RuntimeError, OSError):
            preload()
    cuda_major = _built_cuda_major()
    windows = sys.platform.startswith("win")
    if site_dirs is None:
        site_dirs = [*site.getsitepackages(), site.getusersitepackages(), *sys.path]
    check = load_libraries(cuda_libraries(cuda_major, windows), nvidia_dirs(site_dirs, cuda_major, windows))
    return CudaCheck(check.missing, check.loaded, printed.getvalue(), cuda_major, _driver_cuda(windows))


def _driver_cuda(windows: bool) -> int | None:
    """``cuDriverGetVersion`` of the NVIDIA driver's library, or None when it does not load."""
    try:
        driver = ctypes.CDLL("nvcuda.dll" if windows else "libcuda.so.1")
        version = ctypes.c_int(0)
        return version.value if driver.cuDriverGetVersion(ctypes.byref(version)) == 0 else None
    except (OSError, AttributeError):
        return None


def _built_cuda_major() -> int:
    """The CUDA major version the installed onnxruntime-gpu was built for (12 when it does not say)."""
    try:
        from onnxruntime.capi import build_and_package_info as info

        return int(str(getattr(info, "cuda_version", "") or "12").split(".")[0])
    except (ImportError, ValueError):
        return 12


@dataclass(frozen=True)
class Gpu:
    """An NVIDIA GPU as the driver lists it.

    Attributes:
        index: the driver's index, what ``CUDA_VISIBLE_DEVICES`` takes (``"0"``).
        name: e.g. ``NVIDIA H200``.
    """

    index: str
    name: str


NVIDIA_SMI_TIMEOUT_S = 3.0
"""At most this long for ``nvidia-smi`` (it answers in well under a second when the driver is loaded)."""


def parse_gpu_query(text: str) -> tuple[Gpu, ...]:
    """The GPUs of ``nvidia-smi --query-gpu=index,name --format=csv,noheader`` output."""
    gpus = []
    for line in text.splitlines():
        index, _, name = line.partition(",")
        if index.strip().isdigit():
            gpus.append(Gpu(index.strip(), name.strip()))
    return tuple(gpus)


CREATE_NO_WINDOW = 0x08000000
"""``subprocess.CREATE_NO_WINDOW`` (Python defines it only on Windows)."""


def no_window_options(platform: str, startupinfo_factory: Callable[[], object] | None = None) -> dict[str, Any]:
    """``subprocess`` keyword arguments that keep a console window from flashing on Windows; none elsewhere.

    Used for every program the plugin starts (``nvidia-smi`` here, pip in the dependency installer).

    Args:
        platform: ``sys.platform``.
        startupinfo_factory: ``subprocess.STARTUPINFO`` on Windows: its window is hidden too
            (``STARTF_USESHOWWINDOW`` with ``SW_HIDE``), for programs that open one of their own.
    """
    if not platform.startswith("win"):
        return {}
    options: dict[str, Any] = {"creationflags": CREATE_NO_WINDOW}
    if startupinfo_factory is not None:
        info: Any = startupinfo_factory()
        info.dwFlags |= 1  # STARTF_USESHOWWINDOW
        info.wShowWindow = 0  # SW_HIDE
        options["startupinfo"] = info
    return options


def _nvidia_smi(*args: str) -> str | None:
    """``nvidia-smi``'s output, or None where it is absent, fails or takes over :data:`NVIDIA_SMI_TIMEOUT_S`."""
    exe = shutil.which("nvidia-smi")
    if exe is None:
        return None
    quiet = no_window_options(sys.platform, getattr(subprocess, "STARTUPINFO", None))
    try:
        # Bandit B603 (a subprocess): a fixed argument list, no shell, the NVIDIA driver's own tool from PATH.
        done = subprocess.run(  # nosec B603
            [exe, *args], capture_output=True, text=True, timeout=NVIDIA_SMI_TIMEOUT_S, check=False, **quiet
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


@functools.cache
def list_gpus() -> tuple[Gpu, ...]:
    """The GPUs the NVIDIA driver lists (``nvidia-smi``), asked once per process; ``()`` without a driver.

    Costs nothing where ``nvidia-smi`` is not on ``PATH``; otherwise at most
    :data:`NVIDIA_SMI_TIMEOUT_S`, once. ``list_gpus.cache_clear()`` asks again.
    """
    text = _nvidia_smi("--query-gpu=index,name", "--format=csv,noheader")
    return parse_gpu_query(text) if text is not None else ()


def driver_cuda_major() -> int | None:
    """The CUDA major version the NVIDIA driver runs (``nvidia-smi``'s header), or None without a driver."""
    text = _nvidia_smi()
    return parse_driver_cuda(text) if text is not None else None
