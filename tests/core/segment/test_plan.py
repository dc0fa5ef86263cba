"""core.segment.plan: one run plan (grid, bands, tiling, heads, outputs, checks) before anything is written."""

from __future__ import annotations

import os
from dataclasses import replace

import numpy as np
import pytest
import rasterio
import shapely.geometry
from rasters import random_image, read, write_raster
from toy_models import identity_model, two_output_model

from flair_qgis.core.engine.model import read_model_info
from flair_qgis.core.engine.pixel_sources import capture_file
from flair_qgis.core.errors import InputError, ModelError
from flair_qgis.core.segment.plan import plan_segment
from flair_qgis.core.segment.request import SegmentRequest
from flair_qgis.core.segment.run import run_plan

UNIT4 = {"mean": [0.0] * 4, "std": [1.0] * 4, "bands": ["R", "G", "B", "NIR"], "tile_size": 64, "tiles_overlap": 0}


@pytest.fixture
def image(tmp_path):
    """A 4-band raster (100 x 70 px at 0.2 m) whose bands are described Blue, Green, Red, NIR."""
    (tmp_path / "in").mkdir()
    path = write_raster(tmp_path / "in" / "bgri.tif", random_image(100, 70, bands=4), crs="EPSG:2154")
    with rasterio.open(path, "r+") as dst:
        for index, name in enumerate(["Blue", "Green", "Red", "NIR"], start=1):
            dst.set_band_description(index, name)
    return path


@pytest.fixture
def model(tmp_path):
    return read_model_info(identity_model(tmp_path / "m" / "id4.onnx", 4, metadata=UNIT4))


@pytest.fixture
def out_dir(tmp_path):
    folder = tmp_path / "out"
    folder.mkdir()
    return folder


def test_plan_holds_grid_bands_tiles_and_outputs(image, model, out_dir):
    plan = plan_segment(model, [capture_file(image)], SegmentRequest(str(out_dir / "c.tif"), batch_size=3))
    assert (plan.grid.width, plan.grid.height) == (70, 100)
    assert plan.bands == ((3, 2, 1, 4),)  # chosen by name: the layer is Blue, Green, Red, NIR
    assert (plan.tile_px, plan.overlap_px, plan.batch_size) == (64, 8, 3)  # tiles_overlap 0: the default 1/8
    # The tile cores partition the grid.
    covered = np.zeros((100, 70), dtype=int)
    for tile in plan.tiles:
        covered[tile.core_row : tile.core_row + tile.core_rows, tile.core_col : tile.core_col + tile.core_cols] += 1
    assert (covered == 1).all()
    assert plan.outputs() == {"OUTPUT": str(out_dir / "c.tif")}
    assert plan.mask is None and not os.listdir(out_dir)


def test_plan_then_run_follows_the_chosen_bands(image, model, out_dir):
    plan = plan_segment(model, [capture_file(image)], SegmentRequest(str(out_dir / "c.tif")))
    result = run_plan(plan)
    with rasterio.open(image) as src:
        bgri = src.read()
    expected = np.argmax(bgri[[2, 1, 0, 3]], axis=0)  # model channels R, G, B, NIR
    assert (read(result.output_path) == expected).all()


def test_extent_and_mask_bound_the_grid(image, model, out_dir):
    x0, y1 = 600000.0, 6800000.0  # the raster's top-left corner
    square = shapely.geometry.box(x0 + 2, y1 - 12, x0 + 8, y1 - 4)
    request = SegmentRequest(str(out_dir / "c.tif"), extent=(x0, y1 - 10, x0 + 100, y1), mask_wkbs=[square.wkb])
    plan = plan_segment(model, [capture_file(image)], request)
    # The polygon's box, cut by the extent: x 2..8 m, y -10..-4 m at 0.2 m.
    assert plan.grid.bounds == pytest.approx((x0 + 2, y1 - 10, x0 + 8, y1 - 4))
    assert plan.mask is not None
    with pytest.raises(InputError, match="do not overlap"):
        plan_segment(model, [capture_file(image)], replace(request, extent=(x0 + 20, y1 - 10, x0 + 30, y1)))


def test_further_heads_and_confidence_get_their_paths(image, tmp_path, out_dir):
    two = read_model_info(two_output_model(tmp_path / "two.onnx", 4))
    plan = plan_segment(
        two, [capture_file(image)], SegmentRequest(str(out_dir / "c.tif"), confidence_path=str(out_dir / "p.tif"))
    )
    assert plan.outputs() == {
        "OUTPUT": str(out_dir / "c.tif"),
        "OUTPUT_CONFIDENCE": str(out_dir / "p.tif"),
        "OUTPUT_B": str(out_dir / "c_b.tif"),
    }


def test_bad_requests_are_refused_before_anything_is_written(image, model, out_dir):
    raster = capture_file(image)
    with pytest.raises(InputError, match="folder of the output file does not exist"):
        plan_segment(model, [raster], SegmentRequest(str(out_dir / "missing" / "c.tif")))
    with pytest.raises(InputError, match="BANDS lists 2"):
        plan_segment(model, [raster], SegmentRequest(str(out_dir / "c.tif"), bands=[(1, 2)]))
    with pytest.raises(InputError, match=r"1 inputs.*choose a raster layer for each"):
        plan_segment(model, [], SegmentRequest(str(out_dir / "c.tif")))
    assert not os.listdir(out_dir)


def test_model_without_per_pixel_head_is_refused(image, tmp_path, out_dir):
    import onnx
    from onnx import TensorProto, helper

    graph = helper.make_graph(
        [helper.make_node("ReduceMean", ["x"], ["v"], axes=[2, 3], keepdims=0)],
        "per_image",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 4, "h", "w"])],
        [helper.make_tensor_value_info("v", TensorProto.FLOAT, ["n", 4])],
    )
    path = tmp_path / "per_image.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), str(path))
    with pytest.raises(ModelError, match="no per-pixel output"):
        plan_segment(read_model_info(path), [capture_file(image)], SegmentRequest(str(out_dir / "c.tif")))


# -- never overwrite an input (issue 8 item 3) -----------------------------------------------------


def test_output_that_is_the_input_is_refused(image, model):
    with rasterio.open(image) as src:
        before = src.read()
    with pytest.raises(InputError, match=r"OUTPUT would overwrite INPUT"):
        plan_segment(model, [capture_file(image)], SegmentRequest(str(image)))
    with rasterio.open(image) as src:
        assert (src.read() == before).all()


def test_output_resolving_to_the_input_through_a_symlink_or_a_relative_path(image, model, out_dir, monkeypatch):
    link = out_dir / "link.tif"
    link.symlink_to(image)
    with pytest.raises(InputError, match=r"OUTPUT would overwrite INPUT"):
        plan_segment(model, [capture_file(image)], SegmentRequest(str(link)))
    monkeypatch.chdir(out_dir)
    relative = os.path.relpath(image, out_dir)
    with pytest.raises(InputError, match=r"OUTPUT would overwrite INPUT"):
        plan_segment(model, [capture_file(image)], SegmentRequest(relative))


def test_confidence_over_the_model_and_head_over_the_input_are_refused(image, model, tmp_path, out_dir):
    with pytest.raises(InputError, match=r"OUTPUT_CONFIDENCE would overwrite MODEL"):
        plan_segment(model, [capture_file(image)], SegmentRequest(str(out_dir / "c.tif"), confidence_path=model.path))
    two = read_model_info(two_output_model(tmp_path / "two.onnx", 4))
    with pytest.raises(InputError, match=r"OUTPUT_B would overwrite INPUT"):
        plan_segment(two, [capture_file(image)], SegmentRequest(str(out_dir / "c.tif"), head_paths={"b": str(image)}))
    # A head written beside OUTPUT by default (<stem>_b.tif) that happens to be the input.
    beside = image.parent / "bgri_b.tif"
    beside.write_bytes(image.read_bytes())
    with pytest.raises(InputError, match=r"OUTPUT_B would overwrite INPUT"):
        plan_segment(two, [capture_file(beside)], SegmentRequest(str(image.parent / "bgri.tif")))


def test_output_over_the_mask_file_is_refused(image, model, out_dir):
    mask = out_dir / "zones.gpkg"
    mask.write_bytes(b"not read here")
    with pytest.raises(InputError, match=r"OUTPUT would overwrite MASK"):
        plan_segment(model, [capture_file(image)], SegmentRequest(str(mask)), inputs={"MASK": str(mask)})
    assert mask.read_bytes() == b"not read here"


def test_style_sidecar_over_an_input_is_refused(image, model, out_dir):
    style = out_dir / "c.qml"
    style.write_text("<qgis/>")
    with pytest.raises(InputError, match=r"OUTPUT writes c.qml beside it, which would overwrite MASK"):
        plan_segment(model, [capture_file(image)], SegmentRequest(str(out_dir / "c.tif")), inputs={"MASK": str(style)})
