"""Shared fixtures: a real headless QGIS (pytest-qgis), the flair provider, real and toy data."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
TESTS = Path(__file__).resolve().parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(TESTS))

# Real FLAIR patches and Deepness data, bundled in tests/data with their SOURCE.md so users and
# CI need no ../shared. Tests read a session copy: QGIS writes .aux.xml statistics next to the
# rasters it opens, and repository data must never change. The copy is made once per session by
# the autouse fixture `test_data` (not at import: collecting tests copies nothing); these paths
# name where it lies, one folder per test process.
_DATA_COPY = Path(tempfile.gettempdir()) / f"flair-test-data-{os.getpid()}"
FLAIR_DATA = _DATA_COPY / "data" / "flair"
DEEPNESS_DATA = _DATA_COPY / "data" / "deepness"


@pytest.fixture(scope="session", autouse=True)
def test_data() -> Iterator[Path]:
    """The session's copy of tests/data (FLAIR_DATA and DEEPNESS_DATA lie in it); removed at the end."""
    shutil.rmtree(_DATA_COPY, ignore_errors=True)
    shutil.copytree(TESTS / "data", _DATA_COPY / "data")
    yield _DATA_COPY / "data"
    shutil.rmtree(_DATA_COPY, ignore_errors=True)


@pytest.fixture(scope="session")
def flair_data(test_data: Path) -> Path:
    """The session copy of the real FLAIR patches (IMG_*.tif, MSK_*.tif)."""
    return test_data / "flair"


@pytest.fixture(scope="session")
def deepness_data(test_data: Path) -> Path:
    """The session copy of the Deepness test data (models, an orthophoto)."""
    return test_data / "deepness"


@pytest.fixture(scope="session")
def flair_provider(qgis_app, qgis_processing):
    """The flair Processing provider, registered once for the session."""
    from qgis.core import QgsApplication

    from flair_qgis.processing.provider import FlairProvider

    registry = QgsApplication.processingRegistry()
    provider = registry.providerById("flair")
    if provider is None:
        provider = FlairProvider()
        registry.addProvider(provider)
    return provider


@pytest.fixture
def run_alg(flair_provider):
    """Run a flair algorithm through ``processing.run``; returns its results dict."""
    import processing
    from qgis.core import QgsProcessingContext, QgsProcessingException, QgsProcessingFeedback, QgsProject

    def run(algorithm: str, parameters: dict, feedback: QgsProcessingFeedback | None = None) -> dict:
        context = QgsProcessingContext()
        context.setProject(QgsProject.instance())
        feedback = feedback or RecordingFeedback()
        try:
            return processing.run(algorithm, parameters, context=context, feedback=feedback)
        except QgsProcessingException as err:
            # processing.run raises a generic text; the user reads the reported errors.
            reported = getattr(feedback, "errors", [])
            raise QgsProcessingException(" | ".join([*reported, str(err)])) from err

    return run


class RecordingFeedback:
    """A QgsProcessingFeedback that keeps what the user would read in the log."""

    def __new__(cls):
        from qgis.core import QgsProcessingFeedback

        class _Recording(QgsProcessingFeedback):
            def __init__(self) -> None:
                super().__init__()
                self.errors: list[str] = []
                self.warnings: list[str] = []
                self.infos: list[str] = []

            def reportError(self, error: str, fatalError: bool = False) -> None:
                self.errors.append(error)
                super().reportError(error, fatalError)

            def pushWarning(self, warning: str) -> None:
                self.warnings.append(warning)
                super().pushWarning(warning)

            def pushInfo(self, info: str) -> None:
                self.infos.append(info)
                super().pushInfo(info)

        return _Recording()


@pytest.fixture(scope="session")
def flair_patches(test_data: Path) -> list[str]:
    """Ids of the real FLAIR patches bundled in tests/data/flair."""
    return sorted(p.stem.split("_")[1] for p in FLAIR_DATA.glob("IMG_*.tif"))


@pytest.fixture
def readonly_copy(tmp_path: Path):
    """Copy a file into tmp_path and return the copy (tests must never touch repository data)."""

    def copy(path: Path | str) -> Path:
        target = tmp_path / Path(path).name
        shutil.copy(path, target)
        return target

    return copy


def pytest_collection_modifyitems(config, items):
    """Skip CUDA tests where onnxruntime has no CUDA provider."""
    try:
        import onnxruntime

        has_cuda = "CUDAExecutionProvider" in onnxruntime.get_available_providers()
    except ImportError:
        has_cuda = False
    if has_cuda and os.environ.get("FLAIR_NO_CUDA") != "1":
        return
    skip = pytest.mark.skip(reason="no CUDA execution provider in this onnxruntime")
    for item in items:
        if "cuda" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def plugin(qgis_iface, qgis_new_project, qgis_processing, qtbot):
    """The plugin loaded into the test QGIS with its dock shown (fresh settings); unloaded afterwards."""
    from gui_helpers import wait_for_task
    from qgis.core import QgsSettings

    from flair_qgis.plugin import FlairPlugin

    QgsSettings().remove("flair_qgis")
    qgis_iface.messageBar().clear_messages()
    loaded = FlairPlugin(qgis_iface)
    loaded.initGui()
    loaded.show_dock(True)
    yield loaded
    if loaded.dock is not None and loaded.dock.segment.task is not None:
        loaded.dock.segment.cancel()
        wait_for_task(qtbot, loaded.dock)
    loaded.unload()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """A real Dask scheduler with two workers (scale_helpers.running_cluster), per test module."""
    from scale_helpers import running_cluster

    with running_cluster(tmp_path_factory.mktemp("dask")) as procs:
        yield procs


@pytest.fixture(scope="session")
def million_squares(tmp_path_factory) -> dict:
    """A real FLAIR prediction and a million-polygon GeoPackage around it (bigref_helpers), made once."""
    from bigref_helpers import million_squares_case

    return million_squares_case(tmp_path_factory.mktemp("million"))


@pytest.fixture(scope="session")
def postgis(million_squares):
    """A real PostgreSQL + PostGIS server (Debian's packages) holding the million squares as table
    ``labels`` (GiST index), started for the session and removed at its end."""
    from postgis_server import start_server

    server = start_server()
    try:
        server.load(str(million_squares["gpkg"]), "labels")
        yield server
    finally:
        server.stop()
