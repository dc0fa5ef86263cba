"""Every third-party module flair_qgis imports is installed by scripts/setup.sh and checked (and
offered) by the plugin's dependency check, adapters/deps_check.py; rtree is neither needed nor offered.

This is the class of mistake issue 8 found: geopandas 0.12 needs rtree for ``.sindex``, Debian
only *recommends* python3-rtree, setup.sh installs without recommends, and the machine where the
code was written had rtree installed by hand. Only hard dependencies (Depends, Pre-Depends) of
the packages setup.sh names count here.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from collections import deque

import numpy as np
import pytest
from conftest import REPO

from flair_qgis.adapters import deps

PLUGIN = REPO / "flair_qgis"
SETUP_SH = REPO / "scripts" / "setup.sh"
REQUIREMENTS_DEV = REPO / "requirements-dev.txt"
FROM_QGIS = {requirement.module for requirement in deps.WITH_QGIS}
OPTIONAL = {requirement.module for requirement in deps.OPTIONAL}
QUANTIZE = {requirement.module for requirement in deps.QUANTIZE}
VECTORIZE = {requirement.module for requirement in deps.VECTORIZE}


def _imported_names(tree: ast.AST) -> list[str]:
    """Top-level names of absolute imports, including importlib.import_module("literal")."""
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module.split(".")[0])
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            names.append(node.args[0].value.split(".")[0])
    return names


def third_party_imports() -> dict[str, list[str]]:
    """Import name -> the plugin files importing it, for every module outside the standard library."""
    found: dict[str, list[str]] = {}
    for path in sorted(PLUGIN.rglob("*.py")):
        for name in _imported_names(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if name not in sys.stdlib_module_names and name != "flair_qgis" and name != "__future__":
                found.setdefault(name, []).append(str(path.relative_to(REPO)))
    return found


def setup_apt_packages() -> list[str]:
    """The Debian packages scripts/setup.sh installs (its APT_PACKAGES array)."""
    # Comments end at the line's end (one holds parentheses): drop them before finding the array's end.
    text = re.sub(r"#[^\n]*", "", SETUP_SH.read_text(encoding="utf-8"))
    match = re.search(r"^APT_PACKAGES=\(([^)]*)\)", text, re.MULTILINE)
    assert match, "scripts/setup.sh has no APT_PACKAGES=(...) array"
    return match.group(1).split()


def _dependency_names(field: str) -> list[str]:
    """Package names of a Depends field; of alternatives ``a | b`` the first, which apt installs."""
    return [part.split("|")[0].split("(")[0].split(":")[0].strip() for part in field.split(",") if part.strip()]


def installed_dependency_closure(roots: list[str]) -> set[str]:
    """The installed packages that ``roots`` need through Depends and Pre-Depends (not Recommends)."""
    out = subprocess.run(
        ["dpkg-query", "-W", "-f=${Package}\t${Status}\t${Pre-Depends}, ${Depends}\t${Provides}\n"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    needs: dict[str, list[str]] = {}
    providers: dict[str, list[str]] = {}
    for line in out.splitlines():
        package, status, depends, provides = line.split("\t")
        if status.endswith(" installed"):
            needs[package] = _dependency_names(depends)
            for virtual in _dependency_names(provides):
                providers.setdefault(virtual, []).append(package)
    missing = [root for root in roots if root not in needs]
    if missing:
        pytest.skip(f"make setup has not installed {missing} on this machine")
    seen: set[str] = set()
    queue = deque(roots)
    while queue:
        name = queue.popleft()
        for package in [name] if name in needs else providers.get(name, []):
            if package not in seen:
                seen.add(package)
                queue.extend(needs[package])
    return seen


def test_scanner_finds_the_plugins_imports():
    imports = third_party_imports()
    # The scan cannot pass by finding nothing: these are imported today.
    assert {"numpy", "onnxruntime", "qgis", "rasterio"} <= set(imports)
    assert "os" not in imports and "flair_qgis" not in imports


def test_every_import_is_a_declared_requirement():
    declared = (
        {requirement.module for requirement in (*deps.REQUIREMENTS, deps.ONNXRUNTIME)}
        | FROM_QGIS
        | OPTIONAL
        | QUANTIZE
        | VECTORIZE
    )
    undeclared = {name: files for name, files in third_party_imports().items() if name not in declared}
    assert not undeclared, (
        f"flair_qgis imports modules that neither scripts/setup.sh nor the plugin's dependency check "
        f"provide: {undeclared}. Add them to REQUIREMENTS in flair_qgis/adapters/deps_check.py and to setup.sh, "
        "or use what is already there."
    )


def test_dependency_check_checks_exactly_the_imports():
    imports = set(third_party_imports()) - FROM_QGIS - OPTIONAL - QUANTIZE - VECTORIZE - {deps.ONNXRUNTIME.module}
    assert set(deps.REQUIRED_MODULES) == imports
    # The plugin offers to pip-install the missing modules by their import names.
    assert all(requirement.pip == requirement.module for requirement in deps.REQUIREMENTS)
    assert deps.missing_modules((*deps.REQUIRED_MODULES, "no_such_module_flair")) == ["no_such_module_flair"]
    assert deps.onnxruntime_package(cuda=False) == f"{deps.ONNXRUNTIME.pip}>={deps.MIN_ONNXRUNTIME}"


@pytest.mark.skipif(shutil.which("dpkg-query") is None, reason="not a Debian machine")
def test_setup_installs_each_imports_debian_package():
    needed = installed_dependency_closure(setup_apt_packages())
    # Recommends do not count: geopandas recommends rtree, which --no-install-recommends skips.
    assert "python3-rtree" not in installed_dependency_closure(["python3-geopandas"])
    assert "python3-geopandas" not in installed_dependency_closure(["python3-numpy"])
    not_pulled = [r.debian for r in (*deps.REQUIREMENTS, *deps.VECTORIZE, *deps.WITH_QGIS) if r.debian not in needed]
    assert not not_pulled, (
        f"{not_pulled} are not hard dependencies of scripts/setup.sh's APT_PACKAGES "
        "(setup.sh installs with --no-install-recommends): add them to APT_PACKAGES"
    )


def test_setup_pip_installs_onnxruntime():
    text = SETUP_SH.read_text(encoding="utf-8")
    assert re.search(r"^ORT=\$\(ort_package\)$", text, re.MULTILINE)  # its choice: tests/test_gpu_setup.py
    assert re.search(r'-m pip install [^\n]*\\\n\s*"\$ORT"', text)


def _pip_names_installed_by_setup() -> set[str]:
    """Distributions requirements-dev.txt names, with the ones they depend on (as installed)."""
    from importlib import metadata

    def name_of(requirement: str) -> str:
        return re.split(r"[<>=!~;\[ ]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")

    listed = [line.split("#")[0] for line in REQUIREMENTS_DEV.read_text(encoding="utf-8").splitlines()]
    names = {name_of(line) for line in listed if line.strip()}
    for name in list(names):
        try:
            requires = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            continue
        names |= {name_of(requirement) for requirement in requires if "extra ==" not in requirement}
    return names


def _guarded_imports(module: str) -> tuple[int, int]:
    """How many imports of ``module`` the plugin has, and how many sit in ``try/except ImportError``."""
    total = guarded = 0
    for path in sorted(PLUGIN.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        safe = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Try) and any(
                "ImportError" in ast.unparse(handler.type or ast.Name("BaseException")) for handler in node.handlers
            ):
                safe |= {id(inner) for statement in node.body for inner in ast.walk(statement)}
        for node in ast.walk(tree):
            if module in _imported_names(node if isinstance(node, ast.Import | ast.ImportFrom) else ast.Pass()):
                total += 1
                guarded += id(node) in safe
    return total, guarded


def test_optional_modules_installed_by_setup_or_guarded():
    """Dask's modules: make setup installs them, or every import of them copes with their absence."""
    installed = _pip_names_installed_by_setup()
    for requirement in deps.OPTIONAL:
        if requirement.pip.lower() in installed:
            continue
        total, guarded = _guarded_imports(requirement.module)
        assert total == guarded, (
            f"{requirement.module} is neither installed by make setup (requirements-dev.txt) nor imported "
            f"only inside try/except ImportError ({guarded} of {total} imports are)"
        )


def test_rtree_neither_needed_nor_offered():
    assert "rtree" not in third_party_imports()
    for requirement in (*deps.REQUIREMENTS, deps.ONNXRUNTIME, *deps.WITH_QGIS, *deps.OPTIONAL):
        assert "rtree" not in f"{requirement.module} {requirement.debian} {requirement.pip}"
    assert "rtree" not in " ".join(setup_apt_packages())
    assert "rtree" not in deps.install_command_text(" ".join(deps.REQUIRED_MODULES), "/profile/deps")


def test_no_geopandas_spatial_index():
    """geopandas 0.12 (Debian 12) builds ``.sindex`` (and sjoin, overlay, clip on it) with rtree only."""
    uses = []
    for path in sorted(PLUGIN.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""
            if name in {"sindex", "sjoin", "sjoin_nearest"} or (
                name in {"overlay", "clip"}
                and isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in {"gpd", "geopandas"}
            ):
                uses.append(f"{path.relative_to(REPO)}:{node.lineno}: {name}")
    assert not uses, f"use shapely's STRtree (as core/score/polygons.py does) instead of geopandas' index: {uses}"


def _module_level_imports(module: str) -> list[str]:
    """Plugin files importing ``module`` outside any function (at import time)."""
    found = []
    for path in sorted(PLUGIN.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        inside = {
            id(inner)
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            for inner in ast.walk(node)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom) and id(node) not in inside:
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                if any(name == module or name.startswith(module + ".") for name in names):
                    found.append(f"{path.relative_to(REPO)}:{node.lineno}")
    return found


def test_quantize_tools_imported_only_inside_functions_and_installed_by_setup():
    """onnx and onnxruntime.quantization: needed by flair:quantize only (issue 20)."""
    assert "onnx" in third_party_imports()  # the scan finds the lazy imports
    assert not _module_level_imports("onnx"), _module_level_imports("onnx")
    assert not _module_level_imports("onnxruntime.quantization"), _module_level_imports("onnxruntime.quantization")
    assert "onnx" in _pip_names_installed_by_setup()
    assert deps.quantize_dependency_error() is None  # make setup's venv has them


def test_plugin_loads_and_segments_without_onnx(tmp_path):
    """With onnx unimportable the provider loads, flair:segment's core runs, and only the quantize
    and describe checks name onnx."""
    from toy_models import conv_model

    model = conv_model(tmp_path / "m.onnx", np.eye(3, dtype=np.float32).reshape(3, 3, 1, 1))
    code = f"""
import sys
sys.modules["onnx"] = None  # import onnx raises ImportError
sys.path.insert(0, {str(REPO)!r})
import numpy as np, rasterio
from rasterio.transform import from_origin
from qgis.core import QgsApplication
app = QgsApplication([], False); app.initQgis()
from flair_qgis.processing.provider import FlairProvider
provider = FlairProvider(); provider.loadAlgorithms()
assert "quantize" in [a.name() for a in provider.algorithms()]
model = {str(model)!r}
with rasterio.open({str(tmp_path / "in.tif")!r}, "w", driver="GTiff", width=64, height=64, count=3, dtype="uint8",
                   crs="EPSG:2154", transform=from_origin(0, 64, 1, 1)) as dst:
    dst.write(np.random.default_rng(0).integers(0, 255, (3, 64, 64), dtype=np.uint8))
from flair_qgis.core.segment.plan import plan_segment
from flair_qgis.core.segment.request import SegmentRequest
from flair_qgis.core.engine.model import read_model_info
from flair_qgis.core.segment.run import run_plan
from flair_qgis.core.engine.pixel_sources import capture_file
plan = plan_segment(read_model_info(model), [capture_file({str(tmp_path / "in.tif")!r})],
                    SegmentRequest(output_path={str(tmp_path / "out.tif")!r}, tile_size_px=64, overlap_px=0))
run_plan(plan)
assert "onnx" not in sys.modules or sys.modules["onnx"] is None
from flair_qgis.adapters.deps import quantize_dependency_error
message = quantize_dependency_error()
assert message and "onnx" in message and "requirements-dev.txt" in message, message
from flair_qgis.adapters.deps import onnx_dependency_error
message = onnx_dependency_error("flair:describe_model")
assert message and message.startswith("flair:describe_model needs onnx") and "pip" in message, message
print("OK")
"""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=env, check=False
    )
    assert done.returncode == 0 and "OK" in done.stdout, done.stderr[-3000:]


def test_scipy_imported_only_inside_functions_and_installed_by_setup():
    """scipy: needed by the merges of polygon cleaning only (MIN_AREA_M2, FILL_HOLES_M2)."""
    assert "scipy" in third_party_imports()  # the scan finds the lazy imports
    assert not _module_level_imports("scipy"), _module_level_imports("scipy")
    assert "scipy" not in deps.REQUIRED_MODULES  # the plugin-load check does not ask for it
    assert "python3-scipy" in setup_apt_packages()
    assert deps.vectorize_dependency_error() is None  # make setup installs python3-scipy


def test_plugin_loads_and_segments_without_scipy(tmp_path):
    """With scipy unimportable the provider loads, flair:segment runs and writes exact polygons
    (OUTPUT_VECTOR, flair:vectorize); merging (MIN_AREA_M2, FILL_HOLES_M2, the dock's 'Merge under')
    is refused before any run, saying what to install."""
    from toy_models import conv_model

    model = conv_model(tmp_path / "m.onnx", np.eye(3, dtype=np.float32).reshape(3, 3, 1, 1))
    code = f"""
import os, sys
sys.modules["scipy"] = None  # import scipy raises ImportError
sys.path.insert(0, {str(REPO)!r})
import numpy as np, rasterio
from rasterio.transform import from_origin
from qgis.core import QgsApplication, QgsProcessingException, QgsProcessingFeedback, QgsProject, QgsRasterLayer
app = QgsApplication([], False); app.initQgis()
sys.path.append(os.path.join(QgsApplication.pkgDataPath(), "python", "plugins"))
from processing.core.Processing import Processing
Processing.initialize()
import processing
from flair_qgis.processing.provider import FlairProvider
import flair_qgis.processing.segment_algorithm, flair_qgis.gui.dock, flair_qgis.core.vectorize.segment_output
provider = FlairProvider(); QgsApplication.processingRegistry().addProvider(provider)
assert {{"segment", "vectorize"}} <= {{a.name() for a in provider.algorithms()}}
image, model, out = {str(tmp_path / "in.tif")!r}, {str(model)!r}, {str(tmp_path)!r}
with rasterio.open(image, "w", driver="GTiff", width=64, height=64, count=3, dtype="uint8",
                   crs="EPSG:2154", transform=from_origin(0, 64, 1, 1)) as dst:
    dst.write(np.random.default_rng(0).integers(0, 255, (3, 64, 64), dtype=np.uint8))
params = {{"INPUT": image, "MODEL": model, "DEVICE": "cpu", "OUTPUT": out + "/classes.tif"}}
processing.run("flair:segment", params)
with rasterio.open(out + "/classes.tif") as src:
    assert src.read(1).shape == (64, 64)
from flair_qgis.adapters.deps import DependencyError, vectorize_dependency_error
message = vectorize_dependency_error()
assert message and "scipy" in message and "sudo apt install python3-scipy" in message, message
assert "pip install" in message and "MIN_AREA_M2" in message, message
exact = processing.run("flair:vectorize", {{"PREDICTION": out + "/classes.tif", "OUTPUT": out + "/exact.gpkg"}})
assert exact["POLYGONS"] > 0
processing.run("flair:segment", {{**params, "OUTPUT": out + "/withpolygons.tif", "OUTPUT_VECTOR": out + "/seg.gpkg",
                                  "SIMPLIFY_M": 1.0}})
assert os.path.getsize(out + "/seg.gpkg") > 0
refusals = [
    ("flair:segment", {{**params, "OUTPUT": out + "/again.tif", "OUTPUT_VECTOR": out + "/p.gpkg", "MIN_AREA_M2": 10}}),
    ("flair:vectorize", {{"PREDICTION": out + "/classes.tif", "OUTPUT": out + "/v.gpkg", "FILL_HOLES_M2": 5}}),
]
class Feedback(QgsProcessingFeedback):
    def __init__(self):
        super().__init__()
        self.errors = []
    def reportError(self, error, fatalError=False):
        self.errors.append(error)
for algorithm, parameters in refusals:
    feedback = Feedback()
    try:
        processing.run(algorithm, parameters, feedback=feedback)
    except QgsProcessingException:
        assert any(message in error for error in feedback.errors), (algorithm, feedback.errors)
    else:
        raise AssertionError(algorithm + " ran without scipy")
assert not {{"again.tif", "p.gpkg", "v.gpkg"}} & set(os.listdir(out)), os.listdir(out)  # refused before any run
from flair_qgis.adapters.segment_request import SegmentChoices, prepare_segment
from flair_qgis.core.engine.model import read_model_info
from flair_qgis.core.vectorize.segment_output import PolygonOutput
layer = QgsRasterLayer(image, "in")
QgsProject.instance().addMapLayer(layer)
prepare_segment(SegmentChoices(model, layer.id(), output_path=out + "/exact.tif", polygons=PolygonOutput()),
                read_model_info(model))  # exact polygons: accepted
request = SegmentChoices(model, layer.id(), output_path=out + "/dock.tif", polygons=PolygonOutput(min_area_m2=10))
try:
    prepare_segment(request, read_model_info(model))
except DependencyError as err:
    assert str(err) == message, str(err)
else:
    raise AssertionError("'Merge under' was accepted without scipy")
assert not os.path.exists(out + "/dock.tif")
assert sys.modules["scipy"] is None
print("OK")
"""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=env, check=False
    )
    assert done.returncode == 0 and "OK" in done.stdout, done.stdout[-2000:] + done.stderr[-3000:]
