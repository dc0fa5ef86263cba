"""The quantize job owns its output: canceled at any point, even once the INT8 model is in place,
it leaves the folder as it was (an older file at OUTPUT stays until the job replaces it) and says
what it removed."""

from __future__ import annotations

import os

import pytest
from conftest import FLAIR_DATA, REPO

from flair_qgis.core.engine.pixel_sources import capture_file
from flair_qgis.core.errors import Canceled
from flair_qgis.core.quantize.job import QuantizeRequest, quantize

DEMO = REPO / "resources" / "models" / "flair-demo-unet.onnx"


@pytest.mark.parametrize("threshold", [0.0, 60.0, 100.0])
def test_a_cancel_leaves_the_folder_as_it_was(tmp_path, threshold):
    (tmp_path / "int8.onnx").write_bytes(b"the user's older model")
    seen: list[float] = []
    request = QuantizeRequest(
        str(DEMO), str(tmp_path / "int8.onnx"), calibration_tiles=2, validation_tiles=1, threads=2
    )
    with pytest.raises(Canceled) as err:
        quantize(
            request,
            [capture_file(FLAIR_DATA / f"IMG_{patch}.tif") for patch in ("000473", "002115")],
            is_canceled=lambda: bool(seen) and seen[-1] >= threshold,
            on_progress=seen.append,
        )
    if err.value.removed:  # the job had replaced the older file with its own, then removed it
        assert os.listdir(tmp_path) == [] and [os.path.basename(p) for p in err.value.removed] == ["int8.onnx"]
        assert str(err.value) == "Canceled by the user; removed what the run had written: int8.onnx."
    else:
        assert os.listdir(tmp_path) == ["int8.onnx"]
        assert (tmp_path / "int8.onnx").read_bytes() == b"the user's older model"
    assert bool(err.value.removed) == (threshold == 100.0)
