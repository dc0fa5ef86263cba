"""Where dependencies go and how pip is started, per platform: pure functions of what they are given.

Every function takes the platform (``sys.platform``'s values), the environment and the Python
version as arguments, so ``tests/test_deps_platform.py`` checks the Windows, macOS and Linux answers
on any machine; :mod:`.deps_install` passes the running ones.

- The folder is keyed by Python version (``flair_qgis_deps/python3.12``): compiled wheels fit one
  Python, and a QGIS upgrade that changes it starts from an empty folder instead of loading stale
  ones. On Windows it lives in ``%LOCALAPPDATA%`` (a GPU install is about 1.4 GB: not for the roaming
  profile, and a short path keeps the CUDA wheels' files under Windows' 260-character limit).
- pip and ``nvidia-smi`` start without a console window on Windows
  (:func:`~flair_qgis.core.cuda.no_window_options`).
- pip gets QGIS's proxy (Settings > Options > Network) through ``HTTP(S)_PROXY``, so a password
  never shows in a command line.
- The Python that runs pip is the one of this QGIS, found next to it, never another ``python3``
  from ``PATH``: on macOS, QGIS.app's own.
"""

from __future__ import annotations

import ntpath
import posixpath
import re
from collections.abc import Callable, Mapping, Sequence
from urllib.parse import quote

DEPS_FOLDER_NAME = "flair_qgis_deps"

MIN_ONNXRUNTIME = "1.19.2"
"""The oldest onnxruntime the plugin accepts: the newest one with wheels for Python 3.9 (QGIS 3.22 to
3.28 on Windows) and for Intel Macs before macOS 13; docs/install.md lists what pip resolves and
which versions the tests ran on."""

MIN_ONNXRUNTIME_GPU = "1.21.0"
"""The oldest onnxruntime-gpu with the ``[cuda,cudnn]`` extras (the CUDA and cuDNN wheels): an older
one installs without them and cannot load CUDA. Its wheels start at Python 3.10."""

GPU_MIN_PYTHON = (3, 10)


def python_tag(version: Sequence[int]) -> str:
    """``python3.12`` for ``(3, 12, ...)``: the name of the per-Python folder."""
    return f"python{version[0]}.{version[1]}"


def deps_dir_for(platform: str, env: Mapping[str, str], profile_dir: str, version: Sequence[int]) -> str:
    """The folder pip installs into for this platform and Python.

    Args:
        platform: ``sys.platform`` (``win32``, ``darwin``, ``linux``).
        env: the environment (``LOCALAPPDATA`` on Windows).
        profile_dir: QGIS's profile folder (``QgsApplication.qgisSettingsDirPath()``).
        version: ``sys.version_info``.
    """
    if platform.startswith("win"):
        local = env.get("LOCALAPPDATA", "")
        base = ntpath.join(local, DEPS_FOLDER_NAME) if local else ntpath.join(profile_dir, "python", DEPS_FOLDER_NAME)
        return ntpath.join(base, python_tag(version))
    return posixpath.join(profile_dir, "python", DEPS_FOLDER_NAME, python_tag(version))


def onnxruntime_requirement(cuda: bool, driver_cuda: int | None, version: Sequence[int]) -> str:
    """The onnxruntime requirement pip gets: the GPU build with its CUDA wheels where a driver answers
    and the Python has them, else the CPU build; both with their minimum version.

    A driver that runs only CUDA 12 gets the last CUDA 12 build (< 1.27).
    """
    if cuda and tuple(version[:2]) >= GPU_MIN_PYTHON:
        upper = ",<1.27" if driver_cuda is not None and driver_cuda < 13 else ""
        return f"onnxruntime-gpu[cuda,cudnn]>={MIN_ONNXRUNTIME_GPU}{upper}"
    return f"onnxruntime>={MIN_ONNXRUNTIME}"


def version_at_least(version: str, minimum: str) -> bool:
    """True when ``version`` (``1.19.2``, ``1.22.0rc1``, ``1.20.0+cu12``) is at least ``minimum``."""

    def numbers(text: str) -> tuple[int, ...]:
        return tuple(int(part) for part in re.findall(r"\d+", text.split("+", maxsplit=1)[0])[:3])

    return numbers(version) >= numbers(minimum)


def python_candidates(platform: str, executable: str, exec_prefix: str, version: Sequence[int]) -> list[str]:
    """Where this QGIS's Python interpreter may be, most likely first (never a ``PATH`` lookup).

    Windows (OSGeo4W and the standalone installer): ``<QGIS>\\apps\\Python312\\python.exe``, which
    is ``sys.exec_prefix``. macOS: QGIS.app's ``Contents/MacOS/bin/python3``, next to the ``QGIS``
    executable, or in its Python framework. Linux: ``<prefix>/bin/python3.X``.
    """
    tag = python_tag(version)
    if platform.startswith("win"):
        return [ntpath.join(exec_prefix, "python.exe"), ntpath.join(exec_prefix, "python3.exe")]
    here = posixpath.dirname(executable)
    folders = [posixpath.join(here, "bin"), here, posixpath.join(exec_prefix, "bin")]
    if platform == "darwin":
        contents = posixpath.dirname(here)
        folders.append(posixpath.join(contents, "Frameworks", "Python.framework", "Versions", tag[6:], "bin"))
    names = (tag, "python3")
    return list(dict.fromkeys(posixpath.join(folder, name) for folder in folders for name in names))


def find_python(
    platform: str, executable: str, exec_prefix: str, version: Sequence[int], is_file: Callable[[str], bool]
) -> str | None:
    """This QGIS's Python interpreter, or None when none of :func:`python_candidates` exists.

    ``executable`` is returned as it is when it is a Python already (QGIS on Linux, a console).
    """
    if posixpath.basename(executable.replace("\\", "/")).lower().startswith("python") and is_file(executable):
        return executable
    return next((path for path in python_candidates(platform, executable, exec_prefix, version) if is_file(path)), None)


def guessed_python(platform: str) -> str:
    """What to type for the interpreter when :func:`find_python` found none (shown, never run)."""
    if platform == "darwin":
        return "/Applications/QGIS.app/Contents/MacOS/bin/python3"
    return "python" if platform.startswith("win") else "python3"


_PROXY_SCHEMES = {"HttpProxy": "http", "HttpCachingProxy": "http", "Socks5Proxy": "socks5"}


def proxy_url(settings: Mapping[str, object]) -> str | None:
    """The proxy QGIS is set to use (its ``proxy/*`` settings), as a URL pip takes; None for none.

    ``DefaultProxy`` (the system's) gives None: pip reads the system's settings itself.

    Args:
        settings: ``proxy/proxyEnabled``, ``proxy/proxyType``, ``proxy/proxyHost``, ``proxy/proxyPort``,
            ``proxy/proxyUser``, ``proxy/proxyPassword`` as QgsSettings returns them.
    """
    enabled = str(settings.get("proxy/proxyEnabled", "false")).lower() in ("true", "1")
    host = str(settings.get("proxy/proxyHost", "") or "").strip()
    scheme = _PROXY_SCHEMES.get(str(settings.get("proxy/proxyType", "")))
    if not enabled or not host or scheme is None:
        return None
    port = str(settings.get("proxy/proxyPort", "") or "").strip()
    user = str(settings.get("proxy/proxyUser", "") or "")
    password = str(settings.get("proxy/proxyPassword", "") or "")
    login = f"{quote(user, safe='')}:{quote(password, safe='')}@" if user else ""
    return f"{scheme}://{login}{host}{':' + port if port else ''}"


def proxy_env(url: str | None) -> dict[str, str]:
    """The environment variables that give pip ``url`` as its proxy (both cases: pip reads either)."""
    if not url:
        return {}
    return {name: url for name in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy")}


def shown_proxy(url: str | None) -> str:
    """``url`` without its password, for the command shown to the user."""
    return re.sub(r"//([^:/@]*):[^@]*@", r"//\1:***@", url or "")


def pip_env(base: Mapping[str, str], proxy: str | None, user_site_pip: bool) -> dict[str, str]:
    """The environment pip runs in: no prompts, QGIS's proxy, the user's site only for a pip that
    :func:`ensurepip_arguments` put there."""
    env = dict(base, PIP_NO_INPUT="1", PIP_DISABLE_PIP_VERSION_CHECK="1", **proxy_env(proxy))
    if not user_site_pip:
        env["PYTHONNOUSERSITE"] = "1"
    return env


def ensurepip_arguments(python: str) -> list[str]:
    """Installs pip for the user (``--user``: QGIS's own folders may be read-only or signed)."""
    return [python, "-m", "ensurepip", "--user", "--upgrade"]


def pip_arguments(python: str, requirements: Sequence[str], target: str, constraints: str | None = None) -> list[str]:
    """``pip install --target`` of ``requirements``, binary wheels only (nothing to compile)."""
    args = [python, "-m", "pip", "install", "--disable-pip-version-check", "--upgrade", "--only-binary=:all:"]
    args += ["--target", target]
    if constraints:
        args += ["--constraint", constraints]
    return [*args, *requirements]
