"""core.segment.request: the one request of a run, as plain data that JSON carries whole."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest
from rasters import random_image, write_raster
from request_values import non_default_request
from toy_models import identity_model

from flair_qgis.core.engine import capture_file, from_json, read_model_info, to_json
from flair_qgis.core.segment import PIXEL_OPTIONS, RUN_FIELDS, SegmentRequest, plan_job


def test_every_field_survives_the_json_round_trip():
    request = non_default_request()
    text = request.to_json()
    assert set(json.loads(text)) == {f.name for f in dataclasses.fields(SegmentRequest)}
    back = SegmentRequest.from_json(text)
    for field in dataclasses.fields(SegmentRequest):
        assert getattr(back, field.name) == getattr(request, field.name), field.name
        assert type(getattr(back, field.name)) is type(getattr(request, field.name)), field.name
    assert back == request


def test_a_field_this_version_does_not_know_is_refused():
    data = json.loads(SegmentRequest("out.tif").to_json())
    with pytest.raises(TypeError, match="no field colour"):
        SegmentRequest.from_json(json.dumps({**data, "colour": "red"}))


def test_every_field_is_either_a_pixel_option_or_not():
    """A field added to the request must say whether it changes pixels (run.json records those)."""
    names = [f.name for f in dataclasses.fields(SegmentRequest)]
    assert sorted(PIXEL_OPTIONS + RUN_FIELDS) == sorted(names)
    assert not set(PIXEL_OPTIONS) & set(RUN_FIELDS)
    assert "precision" in PIXEL_OPTIONS and "device" in RUN_FIELDS
    assert set(non_default_request().pixel_options()) == set(PIXEL_OPTIONS)


def test_plain_values_are_normalised_so_equal_requests_compare_equal():
    given = SegmentRequest("o.tif", bands=[np.array([3, 1, 2])], extent=[1, 2, 3, 4], mask_wkbs=[bytearray(b"\x01")])
    assert given == SegmentRequest("o.tif", bands=((3, 1, 2),), extent=(1.0, 2.0, 3.0, 4.0), mask_wkbs=(b"\x01",))
    assert SegmentRequest.from_json(given.to_json()) == given


def test_what_has_no_plain_form_is_refused():
    @dataclasses.dataclass(frozen=True)
    class WithFunction:
        call: object

    with pytest.raises(TypeError, match="builtin_function_or_method has no plain JSON form"):
        to_json(WithFunction(print))
    assert from_json(SegmentRequest, to_json(SegmentRequest("a.tif"))) == SegmentRequest("a.tif")


def test_the_planned_request_holds_what_was_decided(tmp_path):
    """The plan's request is the same request with its paths, bands and tiling decided (what a cluster runs)."""
    meta = {"mean": [0.0] * 3, "std": [1.0] * 3, "tile_size": 32, "tiles_overlap": 0, "bands": [3, 2, 1]}
    model = read_model_info(identity_model(tmp_path / "id3.onnx", 3, metadata=meta))
    image = write_raster(tmp_path / "in.tif", random_image(40, 50, bands=3), crs="EPSG:2154")
    request = SegmentRequest(str(tmp_path / "c.tif"), precision="fp32", fuse_graph=False, batch_size=2)
    job = plan_job(request, model, (capture_file(image),))
    planned = job.plan.request
    assert job.request == request
    assert (planned.tile_size_px, planned.overlap_px, planned.batch_size) == (32, job.plan.overlap_px, 2)
    assert planned.bands == job.plan.bands and len(planned.bands[0]) == 3
    decided = {"bands", "tile_size_px", "overlap_px", "output_path", "head_paths", "tile_values_path"}
    kept = [f.name for f in dataclasses.fields(request) if f.name not in decided]
    assert [getattr(planned, name) for name in kept] == [getattr(request, name) for name in kept]
