"""The score job owns its outputs: it refuses outputs onto its inputs before reading anything,
names the dock's outputs, and removes every file it wrote (error map, ranked labels, report and its
CSV) when canceled at any point, even once the last file is written."""

from __future__ import annotations

import os

import geopandas as gpd
import numpy as np
import pytest
from affine import Affine
from rasterio.features import shapes
from rasters import write_raster
from shapely.geometry import shape

from flair_qgis.core.errors import Canceled, InputError
from flair_qgis.core.score import Reference, ScoreRequest, get_protocol, run_score, score_output_paths

TRANSFORM = Affine(0.2, 0.0, 650000.0, 0.0, -0.2, 6860000.0)


def _class_raster(path, array):
    """A class map in Lambert-93 at 0.2 m with nodata 255, written by the tests' shared writer."""
    return str(write_raster(path, array[None], origin=(TRANSFORM.c, TRANSFORM.f), nodata=255))


@pytest.fixture
def case(tmp_path):
    """Class map, reference raster and polygons in ``in/``; an empty ``out/``."""
    (tmp_path / "in").mkdir()
    (tmp_path / "out").mkdir()
    rng = np.random.default_rng(7)
    ref = np.repeat(np.repeat(rng.integers(1, 14, (4, 6)), 16, axis=0), 16, axis=1).astype(np.uint8)
    pred = ref.copy()
    pred[rng.random(ref.shape) < 0.25] = 4
    found = list(shapes(ref, transform=TRANSFORM))
    polygons = gpd.GeoDataFrame(
        {"code": [int(v) for _, v in found]}, geometry=[shape(g) for g, _ in found], crs="EPSG:2154"
    )
    pred_path, ref_path = (
        _class_raster(tmp_path / "in" / name, array) for name, array in (("pred.tif", pred), ("ref.tif", ref))
    )
    return tmp_path / "out", pred_path, ref_path, polygons


def _full_request(out, pred_path, polygons) -> ScoreRequest:
    return ScoreRequest(
        pred_path,
        Reference(polygons=polygons, field="code"),
        get_protocol("flair1"),
        error_map_path=str(out / "errors.tif"),
        ranked_path=str(out / "ranked.gpkg"),
        report_path=str(out / "report.json"),
        csv_path=str(out / "report.csv"),
    )


@pytest.mark.parametrize("threshold", [0.0, 30.0, 60.0, 90.0, 100.0])
def test_a_cancel_at_any_point_leaves_the_folder_as_it_was(case, threshold):
    out, pred_path, _ref, polygons = case
    seen: list[float] = []
    with pytest.raises(Canceled) as err:
        run_score(_full_request(out, pred_path, polygons), lambda: bool(seen) and seen[-1] >= threshold, seen.append)
    assert os.listdir(out) == []
    if threshold == 100.0:
        names = {os.path.basename(p) for p in err.value.removed}
        assert names >= {"errors.tif", "errors.qml", "ranked.gpkg", "report.json", "report.csv"}
        assert "errors.tif" in str(err.value) and "report.json" in str(err.value)


def test_a_finished_job_removes_its_outputs_on_demand(case):
    out, pred_path, _ref, polygons = case
    result = run_score(_full_request(out, pred_path, polygons))
    assert {"errors.tif", "ranked.gpkg", "report.json", "report.csv"} <= set(os.listdir(out))
    result.remove_outputs()
    assert os.listdir(out) == []


@pytest.mark.parametrize(
    ("outputs", "names"),
    [
        ({"error_map_path": "{pred}"}, ("OUTPUT_ERROR_MAP", "PREDICTION")),
        ({"report_path": "{ref}"}, ("OUTPUT_REPORT", "REFERENCE")),
        ({"ranked_path": "{source}"}, ("OUTPUT", "REFERENCE")),
    ],
)
def test_outputs_onto_inputs_are_refused_by_the_job(case, outputs, names):
    out, pred_path, ref_path, _polygons = case
    inputs = os.path.dirname(ref_path)
    source = os.path.join(inputs, "labels.gpkg")  # a polygon layer's source: only its shell knows it
    open(source, "w").close()
    given = {k: v.format(pred=pred_path, ref=ref_path, source=source) for k, v in outputs.items()}
    reference_source = source if "ranked_path" in given else None
    request = ScoreRequest(
        pred_path, Reference(raster_path=ref_path), get_protocol("flair1"), reference_source=reference_source, **given
    )
    before = {name: os.path.getmtime(os.path.join(inputs, name)) for name in os.listdir(inputs)}
    with pytest.raises(InputError) as err:
        run_score(request)
    assert all(name in str(err.value) for name in names)
    assert {name: os.path.getmtime(os.path.join(inputs, name)) for name in os.listdir(inputs)} == before
    assert os.listdir(out) == []


def test_the_docks_output_names():
    assert score_output_paths("/d", "s", error_map=True, suspicious=True) == (
        "/d/flair_errors_s.tif",
        "/d/flair_suspicious_s.gpkg",
    )
    assert score_output_paths("/d", "s", error_map=False, suspicious=False) == (None, None)
