"""flair:segment end to end: exact toy models over generated and real rasters."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest
import rasterio
from conftest import DEEPNESS_DATA, FLAIR_DATA, RecordingFeedback
from qgis.core import QgsProcessingException, QgsRasterLayer
from rasters import random_image, read, write_raster
from toy_models import box3x3_model, conv_model, identity_model, sigmoid_model, two_input_model

from flair_qgis.core.nomenclature import FLAIR1_MODEL_CLASSES

UNIT = {"mean": [0, 0, 0, 0, 0], "std": [1, 1, 1, 1, 1]}


def seg(run_alg, raster, model, out, **params):
    return run_alg("flair:segment", {"INPUT": str(raster), "MODEL": str(model), "OUTPUT": str(out), **params})


@pytest.mark.parametrize(
    ("rows", "cols", "tile", "overlap"),
    [
        (100, 70, 64, 16),  # extent not a multiple of the tile
        (40, 50, 64, 16),  # tile larger than the extent
        (256, 256, 64, 0),  # no overlap
        (300, 129, 96, 40),  # overlap not a multiple of 16: rounded up
    ],
)
def test_tiled_argmax_is_exact(run_alg, tmp_path, rows, cols, tile, overlap):
    image = random_image(rows, cols)
    raster = write_raster(tmp_path / "img.tif", image)
    model = identity_model(tmp_path / "id.onnx", 5, metadata=UNIT)
    res = seg(run_alg, raster, model, tmp_path / "out.tif", TILE_SIZE=tile, OVERLAP=overlap)
    assert (read(res["OUTPUT"]) == np.argmax(image, axis=0)).all()


@pytest.mark.parametrize(("tile", "overlap"), [(64, 16), (96, 32), (128, 2)])
def test_no_seams_for_3x3_receptive_field(run_alg, tmp_path, tile, overlap):
    """Tiled output equals one run of the model over the whole image, to the pixel."""
    image = random_image(200, 170)
    raster = write_raster(tmp_path / "img.tif", image)
    mean, std = [100.0, 110.0, 90.0, 120.0, 50.0], [50.0, 40.0, 45.0, 35.0, 70.0]
    model, _ = box3x3_model(tmp_path / "box.onnx", 5, 7, metadata={"mean": mean, "std": std})
    res = seg(run_alg, raster, model, tmp_path / "out.tif", TILE_SIZE=tile, OVERLAP=overlap)
    x = (image.astype(np.float32) - np.float32(mean)[:, None, None]) / np.float32(std)[:, None, None]
    (scores,) = ort.InferenceSession(str(model), providers=["CPUExecutionProvider"]).run(None, {"x": x[None]})
    expected = np.argmax(scores[0], axis=0)
    got = read(res["OUTPUT"])
    # Pixels outside the raster are zero in normalised space for tiles too, so even the
    # outermost pixels match; allow float ties nowhere.
    assert (got == expected).mean() == 1.0


def test_extent_subset_and_grid(run_alg, tmp_path):
    image = random_image(300, 300)
    raster = write_raster(tmp_path / "img.tif", image)
    model = identity_model(tmp_path / "id.onnx", 5, metadata=UNIT)
    # x 600010.1 .. 600030.05 -> cols 50..151 (snapped outwards); y 6799980 .. 6799995 -> rows 25..100
    extent = "600010.1,600030.05,6799980.0,6799995.0 [EPSG:2154]"
    res = seg(run_alg, raster, model, tmp_path / "out.tif", EXTENT=extent, TILE_SIZE=64, OVERLAP=16)
    with rasterio.open(res["OUTPUT"]) as dst:
        assert dst.transform.c == pytest.approx(600010.0) and dst.transform.f == pytest.approx(6799995.0)
        assert (dst.width, dst.height) == (101, 75)
        assert dst.crs.to_epsg() == 2154
        got = dst.read(1)
    assert (got == np.argmax(image[:, 25:100, 50:151], axis=0)).all()


def test_nodata_and_outside_pixels_are_nodata(run_alg, tmp_path):
    image = random_image(120, 90)
    image[:, :, :10] = 0  # nodata border on the left
    image[:, 50:60, 40:50] = 0
    raster = write_raster(tmp_path / "img.tif", image, nodata=0)
    model = identity_model(tmp_path / "id.onnx", 5, metadata=UNIT)
    res = seg(run_alg, raster, model, tmp_path / "out.tif", TILE_SIZE=64, OVERLAP=16)
    got = read(res["OUTPUT"])
    invalid = np.all(image == 0, axis=0)
    assert (got[invalid] == 255).all()
    assert (got[~invalid] == np.argmax(image, axis=0)[~invalid]).all()
    with rasterio.open(res["OUTPUT"]) as dst:
        assert dst.nodata == 255


def test_alpha_band_masks_and_real_deepness_red_detector(run_alg, tmp_path):
    """Deepness' own test model and orthophoto: sigmoid(R/255 - 0.5) > 0.5 marks red pixels."""
    ortho = DEEPNESS_DATA / "dummy_fotomap_small.tif"
    model = DEEPNESS_DATA / "dummy_model" / "one_output_sigmoid_red_detector.onnx"
    res = seg(run_alg, ortho, model, tmp_path / "red.tif", BANDS="1,2,3", OUTPUT_CONFIDENCE=str(tmp_path / "c.tif"))
    with rasterio.open(ortho) as src:
        red, alpha = src.read(1), src.read(4)
        crs = src.crs
    got = read(res["OUTPUT"])
    expected = (red.astype(np.float32) / 255.0 > 0.5).astype(np.uint8)
    expected[alpha == 0] = 255
    assert (got == expected).all()
    assert (got == 1).sum() > 1000  # the strokes painted in red are found
    with rasterio.open(res["OUTPUT"]) as dst:
        assert dst.crs == crs
    conf = read(res["OUTPUT_CONFIDENCE"])
    assert conf.min() >= 0.5 - 1e-6 and conf.max() <= 1.0


def test_static_shape_fixes_tile_and_rank3_sigmoid(run_alg, tmp_path):
    image = random_image(600, 530, bands=3)
    raster = write_raster(tmp_path / "img.tif", image)
    model = DEEPNESS_DATA / "dummy_model" / "dummy_segmentation_models" / "one_output_sigmoid_bsx512x512.onnx"
    res = seg(run_alg, raster, model, tmp_path / "out.tif")
    assert res["TILES"] == 4  # 600x530 with 512 tiles and the default overlap
    with pytest.raises(QgsProcessingException, match="fixed input of 512 px"):
        seg(run_alg, raster, model, tmp_path / "out2.tif", TILE_SIZE=256)


def test_softmax_confidence_is_probability_of_winner(run_alg, tmp_path):
    image = random_image(90, 80)
    raster = write_raster(tmp_path / "img.tif", image)
    weights = np.random.default_rng(3).normal(size=(4, 5, 1, 1)).astype(np.float32) / 50
    # No mean/std in the metadata: Deepness' default, pixels / 255.
    meta = {"classes": [{"value": 10 * (i + 1), "name": f"c{i}", "color": f"#00ff0{i}"} for i in range(4)]}
    model = conv_model(tmp_path / "sm.onnx", weights * 255, metadata=meta, softmax=True)
    res = seg(
        run_alg,
        raster,
        model,
        tmp_path / "out.tif",
        OUTPUT_CONFIDENCE=str(tmp_path / "conf.tif"),
        TILE_SIZE=64,
        OVERLAP=16,
    )
    logits = np.einsum("oc,chw->ohw", weights[:, :, 0, 0], image.astype(np.float64))
    prob = np.exp(logits - logits.max(axis=0))
    prob /= prob.sum(axis=0)
    assert (read(res["OUTPUT"]) == 10 * (np.argmax(prob, axis=0) + 1)).all()
    np.testing.assert_allclose(read(res["OUTPUT_CONFIDENCE"]), prob.max(axis=0), atol=1e-5)


def test_logits_confidence_uses_softmax(run_alg, tmp_path):
    image = random_image(70, 70)
    raster = write_raster(tmp_path / "img.tif", image)
    weights = np.random.default_rng(4).normal(size=(3, 5, 1, 1)).astype(np.float32) / 40
    model = conv_model(tmp_path / "lg.onnx", weights, metadata={**UNIT, "output_activation": "logits"})
    res = seg(run_alg, raster, model, tmp_path / "out.tif", OUTPUT_CONFIDENCE=str(tmp_path / "conf.tif"))
    logits = np.einsum("oc,chw->ohw", weights[:, :, 0, 0], image.astype(np.float64))
    prob = np.exp(logits - logits.max(axis=0))
    prob /= prob.sum(axis=0)
    np.testing.assert_allclose(read(res["OUTPUT_CONFIDENCE"]), prob.max(axis=0), atol=1e-5)


def test_resampled_to_model_resolution(run_alg, tmp_path):
    """A 0.2 m raster and a 0.4 m model: the class map is written at 0.4 m on the layer's grid."""
    coarse = random_image(40, 30)
    image = coarse.repeat(2, axis=1).repeat(2, axis=2)  # constant 2x2 blocks: any resampling agrees
    raster = write_raster(tmp_path / "img.tif", image, res=0.2)
    model = identity_model(tmp_path / "id.onnx", 5, metadata={**UNIT, "resolution_cm": 40})
    res = seg(run_alg, raster, model, tmp_path / "out.tif", TILE_SIZE=32, OVERLAP=0)
    with rasterio.open(res["OUTPUT"]) as dst:
        assert dst.res == pytest.approx((0.4, 0.4))
        assert (dst.width, dst.height) == (30, 40)
        assert (dst.transform.c, dst.transform.f) == pytest.approx((600000.0, 6800000.0))
        assert (dst.read(1) == np.argmax(coarse, axis=0)).all()


def test_class_map_is_styled_and_described(run_alg, tmp_path):
    image = random_image(64, 64, bands=5)
    raster = write_raster(tmp_path / "img.tif", image)
    classes = [
        {"index": i, "value": c.value, "name": c.name, "color": c.color} for i, c in enumerate(FLAIR1_MODEL_CLASSES[:5])
    ]
    model = identity_model(tmp_path / "id.onnx", 5, metadata={**UNIT, "classes": classes})
    res = seg(run_alg, raster, model, tmp_path / "out.tif")
    with rasterio.open(res["OUTPUT"]) as dst:
        assert dst.profile["tiled"] and dst.compression is not None
        cmap = dst.colormap(1)
        assert cmap[1][:3] == (0xDB, 0x0E, 0x9A)  # building
        assert json.loads(dst.tags(1)["CLASSES"])[2]["name"] == "impervious surface"
        assert set(np.unique(dst.read(1))) <= {1, 2, 3, 4, 5}
    layer = QgsRasterLayer(res["OUTPUT"], "classes")
    assert layer.isValid()
    renderer = layer.renderer()
    assert renderer.type() == "paletted"  # the .qml sidecar is picked up by QGIS
    labels = {c.value: c.label for c in renderer.classes()}
    assert labels[1] == "building" and labels[5] == "water"
    assert (read(res["OUTPUT"]) == np.argmax(image, axis=0) + 1).all()


def test_real_flair_patch_identity_band_order(run_alg, tmp_path):
    """Real FLAIR patch (zstd, float-noise transform): output lines up with the input grid."""
    patch = FLAIR_DATA / "IMG_084558.tif"
    model = identity_model(tmp_path / "id.onnx", 5, metadata={**UNIT, "resolution_cm": 20})
    res = seg(run_alg, patch, model, tmp_path / "out.tif", BANDS="4,1,2,3,5")
    with rasterio.open(patch) as src:
        expected = np.argmax(src.read([4, 1, 2, 3, 5]), axis=0)
        transform = src.transform
    with rasterio.open(res["OUTPUT"]) as dst:
        assert dst.transform.almost_equals(transform)
        assert (dst.read(1) == expected).all()


def test_cancel_leaves_nothing(flair_provider, tmp_path):
    from flair_qgis.core.engine.grid import plan_grid
    from flair_qgis.core.engine.model import read_model_info
    from flair_qgis.core.engine.pixel_sources import RasterioSource, describe_raster
    from flair_qgis.core.errors import Canceled
    from flair_qgis.core.segment.run import SegmentRequest, segment

    raster = write_raster(tmp_path / "img.tif", random_image(512, 512))
    model = read_model_info(identity_model(tmp_path / "id.onnx", 5, metadata=UNIT))
    t, w, h, crs, _ = describe_raster(raster)
    grid = plan_grid(t, w, h, crs)
    calls = []

    def cancel_after_two_batches():
        calls.append(1)
        return len(calls) > 2

    request = SegmentRequest(
        output_path=str(tmp_path / "out" / "x.tif"),
        tile_size_px=64,
        overlap_px=0,
        batch_size=2,
        confidence_path=str(tmp_path / "out" / "c.tif"),
    )
    (tmp_path / "out").mkdir()
    with pytest.raises(Canceled):
        segment(
            model, RasterioSource(raster, (1, 2, 3, 4, 5), grid), grid, request, is_canceled=cancel_after_two_batches
        )
    assert os.listdir(tmp_path / "out") == []


def test_failure_mid_run_leaves_nothing(flair_provider, tmp_path):
    """A model whose output does not match its tiles fails after writing started: no file stays."""
    from flair_qgis.core.errors import FlairError

    model = DEEPNESS_DATA / "dummy_model" / "dummy_segmentation_models" / "different_output_size_512_to_484.onnx"
    raster = write_raster(tmp_path / "img.tif", random_image(600, 600, bands=3))
    (tmp_path / "out").mkdir()
    from flair_qgis.core.engine.grid import plan_grid
    from flair_qgis.core.engine.model import read_model_info
    from flair_qgis.core.engine.pixel_sources import RasterioSource, describe_raster
    from flair_qgis.core.segment.run import SegmentRequest, segment

    t, w, h, crs, _ = describe_raster(raster)
    grid = plan_grid(t, w, h, crs)
    request = SegmentRequest(output_path=str(tmp_path / "out" / "x.tif"), overlap_px=16)
    with pytest.raises(FlairError, match="OVERLAP to at least 28"):
        segment(read_model_info(model), RasterioSource(raster, (1, 2, 3), grid), grid, request)
    assert os.listdir(tmp_path / "out") == []


def test_smaller_output_is_centred_when_overlap_allows(run_alg, tmp_path):
    model = DEEPNESS_DATA / "dummy_model" / "dummy_segmentation_models" / "different_output_size_512_to_484.onnx"
    raster = write_raster(tmp_path / "img.tif", random_image(700, 600, bands=3))
    res = seg(run_alg, raster, model, tmp_path / "out.tif", OVERLAP=64)
    got = read(res["OUTPUT"])
    assert got.shape == (700, 600) and set(np.unique(got)) <= {0, 1}


def test_layer_without_crs_runs_with_warning(run_alg, tmp_path):
    image = random_image(50, 50)
    raster = write_raster(tmp_path / "img.tif", image, crs=None)
    model = identity_model(tmp_path / "id.onnx", 5, metadata=UNIT)
    feedback = RecordingFeedback()
    res = run_alg(
        "flair:segment", {"INPUT": str(raster), "MODEL": str(model), "OUTPUT": str(tmp_path / "o.tif")}, feedback
    )
    assert any("no CRS" in w for w in feedback.warnings)
    assert any("CPUExecutionProvider ran 1 tile(s)" in i for i in feedback.infos)
    with rasterio.open(res["OUTPUT"]) as dst:
        assert dst.crs is None
        assert (dst.read(1) == np.argmax(image, axis=0)).all()


# ---- bad input: a clear message, nothing written -------------------------------------------


@pytest.fixture
def five_band(tmp_path):
    return write_raster(tmp_path / "img.tif", random_image(64, 64))


@pytest.fixture
def id5(tmp_path):
    return identity_model(tmp_path / "id.onnx", 5, metadata=UNIT)


def _assert_fails(run_alg, params, match, out):
    with pytest.raises(QgsProcessingException, match=match):
        run_alg("flair:segment", {**params, "OUTPUT": str(out)})
    assert not Path(out).exists()


def test_bad_model_files(run_alg, tmp_path, five_band):
    text = tmp_path / "notes.onnx"
    text.write_text("this is not a model")
    _assert_fails(
        run_alg, {"INPUT": str(five_band), "MODEL": str(text)}, "not a readable ONNX model", tmp_path / "o.tif"
    )
    pickle_file = tmp_path / "model.onnx"
    pickle_file.write_bytes(b"\x80\x04\x95" + b"\x00" * 32)
    _assert_fails(run_alg, {"INPUT": str(five_band), "MODEL": str(pickle_file)}, "pickle", tmp_path / "o.tif")


def test_model_needs_more_bands(run_alg, tmp_path, id5):
    rgb = write_raster(tmp_path / "rgb.tif", random_image(32, 32, bands=3))
    _assert_fails(
        run_alg,
        {"INPUT": str(rgb), "MODEL": str(id5)},
        r"expects 5 bands but the layer has 3.*BANDS",
        tmp_path / "o.tif",
    )


def test_bands_that_do_not_exist(run_alg, tmp_path, five_band, id5):
    _assert_fails(
        run_alg,
        {"INPUT": str(five_band), "MODEL": str(id5), "BANDS": "1,2,3,4,9"},
        r"band\(s\) 9 but the raster has 5",
        tmp_path / "o.tif",
    )
    _assert_fails(
        run_alg, {"INPUT": str(five_band), "MODEL": str(id5), "BANDS": "1,2"}, "expects 5", tmp_path / "o.tif"
    )
    _assert_fails(
        run_alg, {"INPUT": str(five_band), "MODEL": str(id5), "BANDS": "red"}, "band numbers", tmp_path / "o.tif"
    )


def test_extent_outside_layer(run_alg, tmp_path, five_band, id5):
    _assert_fails(
        run_alg,
        {"INPUT": str(five_band), "MODEL": str(id5), "EXTENT": "0,10,0,10 [EPSG:2154]"},
        "does not intersect",
        tmp_path / "o.tif",
    )


def test_output_folder_missing(run_alg, tmp_path, five_band, id5):
    _assert_fails(run_alg, {"INPUT": str(five_band), "MODEL": str(id5)}, "does not exist", tmp_path / "nope" / "o.tif")


def test_second_input_missing_names_what_to_give(run_alg, tmp_path, five_band):
    model = two_input_model(tmp_path / "multi.onnx", 5)
    _assert_fails(
        run_alg, {"INPUT": str(five_band), "MODEL": str(model)}, r"2 inputs.*INPUT_2 is missing", tmp_path / "o.tif"
    )


def test_sigmoid_toy_model_threshold(run_alg, tmp_path):
    image = random_image(64, 64)
    raster = write_raster(tmp_path / "img.tif", image)
    model = sigmoid_model(tmp_path / "sig.onnx", 5, metadata={"mean": [128] * 5, "std": [10] * 5, "seg_thresh": 0.7})
    res = seg(run_alg, raster, model, tmp_path / "out.tif")
    prob = 1 / (1 + np.exp(-(image[0].astype(np.float32) - 128) / 10))
    assert (read(res["OUTPUT"]) == (prob >= 0.7)).all()


def test_fourth_band_flagged_alpha_is_data_when_the_model_reads_it(run_alg, tmp_path):
    """GDAL flags band 4 of a 4-band 8-bit GeoTIFF as alpha; for RGBI imagery it is near-infrared."""
    image = random_image(64, 64, bands=4)
    image[3, :20] = 0  # NIR of 0 must not make pixels nodata
    raster = write_raster(tmp_path / "rgbi.tif", image, photometric="RGB", alpha="YES")
    with rasterio.open(raster) as src:
        assert src.colorinterp[3] == rasterio.enums.ColorInterp.alpha
    model = identity_model(tmp_path / "id4.onnx", 4, metadata={"mean": [0] * 4, "std": [1] * 4})
    res = seg(run_alg, raster, model, tmp_path / "out.tif")
    assert (read(res["OUTPUT"]) == np.argmax(image, axis=0)).all()
    rgb_model = identity_model(tmp_path / "id3.onnx", 3, metadata={"mean": [0] * 3, "std": [1] * 3})
    res = seg(run_alg, raster, rgb_model, tmp_path / "out3.tif", BANDS="1,2,3")
    # A model that does not read band 4 takes it as the alpha mask it is declared to be.
    expected = np.where(image[3] == 0, 255, np.argmax(image[:3], axis=0))
    assert (read(res["OUTPUT"]) == expected).all()


def test_fixed_batch_model_gets_padded_batches(run_alg, tmp_path):
    """A model whose static shape fixes the batch at 4 still covers 9 tiles (the last batch padded)."""
    image = random_image(150, 150)
    raster = write_raster(tmp_path / "img.tif", image)
    model = identity_model(tmp_path / "b4.onnx", 5, tile=64, batch=4, metadata=UNIT)
    res = seg(run_alg, raster, model, tmp_path / "out.tif", OVERLAP=0)
    assert res["TILES"] == 9
    assert (read(res["OUTPUT"]) == np.argmax(image, axis=0)).all()


def test_cuda_asked_reports_the_provider_that_ran(run_alg, tmp_path):
    """DEVICE=cuda: the provider that really ran is reported; without CUDA that is the CPU, with a warning."""
    import onnxruntime

    image = random_image(64, 64)
    raster = write_raster(tmp_path / "img.tif", image)
    model = identity_model(tmp_path / "id.onnx", 5, metadata=UNIT)
    feedback = RecordingFeedback()
    params = {"INPUT": str(raster), "MODEL": str(model), "DEVICE": "cuda", "OUTPUT": str(tmp_path / "o.tif")}
    res = run_alg("flair:segment", params, feedback)
    if "CUDAExecutionProvider" in onnxruntime.get_available_providers() and res["PROVIDER"] == "CUDAExecutionProvider":
        assert not any("CUDA was asked for" in w for w in feedback.warnings)
    else:
        assert res["PROVIDER"] == "CPUExecutionProvider"
        assert any("CUDA was asked for" in w and "CPU" in w for w in feedback.warnings)
    assert (read(res["OUTPUT"]) == np.argmax(image, axis=0)).all()


@pytest.mark.cuda
def test_cuda_run_matches_cpu_run(run_alg, tmp_path):
    """On a CUDA machine the GPU class map equals the CPU one (3x3 model, several tiles)."""
    image = random_image(300, 260)
    raster = write_raster(tmp_path / "img.tif", image)
    model, _ = box3x3_model(tmp_path / "box.onnx", 5, 7, metadata={"mean": [128] * 5, "std": [64] * 5})
    outputs = {}
    for device in ("cpu", "cuda"):
        res = seg(run_alg, raster, model, tmp_path / f"{device}.tif", DEVICE=device, TILE_SIZE=128, OVERLAP=32)
        outputs[device] = read(res["OUTPUT"])
        assert res["PROVIDER"] == ("CUDAExecutionProvider" if device == "cuda" else "CPUExecutionProvider")
    # Float differences between kernels may flip near-ties only.
    assert (outputs["cpu"] == outputs["cuda"]).mean() > 0.999


def test_extent_in_another_crs_is_transformed(run_alg, tmp_path):
    """An extent drawn in WGS 84 over a Lambert-93 layer covers the same ground."""
    from pyproj import Transformer

    image = random_image(200, 200)
    raster = write_raster(tmp_path / "img.tif", image)
    model = identity_model(tmp_path / "id.onnx", 5, metadata=UNIT)
    to_wgs84 = Transformer.from_crs(2154, 4326, always_xy=True)
    (lon0, lat0), (lon1, lat1) = to_wgs84.transform(600005.0, 6799985.0), to_wgs84.transform(600015.0, 6799995.0)
    extent = f"{lon0},{lon1},{lat0},{lat1} [EPSG:4326]"
    res = seg(run_alg, raster, model, tmp_path / "out.tif", EXTENT=extent, TILE_SIZE=64, OVERLAP=16)
    with rasterio.open(res["OUTPUT"]) as dst:
        x0, y0, x1, y1 = dst.bounds
        # the WGS 84 box, projected back, is the 10 m square give or take a pixel of curvature
        assert abs(x0 - 600005.0) <= 0.4 and abs(x1 - 600015.0) <= 0.4
        assert abs(y0 - 6799985.0) <= 0.4 and abs(y1 - 6799995.0) <= 0.4
        col, row = round((x0 - 600000.0) / 0.2), round((6800000.0 - y1) / 0.2)
        assert (dst.read(1) == np.argmax(image[:, row : row + dst.height, col : col + dst.width], axis=0)).all()


def test_fp16_on_the_cpu_is_refused_with_the_reason(run_alg, tmp_path):
    raster = write_raster(tmp_path / "img.tif", random_image(40, 40))
    model, _ = box3x3_model(tmp_path / "box.onnx", 5, 7, metadata={"mean": [128] * 5, "std": [64] * 5})
    with pytest.raises(QgsProcessingException, match="PRECISION=fp16 runs on CUDA only"):
        seg(run_alg, raster, model, tmp_path / "out.tif", DEVICE="cpu", PRECISION="fp16")
    assert not (tmp_path / "out.tif").exists()
    res = seg(run_alg, raster, model, tmp_path / "fp32.tif", DEVICE="cpu", PRECISION="fp32")
    assert read(res["OUTPUT"]).shape == (40, 40)
