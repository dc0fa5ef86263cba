"""The PyTorch tooling (tools/) and the shipped demo model (resources/models).

The torch tests need ``.venv-tools`` (``scripts/tools-env.sh``) and skip in the project venv,
which has no torch:

    .venv-tools/bin/python -m pytest tests/test_tools_unet.py -q -p no:qgis

The demo-model tests need only onnxruntime and run in both environments.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
import rasterio

REPO = Path(__file__).resolve().parent.parent
FLAIR_DATA = REPO / "tests" / "data" / "flair"
DEMO_MODEL = REPO / "resources" / "models" / "flair-demo-unet.onnx"
DEMO_METRICS = REPO / "resources" / "models" / "flair-demo-unet.metrics.json"
HOLDOUT_IDS = ("000687", "024577", "084558")

# Key names and shapes of smp.Unet(encoder_name="resnet34", in_channels=5, classes=13), as the
# smp source lays them out (torchvision ResNet names without fc; decoder blocks of
# Conv2dReLU = Sequential(conv, bn, relu); SegmentationHead = Sequential(conv, ...)).
SMP_RESNET34_5_13 = {
    "encoder.conv1.weight": (64, 5, 7, 7),
    "encoder.bn1.running_mean": (64,),
    "encoder.layer1.0.conv1.weight": (64, 64, 3, 3),
    "encoder.layer2.0.downsample.0.weight": (128, 64, 1, 1),
    "encoder.layer2.0.downsample.1.running_var": (128,),
    "encoder.layer3.5.bn2.weight": (256,),
    "encoder.layer4.2.bn2.running_var": (512,),
    "decoder.blocks.0.conv1.0.weight": (256, 768, 3, 3),
    "decoder.blocks.0.conv1.1.weight": (256,),
    "decoder.blocks.1.conv1.0.weight": (128, 384, 3, 3),
    "decoder.blocks.2.conv1.0.weight": (64, 192, 3, 3),
    "decoder.blocks.3.conv1.0.weight": (32, 128, 3, 3),
    "decoder.blocks.4.conv1.0.weight": (16, 32, 3, 3),
    "decoder.blocks.4.conv2.0.weight": (16, 16, 3, 3),
    "decoder.blocks.4.conv2.1.num_batches_tracked": (),
    "segmentation_head.0.weight": (13, 16, 3, 3),
    "segmentation_head.0.bias": (13,),
}


def _bn(prefix: str, channels: int) -> dict[str, tuple[int, ...]]:
    return {
        f"{prefix}.weight": (channels,),
        f"{prefix}.bias": (channels,),
        f"{prefix}.running_mean": (channels,),
        f"{prefix}.running_var": (channels,),
        f"{prefix}.num_batches_tracked": (),
    }


def expected_smp_unet_shapes(blocks: tuple[int, ...], in_channels: int, classes: int) -> dict:
    """Every state-dict entry of smp's ResNet U-Net, derived from the layer tables, not from tools/."""
    shapes: dict[str, tuple[int, ...]] = {"encoder.conv1.weight": (64, in_channels, 7, 7)}
    shapes.update(_bn("encoder.bn1", 64))
    previous = 64
    for stage, (count, width) in enumerate(zip(blocks, (64, 128, 256, 512)), start=1):
        for block in range(count):
            p = f"encoder.layer{stage}.{block}"
            cin = previous if block == 0 else width
            shapes[f"{p}.conv1.weight"] = (width, cin, 3, 3)
            shapes.update(_bn(f"{p}.bn1", width))
            shapes[f"{p}.conv2.weight"] = (width, width, 3, 3)
            shapes.update(_bn(f"{p}.bn2", width))
            if block == 0 and cin != width:
                shapes[f"{p}.downsample.0.weight"] = (width, cin, 1, 1)
                shapes.update(_bn(f"{p}.downsample.1", width))
        previous = width
    ins, skips, outs = (512, 256, 128, 64, 32), (256, 128, 64, 64, 0), (256, 128, 64, 32, 16)
    for i, (cin, skip, cout) in enumerate(zip(ins, skips, outs)):
        shapes[f"decoder.blocks.{i}.conv1.0.weight"] = (cout, cin + skip, 3, 3)
        shapes.update(_bn(f"decoder.blocks.{i}.conv1.1", cout))
        shapes[f"decoder.blocks.{i}.conv2.0.weight"] = (cout, cout, 3, 3)
        shapes.update(_bn(f"decoder.blocks.{i}.conv2.1", cout))
    shapes["segmentation_head.0.weight"] = (classes, 16, 3, 3)
    shapes["segmentation_head.0.bias"] = (classes,)
    return shapes


def _state_shapes(model) -> dict[str, tuple[int, ...]]:
    return {k: tuple(v.shape) for k, v in model.state_dict().items()}


def test_resnet34_state_dict_has_smp_keys_and_shapes():
    pytest.importorskip("torch")
    from tools.unet import build_unet

    shapes = _state_shapes(build_unet("resnet34", in_channels=5, classes=13))
    for key, shape in SMP_RESNET34_5_13.items():
        assert shapes.get(key) == shape, key
    assert shapes == expected_smp_unet_shapes((3, 4, 6, 3), 5, 13)
    assert not any(k.startswith(("encoder.fc", "decoder.center")) for k in shapes)


def test_resnet18_state_dict_matches_smp_layout():
    pytest.importorskip("torch")
    from tools.unet import build_unet

    model = build_unet("resnet18", in_channels=4, classes=7)
    assert _state_shapes(model) == expected_smp_unet_shapes((2, 2, 2, 2), 4, 7)


def test_parameter_counts_match_smp_and_flair():
    pytest.importorskip("torch")
    from tools.unet import build_unet, parameter_count

    # smp's published figures for smp.Unet(encoder, in_channels=3, classes=1)
    assert parameter_count(build_unet("resnet34", 3, 1)) == 24_436_369
    assert parameter_count(build_unet("resnet18", 3, 1)) == 14_328_209
    flair = parameter_count(build_unet("resnet34", 5, 13))
    print(f"U-Net ResNet-34, 5 inputs, 13 classes: {flair:,} parameters")
    assert abs(flair - 24.4e6) <= 0.1e6  # FLAIR #1 paper: 24.4 M
    # 5 instead of 3 inputs adds 2*64*7*7 stem weights; 13 instead of 1 class adds 12*(16*9+1)
    assert flair == 24_436_369 + 2 * 64 * 49 + 12 * (16 * 9 + 1)


def test_strict_load_of_a_foreign_state_dict_reproduces_its_outputs():
    torch = pytest.importorskip("torch")
    from tools.unet import build_unet, calibrate_batch_norm

    torch.manual_seed(1)
    source = calibrate_batch_norm(build_unet("resnet18", 5, 13), 5, batches=1, size_px=64)
    # a checkpoint as saved elsewhere: plain tensors in a fresh dict, no module objects
    checkpoint = {k: v.clone() for k, v in source.state_dict().items()}
    target = build_unet("resnet18", 5, 13)
    assert not torch.equal(target.encoder.conv1.weight, source.encoder.conv1.weight)
    target.load_state_dict(checkpoint, strict=True)
    target.eval()
    x = torch.randn(1, 5, 64, 64)
    with torch.no_grad():
        assert torch.equal(target(x), source(x))
    checkpoint["segmentation_head.0.weight"] = torch.zeros(12, 16, 3, 3)
    with pytest.raises(RuntimeError, match="size mismatch"):
        build_unet("resnet18", 5, 13).load_state_dict(checkpoint, strict=True)


def test_export_round_trip_with_metadata(tmp_path):
    torch = pytest.importorskip("torch")
    import onnx
    import onnxruntime as ort

    from tools.onnx_export import export_onnx
    from tools.unet import build_unet, calibrate_batch_norm

    torch.manual_seed(2)
    model = calibrate_batch_norm(build_unet("resnet18", 5, 13), 5, batches=2, size_px=64)
    meta = {"model_type": "Segmentor", "bands": ["R", "G", "B", "NIR", "ELEV"], "resolution_cm": 20}
    path = tmp_path / "unet.onnx"
    diff = export_onnx(model, path, 5, meta, tile=64)
    print(f"ResNet-18 U-Net export, 64x64 tiles: max |onnxruntime - torch| = {diff:.3g}")
    assert diff < 1e-4

    proto = onnx.load(path)
    props = {p.key: p.value for p in proto.metadata_props}
    assert {k: json.loads(v) for k, v in props.items()} == meta
    assert props["model_type"] == '"Segmentor"'
    assert proto.opset_import[0].version == 17
    dims = [d.dim_param or d.dim_value for d in proto.graph.input[0].type.tensor_type.shape.dim]
    assert dims == ["batch", 5, "rows", "cols"]

    # a shape it was not traced with: batch 3, non-square
    x = np.random.default_rng(3).standard_normal((3, 5, 96, 64)).astype(np.float32)
    got = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]).run(None, {"input": x})[0]
    with torch.no_grad():
        expected = model(torch.from_numpy(x)).numpy()
    assert got.shape == (3, 13, 96, 64)
    # float32 rounding grows with the logits' size: compare relative to max(1, max |logit|)
    assert np.abs(got - expected).max() / max(1.0, np.abs(expected).max()) < 1e-4


def test_failed_export_check_leaves_no_file(tmp_path):
    torch = pytest.importorskip("torch")
    from tools.onnx_export import ExportCheckError, export_onnx
    from tools.unet import build_unet

    torch.manual_seed(4)
    model = build_unet("resnet18", 5, 3, encoder_width=8)
    path = tmp_path / "never.onnx"
    with pytest.raises(ExportCheckError):
        export_onnx(model, path, 5, {}, tile=64, tolerance=0.0, log=None)
    assert list(tmp_path.iterdir()) == []


def test_flair1_scores_on_a_hand_made_confusion_matrix():
    pytest.importorskip("torch")
    from tools.train_demo import codes_to_index, flair1_scores

    assert codes_to_index(np.array([1, 12, 13, 19])).tolist() == [0, 11, 12, 12]
    cm = np.zeros((13, 13), dtype=np.int64)
    cm[0, 0], cm[0, 1] = 6, 2  # building: 6 right, 2 called pervious
    cm[1, 1] = 4  # pervious: 4 right
    cm[12, 0] = 2  # "other" reference predicted building: FP of building
    cm[4, 12] = 1  # water predicted "other": FN of water, water IoU 0
    scores = flair1_scores(cm)
    assert scores["iou"][1] == pytest.approx(6 / (6 + 2 + 2))
    assert scores["iou"][2] == pytest.approx(4 / 6)
    assert scores["iou"][5] == 0.0
    assert scores["iou"][3] is None  # absent from both sides: skipped
    assert scores["miou"] == pytest.approx((0.6 + 4 / 6 + 0.0) / 3)
    assert scores["oa"] == pytest.approx(10 / 15)


def test_baseline_arch_is_the_flair1_baseline_and_says_it_is_briefly_trained():
    pytest.importorskip("torch")
    from tools.train_demo import ARCHITECTURES, main, model_metadata
    from tools.unet import build_unet, parameter_count

    baseline = ARCHITECTURES["baseline"]
    model = baseline.build()
    assert _state_shapes(model) == _state_shapes(build_unet("resnet34", 5, 13))
    assert parameter_count(model) > 24_000_000
    meta = model_metadata(600.0, baseline, steps=150)
    assert "briefly trained" in meta["name"]
    assert "10 minutes (150 steps)" in meta["description"]
    assert meta["architecture"] == "U-Net, resnet34 encoder width 64, decoder [256, 128, 64, 32, 16]"
    assert baseline.output.parent.name == "build"
    with pytest.raises(SystemExit):
        main(["--arch", "resnet50"])


# --- the shipped demo model (onnxruntime only) ------------------------------------------------


def test_demo_model_metadata_declares_flair1_conventions():
    pytest.importorskip("onnxruntime")
    from flair_qgis.core.engine.model import read_model_info
    from flair_qgis.core.nomenclature import FLAIR1_MODEL_CLASSES

    info = read_model_info(DEMO_MODEL)
    assert info.model_type == "Segmentor"
    assert info.input.band_names == ("R", "G", "B", "NIR", "ELEV")
    assert info.input.mean == pytest.approx((105.08, 110.87, 101.82, 106.38, 53.26))
    assert info.input.std == pytest.approx((52.17, 45.38, 44.0, 39.69, 79.3))
    assert info.resolution_m == pytest.approx(0.2)
    assert (info.tile_size_px, info.overlap_px) == (512, 64)
    (head,) = info.segmentation_outputs()
    assert head.activation == "logits"
    assert head.classes == FLAIR1_MODEL_CLASSES
    assert [c.value for c in head.classes] == list(range(1, 14))
    assert DEMO_MODEL.stat().st_size < 10_000_000


def test_demo_model_scores_on_held_out_patches_match_its_card(tmp_path):
    ort = pytest.importorskip("onnxruntime")
    from flair_qgis.core.engine.model import read_model_info

    info = read_model_info(DEMO_MODEL)
    mean = np.asarray(info.input.mean, dtype=np.float32)[:, None, None]
    std = np.asarray(info.input.std, dtype=np.float32)[:, None, None]
    session = ort.InferenceSession(str(DEMO_MODEL), providers=["CPUExecutionProvider"])
    refs, preds = [], []
    for patch_id in HOLDOUT_IDS:
        for kind in ("IMG", "MSK"):
            shutil.copy(FLAIR_DATA / f"{kind}_{patch_id}.tif", tmp_path)
        with rasterio.open(tmp_path / f"IMG_{patch_id}.tif") as src:
            image = src.read().astype(np.float32)
        with rasterio.open(tmp_path / f"MSK_{patch_id}.tif") as src:
            refs.append(np.minimum(src.read(1).astype(np.int64), 13).ravel())
        logits = session.run(None, {info.input.name: ((image - mean) / std)[None]})[0][0]
        preds.append(np.array([c.value for c in info.outputs[0].classes])[logits.argmax(axis=0)].ravel())
    ref, pred = np.concatenate(refs), np.concatenate(preds)
    # per-class IoU as |ref=c and pred=c| / |ref=c or pred=c|, classes 1..12 seen on either side
    ious = [
        np.sum((ref == c) & (pred == c)) / np.sum((ref == c) | (pred == c))
        for c in range(1, 13)
        if np.any(ref == c) or np.any(pred == c)
    ]
    miou, oa = float(np.mean(ious)), float(np.mean(ref == pred))
    print(f"demo model, held-out {', '.join(HOLDOUT_IDS)}: mIoU {miou:.3f}, OA {oa:.3f}")
    recorded = json.loads(DEMO_METRICS.read_text(encoding="utf-8"))["held_out"]
    assert recorded["patches"] == list(HOLDOUT_IDS)
    assert miou == pytest.approx(recorded["miou"], abs=1e-6)
    assert oa == pytest.approx(recorded["oa"], abs=1e-6)
    card = (DEMO_MODEL.parent / "MODEL_CARD.md").read_text(encoding="utf-8")
    assert f"{recorded['miou']:.3f}" in card and f"{recorded['oa']:.3f}" in card
    assert oa > 0.3  # far better than the 1/13 of chance: the model learnt something
