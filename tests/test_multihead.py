"""Multi-input band selection, head roles and per-image metrics (flair_qgis.core.engine.multi, task_metrics)."""

from __future__ import annotations

import numpy as np
import pytest
from bench_helpers import pixel_conv_model, weedsense_model
from toy_models import two_output_model

from flair_qgis.core.benchmark.task_metrics import ClassificationMetrics, RegressionMetrics
from flair_qgis.core.engine.bands import band_choice
from flair_qgis.core.engine.model import InputSpec, read_model_info
from flair_qgis.core.engine.multi import class_values, per_image_value, resolve_heads
from flair_qgis.core.errors import InputError


def spec(bands: tuple[str, ...], channels: int = 3) -> InputSpec:
    return InputSpec("x", channels, bands, (0.0,) * channels, (1.0,) * channels)


@pytest.mark.parametrize(
    ("bands", "modality", "expected"),
    [
        (("4", "1", "2"), "AERIAL_RGBI", (4, 1, 2)),
        (("NIR", "R", "G"), "AERIAL_RGBI", (4, 1, 2)),
        (("Infrared", "Red", "Green"), "SPOT_RGBI", (4, 1, 2)),
        (("R", "G", "B", "NIR", "ELEV"), "FLAIR1_IMG", (1, 2, 3, 4, 5)),
        (("NIR", "R", "G"), "FLAIR1_IMG", (4, 1, 2)),
        (("DSM", "DTM"), "DEM_ELEV", (1, 2)),
        (("band 1", "band 2", "band 3"), "RGB", (1, 2, 3)),
    ],
)
def test_band_choice(bands, modality, expected):
    choice = band_choice(spec(bands, len(bands)), modality)
    assert choice.bands == expected
    assert not choice.warning


def test_flairhub_rgbi_without_declared_bands_uses_nir_r_g_with_warning():
    choice = band_choice(spec(("band 1", "band 2", "band 3")), "AERIAL_RGBI", band_count=4)
    assert choice.bands == (4, 1, 2)
    assert "NIR, R, G" in choice.warning


def test_band_number_beyond_file_is_refused():
    with pytest.raises(InputError, match="band\\(s\\) 5"):
        band_choice(spec(("5", "1", "2")), "AERIAL_RGBI", band_count=4)


def test_three_heads_roles_and_per_image_values(tmp_path):
    meta = {
        "outputs": [
            {"name": "mask", "task": "segmentation", "classes": list(range(17))},
            {"name": "height", "task": "regression", "unit": "cm"},
            {"name": "stage", "task": "classification", "classes": list(range(1, 12))},
        ]
    }
    path = weedsense_model(tmp_path / "w.onnx", np.ones((17, 3)), np.ones((11, 3)), 1.0, meta)
    heads = resolve_heads(read_model_info(path))
    assert heads.segmentation.name == "mask"
    assert [h.name for h in heads.regression] == ["height"]
    assert [h.name for h in heads.classification] == ["stage"]
    scores = np.zeros((2, 11), dtype=np.float32)
    scores[0, 0] = scores[1, 10] = 1.0
    assert per_image_value(heads.classification[0], scores).tolist() == [1.0, 11.0]
    assert per_image_value(heads.regression[0], np.array([[3.5], [7.0]])).tolist() == [3.5, 7.0]


def test_deepness_two_outputs_first_is_the_class_map(tmp_path):
    heads = resolve_heads(read_model_info(two_output_model(tmp_path / "two.onnx", 3)))
    assert heads.segmentation.name == "a"
    assert [h.name for h in heads.ignored] == ["b"]


def test_thirteen_outputs_are_flair_codes_unless_declared(tmp_path):
    plain = read_model_info(pixel_conv_model(tmp_path / "a.onnx", np.ones((13, 5))))
    assert class_values(plain, plain.outputs[0], "flair1").tolist() == list(range(1, 14))
    assert class_values(plain, plain.outputs[0], "custom").tolist() == list(range(13))
    declared = read_model_info(pixel_conv_model(tmp_path / "b.onnx", np.ones((13, 5)), {"classes": list(range(13))}))
    assert class_values(declared, declared.outputs[0], "flair1").tolist() == list(range(13))


def test_regression_metrics_match_sklearn():
    from sklearn.metrics import mean_absolute_error, mean_squared_error, r2_score

    rng = np.random.default_rng(0)
    truth = rng.uniform(0, 50, 40)
    pred = truth + rng.normal(0, 3, 40)
    first, second = RegressionMetrics(), RegressionMetrics()
    for i, (t, p) in enumerate(zip(truth, pred)):
        (first if i < 17 else second).update(t, p)
    first.merge(second)
    result = first.result("cm")
    assert result["mae_cm"] == pytest.approx(mean_absolute_error(truth, pred))
    assert result["rmse_cm"] == pytest.approx(np.sqrt(mean_squared_error(truth, pred)))
    assert result["r2"] == pytest.approx(r2_score(truth, pred))
    for k in (1, 2, 5):
        assert result[f"within_{k}cm"] == pytest.approx(sum(abs(p - t) <= k for t, p in zip(truth, pred)) / 40)


def test_classification_metrics_match_sklearn():
    from sklearn.metrics import accuracy_score, f1_score

    rng = np.random.default_rng(1)
    truth = rng.integers(1, 12, 60)
    pred = np.where(rng.random(60) < 0.6, truth, rng.integers(1, 12, 60))
    metrics = ClassificationMetrics(range(1, 12))
    for t, p in zip(truth, pred):
        metrics.update(t, p)
    result = metrics.result()
    assert result["accuracy"] == pytest.approx(accuracy_score(truth, pred))
    assert result["f1"] == pytest.approx(f1_score(truth, pred, average="macro"))
    with pytest.raises(InputError, match="12"):
        metrics.update(12, 3)
