"""``scripts/flair segment`` plans a model without metadata with a note saying what the run guesses
(the same catalogued line as flair:segment and the dock, in English), and none for a described one."""

from __future__ import annotations

import numpy as np
from rasters import random_image, write_raster
from toy_models import conv_model

from flair_qgis.core.describe import DescribeRequest, describe, description
from flair_qgis.core.segment import SegmentRequest
from flair_qgis.scale.plan import plan_job


def test_the_plan_notes_name_what_is_guessed(tmp_path):
    image = write_raster(tmp_path / "in.tif", random_image(64, 64, 3, seed=1))
    model = conv_model(tmp_path / "plain.onnx", np.ones((4, 3, 1, 1), np.float32))
    request = SegmentRequest(str(tmp_path / "out" / "classes.vrt"), tile_size_px=64, overlap_px=0)
    _job, _model, notes = plan_job(str(image), str(model), str(tmp_path / "out"), request, chunk_tiles=1)
    assert notes[0] == (
        "plain declares neither its normalisation nor its classes: this run guesses pixels / 255 and classes 0..3. "
        "Describe the model once (flair:describe_model, or 'Describe this model…' on the dock's model card)."
    )
    scaled = description(scale=255.0)  # the normalisation declared, the classes still guessed
    described = describe(DescribeRequest(str(model), str(tmp_path / "scaled.onnx"), scaled)).output_path
    _job, _model, notes = plan_job(str(image), described, str(tmp_path / "out2"), request, chunk_tiles=1)
    assert notes[0].startswith("scaled declares no classes: this run guesses classes 0..3, named 'class N'.")
