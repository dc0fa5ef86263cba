"""The segment job owns its outputs: names decided from the request, and every file it wrote
(class map and its sidecars, confidence, polygons) removed when it fails or is canceled at any
stage, the polygon step included; a file already at an output path stays unless the job replaced it."""

from __future__ import annotations

import os

import pytest
from rasters import random_image, write_raster
from toy_models import identity_model

from flair_qgis.core.engine import capture_file, read_model_info
from flair_qgis.core.errors import Canceled, InputError
from flair_qgis.core.segment import (
    POLYGON_PROGRESS_START,
    SegmentRequest,
    class_map_path,
    confidence_path_for,
    live_output_path,
    plan_job,
    run_job,
    run_output_path,
)
from flair_qgis.core.vectorize import PolygonOutput

META = {"mean": [0.0] * 3, "std": [1.0] * 3, "tile_size": 32, "tiles_overlap": 0}
CLASSES = [
    {"value": v, "name": n, "color": c} for v, n, c in ((1, "a", "#ff0000"), (2, "b", "#00ff00"), (3, "c", "#0000ff"))
]


@pytest.fixture
def job_of(tmp_path):
    (tmp_path / "in").mkdir()
    image = write_raster(tmp_path / "in" / "in.tif", random_image(64, 64, bands=3), crs="EPSG:2154")
    model = read_model_info(identity_model(tmp_path / "in" / "id3.onnx", 3, metadata={**META, "classes": CLASSES}))
    out = tmp_path / "out"
    out.mkdir()

    def job(polygons: str = "polygons.gpkg"):
        request = SegmentRequest(str(out / "classes.tif"), confidence_path=str(out / "conf.tif"), batch_size=1)
        return plan_job(request, model, (capture_file(image),), polygons=PolygonOutput(str(out / polygons)))

    return job, out


def _cancel_at(threshold: float):
    seen: list[float] = []
    return (lambda: bool(seen) and seen[-1] >= threshold), seen.append


@pytest.mark.parametrize("threshold", [0.0, 30.0, 60.0, 90.0, 100.0])
def test_a_cancel_at_any_point_leaves_the_folder_as_it_was(job_of, threshold):
    job, out = job_of
    (out / "notes.txt").write_text("the user's")
    is_canceled, on_progress = _cancel_at(threshold)
    with pytest.raises(Canceled) as err:
        run_job(job(), is_canceled, on_progress)
    assert os.listdir(out) == ["notes.txt"]
    names = [os.path.basename(p) for p in err.value.removed]
    if threshold > POLYGON_PROGRESS_START:  # the maps were in place: removed with their sidecars
        assert names[:4] == ["classes.tif", "classes.tif.aux.xml", "classes.qml", "conf.tif"]
        assert str(err.value).startswith("Canceled by the user; removed what the run had written: classes.tif, ")
    if threshold == 100.0:
        assert names[-1] == "polygons.gpkg"
    if threshold == 0.0:
        assert names == [] and str(err.value) == "Canceled by the user; nothing had been written."


def test_a_file_at_an_output_path_stays_when_the_job_did_not_replace_it(job_of):
    job, out = job_of
    (out / "conf.tif").write_bytes(b"the user's older confidence")
    is_canceled, on_progress = _cancel_at(30.0)
    with pytest.raises(Canceled):
        run_job(job(), is_canceled, on_progress)
    assert os.listdir(out) == ["conf.tif"] and (out / "conf.tif").read_bytes() == b"the user's older confidence"


def test_a_failing_polygon_step_removes_the_maps(job_of):
    job, out = job_of
    (out / "polygons.gpkg").mkdir()  # the polygons cannot be moved into place
    with pytest.raises(InputError, match="is a folder") as err:
        run_job(job())
    assert os.listdir(out) == ["polygons.gpkg"]
    assert "classes.tif" in [os.path.basename(p) for p in err.value.removed]


def test_a_finished_job_removes_its_outputs_on_demand(job_of):
    job, out = job_of
    result = run_job(job("p.shp"))
    assert {"classes.tif", "conf.tif", "p.shp", "p.dbf", "p.shx"} <= set(os.listdir(out))
    removed = result.remove_outputs()
    assert os.listdir(out) == [] and {os.path.basename(p) for p in removed} >= {"classes.qml", "p.dbf", "p.prj"}


def test_output_names_are_decided_by_the_job():
    assert class_map_path("/d/run") == "/d/run.tif" and class_map_path("/d/run.TIFF") == "/d/run.TIFF"
    assert confidence_path_for("/d/run.tif") == "/d/run_confidence.tif"
    taken = {"/d/flair_demo_my_layer_20261207_090000.tif"}
    assert run_output_path("/d", "my layer", "/m/demo.onnx", "20261207_090000", taken.__contains__) == (
        "/d/flair_demo_my_layer_20261207_090000_2.tif"
    )
    assert live_output_path("/d", "s1") == "/d/live_s1.tif"
