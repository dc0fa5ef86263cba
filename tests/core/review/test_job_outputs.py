"""The sampling job owns its output: canceled at any point, even once the review GeoPackage is in
place, it leaves the folder as it was and says what it removed."""

from __future__ import annotations

import os

import pytest
from rasters import write_raster
from review_data import classes_array

from flair_qgis.core.errors import Canceled, InputError
from flair_qgis.core.review import SampleRequest, create_review


@pytest.fixture
def case(tmp_path):
    (tmp_path / "in").mkdir()
    (tmp_path / "out").mkdir()
    path = write_raster(tmp_path / "in" / "classes.tif", classes_array()[None], nodata=0)
    return str(path), tmp_path / "out"


@pytest.mark.parametrize("design", ["stratified", "random"])
@pytest.mark.parametrize("threshold", [0.0, 50.0, 100.0])
def test_a_cancel_leaves_the_folder_as_it_was(case, design, threshold):
    prediction, out = case
    (out / "notes.txt").write_text("the user's")
    seen: list[float] = []
    request = SampleRequest(prediction, str(out / "review.gpkg"), design=design, samples=50, seed=1)
    with pytest.raises(Canceled) as err:
        create_review(request, is_canceled=lambda: bool(seen) and seen[-1] >= threshold, on_progress=seen.append)
    assert os.listdir(out) == ["notes.txt"]
    names = [os.path.basename(p) for p in err.value.removed]
    assert names == (["review.gpkg"] if threshold == 100.0 else [])
    assert str(err.value).endswith("review.gpkg." if threshold == 100.0 else "nothing had been written.")


def test_a_finished_sampling_removes_its_output_on_demand(case):
    prediction, out = case
    result = create_review(SampleRequest(prediction, str(out / "review.gpkg"), samples=50, seed=1))
    assert os.listdir(out) == ["review.gpkg"]
    assert [os.path.basename(p) for p in result.remove_outputs()] == ["review.gpkg"] and os.listdir(out) == []


def test_an_output_onto_the_reference_layer_is_refused_by_the_job(case, tmp_path):
    prediction, out = case
    labels = tmp_path / "in" / "labels.gpkg"
    labels.write_bytes(b"the user's labels")
    request = SampleRequest(prediction, str(labels), reference_source=f"{labels}|layername=labels")
    with pytest.raises(InputError, match="OUTPUT would overwrite REFERENCE"):
        create_review(request)
    assert labels.read_bytes() == b"the user's labels" and os.listdir(out) == []
