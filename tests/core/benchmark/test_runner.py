"""core.benchmark.runner: the session flair:segment builds (the wrapped graph), the same figures, a typed report."""

from __future__ import annotations

import json

import numpy as np
import pytest
from bench_helpers import int_weights, make_flair1_dataset, make_weedsense_dataset, pixel_conv_model, weedsense_model
from toy_models import conv_model

from flair_qgis.core.benchmark import BenchmarkReport, BenchmarkRequest, plan_benchmark, run_benchmark, runner
from flair_qgis.core.engine import CPU, wrapped_graph
from flair_qgis.core.score import publish_report

# The report's keys, in the order flair:benchmark wrote them before its report was typed.
REPORT_KEYS = [
    "protocol", "miou", "oa", "pixels_evaluated", "pixels_ignored", "pixels_excluded", "absent_class_score",
    "absent_classes", "classes", "confusion_matrix", "confusion_labels", "confusion_names", "protocol_details",
    "mf1", "benchmark", "class_alignment", "warnings",
]  # fmt: skip
TARGET_KEYS = [
    "miou_percent", "mf1_percent", "height", "mae_cm", "rmse_cm", "r2", "max_error_cm", "within_1cm", "within_2cm",
    "within_5cm", "within_1cm_percent", "within_2cm_percent", "within_5cm_percent", "growth_stage", "accuracy",
    "f1", "accuracy_percent", "f1_percent",
]  # fmt: skip
RUN_KEYS = [
    "dataset", "layout", "label_modality", "model", "device", "provider", "inputs", "segmentation_output",
    "class_values", "samples_found", "samples_scored", "samples_failed", "failed", "unpaired_count", "unpaired",
    "on_unpaired", "seconds", "pipeline_seconds", "samples_per_second", "samples_csv", "predictions_dir",
    "per_sample_miou", "worst_samples",
]  # fmt: skip
UNIT5 = {"mean": [0] * 5, "std": [1] * 5}


def _request(tmp_path, model, name="r.json", **options) -> BenchmarkRequest:
    return BenchmarkRequest(str(tmp_path / "data"), str(model), "flair1", str(tmp_path / name), device="cpu", **options)


def test_the_benchmark_runs_the_session_flair_segment_builds(tmp_path):
    make_flair1_dataset(tmp_path / "data", 3)
    model = pixel_conv_model(tmp_path / "m.onnx", int_weights((13, 5), 2), UNIT5)
    request = _request(tmp_path, model)
    _session, info, fusion = runner.run_session(plan_benchmark(request), request)
    assert fusion.wraps and [h.name for h in fusion.heads] == ["scores"]
    assert info.provider == CPU and info.device == "cpu"
    result = run_benchmark(request)
    assert "argmax in the graph" in result.graph
    assert result.session.provider == result.report.run.provider == CPU


def _host_path(monkeypatch):
    """The benchmark as it ran before: the model's own graph, every head post-processed on the host."""
    build = wrapped_graph.create_run_session
    monkeypatch.setattr(runner, "create_run_session", lambda *args, **kw: build(*args, fuse=False, **kw))


@pytest.mark.parametrize("softmax", [False, True])
def test_the_wrapped_graph_gives_the_host_figures_to_the_pixel(softmax, tmp_path, monkeypatch):
    """Float scores from 3x3 convolutions of normalised pixels: same matrix, same CSV, same predictions."""
    make_flair1_dataset(tmp_path / "data", 5)
    weights = np.random.default_rng(7).normal(size=(13, 5, 3, 3)).astype(np.float32)
    meta = {"mean": [100.0] * 5, "std": [37.5] * 5}
    model = conv_model(tmp_path / "m.onnx", weights, metadata=meta, softmax=softmax)
    wrapped = run_benchmark(_request(tmp_path, model, "wrapped.json", predictions_dir=str(tmp_path / "pw")))
    _host_path(monkeypatch)
    host = run_benchmark(_request(tmp_path, model, "host.json", predictions_dir=str(tmp_path / "ph")))
    assert "argmax in the graph" in wrapped.graph and "on the host" in host.graph
    assert wrapped.report.scores == host.report.scores
    assert [w.miou for w in wrapped.report.run.worst_samples] == [w.miou for w in host.report.run.worst_samples]
    for path in sorted((tmp_path / "ph").glob("PRED_*.tif")):
        assert (tmp_path / "pw" / path.name).read_bytes() == path.read_bytes()


def test_the_report_is_typed_and_written_as_before(tmp_path):
    make_flair1_dataset(tmp_path / "data", 3)
    model = pixel_conv_model(tmp_path / "m.onnx", int_weights((13, 5), 2), UNIT5)
    result = run_benchmark(_request(tmp_path, model))
    report = result.report
    assert isinstance(report, BenchmarkReport) and report.targets is None
    written = (tmp_path / "r.json").read_bytes()
    publish_report(report.to_report(), str(tmp_path / "again.json"))
    assert (tmp_path / "again.json").read_bytes() == written
    document = json.loads(written)
    assert list(document) == REPORT_KEYS and list(document["benchmark"]) == RUN_KEYS
    assert document["miou"] == report.scores.miou and document["mf1"] == report.mf1
    assert document["benchmark"]["samples_per_second"] == report.run.samples_per_second
    assert document["benchmark"]["worst_samples"][0]["sample_id"] == report.run.worst_samples[0].sample_id


def test_per_image_targets_are_fields_too(tmp_path):
    make_weedsense_dataset(tmp_path / "data", 4)
    outputs = [
        {"name": "mask", "task": "segmentation", "classes": list(range(17))},
        {"name": "height", "task": "regression", "unit": "cm"},
        {"name": "stage", "task": "classification", "classes": list(range(1, 12))},
    ]
    meta = {"mean": [0, 0, 0], "std": [1, 1, 1], "outputs": outputs}
    model = weedsense_model(tmp_path / "w.onnx", int_weights((17, 3), 11), int_weights((11, 3), 12), 0.25, meta)
    request = BenchmarkRequest(str(tmp_path / "data"), str(model), "weedsense", str(tmp_path / "r.json"))
    report = run_benchmark(request).report
    document = json.loads((tmp_path / "r.json").read_text())
    cut = REPORT_KEYS.index("class_alignment")
    assert list(document) == REPORT_KEYS[:cut] + TARGET_KEYS + REPORT_KEYS[cut:]
    assert report.targets is not None
    assert (report.targets.mae_cm, report.targets.accuracy) == (document["mae_cm"], document["accuracy"])
    assert report.targets.rmse_cm == document["rmse_cm"] and report.targets.f1 == document["f1"]
