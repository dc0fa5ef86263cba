"""scripts/export-onnx on checkpoints laid out as IGN's own code writes them (run by make test-tools).

IGN's code cannot run in CI: the checkpoints are built here with the key names, shapes and
wrappers recorded from the files IGN's code wrote (tools/ign_layouts.py: IGNF/FLAIR-1 5ae35eb,
IGNF/FLAIR-HUB 3d5693b; docs/benchmark.md says how they were compared with IGN's loaders). The
expected output is IGN's forward computed here with smp directly: encoder features, decoder,
head, bilinear resize to the tile.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")
from safetensors.torch import save_file  # noqa: E402

from tools.smp_models import import_smp  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TILE = 96
ENC = "model.encoders.AERIAL_RGBI.seg_model."
DEC = "model.main_decoders.AERIAL_LABEL-COSIA.seg_model."


def hub_checkpoint(folder, arch: str) -> tuple[torch.nn.Module, torch.nn.Module]:
    """IGN's FLAIR_HUB_Model layout for one modality and the COSIA task: ``.ckpt`` with
    ``criterion.*`` and ``fusion_handler.*``, ``.safetensors`` with and without ``model.``."""
    smp = import_smp()
    encoder, decoder = arch.split("-")
    name = encoder if encoder.startswith("resnet") else f"tu-{encoder}"
    extra = {"img_size": TILE} if encoder.startswith("swin") else {}  # IGN passes the patch size
    torch.manual_seed(0)
    body = smp.create_model(decoder, encoder_name=name, in_channels=3, classes=19, encoder_weights=None, **extra)
    heads = smp.create_model(decoder, encoder_name=name, in_channels=1, classes=19, encoder_weights=None, **extra)
    body, heads = body.eval(), heads.eval()
    state = {ENC + k: v for k, v in body.encoder.state_dict().items()}
    state.update({DEC + "decoder." + k: v for k, v in heads.decoder.state_dict().items()})
    state.update({DEC + "segmentation_head." + k: v for k, v in heads.segmentation_head.state_dict().items()})
    widths = [c for c in body.encoder.out_channels if c]  # FusionHandler drops smp's 0-channel dummies
    for i, width in enumerate(widths[-4:] if decoder == "upernet" else widths):
        state[f"model.fusion_handler.conv_f.{i}.weight"] = torch.randn(width, width, 1, 1)
        state[f"model.fusion_handler.conv_f.{i}.bias"] = torch.zeros(width)
    lightning = {**state, "criterion.AERIAL_LABEL-COSIA.weight": torch.ones(19)}
    torch.save({"state_dict": lightning, "epoch": 0, "pytorch-lightning_version": "2.5.1"}, folder / f"{arch}.ckpt")
    save_file({k: v.contiguous() for k, v in state.items()}, folder / f"{arch}_model.safetensors")
    save_file({k[len("model.") :]: v.contiguous() for k, v in state.items()}, folder / f"{arch}.safetensors")
    return body, heads


def ign_forward(body, heads, x: torch.Tensor) -> np.ndarray:
    """FLAIR_HUB_Model.forward for one modality: decoder(*encoder(x)), head, resized to the tile."""
    with torch.no_grad():
        logits = heads.segmentation_head(heads.decoder(*body.encoder(x)))
        return torch.nn.functional.interpolate(logits, size=x.shape[-2:], mode="bilinear").numpy()


def export(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tools.convert", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )


@pytest.fixture(scope="module")
def convnext(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hub")
    return folder, *hub_checkpoint(folder, "convnextv2_tiny-upernet")


@pytest.mark.parametrize("name", ["convnextv2_tiny-upernet.ckpt", "convnextv2_tiny-upernet_model.safetensors"])
def test_flairhub_convnext_upernet_converts_and_matches_ign_forward(convnext, name, tmp_path):
    import onnxruntime as ort

    from flair_qgis.core.engine.model import read_model_info
    from flair_qgis.core.nomenclature import FLAIRHUB_LANDCOVER_CLASSES

    folder, body, heads = convnext
    out = tmp_path / "hub.onnx"
    done = export(str(folder / name), "-o", str(out), "--tile", str(TILE))
    assert done.returncode == 0, done.stderr[-2000:]
    assert "FLAIR-HUB model: AERIAL_RGBI encoder, AERIAL_LABEL-COSIA decoder" in done.stdout
    assert "convnextv2_tiny-upernet" in done.stdout
    assert f"{TILE} px (fixed: the model takes only this tile size)" in done.stdout
    assert "relative to max(1, max |PyTorch|)" in done.stdout and "< 0.0001" in done.stdout

    x = np.random.default_rng(1).normal(size=(1, 3, TILE, TILE)).astype(np.float32)
    session = ort.InferenceSession(str(out), providers=["CPUExecutionProvider"])
    got = session.run(None, {session.get_inputs()[0].name: x})[0]
    expected = ign_forward(body, heads, torch.from_numpy(x))
    assert got.shape == (1, 19, TILE, TILE)
    assert np.abs(got - expected).max() < 1e-3
    assert (got.argmax(1) == expected.argmax(1)).mean() >= 0.999

    info = read_model_info(out)
    assert [(c.value, c.name) for c in info.outputs[0].classes] == [
        (c.value, c.name) for c in FLAIRHUB_LANDCOVER_CLASSES
    ]
    assert info.input.modality == "AERIAL_RGBI" and info.input.tile_size_px == TILE
    assert info.input.mean == pytest.approx((106.59, 105.66, 111.35))


def test_flairhub_safetensors_without_model_prefix(convnext, tmp_path):
    folder, _, _ = convnext
    done = export(str(folder / "convnextv2_tiny-upernet.safetensors"), "-o", str(tmp_path / "m.onnx"), "--tile", "64")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "safetensors, FLAIR-HUB model" in done.stdout


def test_arch_flag_that_contradicts_the_keys_is_refused(convnext, tmp_path):
    folder, _, _ = convnext
    out = tmp_path / "m.onnx"
    done = export(str(folder / "convnextv2_tiny-upernet.ckpt"), "-o", str(out), "--arch", "resnet34-unet")
    assert done.returncode == 2
    assert "--arch resnet34-unet but" in done.stderr and "convnextv2_tiny-upernet" in done.stderr
    assert not out.exists()


def test_flairhub_swin_upernet_converts_at_a_fixed_tile(tmp_path):
    import onnxruntime as ort

    body, heads = hub_checkpoint(tmp_path, "swin_tiny_patch4_window7_224-upernet")
    out = tmp_path / "swin.onnx"
    done = export(
        str(tmp_path / "swin_tiny_patch4_window7_224-upernet.safetensors"), "-o", str(out), "--tile", str(TILE)
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "swin_tiny_patch4_window7_224-upernet" in done.stdout and "fixed" in done.stdout
    x = np.random.default_rng(4).normal(size=(1, 3, TILE, TILE)).astype(np.float32)
    session = ort.InferenceSession(str(out), providers=["CPUExecutionProvider"])
    got = session.run(None, {"input": x})[0]
    expected = ign_forward(body, heads, torch.from_numpy(x))
    assert (got.argmax(1) == expected.argmax(1)).mean() >= 0.999
    assert np.abs(got - expected).max() / max(1.0, np.abs(expected).max()) < 1e-4


def test_flairhub_resnet34_unet_is_dynamic(tmp_path):
    import onnxruntime as ort

    body, heads = hub_checkpoint(tmp_path, "resnet34-unet")
    out = tmp_path / "r34.onnx"
    done = export(str(tmp_path / "resnet34-unet.ckpt"), "-o", str(out), "--tile", "64")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "dynamic sizes" in done.stdout
    x = np.random.default_rng(2).normal(size=(2, 3, 96, 64)).astype(np.float32)
    session = ort.InferenceSession(str(out), providers=["CPUExecutionProvider"])
    got = session.run(None, {"input": x})[0]
    expected = ign_forward(body, heads, torch.from_numpy(x))
    assert np.abs(got - expected).max() / max(1.0, np.abs(expected).max()) < 1e-4


def test_flair_inc_19_outputs_get_the_19_flair_classes(tmp_path):
    """IGNF/FLAIR-1's Lightning layout: ``model.seg_model.*`` and ``criterion.weight``, 5 bands, 19 outputs."""
    from flair_qgis.core.engine.model import read_model_info
    from flair_qgis.core.nomenclature import FLAIR1_CLASSES
    from tools.unet import build_unet

    torch.manual_seed(3)
    net = build_unet("resnet18", 5, 19, (32, 16, 16, 8, 8), encoder_width=8)
    state = {f"model.seg_model.{k}": v for k, v in net.state_dict().items()}
    state["criterion.weight"] = torch.ones(19)
    torch.save({"state_dict": state, "epoch": 0}, tmp_path / "FLAIR-INC_rgbie_15cl_resnet18-unet.ckpt")
    for preset in ([], ["--preset", "flair1"]):
        out = tmp_path / "inc.onnx"
        checkpoint = str(tmp_path / "FLAIR-INC_rgbie_15cl_resnet18-unet.ckpt")
        done = export(checkpoint, "-o", str(out), "--tile", "64", *preset)
        assert done.returncode == 0, done.stderr[-2000:]
        info = read_model_info(out)
        got = [(c.value, c.name, c.color) for c in info.outputs[0].classes]
        assert got == [(c.value, c.name, c.color) for c in FLAIR1_CLASSES]
        assert got[12] == (13, "swimming pool", "#3de6eb")
        assert info.input.band_names == ("R", "G", "B", "NIR", "ELEV")
        assert info.input.std == pytest.approx((52.17, 45.38, 44.0, 39.69, 79.3))


def test_fused_modalities_and_several_tasks_are_refused_in_words():
    from tools.ign_layouts import LayoutError, hub_network

    t = torch.zeros(1)
    two_encoders = {
        ENC + "conv1.weight": t,
        "model.encoders.DEM_ELEV.seg_model.conv1.weight": t,
        DEC + "segmentation_head.0.weight": t,
    }
    with pytest.raises(LayoutError, match="fuses 2 modalities \\(AERIAL_RGBI, DEM_ELEV\\)"):
        hub_network(two_encoders, None, None)
    two_tasks = {
        ENC + "conv1.weight": t,
        DEC + "segmentation_head.0.weight": t,
        "model.main_decoders.ALL_LABEL-LPIS.seg_model.segmentation_head.0.weight": t,
    }
    with pytest.raises(LayoutError, match="--task: the checkpoint holds AERIAL_LABEL-COSIA, ALL_LABEL-LPIS"):
        hub_network(two_tasks, None, None)
    chosen = hub_network(two_tasks, None, "ALL_LABEL-LPIS")
    assert chosen.task == "ALL_LABEL-LPIS" and list(chosen.decoder) == ["segmentation_head.0.weight"]
