"""flair:segment with several inputs (modalities at their own resolutions) and several heads."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import onnx
import pytest
import rasterio
from conftest import DEEPNESS_DATA
from onnx import TensorProto, helper, numpy_helper
from rasterio.enums import Resampling
from rasterio.vrt import WarpedVRT
from rasters import random_image, read, write_raster
from toy_models import OPSET, save


def _vi(name, channels, size="H"):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, ["N", channels, size, size.replace("H", "W")])


def fusion_model(path: Path) -> Path:
    """scores = aerial (3 bands at 0.2 m) + DEM (1 band at 0.4 m) upsampled x2 (nearest)."""
    scales = numpy_helper.from_array(np.array([1, 1, 2, 2], dtype=np.float32), "scales")
    nodes = [
        helper.make_node(
            "Resize",
            ["dem", "", "scales"],
            ["dem_up"],
            mode="nearest",
            coordinate_transformation_mode="asymmetric",
            nearest_mode="floor",
        ),
        helper.make_node("Add", ["aerial", "dem_up"], ["scores"]),
    ]
    graph = helper.make_graph(nodes, "fusion", [_vi("aerial", 3), _vi("dem", 1, "h")], [_vi("scores", 3)], [scales])
    meta = {
        "inputs": [
            {"name": "aerial", "modality": "AERIAL_RGBI", "bands": [4, 1, 2], "mean": 0, "std": 1, "resolution_cm": 20},
            {"name": "dem", "modality": "DEM_ELEV", "bands": [1], "mean": 100, "std": 2, "resolution_cm": 40},
        ],
        "classes": [
            {"value": 1, "name": "a", "color": "#ff0000"},
            {"value": 2, "name": "b", "color": "#00ff00"},
            {"value": 3, "name": "c", "color": "#0000ff"},
        ],
    }
    return save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)]), path, meta)


def test_two_modalities_at_their_own_resolutions(run_alg, tmp_path):
    rgbi = random_image(128, 96, bands=4, seed=1)
    dem = random_image(64, 48, bands=1, seed=2)
    a = write_raster(tmp_path / "rgbi.tif", rgbi, res=0.2)
    b = write_raster(tmp_path / "dem.tif", dem, res=0.4)
    model = fusion_model(tmp_path / "fusion.onnx")
    res = run_alg(
        "flair:segment",
        {
            "INPUT": str(a),
            "INPUT_2": str(b),
            "MODEL": str(model),
            "TILE_SIZE": 64,
            "OVERLAP": 16,
            "OUTPUT": str(tmp_path / "out.tif"),
        },
    )
    aerial = rgbi[[3, 0, 1]].astype(np.float32)  # declared bands 4, 1, 2: NIR, R, G
    dem_up = ((dem[0].astype(np.float32) - 100) / 2).repeat(2, axis=0).repeat(2, axis=1)
    expected = np.argmax(aerial + dem_up, axis=0) + 1
    got = read(res["OUTPUT"])
    assert got.shape == (128, 96)
    assert (got == expected).all()


def three_head_model(path: Path) -> Path:
    """seg = x (4 classes); height = 2 * x[0] (cm, per pixel); stage = argmax of channel means (per image)."""
    axes = numpy_helper.from_array(np.array([1], dtype=np.int64), "axes")
    starts = numpy_helper.from_array(np.array([0], dtype=np.int64), "starts")
    ends = numpy_helper.from_array(np.array([1], dtype=np.int64), "ends")
    two = numpy_helper.from_array(np.array(2.0, dtype=np.float32), "two")
    nodes = [
        helper.make_node("Identity", ["x"], ["seg"]),
        helper.make_node("Slice", ["x", "starts", "ends", "axes"], ["first"]),
        helper.make_node("Mul", ["first", "two"], ["height"]),
        helper.make_node("ReduceMean", ["x"], ["stage"], axes=[2, 3], keepdims=0),
    ]
    outputs = [_vi("seg", 4), _vi("height", 1), helper.make_tensor_value_info("stage", TensorProto.FLOAT, ["N", 4])]
    graph = helper.make_graph(nodes, "three", [_vi("x", 4)], outputs, [axes, starts, ends, two])
    meta = {
        "mean": [128] * 4,
        "std": [64] * 4,
        "outputs": [
            {"name": "seg", "task": "segmentation", "classes": [0, 1, 2, 3]},
            {"name": "height", "task": "regression", "unit": "cm"},
            {"name": "stage", "task": "classification", "classes": [3, 5, 7, 9]},
        ],
    }
    return save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)]), path, meta)


def test_three_heads_class_map_value_map_and_per_tile_values(run_alg, tmp_path):
    image = random_image(128, 128, bands=4, seed=5)
    raster = write_raster(tmp_path / "img.tif", image)
    model = three_head_model(tmp_path / "three.onnx")
    res = run_alg(
        "flair:segment",
        {"INPUT": str(raster), "MODEL": str(model), "TILE_SIZE": 64, "OVERLAP": 0, "OUTPUT": str(tmp_path / "out.tif")},
    )
    x = (image.astype(np.float32) - 128) / 64
    assert (read(res["OUTPUT"]) == np.argmax(x, axis=0)).all()
    assert res["OUTPUT_HEIGHT"] == str(tmp_path / "out_height.tif")
    with rasterio.open(res["OUTPUT_HEIGHT"]) as dst:
        assert dst.dtypes[0] == "float32" and dst.descriptions[0] == "height (cm)"
        np.testing.assert_allclose(dst.read(1), 2 * x[0], atol=1e-6)
    with open(res["OUTPUT_TILE_VALUES"], newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 4
    for row in rows:
        r, c = int(row["row"]), int(row["col"])
        means = x[:, r : r + 64, c : c + 64].mean(axis=(1, 2))
        assert float(row["stage"]) == [3, 5, 7, 9][int(np.argmax(means))]
        assert float(row["valid_share"]) == 1.0


def test_deepness_two_outputs_give_two_class_maps(run_alg, tmp_path):
    model = DEEPNESS_DATA / "dummy_model" / "dummy_segmentation_models" / "two_outputs_softmax_bsx2x512x512.onnx"
    raster = write_raster(tmp_path / "img.tif", random_image(300, 200, bands=3))
    res = run_alg("flair:segment", {"INPUT": str(raster), "MODEL": str(model), "OUTPUT": str(tmp_path / "out.tif")})
    second = res["OUTPUT_OUTPUT2"]
    with rasterio.open(res["OUTPUT"]) as first, rasterio.open(second) as other:
        assert json.loads(first.tags(1)["CLASSES"])[1]["name"] == "Tea"
        assert json.loads(other.tags(1)["CLASSES"])[1]["name"] == "Beer"
        assert set(np.unique(first.read(1))) <= {0, 1} and set(np.unique(other.read(1))) <= {0, 1}


def expected_vegetation_index(ortho, transform, width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    """Deepness' regressor computed independently: 1.1 * (2G - R - B) / (2G + R + B) on the
    orthophoto averaged onto the output grid; returns ``(values, valid)``."""
    with (
        rasterio.open(ortho) as src,
        WarpedVRT(src, transform=transform, width=width, height=height, resampling=Resampling.average) as vrt,
    ):
        r, g, b = (vrt.read(i).astype(np.float64) / 255 for i in (1, 2, 3))
        valid = vrt.read_masks(1) > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        return (2 * g - r - b) / (2 * g + r + b) * 1.1, valid


def test_deepness_regression_model_writes_a_value_map(run_alg, tmp_path):
    """Deepness' vegetation-index regressor: VI = (2G - R - B) / (2G + R + B), scaled by 1.1, at the
    model's 5.5 cm (the 2 cm orthophoto is averaged down to it)."""
    ortho = DEEPNESS_DATA / "dummy_fotomap_small.tif"
    model = DEEPNESS_DATA / "dummy_model" / "dummy_regression_models" / "dummy_regression_model.onnx"
    res = run_alg(
        "flair:segment",
        {"INPUT": str(ortho), "MODEL": str(model), "BANDS": "1,2,3", "OUTPUT": str(tmp_path / "vi.tif")},
    )
    with rasterio.open(res["OUTPUT"]) as dst:
        got = dst.read(1)
        assert dst.dtypes[0] == "float32" and dst.res == pytest.approx((0.055, 0.055))
        expected, valid = expected_vegetation_index(ortho, dst.transform, dst.width, dst.height)
    inside = valid & np.isfinite(expected)
    assert inside.mean() > 0.9
    np.testing.assert_allclose(got[inside], expected[inside], atol=1e-4)
    assert np.isnan(got[~valid]).all()


def test_polygons_of_a_value_map_are_refused_before_the_run(run_alg, tmp_path):
    """OUTPUT_VECTOR asks for the class map's polygons; a regression model writes values, not
    classes: refused before the model runs, in Processing's words, and nothing is written."""
    ortho = DEEPNESS_DATA / "dummy_fotomap_small.tif"
    model = DEEPNESS_DATA / "dummy_model" / "dummy_regression_models" / "dummy_regression_model.onnx"
    params = {"INPUT": str(ortho), "MODEL": str(model), "BANDS": "1,2,3", "OUTPUT": str(tmp_path / "vi.tif"),
              "OUTPUT_VECTOR": str(tmp_path / "vi.gpkg")}  # fmt: skip
    with pytest.raises(Exception, match="is a value map, not classes: it has no polygons; leave OUTPUT_VECTOR empty"):
        run_alg("flair:segment", params)
    assert list(tmp_path.iterdir()) == []


def test_per_image_only_model_is_refused(run_alg, tmp_path):
    graph = helper.make_graph(
        [helper.make_node("ReduceMean", ["x"], ["p"], axes=[2, 3], keepdims=0)],
        "cls",
        [_vi("x", 3)],
        [helper.make_tensor_value_info("p", TensorProto.FLOAT, ["N", 3])],
    )
    model = save(
        helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)]),
        tmp_path / "c.onnx",
        {"outputs": [{"name": "p", "task": "classification"}]},
    )
    raster = write_raster(tmp_path / "img.tif", random_image(64, 64, bands=3))
    with pytest.raises(Exception, match="no per-pixel output"):
        run_alg("flair:segment", {"INPUT": str(raster), "MODEL": str(model), "OUTPUT": str(tmp_path / "o.tif")})
    assert not (tmp_path / "o.tif").exists()
    assert onnx.load(str(model)).graph.output[0].name == "p"
