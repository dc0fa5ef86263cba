"""onnxruntime as a dependency: is it importable, which package fits this machine, installing it.

QGIS ships without onnxruntime. The plugin never installs anything at import time or silently:
the dock shows the exact command for the user's platform and offers a one-click install that
the user confirms. That install runs ``pip install --target`` into a folder the plugin owns, one
per Python version (``flair_qgis_deps/python3.12``: in the QGIS profile, on Windows in
``%LOCALAPPDATA%``; :mod:`.deps_platform`), which :func:`activate_deps_dir` appends to
``sys.path`` when the plugin starts. Appending (not prepending) keeps QGIS's own numpy first;
numpy is also pinned to the version QGIS already has, so pip never brings a second one that
would break GDAL's array bindings.

onnxruntime and onnxruntime-gpu overwrite each other's files: exactly one is installed,
onnxruntime-gpu when an NVIDIA driver answers (``nvidia-smi -L``), with its ``[cuda,cudnn]``
extras: a machine with only the driver has no CUDA runtime nor cuDNN for it to load, and
``scripts/setup.sh`` makes the same choice.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import platform
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence

from qgis.core import QgsApplication, QgsSettings, QgsTask

from ..core.cuda import driver_cuda_major, list_gpus, no_window_options
from ..core.errors import FlairError
from ..i18n import tr
from .deps_plan import InstallPlan, dll_clash_advice, install_plan, plan_text
from .deps_platform import (
    MIN_ONNXRUNTIME,
    MIN_ONNXRUNTIME_GPU,
    deps_dir_for,
    ensurepip_arguments,
    find_python,
    guessed_python,
    onnxruntime_requirement,
    pip_env,
    proxy_url,
    shown_proxy,
    version_at_least,
)
from .deps_platform import pip_arguments as platform_pip_arguments


class DependencyError(FlairError):
    """A dependency could not be installed; the text says what to run by hand."""


def deps_dir() -> str:
    """The folder the plugin installs its Python dependencies into, for this Python (see ``deps_dir_for``)."""
    return deps_dir_for(sys.platform, os.environ, QgsApplication.qgisSettingsDirPath().rstrip("/\\"), sys.version_info)


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


def onnxruntime_status() -> tuple[bool, str]:
    """Whether a recent enough onnxruntime imports, and its version or the reason it does not.

    Returns:
        ``(True, "1.22.0")``, or ``(False, reason)``: not installed, older than :data:`MIN_ONNXRUNTIME`,
        or (Windows) its DLL clashing with QGIS's C++ runtime, with the fix.
    """
    try:
        module = importlib.import_module("onnxruntime")
    except (ImportError, OSError) as err:  # OSError: a wheel whose shared libraries do not load
        older = install_command_text(f"onnxruntime>={MIN_ONNXRUNTIME},<1.22")
        return False, dll_clash_advice(sys.platform, str(err), older) or str(err)
    version = str(getattr(module, "__version__", "0"))
    if not version_at_least(version, MIN_ONNXRUNTIME):
        return False, tr("onnxruntime {version} is older than the {minimum} the plugin needs").format(
            version=version, minimum=MIN_ONNXRUNTIME
        )
    return True, version


def cuda_present() -> bool:
    """True when the NVIDIA driver lists a GPU on this machine (``nvidia-smi``, asked once)."""
    return bool(list_gpus())


def gpu_present() -> bool:
    """True when the NVIDIA driver lists a GPU (asked once per process, as for :func:`cuda_label`)."""
    return bool(list_gpus())


def cuda_label() -> str:
    """The dock's name for the CUDA device: ``CUDA — NVIDIA H200`` where the driver names a GPU, else ``CUDA``.

    The driver is asked once per process (:func:`~flair_qgis.core.cuda.list_gpus`, with a
    timeout; nothing to ask where ``nvidia-smi`` is absent).
    """
    names = list(dict.fromkeys(gpu.name for gpu in list_gpus()))
    count = len(list_gpus())
    if not names:
        return "CUDA"
    return f"CUDA — {count} × {names[0]}" if count > 1 and len(names) == 1 else f"CUDA — {', '.join(names)}"


GPU_DISTRIBUTION = "onnxruntime-gpu[cuda,cudnn]"
"""onnxruntime-gpu with the CUDA and cuDNN wheels it loads (``onnxruntime.preload_dlls``): what the
dock names to the user."""

GPU_PACKAGE = f"{GPU_DISTRIBUTION}>={MIN_ONNXRUNTIME_GPU}"
"""The requirement pip gets for :data:`GPU_DISTRIBUTION`."""


def onnxruntime_package(cuda: bool | None = None, driver_cuda: int | None = None) -> str:
    """:data:`GPU_PACKAGE` when an NVIDIA driver answers (and this Python has its wheels), else
    ``onnxruntime``, each with its minimum version (:func:`.deps_platform.onnxruntime_requirement`).

    A driver older than CUDA 13 (``driver_cuda``, read from ``nvidia-smi`` when ``cuda`` is not
    given) gets the last onnxruntime-gpu built for CUDA 12 (:data:`~flair_qgis.core.cuda.CUDA12_PACKAGE`),
    as ``scripts/setup.sh`` does.
    """
    if cuda is None:
        cuda = cuda_present()
        driver_cuda = driver_cuda_major() if cuda else None
    return onnxruntime_requirement(cuda, driver_cuda, sys.version_info)


FAST_PATH = "onnx"
"""Installed with onnxruntime (:func:`runtime_packages`): the engine wraps the model's graph with it,
so normalisation and the argmax run on the device and 1 byte per pixel comes back instead of the
logits (docs/gpu.md). Segmentation runs without it, on the host path, and says so."""


def runtime_packages(cuda: bool | None = None, driver_cuda: int | None = None) -> str:
    """What the dependency dialog installs: :func:`onnxruntime_package` and :data:`FAST_PATH`."""
    return f"{onnxruntime_package(cuda, driver_cuda)} {FAST_PATH}"


def find_qgis_python() -> str | None:
    """The Python interpreter of this QGIS (``sys.executable`` is QGIS itself inside the desktop), or
    None when it is not found next to it (:func:`.deps_platform.find_python`; never one from ``PATH``)."""
    return find_python(sys.platform, sys.executable or "", sys.exec_prefix, sys.version_info, os.path.isfile)


def machine_plan(missing: Sequence[str] = (), runtime: bool = True) -> InstallPlan:
    """:func:`.deps_plan.install_plan` for this machine (its platform, GPU, driver and Python)."""
    cuda = runtime and cuda_present()
    driver = driver_cuda_major() if cuda else None
    return install_plan(
        missing,
        runtime,
        platform=sys.platform,
        machine=platform.machine(),
        cuda=cuda,
        driver_cuda=driver,
        version=sys.version_info,
    )


def machine_plan_text(plan: InstallPlan, target: str) -> str:
    """What the dialog says about ``plan`` here: :func:`.deps_plan.plan_text` with this QGIS's Python and proxy."""
    command = install_command_text(" ".join(plan.pip), target) if plan.pip else ""
    return plan_text(plan, target, find_qgis_python(), qgis_proxy(), command)


def python_executable() -> str:
    """:func:`find_qgis_python`, or what to type instead when it is not found (for commands shown)."""
    return find_qgis_python() or guessed_python(sys.platform)


def qgis_proxy() -> str | None:
    """The proxy of QGIS's network settings as a URL for pip (:func:`.deps_platform.proxy_url`)."""
    settings = QgsSettings()
    keys = ("proxyEnabled", "proxyType", "proxyHost", "proxyPort", "proxyUser", "proxyPassword")
    return proxy_url({f"proxy/{key}": settings.value(f"proxy/{key}", "") for key in keys})


def numpy_pin() -> str | None:
    """``numpy==<version QGIS runs>``, or None when numpy is not importable."""
    try:
        import numpy
    except ImportError:
        return None
    return f"numpy=={numpy.__version__}"


def pip_arguments(package: str, target: str, constraints_file: str | None = None) -> list[str]:
    """The pip command line installing ``package`` (one or more space-separated requirements) into ``target``."""
    return platform_pip_arguments(python_executable(), package.split(), target, constraints_file)


def install_command_text(package: str | None = None, target: str | None = None) -> str:
    """The exact command a user can paste into a terminal (quoted for this platform; QGIS's proxy
    named without its password)."""
    package = package or runtime_packages()
    args = pip_arguments(package, target or deps_dir())
    pin = numpy_pin()
    if pin:
        # The constraint file is temporary in the one-click install; by hand, pin numpy directly.
        args.insert(len(args) - len(package.split()), pin)
    proxy = qgis_proxy()
    if proxy:
        args.insert(len(args) - len(package.split()), f"--proxy={shown_proxy(proxy)}")
    if os.name == "nt":
        return subprocess.list2cmdline(args)
    return shlex.join(args)


def _run(args: list[str], env: dict[str, str], on_output, is_canceled, command: str) -> tuple[int, list[str]]:
    """Run a program without a console window, passing its output lines on; its exit code and last lines.

    Raises:
        DependencyError: it could not start, or ``is_canceled`` stopped it.
    """
    quiet = no_window_options(sys.platform, getattr(subprocess, "STARTUPINFO", None))
    try:
        # Bandit B603 (a subprocess): a list of arguments, no shell; the program is this QGIS's own
        # Python (found next to QGIS, never from PATH) running pip or ensurepip, after the user agreed.
        process = subprocess.Popen(  # nosec B603
            args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, **quiet
        )
    except OSError as err:
        raise DependencyError(
            tr("Could not start pip ({error}). Run this command in a terminal:\n{command}").format(
                error=err, command=command
            )
        ) from err
    tail: list[str] = []
    for line in process.stdout or ():  # stdout=PIPE: never None
        tail = ([*tail, line.rstrip()])[-20:]
        if on_output is not None:
            on_output(line.rstrip())
        if is_canceled is not None and is_canceled():
            process.kill()
            process.wait()
            raise DependencyError(tr("The installation was stopped."))
    return process.wait(), tail


def install(
    package: str,
    target: str,
    *,
    on_output: Callable[[str], None] | None = None,
    is_canceled: Callable[[], bool] | None = None,
    extra_args: Sequence[str] = (),
    proxy: str | None = None,
) -> None:
    """``pip install --target`` a package, numpy pinned to the running version.

    pip runs in this QGIS's Python; where that Python has no pip, ``ensurepip --user`` installs it
    first. No console window opens on Windows.

    Args:
        package: requirement or wheel path (several separated by spaces).
        target: folder to install into (created).
        on_output: receives pip's output lines.
        is_canceled: polled between output lines; True stops pip.
        extra_args: more pip options (``--no-index`` in tests).
        proxy: the proxy URL pip uses (:func:`qgis_proxy`), None for none.

    Raises:
        DependencyError: no Python found, pip failed or was stopped; the text holds the command to run by hand.
    """
    command = install_command_text(package, target)
    python = find_qgis_python()
    if python is None:
        raise DependencyError(
            tr("The Python of this QGIS was not found next to it. Run this command in a terminal:\n{command}").format(
                command=command
            )
        )
    os.makedirs(target, exist_ok=True)
    user_pip = importlib.util.find_spec("pip") is None
    env = pip_env(os.environ, proxy, user_site_pip=user_pip)
    with tempfile.TemporaryDirectory(prefix="flair_qgis_pip_") as tmp:
        if user_pip:
            code, tail = _run(ensurepip_arguments(python), env, on_output, is_canceled, command)
            if code != 0:
                raise DependencyError(_failed("ensurepip", code, tail, command))
        constraints = None
        pin = numpy_pin()
        if pin:
            constraints = os.path.join(tmp, "constraints.txt")
            with open(constraints, "w", encoding="utf-8") as handle:
                handle.write(pin + "\n")
        args = platform_pip_arguments(python, package.split(), target, constraints)
        args[-1:-1] = list(extra_args)
        code, tail = _run(args, env, on_output, is_canceled, command)
    if code != 0:
        raise DependencyError(_failed(package, code, tail, command))
    activate_deps_dir(target)


def _failed(what: str, code: int, tail: Sequence[str], command: str) -> str:
    return tr(
        "pip could not install {package} (exit code {code}):\n{output}\n\n"
        "Run this command in a terminal instead:\n{command}"
    ).format(package=what, code=code, output="\n".join(tail[-8:]), command=command)


class InstallTask(QgsTask):
    """Installs a package with pip in the background (QGIS task bar), then reports on the main thread.

    Args:
        package: requirement to install.
        target: folder to install into.
        done: called on the main thread with ``(ok, message)``.
    """

    def __init__(self, package: str, target: str, done: Callable[[bool, str], None]) -> None:
        super().__init__(f"Installing {package}", QgsTask.Flag.CanCancel)
        self.proxy = qgis_proxy()  # read on the main thread
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
            install(self.package, self.target, on_output=self._on_output, is_canceled=self.isCanceled, proxy=self.proxy)
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
