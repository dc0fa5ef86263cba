"""Each job owns its outputs (issue 38): canceled at any point, or failing once it has written,
through Processing and through the dock's tasks, a job leaves its output folder exactly as it was
before the run, and its message says what it removed (or that nothing had been written).

A cancel is asked from the job's own progress hook (a feedback or task whose ``setProgress``
cancels at a threshold), so it lands at a known point: the first progress report, about 30, 60 and
90 % (for ``flair:segment`` with polygons, 90 % is in the polygon step), and 100 % (every file
written, the job not yet returned).
"""

from __future__ import annotations

import os
import shutil

import pytest
from cancel_helpers import canceling_feedback, listing, run_task
from gui_helpers import big_raster, toy_model
from qgis.core import QgsProcessingException, QgsProject
from review_data import demo_prediction, polygons_of_mask

from flair_qgis.core.review import SampleRequest
from flair_qgis.core.score import Reference, ScoreRequest, get_protocol

NOTHING = "Canceled: nothing had been written."
REMOVED = "Canceled: removed what the run had written ("
THRESHOLDS = [0.0, 30.0, 60.0, 90.0, 100.0]


@pytest.fixture(scope="module")
def inputs(flair_provider, tmp_path_factory):
    """A real class map, its confidence and reference mask, polygons of the mask, in their own folder."""
    prediction, confidence, reference = demo_prediction(tmp_path_factory.mktemp("cancel-inputs"))
    polygons = polygons_of_mask(reference, reference.parent / "labels.gpkg")
    return prediction, confidence, reference, polygons


@pytest.fixture
def out(tmp_path):
    """The output folder, holding a file of the user's that no run may touch."""
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "notes.txt").write_text("the user's own file\n")
    return folder


def _canceled(run_alg, algorithm: str, params: dict, folder, threshold: float) -> str:
    """Run ``algorithm`` canceled at ``threshold`` %; the folder must be as before; the message."""
    before = listing(folder)
    feedback = canceling_feedback(threshold)
    with pytest.raises(QgsProcessingException) as err:
        run_alg(algorithm, params, feedback)
    assert listing(folder) == before
    assert feedback.canceled_at is not None, "the run never reported progress"
    message = str(err.value)
    assert NOTHING in message or REMOVED in message
    assert "Canceled by the user; no output was written." not in message
    return message


def _segment_params(tmp_path, folder) -> dict:
    image = big_raster(tmp_path / "in" / "big.tif", size_px=256)
    return {
        "INPUT": str(image),
        "MODEL": str(toy_model(tmp_path)),
        "TILE_SIZE": 64,
        "OVERLAP": 0,
        "BATCH_SIZE": 1,
        "DEVICE": "cpu",
        "OUTPUT": str(folder / "classes.tif"),
        "OUTPUT_CONFIDENCE": str(folder / "conf.tif"),
        "OUTPUT_VECTOR": str(folder / "polygons.gpkg"),
    }


@pytest.mark.parametrize("threshold", THRESHOLDS)
def test_segment_with_confidence_and_polygons(run_alg, tmp_path, out, threshold):
    message = _canceled(run_alg, "flair:segment", _segment_params(tmp_path, out), out, threshold)
    if threshold == 0.0:
        assert NOTHING in message
    if threshold >= 90.0:  # the maps were in place, then removed with their sidecars
        for name in ("classes.tif", "classes.qml", "classes.tif.aux.xml", "conf.tif"):
            assert name in message
    if threshold == 100.0:
        assert "polygons.gpkg" in message


def test_segment_cancel_before_the_maps_keeps_a_file_already_at_an_output(run_alg, tmp_path, out):
    (out / "conf.tif").write_bytes(b"an older confidence of the user's")
    _canceled(run_alg, "flair:segment", _segment_params(tmp_path, out), out, 30.0)
    assert (out / "conf.tif").read_bytes() == b"an older confidence of the user's"


def test_segment_failing_in_the_polygon_step_removes_the_maps(run_alg, tmp_path, out):
    (out / "polygons.gpkg").mkdir()  # the polygons cannot be written there: the step fails
    before = listing(out)
    with pytest.raises(QgsProcessingException) as err:
        run_alg("flair:segment", _segment_params(tmp_path, out))
    assert listing(out) == before
    assert "Removed what the run had written: classes.tif, classes.tif.aux.xml, classes.qml, conf.tif." in str(
        err.value
    )


@pytest.mark.parametrize("threshold", [0.0, 50.0, 100.0])
def test_evaluate_with_report_and_error_map(run_alg, inputs, out, threshold):
    prediction, _confidence, reference, _polygons = inputs
    params = {
        "PREDICTION": str(prediction),
        "REFERENCE": str(reference),
        "PROTOCOL": "flair1",
        "OUTPUT_REPORT": str(out / "report.json"),
        "OUTPUT_ERROR_MAP": str(out / "errors.tif"),
    }
    message = _canceled(run_alg, "flair:evaluate", params, out, threshold)
    if threshold == 100.0:
        for name in ("errors.tif", "report.json", "report.csv", "report.png"):
            assert name in message


@pytest.mark.parametrize("threshold", [0.0, 50.0, 100.0])
def test_rank_labels(run_alg, inputs, out, threshold):
    prediction, confidence, _reference, polygons = inputs
    params = {
        "PREDICTION": str(prediction),
        "REFERENCE": str(polygons),
        "REFERENCE_FIELD": "code",
        "CONFIDENCE": str(confidence),
        "OUTPUT": str(out / "ranked.gpkg"),
    }
    message = _canceled(run_alg, "flair:rank_labels", params, out, threshold)
    if threshold == 100.0:
        assert "ranked.gpkg" in message


@pytest.mark.parametrize("threshold", [0.0, 50.0, 100.0])
def test_sample(run_alg, inputs, out, threshold):
    prediction, confidence, reference, _polygons = inputs
    params = {
        "PREDICTION": str(prediction),
        "REFERENCE": str(reference),
        "CONFIDENCE": str(confidence),
        "DESIGN": "stratified",
        "SAMPLES": 60,
        "MIN_PER_CLASS": 2,
        "OUTPUT": str(out / "review.gpkg"),
    }
    message = _canceled(run_alg, "flair:sample", params, out, threshold)
    if threshold == 100.0:
        assert "review.gpkg" in message


@pytest.mark.parametrize("threshold", [0.0, 50.0, 100.0])
def test_vectorize(run_alg, inputs, out, threshold):
    prediction, confidence, _reference, _polygons = inputs
    params = {
        "PREDICTION": str(prediction),
        "CONFIDENCE": str(confidence),
        "MIN_AREA_M2": 2.0,
        "OUTPUT": str(out / "polygons.gpkg"),
    }
    message = _canceled(run_alg, "flair:vectorize", params, out, threshold)
    if threshold == 100.0:
        assert "polygons.gpkg" in message


@pytest.fixture
def calibration_layer(inputs):
    from qgis.core import QgsRasterLayer

    image = next(inputs[0].parent.glob("IMG_*.tif"))
    layer = QgsRasterLayer(str(image), "calibration")
    QgsProject.instance().addMapLayer(layer)
    yield layer
    QgsProject.instance().removeMapLayer(layer.id())


@pytest.mark.parametrize("threshold", [0.0, 50.0, 70.0, 100.0])
def test_quantize(run_alg, calibration_layer, out, threshold):
    from review_data import DEMO_MODEL

    params = {
        "MODEL": str(DEMO_MODEL),
        "CALIBRATION": [calibration_layer.id()],
        "CALIBRATION_TILES": 2,
        "VALIDATION_TILES": 1,
        "SEED": 3,
        "OUTPUT": str(out / "int8.onnx"),
    }
    message = _canceled(run_alg, "flair:quantize", params, out, threshold)
    if threshold == 100.0:
        assert "int8.onnx" in message


# ----------------------------------------------------------------------------------- dock tasks
def _dock_segment(plugin, tmp_path, out, monkeypatch, task_class):
    """Start a dock run (confidence and polygons) whose task is ``task_class``; its folder listing."""
    from gui_helpers import add_raster

    from flair_qgis.core.vocabulary import EXTENT_LAYER
    from flair_qgis.gui.segment import segment_panel

    monkeypatch.setattr(segment_panel, "SegmentTask", task_class)
    dock = plugin.dock
    layer = add_raster(big_raster(tmp_path / "in" / "big.tif", size_px=256))
    dock.set_model(str(toy_model(tmp_path)))
    dock.layer_combo.setLayer(layer)
    dock.set_extent_mode(EXTENT_LAYER)
    section = dock.segment.run_section
    section.tile_spin.setValue(64)
    section.overlap_spin.setValue(0)
    section.batch_spin.setValue(1)
    section.output_widget.setFilePath(str(out / "classes.tif"))
    dock.confidence_check.setChecked(True)
    section.polygons_check.setChecked(True)
    return dock


@pytest.mark.parametrize("threshold", THRESHOLDS)
def test_dock_segment_canceled(plugin, qgis_iface, qtbot, tmp_path, out, monkeypatch, threshold):
    from gui_helpers import wait_for_task
    from qgis.core import Qgis

    from flair_qgis.adapters.segment_task import SegmentTask

    class CancelingTask(SegmentTask):
        def _progress(self, percent: float) -> None:
            super()._progress(percent)
            if percent >= threshold:
                self.cancel()

    dock = _dock_segment(plugin, tmp_path, out, monkeypatch, CancelingTask)
    before, layers = listing(out), set(QgsProject.instance().mapLayers())
    assert dock.segment.run() is not None
    wait_for_task(qtbot, dock)
    assert listing(out) == before
    assert set(QgsProject.instance().mapLayers()) == layers
    shown = [m for m in qgis_iface.messageBar().get_messages(Qgis.Info) if "Canceled" in m]
    assert shown and (NOTHING in shown[-1] or REMOVED in shown[-1])
    if threshold >= 90.0:
        assert "classes.tif" in shown[-1] and "classes_confidence.tif" in shown[-1]
    if threshold == 100.0:
        assert "classes_polygons.gpkg" in shown[-1]


def test_dock_segment_canceled_once_the_job_returned(plugin, qgis_iface, qtbot, tmp_path, out, monkeypatch):
    """The job finished, then the task was canceled before its layers came in: the job's result
    removes what the job wrote."""
    from gui_helpers import wait_for_task
    from qgis.core import Qgis

    from flair_qgis.adapters.segment_task import SegmentTask

    class LateCancel(SegmentTask):
        def _work(self) -> None:
            super()._work()
            self.cancel()

    dock = _dock_segment(plugin, tmp_path, out, monkeypatch, LateCancel)
    before = listing(out)
    assert dock.segment.run() is not None
    wait_for_task(qtbot, dock)
    assert listing(out) == before
    shown = [m for m in qgis_iface.messageBar().get_messages(Qgis.Info) if "Canceled" in m]
    assert shown and REMOVED in shown[-1] and "classes_polygons.gpkg" in shown[-1]


@pytest.mark.parametrize("threshold", [0.0, 100.0, None])
def test_dock_score_task(qgis_app, inputs, out, threshold):
    """The dock's "Score this view" task (error map and suspicious labels); None: a cancel once
    the job returned."""
    from flair_qgis.adapters.evaluate_task import EvaluateTask, PreparedEvaluation

    prediction, _confidence, _reference, polygons = inputs
    request = ScoreRequest(
        str(prediction),
        Reference(polygons=str(polygons), field="code"),
        get_protocol("flair1"),
        error_map_path=str(out / "errors.tif"),
        ranked_path=str(out / "ranked.gpkg"),
    )
    before = listing(out)
    outcome = run_task(EvaluateTask, PreparedEvaluation(request, ""), threshold)
    assert outcome.status == "canceled" and listing(out) == before
    if threshold != 0.0:  # at the first report, the one window's error map may already be in place
        assert {os.path.basename(p) for p in outcome.removed} >= {"errors.tif", "ranked.gpkg"}


@pytest.mark.parametrize("threshold", [0.0, 100.0, None])
def test_dock_sample_task(qgis_app, inputs, out, threshold):
    from flair_qgis.adapters.review_sample import CapturedSample, SampleTask

    prediction, _confidence, reference, _polygons = inputs
    request = SampleRequest(
        prediction_path=str(prediction),
        output_path=str(out / "review.gpkg"),
        reference_raster=str(reference),
        samples=60,
        min_per_class=2,
    )
    before = listing(out)
    outcome = run_task(SampleTask, CapturedSample(request, None), threshold)
    assert outcome.status == "canceled" and listing(out) == before
    assert [os.path.basename(p) for p in outcome.removed] == ([] if threshold == 0.0 else ["review.gpkg"])


def test_dock_score_failing_after_the_error_map(qgis_app, inputs, out):
    """The ranking fails once the error map is in place (its GeoPackage path is a folder)."""
    from flair_qgis.adapters.evaluate_task import EvaluateTask, PreparedEvaluation

    prediction, _confidence, _reference, polygons = inputs
    (out / "ranked.gpkg").mkdir()
    request = ScoreRequest(
        str(prediction),
        Reference(polygons=str(polygons), field="code"),
        get_protocol("flair1"),
        error_map_path=str(out / "errors.tif"),
        ranked_path=str(out / "ranked.gpkg"),
    )
    before = listing(out)
    outcome = run_task(EvaluateTask, PreparedEvaluation(request, ""), threshold=None, cancel=False)
    assert outcome.status == "error" and listing(out) == before
    assert "errors.tif" in [os.path.basename(p) for p in outcome.removed]
    shutil.rmtree(out / "ranked.gpkg")
