"""The FLAIR #1 baseline architecture, U-Net with a ResNet-34 encoder (24.4 M parameters), as ONNX.

With the tools environment (``.venv-tools``, PyTorch) :func:`baseline_model` exports
``tools.unet.build_unet('resnet34', 5, 13)``. Without PyTorch it builds the same network in pure
``onnx.helper``: batch norms folded into the convolutions (as an inference export does), the
encoder of torchvision's resnet34 (7x7/2 stem, max pool, 3-4-6-3 basic blocks), the decoder of
segmentation-models-pytorch's ``Unet`` (nearest x2 upsampling, skip concatenation, two 3x3
conv+ReLU per block, widths 256-128-64-32-16) and a 3x3 head to 13 classes.

Weights are He-initialised with a fixed seed: this model measures speed, not land cover.
:func:`fitted_baseline_model` then fits the head to real FLAIR masks (``fit_head.py``), for
benchmarks whose figures depend on what the logits mean (INT8 agreement with FP32).

:func:`trained_baseline_model` is better for those: the same architecture briefly trained on the
real FLAIR patches (``tools/train_demo.py --arch baseline``, about 20 minutes of CPU), trained
once into ``build/`` when ``.venv-tools`` exists. :func:`int8_baseline_model` takes it when it
can and falls back to the fitted head.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np

OPSET = 17
FLAIR1_METADATA = {
    "model_type": "Segmentor",
    "name": "U-Net ResNet-34 baseline architecture (random weights)",
    "mean": [105.08, 110.87, 101.82, 106.38, 53.26],
    "std": [52.17, 45.38, 44.0, 39.69, 79.3],
    "resolution_cm": 20,
    "tile_size": 512,
    "output_activation": "logits",
}


class _Builder:
    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.nodes: list = []
        self.inits: list = []
        self.count = 0
        self.params = 0

    def _name(self, kind: str) -> str:
        self.count += 1
        return f"{kind}_{self.count}"

    def conv(self, x: str, cin: int, cout: int, k: int, stride: int = 1, relu: bool = True) -> str:
        from onnx import helper, numpy_helper

        name = self._name("conv")
        w = (self.rng.standard_normal((cout, cin, k, k)) * np.sqrt(2.0 / (cin * k * k))).astype(np.float32)
        b = (self.rng.standard_normal(cout) * 0.01).astype(np.float32)
        self.inits += [numpy_helper.from_array(w, f"{name}.w"), numpy_helper.from_array(b, f"{name}.b")]
        self.params += w.size + b.size
        pad = k // 2
        self.nodes.append(
            helper.make_node("Conv", [x, f"{name}.w", f"{name}.b"], [name], name=name, pads=[pad] * 4,
                             strides=[stride, stride], kernel_shape=[k, k])
        )  # fmt: skip
        return self.relu(name) if relu else name

    def relu(self, x: str) -> str:
        from onnx import helper

        name = self._name("relu")
        self.nodes.append(helper.make_node("Relu", [x], [name], name=name))
        return name

    def op(self, op_type: str, inputs: list[str], **attrs) -> str:
        from onnx import helper

        name = self._name(op_type.lower())
        self.nodes.append(helper.make_node(op_type, inputs, [name], name=name, **attrs))
        return name

    def basic_block(self, x: str, cin: int, cout: int, stride: int) -> str:
        y = self.conv(x, cin, cout, 3, stride)
        y = self.conv(y, cout, cout, 3, 1, relu=False)
        shortcut = self.conv(x, cin, cout, 1, stride, relu=False) if stride != 1 or cin != cout else x
        return self.relu(self.op("Add", [y, shortcut]))


def build_baseline_onnx(path: Path, seed: int = 0) -> int:
    """Write the U-Net/ResNet-34 to ``path``; return its parameter count."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    b = _Builder(seed)
    stem = b.conv("input", 5, 64, 7, 2)  # 1/2
    x = b.op("MaxPool", [stem], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])  # 1/4
    skips = [stem]
    cin = 64
    for cout, blocks, stride in ((64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)):
        for i in range(blocks):
            x = b.basic_block(x, cin, cout, stride if i == 0 else 1)
            cin = cout
        skips.append(x)
    skips = skips[:-1][::-1]  # 1/16, 1/8, 1/4, 1/2 (layer3, layer2, layer1, stem)
    skip_channels = [256, 128, 64, 64, 0]
    scales = numpy_helper.from_array(np.array([1, 1, 2, 2], dtype=np.float32), "up2")
    b.inits.append(scales)
    for i, width in enumerate((256, 128, 64, 32, 16)):
        x = b.op("Resize", [x, "", "up2"], mode="nearest")
        if i < len(skips):
            x = b.op("Concat", [x, skips[i]], axis=1)
        x = b.conv(x, cin + skip_channels[i], width, 3)
        x = b.conv(x, width, width, 3)
        cin = width
    logits = b.conv(x, cin, 13, 3, relu=False)
    b.nodes.append(helper.make_node("Identity", [logits], ["logits"], name="output"))
    graph = helper.make_graph(
        b.nodes,
        "unet_resnet34",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["batch", 5, "rows", "cols"])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", 13, "rows", "cols"])],
        b.inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
    model.ir_version = 8
    for key, value in FLAIR1_METADATA.items():
        model.metadata_props.add(key=key, value=json.dumps(value))
    onnx.checker.check_model(model)
    path.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(path))
    return b.params


def baseline_model(path: Path, repo: Path) -> tuple[Path, str]:
    """The baseline ONNX at ``path`` (built when missing) and how it was made."""
    if path.exists():
        return path, "cached"
    tools_python = repo / ".venv-tools" / "bin" / "python"
    if tools_python.exists():
        code = (
            f"import json, sys; sys.path.insert(0, {str(repo)!r})\n"
            "from tools.unet import build_unet\nfrom tools.onnx_export import export_onnx\n"
            "m = build_unet('resnet34', in_channels=5, classes=13).eval()\n"
            f"export_onnx(m, {str(path)!r}, 5, json.loads({json.dumps(FLAIR1_METADATA)!r}))\n"
        )
        done = subprocess.run([str(tools_python), "-c", code], capture_output=True, text=True, check=False)
        if done.returncode == 0 and path.exists():
            return path, "tools/unet.py (PyTorch export)"
    params = build_baseline_onnx(path)
    return path, f"pure onnx builder, {params / 1e6:.2f} M parameters"


def fitted_baseline_model(path: Path, repo: Path) -> tuple[Path, str]:
    """The baseline ONNX at ``path`` (built when missing) with its head fitted to the real FLAIR masks
    of ``tests/data/flair`` (each patch in its 4 rotations, as the benchmark mosaics hold them)."""
    import onnx
    from fit_head import fit_head, flair_patches

    how = "cached"
    if not path.exists():
        partial = path.with_suffix(".partial.onnx")
        partial.unlink(missing_ok=True)
        _, how = baseline_model(partial, repo)
        fit_head(partial, flair_patches(repo / "tests" / "data" / "flair"))
        partial.rename(path)
    meta = {p.key: p.value for p in onnx.load(str(path), load_external_data=False).metadata_props}
    fit = json.loads(meta["head_fit"])
    return path, (
        f"{how}; head fitted by ridge regression on {len(fit['patches'])} real FLAIR masks x {fit['rotations']} "
        f"rotations: pixel accuracy {fit['pixel_accuracy']:.3f}, mIoU {fit['miou_classes_present']:.3f} on them"
    )


TRAINED_BASELINE = Path("build") / "flair-baseline-unet-resnet34-brief.onnx"
"""Where ``tools/train_demo.py --arch baseline`` writes by default (relative to the repository)."""
TRAIN_ARGS = ("--arch", "baseline", "--steps", "150", "--batch", "4", "--crop", "128")
"""The brief training recipe: 150 AdamW steps of 4 random 128 px crops (21 minutes on 2 shared cores, 2026-12-02)."""


def trained_baseline_model(repo: Path) -> tuple[Path, str] | None:
    """The briefly trained baseline (trained first when missing and ``.venv-tools`` exists), or None."""
    path = repo / TRAINED_BASELINE
    how = "cached"
    if not path.exists():
        tools_python = repo / ".venv-tools" / "bin" / "python"
        if not tools_python.exists():
            return None
        command = [str(tools_python), str(repo / "tools" / "train_demo.py"), *TRAIN_ARGS, "--output", str(path)]
        print(f"training the baseline once, about 20 minutes on 2 cores: {' '.join(TRAIN_ARGS)}", flush=True)
        if subprocess.run(command, cwd=repo, check=False).returncode != 0 or not path.exists():
            return None
        how = "trained now"
    return path, f"{how}; {_trained_summary(path)}"


def _trained_summary(path: Path) -> str:
    import onnx

    meta = {p.key: json.loads(p.value) for p in onnx.load(str(path), load_external_data=False).metadata_props}
    log = meta.get("training", {})
    summary = (
        f"{meta['name']}: {log.get('steps', '?')} steps x {log.get('batch', '?')} crops of "
        f"{log.get('crop_px', '?')} px, {log.get('train_seconds', 0) / 60:.1f} min CPU"
    )
    metrics = path.with_suffix(".metrics.json")
    if metrics.exists():
        held_out = json.loads(metrics.read_text(encoding="utf-8"))["held_out"]
        summary += f"; held-out mIoU {held_out['miou']:.3f}, OA {held_out['oa']:.3f} (3 patches)"
    return summary


def int8_baseline_model(repo: Path, build: Path) -> tuple[Path, str, str]:
    """``(path, kind, how)`` of the baseline the INT8 benchmark measures: the briefly trained one
    when there is or can be one (kind ``"trained"``), else the fitted-head one (``"fitted head"``)."""
    trained = trained_baseline_model(repo)
    if trained is not None:
        return trained[0], "trained", trained[1]
    path, how = fitted_baseline_model(build / "unet_resnet34_fitted_fp32.onnx", repo)
    return path, "fitted head", how
