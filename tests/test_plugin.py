"""The plugin shell in the test QGIS: action, dock, provider, clean unload; the onnxruntime installer."""

from __future__ import annotations

import base64
import hashlib
import importlib
import sys
import zipfile
from pathlib import Path

import pytest
from qgis.core import QgsApplication
from qgis.PyQt.QtWidgets import QDockWidget

from flair_qgis.adapters import deps


def _flair_docks(window) -> list:
    return [d for d in window.findChildren(QDockWidget) if "FLAIR" in d.windowTitle()]


def test_action_toggles_dock_and_unload_removes_everything(qgis_iface, qgis_processing, qtbot):
    from flair_qgis.plugin import FlairPlugin

    registry = QgsApplication.processingRegistry()
    had_provider = registry.providerById("flair") is not None
    plugin = FlairPlugin(qgis_iface)
    plugin.initGui()
    assert registry.providerById("flair") is not None
    assert "flair:segment" in [a.id() for a in registry.providerById("flair").algorithms()]
    assert plugin.dock is None  # nothing heavy at QGIS start
    plugin.action.trigger()
    dock = plugin.dock
    assert dock is not None and not dock.isHidden()
    assert _flair_docks(qgis_iface.mainWindow()) == [dock]
    plugin.action.trigger()
    assert dock.isHidden() and not plugin.action.isChecked()
    dock.segment.extent_section.draw_button.setChecked(True)  # a map tool of the plugin is active on the canvas
    assert qgis_iface.mapCanvas().mapTool() is dock.segment.extent_section.rectangle_tool

    plugin.unload()
    assert plugin.action is None and plugin.dock is None
    assert _flair_docks(qgis_iface.mainWindow()) == []
    assert qgis_iface.mapCanvas().mapTool() is None
    assert (registry.providerById("flair") is not None) == had_provider
    # Unloading twice (QGIS does it on reload after a failed load) is harmless.
    plugin.unload()


def test_install_command_targets_plugin_folder():
    command = deps.install_command_text("onnxruntime", "/some/profile/python/flair_qgis_deps")
    assert "-m pip install" in command
    assert "--target /some/profile/python/flair_qgis_deps" in command
    assert command.endswith(" onnxruntime")
    import numpy

    assert f"numpy=={numpy.__version__}" in command
    assert deps.onnxruntime_package(cuda=True) == "onnxruntime-gpu[cuda,cudnn]>=1.21.0"
    gpu_command = deps.install_command_text(deps.onnxruntime_package(cuda=True), "/p/flair_qgis_deps")
    # One argument for pip, quoted for the shell: the brackets and >= reach pip intact.
    assert gpu_command.endswith(" 'onnxruntime-gpu[cuda,cudnn]>=1.21.0'")
    assert deps.onnxruntime_package(cuda=False) == "onnxruntime>=1.19.2"
    # The dialog's install brings onnx too, for the wrapped graph (normalisation and argmax on the device).
    assert deps.runtime_packages(cuda=False) == "onnxruntime>=1.19.2 onnx"
    assert deps.install_command_text(target="/p").split()[-1] == "onnx"
    # One folder per Python version: a QGIS whose Python changes never loads the other's wheels.
    assert deps.deps_dir().endswith(f"python/flair_qgis_deps/python{sys.version_info[0]}.{sys.version_info[1]}")


def test_missing_packages_get_each_platforms_own_instructions():
    """docs/install.md: OSGeo4W's packages on Windows (built on QGIS's GDAL), nothing inside the signed
    QGIS.app on macOS, the distribution's packages on Linux."""
    windows = deps.platform_advice(["affine", "rasterio", "geopandas"], "win32", r"C:\Program Files\QGIS 3.40.9")
    assert '"C:\\Program Files\\QGIS 3.40.9\\bin\\setup.bat" -q -k -P python3-rasterio -P python3-geopandas' in windows
    assert "GDAL DLLs" in windows
    assert "code signature" in deps.platform_advice(["rasterio"], "darwin")
    assert deps.platform_advice(["rasterio", "pyproj"], "linux").endswith(
        "sudo apt install python3-rasterio python3-pyproj"
    )


def _wheel(folder: Path, name: str = "flairtoydep", version: str = "1.0") -> Path:
    """A minimal pure-Python wheel, built by hand (no network, no build backend)."""
    files = {
        f"{name}/__init__.py": f"VERSION = '{version}'\n",
        f"{name}-{version}.dist-info/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
        f"{name}-{version}.dist-info/WHEEL": (
            "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
        ),
    }
    record = []
    for path, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(text.encode())}")
    record.append(f"{name}-{version}.dist-info/RECORD,,")
    wheel = folder / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        for path, text in files.items():
            zf.writestr(path, text)
        zf.writestr(f"{name}-{version}.dist-info/RECORD", "\n".join(record) + "\n")
    return wheel


def test_install_runs_pip_into_target_and_activates_it(tmp_path):
    wheel = _wheel(tmp_path)
    target = tmp_path / "profile" / "python" / "flair_qgis_deps"
    lines: list[str] = []
    try:
        deps.install(str(wheel), str(target), on_output=lines.append, extra_args=["--no-index", "--no-deps"])
        assert (target / "flairtoydep" / "__init__.py").is_file()
        assert str(target) in sys.path
        module = importlib.import_module("flairtoydep")
        assert module.VERSION == "1.0"
        assert any("Successfully installed" in line for line in lines)
    finally:
        if str(target) in sys.path:
            sys.path.remove(str(target))
        sys.modules.pop("flairtoydep", None)


def test_failed_install_says_what_to_run(tmp_path):
    with pytest.raises(deps.DependencyError) as err:
        deps.install(str(tmp_path / "missing-0.0-py3-none-any.whl"), str(tmp_path / "deps"), extra_args=["--no-index"])
    assert "Run this command in a terminal" in str(err.value)
    assert "--target" in str(err.value)


def test_warm_up_imports_the_heavy_libraries_in_a_task_after_loading(qgis_iface, qgis_processing, qtbot):
    """The plugin queues the import of pandas & co. a few seconds after it loads, on a worker
    thread (the first score then holds the main thread 25-45 ms instead of 160-280 ms: the figures
    are in tests/test_main_thread.py and make bench); a module that is missing is skipped."""
    from flair_qgis.adapters.warm_up import WARM_MODULES, WarmUp, WarmUpTask
    from flair_qgis.plugin import FlairPlugin

    plugin = FlairPlugin(qgis_iface)
    plugin.initGui()
    assert plugin.warm_up.timer.isActive() and plugin.warm_up.task is None
    plugin.unload()
    assert not plugin.warm_up.timer.isActive()  # an unload before it fires queues nothing
    assert "pandas" in WARM_MODULES and "geopandas" in WARM_MODULES

    warm = WarmUp(delay_ms=0)
    qtbot.waitUntil(lambda: warm.task is not None, timeout=5000)
    qtbot.waitUntil(lambda: warm.task.imported == list(WARM_MODULES), timeout=60000)

    odd = WarmUpTask(("json", "flair_qgis_no_such_module"))
    with qtbot.waitSignal(odd.taskCompleted, timeout=10000):
        QgsApplication.taskManager().addTask(odd)
    assert odd.imported == ["json"]
