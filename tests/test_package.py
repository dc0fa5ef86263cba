"""scripts/package.sh: the zip QGIS's Plugin Manager installs, and the plugin loading from it."""

from __future__ import annotations

import configparser
import os
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest
from conftest import REPO
from qgis.core import QgsApplication

REQUIRED_METADATA = (
    "name", "qgisMinimumVersion", "description", "about", "version", "author", "email", "tracker",
    "repository", "tags", "homepage", "category", "icon", "experimental", "hasProcessingProvider",
)  # fmt: skip


@pytest.fixture(scope="module")
def package_zip(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("package")
    env = dict(os.environ, DIST_DIR=str(tmp / "dist"), BUILD_DIR=str(tmp / "build"))
    done = subprocess.run([str(REPO / "scripts" / "package.sh")], env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    path = tmp / "dist" / "flair_qgis.zip"
    assert path.is_file()
    return path


def test_zip_layout(package_zip):
    names = zipfile.ZipFile(package_zip).namelist()
    assert {n.split("/")[0] for n in names} == {"flair_qgis"}
    for required in ("flair_qgis/__init__.py", "flair_qgis/plugin.py", "flair_qgis/metadata.txt",
                     "flair_qgis/resources/icon.svg", "flair_qgis/gui/dock.py", "flair_qgis/core/segment/run.py",
                     "flair_qgis/processing/provider.py", "flair_qgis/adapters/segment_task.py"):  # fmt: skip
        assert required in names, required
    assert not [n for n in names if "__pycache__" in n or n.endswith((".pyc", ".pyo"))]
    assert not [n for n in names if "/tests/" in n or n.startswith("flair_qgis/tests")]
    assert not [n for n in names if ".partial" in n]


def test_metadata_complete(package_zip, monkeypatch):
    text = zipfile.ZipFile(package_zip).read("flair_qgis/metadata.txt").decode("utf-8")
    parser = configparser.ConfigParser()
    parser.optionxform = str  # keys are case-sensitive for QGIS
    parser.read_string(text)
    general = parser["general"]
    missing = [k for k in REQUIRED_METADATA if not general.get(k, "").strip()]
    assert missing == []
    assert general["qgisMinimumVersion"] == "3.22"
    # QGIS 4 builds skip a plugin without supportsQt6=True; QGIS's plugin manager reads a missing
    # qgisMaximumVersion as "<major of the minimum>.99", which would shut QGIS 4 out as well.
    assert general["supportsQt6"] == "True"
    monkeypatch.syspath_prepend(str(Path(QgsApplication.pkgDataPath()) / "python"))  # QGIS's plugin manager
    from pyplugin_installer.version_compare import isCompatible

    minimum, maximum = general["qgisMinimumVersion"], general["qgisMaximumVersion"]
    assert [isCompatible(v, minimum, maximum) for v in ("3.22.16", "3.44.15", "4.0.0", "4.2.1")] == [True] * 4
    assert [isCompatible(v, minimum, maximum) for v in ("3.16.0", "5.0.0")] == [False, False]
    assert general["hasProcessingProvider"] == "yes"
    assert general["experimental"].lower() in ("true", "false")
    assert general["email"].count("@") == 1
    assert general["tracker"].startswith("http") and general["repository"].startswith("http")
    # The icon named in the metadata is in the zip, relative to the plugin folder.
    assert f"flair_qgis/{general['icon']}" in zipfile.ZipFile(package_zip).namelist()
    # The zip carries the package's metadata, not a stale copy, then the changelog.
    assert text.startswith((REPO / "flair_qgis" / "metadata.txt").read_text(encoding="utf-8"))
    changelog = general["changelog"].splitlines()
    assert changelog[0].startswith(f"{general['version']} - ") and all(line.startswith("- ") for line in changelog[1:])
    first_entry = next(line for line in (REPO / "CHANGELOG.md").read_text().splitlines() if line.startswith("- "))
    assert changelog[1].startswith(first_entry)  # newest first, as CHANGELOG.md has it
    # The about text names what the first run installs and what the demo model is.
    for word in ("onnxruntime", "onnx", "rasterio", "geopandas", "shapely", "pyproj", "ONNX model file"):
        assert word in general["about"], word
    assert dict(parser.items("general"))  # every value reads with interpolation, as the repository reads it


def test_zip_carries_the_licence(package_zip):
    text = zipfile.ZipFile(package_zip).read("flair_qgis/LICENSE").decode("utf-8")
    assert "either version 2 of the" in text and "GNU GENERAL PUBLIC LICENSE" in text and "Version 2, June 1991" in text
    assert text == (REPO / "LICENSE").read_text(encoding="utf-8")
    assert not (REPO / "flair_qgis" / "metadata.txt").is_symlink()  # qgis-plugin-ci reads it as a file


LOAD_SCRIPT = textwrap.dedent(
    """
    import sys, os
    blocked = {"block": ("onnxruntime",), "block-geo": ("rasterio", "geopandas")}.get(sys.argv[2], ())
    if blocked:
        class Blocker:
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in blocked:
                    raise ImportError(f"{name} blocked for this test")
                return None
        sys.meta_path.insert(0, Blocker())
    sys.path.insert(0, sys.argv[1])
    from qgis.core import QgsApplication
    from qgis.gui import QgsMapCanvas
    from qgis.PyQt.QtWidgets import QMainWindow
    app = QgsApplication([], True)
    app.initQgis()
    sys.path.append(os.path.join(QgsApplication.pkgDataPath(), "python", "plugins"))
    from processing.core.Processing import Processing
    Processing.initialize()
    from qgis.gui import QgsMessageBar
    from qgis.PyQt.QtWidgets import QToolBar

    class Iface:
        # The part of QgisInterface the plugin uses, on real Qt widgets.
        def __init__(self):
            self.window = QMainWindow()
            self.canvas = QgsMapCanvas(self.window)
            self.bar = QgsMessageBar(self.window)
            self.toolbar = QToolBar("Plugins", self.window)
            self.menu_actions = []
        def mainWindow(self): return self.window
        def mapCanvas(self): return self.canvas
        def messageBar(self): return self.bar
        def addToolBarIcon(self, action): self.toolbar.addAction(action)
        def removeToolBarIcon(self, action): self.toolbar.removeAction(action)
        def addPluginToRasterMenu(self, name, action): self.menu_actions.append(action)
        def removePluginRasterMenu(self, name, action): self.menu_actions.remove(action)
        def addDockWidget(self, area, dock): self.window.addDockWidget(area, dock)
        def removeDockWidget(self, dock): self.window.removeDockWidget(dock)

    iface = Iface()
    import flair_qgis
    assert os.path.dirname(flair_qgis.__file__).startswith(sys.argv[1]), flair_qgis.__file__
    from flair_qgis.resource_paths import resources_path
    assert resources_path("icon.svg").startswith(sys.argv[1])
    assert os.path.isfile(resources_path("icon.svg"))
    plugin = flair_qgis.classFactory(iface)
    plugin.initGui()
    registry = QgsApplication.processingRegistry()
    if sys.argv[2] == "block-geo":
        print("PROVIDER", registry.providerById("flair") is not None)
        print("ACTION", iface.toolbar.actions() != [])
        print("MESSAGE", " | ".join(item.text() for item in iface.bar.items()))
        plugin.unload()
        print("AFTER", registry.providerById("flair") is None, iface.toolbar.actions() == [])
        app.exitQgis()
        sys.exit(0)
    print("ALGS", sorted(a.id() for a in registry.providerById("flair").algorithms()))
    plugin.show_dock(True)
    dock = plugin.dock
    print("BANNER", dock.banner.isVisibleTo(dock), dock.banner.command.text())
    print("RUN", dock.segment.run_section.run_button.isEnabled(), dock.segment.run_section.reason_label.text())
    print("ORT", "onnxruntime" in sys.modules)
    plugin.unload()
    from qgis.PyQt.QtWidgets import QDockWidget
    print("AFTER", registry.providerById("flair") is None, iface.toolbar.actions() == [], iface.menu_actions == [],
          [d for d in iface.window.findChildren(QDockWidget) if "FLAIR" in d.windowTitle()] == [])
    app.exitQgis()
    """
)


def _load_installed(package_zip: Path, tmp_path: Path, mode: str) -> str:
    plugins = tmp_path / "profile" / "python" / "plugins"
    plugins.mkdir(parents=True)
    zipfile.ZipFile(package_zip).extractall(plugins)
    script = tmp_path / "load.py"
    script.write_text(LOAD_SCRIPT)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", QGIS_CUSTOM_CONFIG_PATH=str(tmp_path / "qgis-config"),
               PYTHONDONTWRITEBYTECODE="1")  # fmt: skip
    env.pop("PYTHONPATH", None)
    done = subprocess.run([sys.executable, str(script), str(plugins), mode], env=env, capture_output=True,
                          text=True, timeout=120, check=False)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    return done.stdout


def test_installed_zip_loads_and_unloads(package_zip, tmp_path):
    out = _load_installed(package_zip, tmp_path, "normal")
    assert "'flair:segment'" in out and "'flair:evaluate'" in out
    assert "BANNER False" in out
    assert "AFTER True True True True" in out


def test_installed_zip_without_onnxruntime_offers_install(package_zip, tmp_path):
    out = _load_installed(package_zip, tmp_path, "block")
    assert "'flair:segment'" in out  # the toolbox still lists the algorithms
    banner = next(line for line in out.splitlines() if line.startswith("BANNER"))
    assert banner.startswith("BANNER True")
    assert "-m pip install" in banner and "--target" in banner and "flair_qgis_deps" in banner
    assert ("onnxruntime-gpu[cuda,cudnn]" in banner) == _has_nvidia()
    assert "onnxruntime" in banner
    # onnx comes with it: the engine wraps the model's graph with it (docs/gpu.md).
    assert banner.rstrip().endswith(" onnx")
    run = next(line for line in out.splitlines() if line.startswith("RUN"))
    assert run.startswith("RUN False") and "onnxruntime" in run
    assert "ORT False" in out
    assert "AFTER True True True True" in out


def test_installed_zip_without_rasterio_loads_and_says_what_to_install(package_zip, tmp_path):
    """QGIS installers without rasterio/geopandas: the plugin loads without a Python error, registers
    no half-working provider, and says what to install (the FLAIR button offers the pip install)."""
    out = _load_installed(package_zip, tmp_path, "block-geo")
    assert "PROVIDER False" in out and "ACTION True" in out
    message = next(line for line in out.splitlines() if line.startswith("MESSAGE"))
    assert "rasterio, geopandas" in message and "-m pip install" in message and "flair_qgis_deps" in message
    assert "AFTER True True" in out


def _has_nvidia() -> bool:
    from flair_qgis.adapters.deps import cuda_present

    return cuda_present()


def test_zip_has_the_compiled_french_translation(package_zip):
    """make package compiles the Qt Linguist source into the .qm the plugin loads; the .ts stays out."""
    archive = zipfile.ZipFile(package_zip)
    names = archive.namelist()
    assert "flair_qgis/i18n/flair_qgis_fr.qm" in names
    assert not [n for n in names if n.endswith(".ts")]
    assert archive.read("flair_qgis/i18n/flair_qgis_fr.qm")[:4] == bytes.fromhex("3cb86418")  # Qt .qm magic


def test_root_metadata_is_the_plugins_own_file():
    """The repository keeps metadata.txt at its top level for readers; it is a link to the plugin's
    real file (the one QGIS, qgis-plugin-ci and the zip read), so the two can never differ."""
    root = REPO / "metadata.txt"
    assert root.is_symlink() and not (REPO / "flair_qgis" / "metadata.txt").is_symlink()
    assert root.resolve() == (REPO / "flair_qgis" / "metadata.txt").resolve()
