"""Any legal ONNX signature runs, or is refused in one line (issue 39).

The same 1x1-convolution segmenter, written every way a tool may write it
(tests/conformance_models.py), runs through the segmentation job on a small GeoTIFF; its class
map must be the one computed here with numpy from the model's own weights (the convolution
applied by hand to the normalised pixels, then the head's argmax or threshold), on every pixel
that no float rounding can flip. What runs in the graph and what on the host is checked too:
a model that cannot be fused says so in one catalogued line of the run's log.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conformance_models import SHAPES, Variant, build, identity
from onnx import TensorProto
from rasters import random_image, read, write_raster

from flair_qgis.core.engine import capture_file, read_model_info
from flair_qgis.core.errors import FlairError
from flair_qgis.core.segment import SegmentRequest, segment_job

FUSED = "argmax in the graph (scores)"
ON_HOST = "host post-processing (scores)"
NO_CHANNELS = (
    "Model graph not fused for output 'scores' (it has no channel count, even after shape inference): its argmax "
    "runs on the host, slower."
)
#: variant -> what the run's graph note must say about the head.
MATRIX: list[tuple[Variant, str]] = [
    *((Variant(shape=s), FUSED) for s in SHAPES),
    (Variant(input_dtype="float16"), FUSED),
    (Variant(input_dtype="uint8"), FUSED),
    (Variant(output_dtype="float16"), FUSED),
    (Variant(output_dtype="float16", head="softmax", shape="symbolic"), FUSED),
    *((Variant(opset=o, head="softmax"), FUSED) for o in range(11, 22)),
    (Variant(opset=11, shape="none", input_dtype="float16", output_dtype="float16"), FUSED),
    (Variant(opset=21, shape="unknown", input_dtype="uint8"), FUSED),
    (Variant(batch=1, tile=64), FUSED),
    (Variant(batch=2, tile=64, shape="symbolic"), FUSED),
    (Variant(tile=64, shape="none"), FUSED),
    (Variant(head="sigmoid"), ON_HOST),  # single-channel heads are thresholded on the host by design
    (Variant(head="sigmoid", shape="none", opset=11), ON_HOST),
    (Variant(head="argmax", declare_classes=True), ON_HOST),
    (Variant(head="argmax_keepdims", declare_classes=True, shape="symbolic"), ON_HOST),
    (Variant(head="argmax", declare_classes=True, shape="none", opset=11), ON_HOST),
    (Variant(external_data=True, shape="symbolic"), FUSED),
    (Variant(hidden_channels=True, shape="none"), FUSED),  # the channel count comes from a probe tile
    (Variant(hidden_channels=True, shape="symbolic", head="softmax", opset=13), FUSED),
]


@pytest.fixture(scope="module")
def image(tmp_path_factory) -> tuple[Path, np.ndarray]:
    """A 3-band uint8 GeoTIFF of 80 x 96 px: two tile rows, two tile columns, partial edge tiles."""
    pixels = random_image(80, 96, bands=3, seed=11)
    return write_raster(tmp_path_factory.mktemp("conformance") / "image.tif", pixels), pixels


def _segment(model: Path, raster: Path, out: Path, confidence: bool = True, tile: int = 64):
    request = SegmentRequest(
        str(out),
        confidence_path=str(out.with_suffix(".conf.tif")) if confidence else None,
        device="cpu",
        tile_size_px=tile,
        overlap_px=0,
    )
    return segment_job(request, read_model_info(model), (capture_file(raster),)).segment


def _assert_same_classes(expected: tuple[np.ndarray, np.ndarray], written: np.ndarray) -> None:
    classes, sure = expected
    assert sure.mean() > 0.97  # near-ties are few: the comparison covers almost every pixel
    mismatches = int((written != classes)[sure].sum())
    assert mismatches == 0, f"{mismatches} pixels differ from the model's own class map"


@pytest.mark.parametrize(("variant", "graph"), MATRIX, ids=[v.label for v, _g in MATRIX])
def test_every_legal_signature_gives_the_models_class_map(variant, graph, image, tmp_path):
    toy = build(tmp_path, variant)
    raster, pixels = image
    argmax_head = variant.head.startswith("argmax")  # class indices: no scores to take a confidence from
    result = _segment(toy.path, raster, tmp_path / "out.tif", confidence=not argmax_head)
    _assert_same_classes(toy.class_map(pixels), read(result.output_path))
    assert graph in result.graph and "pixels normalised in the graph" in result.graph
    assert not [w for w in result.warnings if "not fused" in w]
    if result.confidence_path:
        confidence = read(result.confidence_path)
        assert confidence.min() >= 0.0 and confidence.max() <= 1.0 + 1e-6


def test_several_outputs_map_each_head_and_report_the_per_image_one(image, tmp_path):
    for shape in ("declared", "none"):
        toy = build(tmp_path / shape, Variant(extra_outputs=True, shape=shape))
        raster, pixels = image
        result = _segment(toy.path, raster, tmp_path / shape / "out.tif")
        _assert_same_classes(toy.class_map(pixels), read(result.output_path))
        _assert_same_classes(toy.class_map(pixels, toy.aux_weights), read(result.head_paths["aux"]))
        assert "argmax in the graph (scores, aux)" in result.graph
        # The per-image head: a class per tile, the argmax of the tile's mean scores (the first tile is whole).
        values = result.tile_values["per_image"]
        assert len(values) == 4 and set(values) <= {0.0, 1.0, 2.0, 3.0}
        assert values[0] == np.argmax(toy.scores(pixels)[:, :64, :64].mean(axis=(1, 2)))


def test_a_static_batch_one_512_px_input_runs_over_a_real_flair_patch(flair_data, tmp_path):
    toy = build(tmp_path, Variant(batch=1, tile=512, shape="symbolic"))
    patch = flair_data / "IMG_000473.tif"
    pixels = np.stack([read(patch, band) for band in (1, 2, 3)])
    request = SegmentRequest(str(tmp_path / "out.tif"), bands=((1, 2, 3),), device="cpu", tile_size_px=512)
    result = segment_job(request, read_model_info(toy.path), (capture_file(patch),)).segment
    _assert_same_classes(toy.class_map(pixels), read(result.output_path))
    assert FUSED in result.graph


def test_a_channel_count_nothing_can_find_is_said_and_the_argmax_runs_on_the_host(image, tmp_path):
    # The input's channels are a symbol too: no probe tile can be made, no inference finds the
    # output's channel count; the classes are in the metadata, so the host can still map them.
    variant = Variant(hidden_channels=True, shape="symbolic", symbolic_input=True, declare_classes=True)
    toy = build(tmp_path, variant)
    raster, pixels = image
    result = _segment(toy.path, raster, tmp_path / "out.tif")
    _assert_same_classes(toy.class_map(pixels), read(result.output_path))
    assert ON_HOST in result.graph and "pixels normalised in the graph" in result.graph
    assert [w for w in result.warnings if "not fused" in w] == [NO_CHANNELS]


@pytest.mark.parametrize(
    ("variant", "refusal"),
    [
        # Class indices or scores of unknown count, and no classes in the metadata: nothing says which classes exist.
        (
            Variant(head="argmax"),
            "Output 'scores' predicts class index 3 but the model declares 1 classes: fix its 'classes' metadata.",
        ),
        (
            Variant(hidden_channels=True, shape="symbolic", symbolic_input=True),
            "Output 'scores' predicts class index 3 but the model declares 0 classes: fix its 'classes' metadata.",
        ),
    ],
    ids=["argmax-without-classes", "unknown-channels-without-classes"],
)
def test_what_cannot_run_is_refused_in_one_line_and_nothing_is_written(variant, refusal, image, tmp_path):
    toy = build(tmp_path, variant)
    out = tmp_path / "out.tif"
    with pytest.raises(FlairError) as err:
        _segment(toy.path, image[0], out, confidence=False)
    assert str(err.value) == refusal and "\n" not in str(err.value)
    assert not out.exists()


@pytest.mark.parametrize(
    ("name", "dims", "elem", "refusal"),
    [
        (
            "rank3",
            ["N", "H", "W"],
            TensorProto.FLOAT,
            "Model input 'x' has shape N, H, W; expected (batch, channels, rows, cols).",
        ),
        (
            "non-square",
            ["N", 3, 64, 96],
            TensorProto.FLOAT,
            "Model input 'x' is 64x96; only square tiles are supported.",
        ),
        (
            "no-channels",
            ["N", "C", "H", "W"],
            TensorProto.FLOAT,
            "Model input 'x' has no fixed channel count and the metadata names no bands.",
        ),
        (
            "integer-channels",
            ["N", 3, "H", "W"],
            TensorProto.INT64,
            "Output 'scores' gives integers on 3 channels: a model's class indices come one per pixel, (N, H, W) or "
            "(N, 1, H, W); export the model with its scores or a single argmax.",
        ),
    ],
)
def test_signatures_the_engine_cannot_map_are_refused_in_one_line(name, dims, elem, refusal, image, tmp_path):
    model = identity(tmp_path, name, dims, elem)
    out = tmp_path / "out.tif"
    with pytest.raises(FlairError) as err:
        _segment(model, image[0], out, confidence=False)
    assert str(err.value) == refusal
    assert not out.exists()


def test_any_failure_to_wrap_runs_the_host_path_with_one_line_saying_why(image, tmp_path, monkeypatch):
    # A wrap that fails in a way nobody foresaw (here, made to) must not end the run.
    from flair_qgis.core.engine import graph_nodes

    def broken(*_args, **_kwargs):
        raise RuntimeError("unforeseen\nsecond line")

    toy = build(tmp_path, Variant(shape="symbolic"))
    raster, pixels = image
    monkeypatch.setattr(graph_nodes, "wrap_outputs", broken)
    result = _segment(toy.path, raster, tmp_path / "out.tif")
    _assert_same_classes(toy.class_map(pixels), read(result.output_path))
    assert result.graph.startswith("pre- and post-processing on the host: the graph could not be wrapped (unforeseen)")
    note = "Model graph not fused (unforeseen): pixels are normalised and the argmax taken on the host, slower."
    assert [w for w in result.warnings if "not fused" in w] == [note]
