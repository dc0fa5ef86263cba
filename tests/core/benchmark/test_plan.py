"""core.benchmark.plan: what a benchmark will do, decided without running the model."""

from __future__ import annotations

import pytest
from bench_helpers import int_weights, make_flair1_dataset, make_weedsense_dataset, pixel_conv_model

from flair_qgis.core.benchmark.plan import BenchmarkRequest, plan_benchmark
from flair_qgis.core.errors import InputError
from flair_qgis.core.nomenclature import FLAIR1_MODEL_CLASSES

UNIT5 = {"mean": [0] * 5, "std": [1] * 5}


def test_deepness_model_is_aligned_to_flair1_codes(tmp_path):
    make_flair1_dataset(tmp_path / "data", 2)
    names = {str(i): c.name for i, c in enumerate(FLAIR1_MODEL_CLASSES)}
    model = pixel_conv_model(tmp_path / "m.onnx", int_weights((13, 5), 0), {**UNIT5, "class_names": names})
    plan = plan_benchmark(BenchmarkRequest(str(tmp_path / "data"), str(model), "flair1", str(tmp_path / "r.json")))
    assert plan.class_lut.tolist() == list(range(1, 14))
    assert plan.alignment.how == "names" and any("0 building -> 1" in w for w in plan.warnings)
    assert plan.image_targets == () and plan.protocol.submission_offset == -1


def test_unaligned_model_is_refused_before_anything(tmp_path):
    make_flair1_dataset(tmp_path / "data", 1)
    model = pixel_conv_model(
        tmp_path / "m.onnx", int_weights((3, 5), 0), {**UNIT5, "class_names": {"0": "a", "1": "b", "2": "c"}}
    )
    request = BenchmarkRequest(str(tmp_path / "data"), str(model), "flair1", str(tmp_path / "r.json"))
    with pytest.raises(InputError, match="CLASS_MAP"):
        plan_benchmark(request)
    mapped = plan_benchmark(BenchmarkRequest(**{**request.__dict__, "class_map": {0: 10, 1: 7, 2: 2}}))
    assert mapped.class_lut.tolist() == [10, 7, 2] and mapped.alignment.how == "class_map"
    assert not (tmp_path / "r.json").exists()


def test_weedsense_folder_brings_its_targets_and_notes(tmp_path):
    make_weedsense_dataset(tmp_path / "weeds", 2)
    model = pixel_conv_model(tmp_path / "m.onnx", int_weights((17, 3), 0), {"mean": [0] * 3, "std": [1] * 3})
    plan = plan_benchmark(BenchmarkRequest(str(tmp_path / "weeds"), str(model), "flair1", str(tmp_path / "r.json"),
                                           class_map={i: 1 + i % 13 for i in range(17)}))  # fmt: skip
    assert plan.image_targets == ("height_cm", "growth_week")
    assert any("its own layout is flair1" in w for w in plan.warnings)
    assert any("no regression output" in w for w in plan.warnings)
