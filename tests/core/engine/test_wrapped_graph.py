"""core.engine.wrapped_graph: the wrapped graph gives today's maps, pixel for pixel, for every head kind.

Each run is made twice on the CPU provider, with the graph wrapped (raw pixels in, normalisation
and ArgMax inside) and with ``fuse_graph=False`` (today's host path); class maps must be equal,
confidences equal within float tolerance.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from rasters import random_image, read, write_raster
from toy_models import conv_model, identity_model, sigmoid_model

from flair_qgis.core.engine import TASK_SEGMENTATION, capture_file, plan_heads, read_model_info
from flair_qgis.core.segment import SegmentRequest, segment_job

REPO = Path(__file__).resolve().parents[3]
DEMO_MODEL = REPO / "resources" / "models" / "flair-demo-unet.onnx"
DEEPNESS_MODELS = sorted((REPO / "tests" / "data" / "deepness" / "dummy_model").rglob("*.onnx"))


def _run(model_path: Path, image: Path, out: Path, fuse: bool, bands=None, **options):
    model = read_model_info(model_path)
    primary = plan_heads(model).primary
    confidence = str(out.with_suffix(".conf.tif")) if primary.task == TASK_SEGMENTATION else None
    out.parent.mkdir(parents=True, exist_ok=True)
    request = SegmentRequest(
        str(out), confidence_path=confidence, bands=(bands,) if bands else (), device="cpu", fuse_graph=fuse, **options
    )
    return segment_job(request, model, (capture_file(image),)).segment


def _same_maps(model_path: Path, image: Path, tmp_path: Path, bands=None, **options) -> str:
    """Run both paths; assert equal maps; return the wrapped run's graph note."""
    fused = _run(model_path, image, tmp_path / "fused" / "out.tif", True, bands, **options)
    host = _run(model_path, image, tmp_path / "host" / "out.tif", False, bands, **options)
    assert np.array_equal(read(fused.output_path), read(host.output_path))
    if host.confidence_path:
        np.testing.assert_allclose(read(fused.confidence_path), read(host.confidence_path), rtol=2e-6, atol=2e-7)
    assert fused.head_paths.keys() == host.head_paths.keys()
    for name, path in fused.head_paths.items():
        np.testing.assert_array_equal(read(path), read(host.head_paths[name]))
    assert fused.tile_values == host.tile_values
    assert "host" in host.graph
    return fused.graph


@pytest.mark.parametrize("model_path", DEEPNESS_MODELS, ids=lambda p: p.stem)
def test_deepness_models_give_todays_maps(model_path, deepness_data, tmp_path):
    image = deepness_data / "dummy_fotomap_small.tif"
    note = _same_maps(model_path, image, tmp_path, bands=(1, 2, 3))
    assert "pixels normalised in the graph" in note
    channels = read_model_info(model_path).outputs[0].channels
    assert ("argmax in the graph" in note) == (channels is not None and channels > 1)


def test_demo_model_gives_todays_maps_with_overlapping_tiles(flair_data, tmp_path):
    note = _same_maps(DEMO_MODEL, flair_data / "IMG_000473.tif", tmp_path, tile_size_px=192, overlap_px=32)
    assert "pixels normalised in the graph" in note and "argmax in the graph (logits)" in note


@pytest.mark.parametrize("dtype", ["uint8", "uint16", "int16", "float32"])
def test_ties_go_to_the_lowest_class_as_on_the_host(dtype, tmp_path):
    # Pixels in {0, 1} on 3 bands: most pixels tie between two or three classes.
    pixels = np.random.default_rng(3).integers(0, 2, size=(3, 70, 90)).astype(dtype)
    image = write_raster(tmp_path / "ties.tif", pixels)
    meta = {"mean": [0.5] * 3, "std": [2.0] * 3, "tile_size": 32, "tiles_overlap": 25}
    model = identity_model(tmp_path / "id.onnx", 3, metadata=meta)
    note = _same_maps(model, image, tmp_path)
    assert "pixels normalised in the graph" in note and "argmax in the graph" in note


def test_nodata_pixels_are_zero_in_normalised_space_as_on_the_host(tmp_path):
    pixels = random_image(60, 60, bands=3, seed=5)
    pixels[:, 10:30, 5:25] = 0
    image = write_raster(tmp_path / "nodata.tif", pixels, nodata=0)
    weights = np.random.default_rng(1).normal(size=(4, 3, 3, 3)).astype(np.float32)
    model = conv_model(tmp_path / "conv.onnx", weights, metadata={"mean": [100.0] * 3, "std": [50.0] * 3})
    _same_maps(model, image, tmp_path, tile_size_px=32, overlap_px=8)
    assert (read(tmp_path / "fused" / "out.tif")[10:30, 5:25] == 255).all()


@pytest.mark.parametrize("dtype", ["uint8", "int16"])
def test_the_graphs_model_input_is_the_hosts_bit_for_bit_in_both_branches(dtype, tmp_path):
    # The wrapped graph takes a branch per batch: no invalid pixel (no masking pass) or some.
    # Through an identity model its output is the model's input: compare it with the host's
    # float32 normalisation, bit for bit, with +0.0 (never -0.0) where pixels are invalid.
    import onnxruntime as ort

    from flair_qgis.core.engine.stages import normalisation
    from flair_qgis.core.engine.wrapped_graph import FusedInput, Fusion, fused_model

    mean, std = [120.5, -3.0, 0.0], [40.0, 7.5, 1.0]
    model = read_model_info(identity_model(tmp_path / "id.onnx", 3, metadata={"mean": mean, "std": std}))
    item = FusedInput("x", "raw", "valid", dtype)
    wrapped = fused_model(str(model.path), model, Fusion(inputs=(item,), raw_heads=("scores",)))
    session = ort.InferenceSession(wrapped.data, providers=["CPUExecutionProvider"])
    rng = np.random.default_rng(7)
    info = np.iinfo(dtype)
    raw = rng.integers(info.min, info.max, size=(2, 3, 16, 16), endpoint=True).astype(dtype)
    scale, offset = normalisation(mean, std)
    host = raw.astype(np.float32) * scale + offset
    all_valid = np.ones((2, 1, 16, 16), dtype=bool)
    some_invalid = all_valid.copy()
    some_invalid[1, 0, 3:9, 4:12] = False
    for valid in (all_valid, some_invalid):
        (out,) = session.run(["scores"], {"raw": raw, "valid": valid})
        expected = np.where(valid, host, np.float32(0.0))
        assert out.dtype == np.float32
        assert np.array_equal(out.view(np.uint32), expected.view(np.uint32))
    assert not np.signbit(out[1][:, 3:9, 4:12]).any()


def test_pointwise_models_run_without_the_blocked_layout(tmp_path):
    from flair_qgis.core.engine.wrapped_graph import fused_model, plan_fusion

    def wrapped(kernel: int):
        weights = np.ones((4, 3, kernel, kernel), dtype=np.float32)
        model = read_model_info(conv_model(tmp_path / f"k{kernel}.onnx", weights))
        return fused_model(str(model.path), model, plan_fusion(model, plan_heads(model), ["uint8"], False))

    assert wrapped(1).blocked_layout is False
    assert wrapped(3).blocked_layout is True


def test_without_onnx_the_host_path_runs_and_the_warning_says_what_to_install(flair_data, tmp_path, monkeypatch):
    fused = _run(DEMO_MODEL, flair_data / "IMG_000473.tif", tmp_path / "fused" / "out.tif", True, tile_size_px=256)
    assert not any("onnx" in w for w in fused.warnings)
    monkeypatch.setitem(sys.modules, "onnx", None)  # a Python where onnx cannot be imported
    host = _run(DEMO_MODEL, flair_data / "IMG_000473.tif", tmp_path / "host" / "out.tif", True, tile_size_px=256)
    assert host.graph.startswith("pre- and post-processing on the host: the onnx package is not installed")
    (warning,) = [w for w in host.warnings if "onnx" in w]
    assert warning.startswith("Model graph not fused: the onnx package is not installed")
    assert "pip install onnx" in warning and "Install button" in warning
    assert np.array_equal(read(fused.output_path), read(host.output_path))


def test_softmax_head_detected_from_the_graphs_sample(tmp_path):
    image = write_raster(tmp_path / "in.tif", random_image(50, 50, bands=3, seed=2))
    weights = np.random.default_rng(2).normal(size=(5, 3, 1, 1)).astype(np.float32)
    model = conv_model(tmp_path / "soft.onnx", weights, metadata={"mean": [128.0] * 3, "std": [64.0] * 3}, softmax=True)
    assert "argmax in the graph" in _same_maps(model, image, tmp_path, tile_size_px=32, overlap_px=4)


def test_sigmoid_head_stays_on_the_host(tmp_path):
    image = write_raster(tmp_path / "in.tif", random_image(40, 40, bands=3, seed=4))
    model = sigmoid_model(tmp_path / "sig.onnx", 3, metadata={"mean": [128.0] * 3, "std": [30.0] * 3})
    note = _same_maps(model, image, tmp_path, tile_size_px=32, overlap_px=4)
    assert "host post-processing (scores)" in note


@pytest.mark.parametrize("readers", [2, 3])
def test_several_readers_write_the_same_maps_as_one(readers, flair_data, tmp_path):
    image = flair_data / "IMG_000473.tif"
    one = _run(DEMO_MODEL, image, tmp_path / "one" / "out.tif", True, tile_size_px=128, overlap_px=16, readers=1)
    many = _run(
        DEMO_MODEL, image, tmp_path / "many" / "out.tif", True, tile_size_px=128, overlap_px=16, readers=readers
    )
    assert np.array_equal(read(one.output_path), read(many.output_path))
    assert np.array_equal(read(one.confidence_path), read(many.confidence_path))


def test_a_model_that_cannot_be_wrapped_runs_the_host_path_and_says_so(tmp_path):
    import onnx

    image = write_raster(tmp_path / "in.tif", random_image(40, 40, bands=3, seed=6))
    path = identity_model(tmp_path / "id.onnx", 3, metadata={"mean": [0.0] * 3, "std": [1.0] * 3})
    old = onnx.load(str(path))
    old.opset_import[0].version = 9  # ArgMax, Cast and Identity exist there; Slice with steps does not
    onnx.save(old, str(path))
    fused = _run(path, image, tmp_path / "fused" / "out.tif", True, tile_size_px=32, overlap_px=8)
    host = _run(path, image, tmp_path / "host" / "out.tif", False, tile_size_px=32, overlap_px=8)
    assert np.array_equal(read(fused.output_path), read(host.output_path))
    (note,) = [w for w in fused.warnings if "not fused" in w]
    assert note == (
        "Model graph not fused (opset 9 is older than 10): pixels are normalised and the argmax taken on the "
        "host, slower."
    )
    assert not any("not fused" in w for w in host.warnings)


def test_a_reused_session_keeps_its_wrapped_graph(flair_data, tmp_path):
    from flair_qgis.core.engine.wrapped_graph import create_run_session
    from flair_qgis.core.segment import plan_segment, run_plan

    model = read_model_info(DEMO_MODEL)
    raster = capture_file(flair_data / "IMG_000473.tif")
    options = SegmentRequest(str(tmp_path / "a.tif"), tile_size_px=256, overlap_px=32, device="cpu")
    plan = plan_segment(model, [raster], options)
    reused = create_run_session(model, plan.heads, [s.dtype for s in plan.sources], False, "cpu", None)
    result = run_plan(plan, session=reused)
    assert "argmax in the graph" in result.graph
    alone = run_plan(
        plan_segment(
            model, [raster], SegmentRequest(str(tmp_path / "b.tif"), tile_size_px=256, overlap_px=32, device="cpu")
        )
    )
    assert np.array_equal(read(result.output_path), read(alone.output_path))


def test_a_run_leaves_gdals_process_wide_cache_as_it_found_it(flair_data, tmp_path):
    # Inside QGIS, GDAL's block cache is QGIS's: a run once set it to 64 bytes while it lasted
    # (rasterio.Env(GDAL_CACHEMAX=64) is process-wide, in bytes), and overlapping runs restoring
    # each other's value raced GDAL's flushes with QGIS's render threads.
    gdal = pytest.importorskip("osgeo.gdal")
    import rasterio

    if gdal.__version__.split(".")[:2] != rasterio.__gdal_version__.split(".")[:2]:
        pytest.skip("rasterio carries its own GDAL here: osgeo cannot see its cache")
    before = gdal.GetCacheMax()
    seen = []
    model = read_model_info(DEMO_MODEL)
    request = SegmentRequest(str(tmp_path / "out.tif"), device="cpu", tile_size_px=128, overlap_px=16)
    raster = capture_file(flair_data / "IMG_000473.tif")
    segment_job(request, model, (raster,), on_progress=lambda _p: seen.append(gdal.GetCacheMax()))
    assert seen and set(seen) == {before}
    assert gdal.GetCacheMax() == before
