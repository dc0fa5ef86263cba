"""onnxruntime as a dependency: is it importable, which package fits this machine, installing it.

QGIS ships without onnxruntime. The plugin never installs anything at import time or silently:
the dock shows the exact command for the user's platform and offers a one-click install that
the user confirms. That install runs ``pip install --target`` into a folder the plugin owns in
the QGIS profile (``python/flair_qgis_deps``), which :func:`activate_deps_dir` appends to
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
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence

from qgis.core import QgsApplication, QgsTask

from ..core.cuda import CUDA12_PACKAGE, list_gpus, parse_driver_cuda
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


GPU_PACKAGE = "onnxruntime-gpu[cuda,cudnn]"
"""onnxruntime-gpu with the CUDA and cuDNN wheels it loads (``onnxruntime.preload_dlls``)."""


def driver_cuda_major() -> int | None:
    """The CUDA major version the NVIDIA driver runs (``nvidia-smi``'s header), or None."""
    exe = shutil.which("nvidia-smi")
    if exe is None:
        return None
    try:
        done = subprocess.run([exe], capture_output=True, text=True, timeout=_NVIDIA_SMI_TIMEOUT_S, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return parse_driver_cuda(done.stdout) if done.returncode == 0 else None


def onnxruntime_package(cuda: bool | None = None, driver_cuda: int | None = None) -> str:
    """:data:`GPU_PACKAGE` when an NVIDIA driver answers, else ``onnxruntime``.

    A driver older than CUDA 13 (``driver_cuda``, read from ``nvidia-smi`` when ``cuda`` is not
    given) gets the last onnxruntime-gpu built for CUDA 12 (:data:`~flair_qgis.core.cuda.CUDA12_PACKAGE`),
    as ``scripts/setup.sh`` does.
    """
    if cuda is None:
        cuda = cuda_present()
        driver_cuda = driver_cuda_major() if cuda else None
    if not cuda:
        return "onnxruntime"
    return CUDA12_PACKAGE if driver_cuda is not None and driver_cuda < 13 else GPU_PACKAGE


FAST_PATH = "onnx"
"""Installed with onnxruntime (:func:`runtime_packages`): the engine wraps the model's graph with it,
so normalisation and the argmax run on the device and 1 byte per pixel comes back instead of the
logits (docs/gpu.md). Segmentation runs without it, on the host path, and says so."""


def runtime_packages(cuda: bool | None = None, driver_cuda: int | None = None) -> str:
    """What the dependency dialog installs: :func:`onnxruntime_package` and :data:`FAST_PATH`."""
    return f"{onnxruntime_package(cuda, driver_cuda)} {FAST_PATH}"


def python_executable() -> str:
    """The Python interpreter of this QGIS (``sys.executable`` is QGIS itself inside the desktop)."""
    exe = sys.executable or ""
    if os.path.basename(exe).lower().startswith("python"):
        return exe
    names = (
        ("python.exe", "python3.exe")
        if os.name == "nt"
        else (f"python{sys.version_info.major}.{sys.version_info.minor}", "python3", "python")
    )
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
    args = [python_executable(), "-m", "pip", "install", "--disable-pip-version-check", "--upgrade", "--target", target]
    if constraints_file:
        args += ["--constraint", constraints_file]
    return [*args, *package.split()]


def install_command_text(package: str | None = None, target: str | None = None) -> str:
    """The exact command a user can paste into a terminal (quoted for this platform)."""
    package = package or runtime_packages()
    args = pip_arguments(package, target or deps_dir())
    pin = numpy_pin()
    if pin:
        # The constraint file is temporary in the one-click install; by hand, pin numpy directly.
        args.insert(len(args) - len(package.split()), pin)
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
                tr("Could not start pip ({error}). Run this command in a terminal:\n{command}").format(
                    error=err, command=install_command_text(package, target)
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
        code = process.wait()
    if code != 0:
        raise DependencyError(
            tr(
                "pip could not install {package} (exit code {code}):\n{output}\n\n"
                "Run this command in a terminal instead:\n{command}"
            ).format(
                package=package, code=code, output="\n".join(tail[-8:]), command=install_command_text(package, target)
            )
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
