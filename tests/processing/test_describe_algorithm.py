"""flair:describe_model through processing.run: a model with no metadata gets a described copy (the
original unchanged), flair:segment then runs it on a real FLAIR patch with the declared classes, and
what does not fit the model is refused in a line that names it."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
import rasterio
from conftest import FLAIR_DATA, RecordingFeedback
from qgis.core import QgsProcessingException
from toy_models import conv_model

from flair_qgis.core.engine import read_model_info

PATCH = FLAIR_DATA / "IMG_002115.tif"


def _sha(path) -> str:
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


@pytest.fixture
def plain(tmp_path):
    """Scores = the five bands themselves (1x1 identity-like convolution to 5 channels)."""
    return conv_model(tmp_path / "plain.onnx", np.eye(5, dtype=np.float32).reshape(5, 5, 1, 1))


def test_describe_then_segment(run_alg, plain, tmp_path):
    before = _sha(plain)
    guessed = RecordingFeedback()
    run_alg("flair:segment", {"INPUT": str(PATCH), "MODEL": str(plain), "OUTPUT": str(tmp_path / "g.tif")}, guessed)
    assert [w for w in guessed.warnings if "declares neither its normalisation nor its classes" in w] == [
        "plain declares neither its normalisation nor its classes: this run guesses pixels / 255 and classes 0..4. "
        "Describe the model once (flair:describe_model, or 'Describe this model…' on the dock's model card)."
    ]
    feedback = RecordingFeedback()
    out = tmp_path / "described.onnx"
    mean, std = [10.0, 20.0, 30.0, 40.0, 50.0], [1.0, 2.0, 3.0, 4.0, 5.0]
    result = run_alg(
        "flair:describe_model",
        {
            "MODEL": str(plain),
            "PRESET": "none",
            "BANDS": "R,G,B,NIR,ELEV",
            "MEAN": ",".join(map(str, mean)),
            "STD": ",".join(map(str, std)),
            "CLASSES": "11:red:#ff0000\n12:green:#00ff00\n13:blue:#0000ff\n14:nir:#888888\n15:height:#000000",
            "RESOLUTION_CM": 20,
            "TILE_SIZE": 256,
            "OUTPUT": str(out),
        },
        feedback,
    )
    assert result["OUTPUT"] == str(out) and result["SHA256"] == _sha(out)
    assert _sha(plain) == before
    assert any("described.onnx: 5 band(s), 5 class(es)" in line for line in feedback.infos), feedback.infos
    assert feedback.warnings == []
    model = read_model_info(out)
    assert model.guessed == frozenset() and model.tile_size_px == 256
    segmented = RecordingFeedback()
    run_alg("flair:segment", {"INPUT": str(PATCH), "MODEL": str(out), "OUTPUT": str(tmp_path / "d.tif")}, segmented)
    assert not [w for w in segmented.warnings if "declares" in w]
    with rasterio.open(PATCH) as src:
        pixels = src.read().astype(np.float64)
    scores = (pixels - np.array(mean)[:, None, None]) / np.array(std)[:, None, None]
    top = np.sort(scores, axis=0)
    clear = top[-1] - top[-2] > 1e-3
    with rasterio.open(tmp_path / "d.tif") as written:
        class_map = written.read(1)
    expected = np.arange(11, 16)[scores.argmax(axis=0)]
    assert clear.mean() > 0.99 and np.array_equal(class_map[clear], expected[clear])


def test_a_preset_that_does_not_fit_is_refused_by_name(run_alg, plain, tmp_path):
    with pytest.raises(QgsProcessingException) as err:
        run_alg("flair:describe_model", {"MODEL": str(plain), "PRESET": "flair1", "OUTPUT": str(tmp_path / "x.onnx")})
    assert "plain.onnx has 5 output channel(s) but 13 class(es) were given" in str(err.value)
    with pytest.raises(QgsProcessingException) as err:
        run_alg("flair:describe_model", {"MODEL": str(plain), "PRESET": "flair1", "OUTPUT": str(plain)})
    assert "OUTPUT is the model itself: the original is never changed" in str(err.value)
    assert not (tmp_path / "x.onnx").exists()


@pytest.mark.parametrize("threshold", [0.0, 100.0])
def test_a_canceled_description_leaves_no_copy(run_alg, plain, tmp_path, threshold):
    """Canceled at its first progress report, or once the copy is in place: the folder is as before."""
    from cancel_helpers import canceling_feedback, listing

    before = listing(tmp_path)
    feedback = canceling_feedback(threshold)
    params = {"MODEL": str(plain), "PRESET": "none", "SCALE": "255", "OUTPUT": str(tmp_path / "described.onnx")}
    with pytest.raises(QgsProcessingException) as err:
        run_alg("flair:describe_model", params, feedback)
    assert listing(tmp_path) == before and feedback.canceled_at is not None
    removed = "Canceled: removed what the run had written (described.onnx)."
    assert (removed if threshold == 100.0 else "Canceled: nothing had been written.") in str(err.value)
