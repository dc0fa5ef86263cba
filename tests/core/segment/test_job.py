"""core.segment.job: the one entry point of segmentation (plan, run, polygons when asked)."""

from __future__ import annotations

import os

import numpy as np
import pytest
from rasters import random_image, read, write_raster
from toy_models import identity_model

from flair_qgis.core.engine import capture_file, read_model_info
from flair_qgis.core.errors import InputError
from flair_qgis.core.segment import (
    POLYGON_PROGRESS_START,
    SegmentRequest,
    plan_job,
    plan_segment,
    run_job,
    run_plan,
    segment_job,
)
from flair_qgis.core.vectorize import PolygonOutput

UNIT3 = {"mean": [0.0] * 3, "std": [1.0] * 3, "tile_size": 32, "tiles_overlap": 0}


@pytest.fixture
def image(tmp_path):
    return write_raster(tmp_path / "in.tif", random_image(40, 50, bands=3), crs="EPSG:2154")


@pytest.fixture
def model(tmp_path):
    return read_model_info(identity_model(tmp_path / "id3.onnx", 3, metadata=UNIT3))


def test_job_writes_what_plan_then_run_writes(image, model, tmp_path):
    options = SegmentRequest(str(tmp_path / "job.tif"))
    result = segment_job(options, model, (capture_file(image),))
    alone = run_plan(plan_segment(model, [capture_file(image)], SegmentRequest(str(tmp_path / "alone.tif"))))
    assert result.polygons is None
    assert result.segment.tiles == alone.tiles
    assert np.array_equal(read(result.segment.output_path), read(alone.output_path))


def test_polygons_come_after_the_class_map_and_take_the_last_fifth_of_the_progress(image, model, tmp_path):
    options = SegmentRequest(str(tmp_path / "c.tif"))
    job = plan_job(options, model, (capture_file(image),), polygons=PolygonOutput())
    assert job.polygons is not None and job.polygons.path.endswith("c_polygons.gpkg")  # set at planning
    assert not os.path.exists(tmp_path / "c.tif")  # planning wrote nothing
    progress: list[float] = []
    seen: list[bool] = []
    result = run_job(
        job, on_progress=progress.append, on_segmented=lambda r: seen.append(os.path.isfile(r.output_path))
    )
    assert seen == [True] and result.polygons is not None and result.polygons.polygons > 0
    assert os.path.isfile(result.polygons.path)
    assert progress == sorted(progress) and progress[-1] == 100.0
    assert any(p == POLYGON_PROGRESS_START for p in progress)


def test_confidence_of_a_value_map_is_refused_with_a_key(image, tmp_path):
    regressor = read_model_info(identity_model(tmp_path / "r.onnx", 3, metadata={**UNIT3, "model_type": "Regressor"}))
    options = SegmentRequest(str(tmp_path / "v.tif"), confidence_path=str(tmp_path / "v_confidence.tif"))
    with pytest.raises(InputError) as err:
        plan_job(options, regressor, (capture_file(image),))
    assert err.value.key == "no_confidence"
    assert err.value.params == {"name": regressor.outputs[0].name, "value_map": True}
    assert "OUTPUT_CONFIDENCE" in str(err.value)
    assert not os.path.exists(tmp_path / "v.tif")
