"""scripts/export-onnx: smp U-Net checkpoints (Lightning .ckpt, .pth, .safetensors) -> ONNX with metadata.

A randomly initialised U-Net is saved in each format by the tools environment (PyTorch CPU);
the converter is run as users run it (a subprocess), and its ONNX file is checked here with
onnxruntime against the PyTorch output saved by the first process, and with flair_qgis's own
metadata reader.
"""

from __future__ import annotations

import subprocess
import textwrap

import numpy as np
import onnxruntime as ort
import pytest
from conftest import REPO

from flair_qgis.core.engine.model import read_model_info
from flair_qgis.core.nomenclature import FLAIR1_MODEL_CLASSES

TOOLS_PY = REPO / ".venv-tools" / "bin" / "python"


@pytest.fixture(scope="module")
def tools_env() -> None:
    try:
        done = subprocess.run(
            [str(REPO / "scripts" / "tools-env.sh")],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=1800,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.skip("scripts/tools-env.sh did not finish in 30 min (PyTorch CPU download?): converter not tested")
    if done.returncode != 0 or not TOOLS_PY.exists():
        pytest.skip(f".venv-tools cannot be built here (no PyTorch CPU wheel reachable?): {done.stderr[-300:]}")


MAKE_CHECKPOINTS = textwrap.dedent(
    """
    import sys, torch, numpy as np
    from safetensors.torch import save_file
    from tools.unet import build_unet
    out = sys.argv[1]
    torch.manual_seed(0)
    model = build_unet("resnet18", 5, 13, (32, 16, 16, 8, 8), encoder_width=8).eval()
    with torch.no_grad():
        model.segmentation_head[0].weight.mul_(0.05)  # small logits: a tight float32 comparison
    state = model.state_dict()
    torch.save({"state_dict": {"model." + k: v for k, v in state.items()}, "epoch": 3,
                "hyper_parameters": {"lr": 0.02}}, out + "/lightning.ckpt")
    torch.save({"net." + k: v for k, v in state.items()}, out + "/prefixed.pth")
    torch.save(state, out + "/plain.pth")
    save_file({k: v.contiguous() for k, v in state.items()}, out + "/weights.safetensors")
    x = torch.from_numpy(np.random.default_rng(1).normal(size=(2, 5, 64, 64)).astype(np.float32))
    with torch.no_grad():
        np.save(out + "/x.npy", x.numpy()); np.save(out + "/y.npy", model(x).numpy())

    class Evil:
        def __reduce__(self):
            return (print, ("pickle code ran",))
    torch.save({"state_dict": state, "callback": Evil()}, out + "/evil.ckpt")
    torch.save({"conv.weight": torch.zeros(3, 3)}, out + "/other.pth")
    """
)


@pytest.fixture(scope="module")
def checkpoints(tools_env, tmp_path_factory):
    folder = tmp_path_factory.mktemp("checkpoints")
    subprocess.run([str(TOOLS_PY), "-c", MAKE_CHECKPOINTS, str(folder)], cwd=REPO, check=True, timeout=300)
    return folder


def export(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(REPO / "scripts" / "export-onnx"), *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@pytest.mark.parametrize("name", ["lightning.ckpt", "prefixed.pth", "plain.pth", "weights.safetensors"])
def test_round_trip(checkpoints, tmp_path, name):
    out = tmp_path / "model.onnx"
    done = export(str(checkpoints / name), "-o", str(out), "--preset", "flair1", "--tile", "64")
    assert done.returncode == 0, done.stderr
    assert "max |onnxruntime - PyTorch| = " in done.stdout
    assert "relative to max(1, max |PyTorch|)" in done.stdout and "< 0.0001" in done.stdout
    assert "Model card" in done.stdout and "building" in done.stdout
    session = ort.InferenceSession(str(out), providers=["CPUExecutionProvider"])
    got = session.run(None, {session.get_inputs()[0].name: np.load(checkpoints / "x.npy")})[0]
    assert np.abs(got - np.load(checkpoints / "y.npy")).max() < 1e-4
    info = read_model_info(out)
    head = info.outputs[0]
    assert [(c.value, c.name, c.color) for c in head.classes] == [
        (c.value, c.name, c.color) for c in FLAIR1_MODEL_CLASSES
    ]
    assert info.input.band_names == ("R", "G", "B", "NIR", "ELEV")
    assert info.input.mean == pytest.approx((105.08, 110.87, 101.82, 106.38, 53.26))
    assert info.input.std == pytest.approx((52.17, 45.38, 44.0, 39.69, 79.3))
    assert info.resolution_m == pytest.approx(0.2)


def test_flairhub_preset_needs_matching_channels_and_classes(checkpoints, tmp_path):
    args = [str(checkpoints / "plain.pth"), "-o", str(tmp_path / "m.onnx"), "--preset", "flairhub-landcover"]
    done = export(*args)
    assert done.returncode == 2
    assert "19 classes but the checkpoint predicts 13" in done.stderr
    done = export(*args, "--class-values", ",".join(map(str, range(13))))
    assert done.returncode == 2
    assert "bands has 3 entries" in done.stderr and "takes 5" in done.stderr
    assert not (tmp_path / "m.onnx").exists()


def test_pickled_code_is_refused(checkpoints, tmp_path):
    done = export(str(checkpoints / "evil.ckpt"), "-o", str(tmp_path / "m.onnx"))
    assert done.returncode == 2
    assert "weights_only=True" in done.stderr
    assert "pickle code ran" not in done.stdout + done.stderr
    assert not (tmp_path / "m.onnx").exists()


def test_not_a_unet_says_so(checkpoints, tmp_path):
    done = export(str(checkpoints / "other.pth"), "-o", str(tmp_path / "m.onnx"))
    assert done.returncode == 2
    assert "encoder.conv1.weight" in done.stderr and "not a segmentation-models-pytorch model" in done.stderr
