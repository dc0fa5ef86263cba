"""The dependency installer's path, command and dialog logic on Windows, macOS and Linux (pure functions,
given each platform's values: they run on any machine)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from flair_qgis.adapters.deps_plan import GPU_MB, dll_clash_advice, install_plan, plan_text
from flair_qgis.adapters.deps_platform import (
    deps_dir_for,
    find_python,
    onnxruntime_requirement,
    pip_arguments,
    pip_env,
    proxy_url,
    shown_proxy,
    version_at_least,
)
from flair_qgis.core.cuda import no_window_options

PY312 = (3, 12, 7, "final", 0)
PY39 = (3, 9, 13, "final", 0)


def test_the_folder_is_keyed_by_python_and_out_of_the_roaming_profile_on_windows():
    env = {"LOCALAPPDATA": r"C:\Users\ana\AppData\Local", "APPDATA": r"C:\Users\ana\AppData\Roaming"}
    profile = r"C:\Users\ana\AppData\Roaming\QGIS\QGIS3\profiles\default"
    assert deps_dir_for("win32", env, profile, PY312) == r"C:\Users\ana\AppData\Local\flair_qgis_deps\python3.12"
    assert deps_dir_for("win32", env, profile, PY39).endswith(r"\flair_qgis_deps\python3.9")
    # Without LOCALAPPDATA (never seen, but possible in a stripped environment): the profile, still per Python.
    assert deps_dir_for("win32", {}, profile, PY312) == profile + r"\python\flair_qgis_deps\python3.12"
    mac = "/Users/ana/Library/Application Support/QGIS/QGIS3/profiles/default"
    assert deps_dir_for("darwin", env, mac, PY312) == mac + "/python/flair_qgis_deps/python3.12"
    linux = "/home/ana/.local/share/QGIS/QGIS3/profiles/default"
    assert deps_dir_for("linux", {}, linux, PY39) == linux + "/python/flair_qgis_deps/python3.9"
    # A QGIS upgrade that changes Python gets another (empty) folder.
    assert deps_dir_for("linux", {}, linux, PY39) != deps_dir_for("linux", {}, linux, PY312)


def test_the_onnxruntime_requirement_carries_its_minimum_and_the_gpu_wheels():
    assert onnxruntime_requirement(False, None, PY312) == "onnxruntime>=1.19.2"
    assert onnxruntime_requirement(True, 13, PY312) == "onnxruntime-gpu[cuda,cudnn]>=1.21.0"
    assert onnxruntime_requirement(True, 12, PY312) == "onnxruntime-gpu[cuda,cudnn]>=1.21.0,<1.27"
    # Python 3.9 (QGIS 3.22-3.28 on Windows): no onnxruntime-gpu with the CUDA wheels: the CPU build.
    assert onnxruntime_requirement(True, 13, PY39) == "onnxruntime>=1.19.2"


@pytest.mark.parametrize(
    ("version", "ok"),
    [("1.19.2", True), ("1.19.1", False), ("1.9.0", False), ("1.22.0rc1", True), ("1.20.0+cu12", True), ("2.0", True)],
)
def test_minimum_version_check(version, ok):
    assert version_at_least(version, "1.19.2") is ok


def test_the_python_of_qgis_is_found_next_to_it_never_on_path():
    mac_exe = "/Applications/QGIS.app/Contents/MacOS/QGIS"
    mac_python = "/Applications/QGIS.app/Contents/MacOS/bin/python3"
    frameworks = "/Applications/QGIS.app/Contents/Frameworks/Python.framework/Versions/3.12"
    assert find_python("darwin", mac_exe, frameworks, PY312, {mac_python}.__contains__) == mac_python
    framework_python = frameworks + "/bin/python3.12"
    assert find_python("darwin", mac_exe, frameworks, PY312, {framework_python}.__contains__) == framework_python
    # Nothing next to QGIS: None (the dialog says so), even if /usr/local/bin/python3 exists.
    assert find_python("darwin", mac_exe, frameworks, PY312, {"/usr/local/bin/python3"}.__contains__) is None
    win_prefix = r"C:\Program Files\QGIS 3.44.5\apps\Python312"
    win_exe = r"C:\Program Files\QGIS 3.44.5\bin\qgis-bin.exe"
    found = find_python("win32", win_exe, win_prefix, PY312, {win_prefix + r"\python.exe"}.__contains__)
    assert found == r"C:\Program Files\QGIS 3.44.5\apps\Python312\python.exe"
    assert find_python("linux", "/usr/bin/qgis", "/usr", PY312, {"/usr/bin/python3.12"}.__contains__) == (
        "/usr/bin/python3.12"
    )
    assert (
        find_python("linux", "/usr/bin/python3", "/usr", PY312, {"/usr/bin/python3"}.__contains__) == "/usr/bin/python3"
    )


def test_no_console_window_on_windows():
    assert no_window_options("linux") == {} and no_window_options("darwin") == {}
    options = no_window_options("win32")
    assert options == {"creationflags": 0x08000000}
    if sys.platform.startswith("win"):  # the real constant where Python defines it
        assert options["creationflags"] == subprocess.CREATE_NO_WINDOW

    class StartupInfo:  # subprocess.STARTUPINFO's two fields, on any platform
        dwFlags = 0  # noqa: N815 - Windows' names
        wShowWindow = 1  # noqa: N815

    info = no_window_options("win32", StartupInfo)["startupinfo"]
    assert (info.dwFlags, info.wShowWindow) == (1, 0)  # STARTF_USESHOWWINDOW, SW_HIDE


def test_qgis_proxy_settings_become_pip_proxy_without_showing_the_password():
    settings = {
        "proxy/proxyEnabled": "true",
        "proxy/proxyType": "HttpProxy",
        "proxy/proxyHost": "proxy.example.org",
        "proxy/proxyPort": "3128",
        "proxy/proxyUser": "ana",
        "proxy/proxyPassword": "p@ss:word",
    }
    url = proxy_url(settings)
    assert url == "http://ana:p%40ss%3Aword@proxy.example.org:3128"
    assert shown_proxy(url) == "http://ana:***@proxy.example.org:3128"
    env = pip_env({"PATH": "/bin"}, url, user_site_pip=False)
    assert env["HTTPS_PROXY"] == env["https_proxy"] == url and env["PYTHONNOUSERSITE"] == "1"
    assert "PYTHONNOUSERSITE" not in pip_env({}, None, user_site_pip=True)  # a pip ensurepip put in the user's site
    assert proxy_url({**settings, "proxy/proxyEnabled": False}) is None
    assert proxy_url({**settings, "proxy/proxyType": "DefaultProxy"}) is None  # the system's: pip reads it itself
    assert proxy_url({**settings, "proxy/proxyType": "Socks5Proxy", "proxy/proxyUser": ""}) == (
        "socks5://proxy.example.org:3128"
    )


def test_pip_installs_wheels_only_into_the_folder():
    args = pip_arguments("/qgis/python3", ["onnxruntime>=1.19.2", "onnx"], "/deps/python3.12", "/tmp/c.txt")
    assert args[:4] == ["/qgis/python3", "-m", "pip", "install"]
    assert "--only-binary=:all:" in args and args[args.index("--target") + 1] == "/deps/python3.12"
    assert args[-2:] == ["onnxruntime>=1.19.2", "onnx"]


def test_windows_never_offers_pip_for_the_geospatial_packages():
    plan = install_plan(["rasterio", "geopandas"], False, platform="win32", machine="AMD64", cuda=False,
                        driver_cuda=None, version=PY312)  # fmt: skip
    assert plan.pip == () and plan.elsewhere == ("rasterio", "geopandas")
    assert plan_text(plan, r"C:\deps", r"C:\QGIS\python.exe", None, "cmd") == ""
    mac = install_plan(["rasterio"], True, platform="darwin", machine="arm64", cuda=False, driver_cuda=None,
                       version=PY312)  # fmt: skip
    assert mac.pip == ("onnxruntime>=1.19.2", "onnx", "rasterio") and mac.elsewhere == ()


def test_the_dialog_says_what_from_where_and_how_many_mb():
    gpu = install_plan((), True, platform="win32", machine="AMD64", cuda=True, driver_cuda=13, version=PY312)
    assert gpu.gpu and gpu.megabytes == GPU_MB > 1000
    text = plan_text(gpu, r"C:\deps", r"C:\QGIS\python.exe", "http://ana:secret@proxy:3128", "cmd")
    assert "onnxruntime-gpu[cuda,cudnn]>=1.21.0, onnx" in text
    assert "https://pypi.org through the proxy http://ana:***@proxy:3128" in text and "secret" not in text
    assert f"about {GPU_MB // 1000} {GPU_MB % 1000}" in text and "CUDA and cuDNN" in text
    assert r"C:\deps" in text and r"C:\QGIS\python.exe" in text
    cpu = install_plan((), True, platform="darwin", machine="x86_64", cuda=False, driver_cuda=None, version=PY312)
    assert not cpu.gpu and 20 < cpu.megabytes < 100
    missing = plan_text(cpu, "/deps", None, None, "/Applications/QGIS.app/Contents/MacOS/bin/python3 -m pip ...")
    assert "was not found" in missing and "QGIS.app/Contents/MacOS/bin/python3 -m pip" in missing


def test_a_dll_load_failure_on_windows_names_the_clash_and_the_fix():
    error = (
        "DLL load failed while importing onnxruntime_pybind11_state: "
        "A dynamic link library (DLL) initialization routine failed."
    )
    text = dll_clash_advice("win32", error, "python -m pip install onnxruntime<1.22")
    assert text is not None and "26127" in text and "msvcp140.dll" in text and "vc_redist.x64.exe" in text
    assert text.endswith("python -m pip install onnxruntime<1.22")
    assert dll_clash_advice("linux", error, "x") is None
    assert dll_clash_advice("win32", "No module named 'onnxruntime'", "x") is None
