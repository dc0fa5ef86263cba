"""Train the small FLAIR #1 demo model on six real patches, export it to ONNX, score it.

This is a demonstration model, not a production one: six 512x512 patches (1.6 million
labelled pixels, 0.06 km2 at 0.2 m) cannot teach land cover to a network trained from scratch.
It exists so that ``make demo`` and the tests segment real imagery with a real trained network,
with the FLAIR #1 input convention (5 bands R, G, B, NIR, elevation; FLAIR #1 normalisation)
and output convention (13 classes, codes 1..13).

Recipe (every figure fixed here, seed 0):

* data: ``tests/data/flair``; patches :data:`HOLDOUT_IDS` held out, the other six train;
  MSK codes 13..19 regrouped to 13 "other", class index ``i`` = code ``i + 1``;
* input ``(pixel - mean) / std`` per band with the FLAIR #1 statistics (0..255 units);
* random 256x256 crops, random horizontal/vertical flips and 90-degree rotations, random
  exposure changes of R, G, B, NIR (:func:`jitter_radiometry`);
* cross-entropy weighted by ``1 / sqrt(frequency)`` of each class in the training pixels
  (normalised to mean 1 over the classes present; "other" weighted 0 as in FLAIR #1);
* AdamW (weight decay 1e-4), peak learning rate 3e-3 with linear warm-up over the first tenth
  of the steps then cosine decay, batch 8, CPU;
* network: :func:`tools.unet.build_unet` ResNet-18 encoder 16 channels wide, decoder
  ``(128, 64, 32, 16, 16)`` (same layout as smp's U-Net, thinner);
* export with :func:`tools.onnx_export.export_onnx`, then scoring with onnxruntime on the
  full patches (FLAIR #1 protocol, see :func:`flair1_scores`).

Run ``scripts/train-demo-model`` (it prepares ``.venv-tools`` first).

``--arch baseline`` trains the FLAIR #1 baseline architecture instead (ResNet-34 encoder at full
width, smp's decoder ``(256, 128, 64, 32, 16)``, 24.4 M parameters) with the same recipe, for the
INT8 benchmark (``bench/bench_quantize.py``): a few minutes of CPU cannot train it well, but its
logits then mean something, unlike random weights. Its default output is in ``build/``.
"""

# ruff: noqa: T201  (a command-line tool: progress and results go to stdout)
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import rasterio
import torch

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from flair_qgis.core.nomenclature import FLAIR1_MODEL_CLASSES  # noqa: E402  (pure module, no QGIS)
from tools.onnx_export import export_onnx  # noqa: E402
from tools.unet import DEFAULT_DECODER_CHANNELS, build_unet, parameter_count  # noqa: E402

DATA_DIR = REPO / "tests" / "data" / "flair"
OUTPUT = REPO / "resources" / "models" / "flair-demo-unet.onnx"

ALL_IDS = ("000473", "000687", "002115", "024577", "034217", "036294", "050549", "084558", "087873")
HOLDOUT_IDS = ("000687", "024577", "084558")
"""Held-out patches: together they hold all 9 classes that occur in the nine patches (codes
1..8 and 10: building, pervious and impervious surface, bare soil, water, coniferous,
deciduous, brushwood, herbaceous), and each of them also occurs in the training patches
(holding out 050549 too would leave no building pixel to train on)."""
TRAIN_IDS = tuple(i for i in ALL_IDS if i not in HOLDOUT_IDS)

BANDS = ("R", "G", "B", "NIR", "ELEV")
FLAIR1_MEAN = (105.08, 110.87, 101.82, 106.38, 53.26)
FLAIR1_STD = (52.17, 45.38, 44.0, 39.69, 79.3)
NUM_CLASSES = 13
OTHER_INDEX = 12  # code 13 "other"

VERSION = "1.0.0"


@dataclass(frozen=True)
class Architecture:
    """A network :func:`tools.unet.build_unet` builds, and how its exported model is named."""

    encoder: str
    encoder_width: int
    decoder_channels: tuple[int, ...]
    output: Path
    name: str
    summary: str
    card: str

    def build(self) -> torch.nn.Module:
        return build_unet(
            self.encoder, len(BANDS), NUM_CLASSES, self.decoder_channels, encoder_width=self.encoder_width
        )


ARCHITECTURES = {
    "demo": Architecture(
        "resnet18", 16, (128, 64, 32, 16, 16), OUTPUT, "FLAIR demo U-Net (6 patches)",
        "Tiny demonstration U-Net (ResNet-18 encoder, 16 channels wide)", "resources/models/MODEL_CARD.md",
    ),
    "baseline": Architecture(
        "resnet34", 64, DEFAULT_DECODER_CHANNELS, REPO / "build" / "flair-baseline-unet-resnet34-brief.onnx",
        "U-Net ResNet-34 baseline architecture, briefly trained (6 patches)",
        "FLAIR #1 baseline architecture (U-Net, ResNet-34 encoder, smp decoder, 24.4 M parameters), "
        "briefly trained for benchmarks only", "its .metrics.json",
    ),
}  # fmt: skip
"""``--arch`` choices: the shipped demo model, or the FLAIR #1 baseline architecture."""


@dataclass(frozen=True)
class Patch:
    """One FLAIR patch: ``image`` ``(5, rows, cols)`` uint8, ``target`` ``(rows, cols)`` class index."""

    patch_id: str
    image: np.ndarray
    target: np.ndarray


def codes_to_index(codes: np.ndarray) -> np.ndarray:
    """FLAIR MSK codes 1..19 -> class index 0..12 (codes >= 13 regrouped to 12 "other")."""
    return (np.minimum(codes.astype(np.int64), 13) - 1).astype(np.int64)


def load_patch(patch_id: str, data_dir: Path = DATA_DIR) -> Patch:
    """Read ``IMG_<id>.tif`` (5 bands) and ``MSK_<id>.tif`` (codes) from ``data_dir``."""
    with rasterio.open(data_dir / f"IMG_{patch_id}.tif") as src:
        image = src.read()
    with rasterio.open(data_dir / f"MSK_{patch_id}.tif") as src:
        codes = src.read(1)
    if image.shape[0] != len(BANDS) or image.shape[1:] != codes.shape:
        raise ValueError(f"patch {patch_id}: image {image.shape} and mask {codes.shape} do not match")
    return Patch(patch_id, image, codes_to_index(codes))


def normalise(image: np.ndarray, mean: Sequence[float], std: Sequence[float]) -> np.ndarray:
    """``(pixel - mean) / std`` per band; ``image`` ``(bands, rows, cols)`` -> float32."""
    m = np.asarray(mean, dtype=np.float32)[:, None, None]
    s = np.asarray(std, dtype=np.float32)[:, None, None]
    return (image.astype(np.float32) - m) / s


def class_weights(patches: Sequence[Patch]) -> np.ndarray:
    """Cross-entropy weight per class index: ``1 / sqrt(frequency)``, mean 1 over present classes.

    Absent classes and "other" get weight 0 (they carry no training pixel or, for "other", no
    information, as in the FLAIR #1 baseline).
    """
    counts = np.zeros(NUM_CLASSES, dtype=np.float64)
    for patch in patches:
        counts += np.bincount(patch.target.ravel(), minlength=NUM_CLASSES)[:NUM_CLASSES]
    counts[OTHER_INDEX] = 0
    present = counts > 0
    weights = np.zeros(NUM_CLASSES, dtype=np.float64)
    weights[present] = 1.0 / np.sqrt(counts[present] / counts.sum())
    weights[present] /= weights[present].mean()
    return weights.astype(np.float32)


def jitter_radiometry(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Random exposure change of the four spectral bands, as between two aerial surveys.

    ``R,G,B,NIR`` become ``clip(pixel * g * g_band + o, 0, 255)`` with one gain
    ``g ~ U(0.7, 1.3)``, per-band gains ``g_band ~ U(0.9, 1.1)`` and one offset ``o ~ U(-20, 20)``;
    elevation is left as it is. Six patches from six surveys otherwise teach the network each
    survey's colours rather than the land cover.
    """
    out = image.astype(np.float32)
    gains = rng.uniform(0.7, 1.3) * rng.uniform(0.9, 1.1, size=4)
    out[:4] = np.clip(out[:4] * gains[:, None, None] + rng.uniform(-20.0, 20.0), 0.0, 255.0)
    return out


def sample_batch(
    patches: Sequence[Patch], batch: int, crop_px: int, rng: np.random.Generator
) -> tuple[torch.Tensor, torch.Tensor]:
    """Random crops with random flips and 90-degree rotations, normalised; ``(N,5,c,c)``, ``(N,c,c)``."""
    images, targets = [], []
    for _ in range(batch):
        patch = patches[int(rng.integers(len(patches)))]
        rows, cols = patch.target.shape
        r = int(rng.integers(rows - crop_px + 1))
        c = int(rng.integers(cols - crop_px + 1))
        image = patch.image[:, r : r + crop_px, c : c + crop_px]
        target = patch.target[r : r + crop_px, c : c + crop_px]
        k = int(rng.integers(4))
        image, target = np.rot90(image, k, axes=(1, 2)), np.rot90(target, k)
        if rng.random() < 0.5:
            image, target = image[:, :, ::-1], target[:, ::-1]
        if rng.random() < 0.5:
            image, target = image[:, ::-1, :], target[::-1, :]
        images.append(normalise(jitter_radiometry(image, rng), FLAIR1_MEAN, FLAIR1_STD))
        targets.append(np.ascontiguousarray(target))
    return torch.from_numpy(np.stack(images)), torch.from_numpy(np.stack(targets))


def train(
    patches: Sequence[Patch],
    *,
    steps: int,
    batch: int,
    crop_px: int,
    lr: float,
    seed: int,
    arch: Architecture = ARCHITECTURES["demo"],
) -> tuple[torch.nn.Module, dict]:
    """Train ``arch`` (the demo network by default) from scratch; returns the model (eval mode) and a log."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    model = arch.build()
    weights = class_weights(patches)
    optimiser = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    warmup = max(1, steps // 10)

    def lr_factor(step: int) -> float:
        # linear warm-up over the first tenth, then cosine decay to zero
        if step < warmup:
            return (step + 1) / warmup
        return 0.5 * (1.0 + math.cos(math.pi * (step - warmup) / max(1, steps - warmup)))

    schedule = torch.optim.lr_scheduler.LambdaLR(optimiser, lr_factor)
    loss_fn = torch.nn.CrossEntropyLoss(weight=torch.from_numpy(weights))
    model.train()
    start = time.monotonic()
    losses: list[float] = []
    for step in range(1, steps + 1):
        x, y = sample_batch(patches, batch, crop_px, rng)
        loss = loss_fn(model(x), y)
        optimiser.zero_grad(set_to_none=True)
        loss.backward()
        optimiser.step()
        schedule.step()
        losses.append(loss.item())
        if step % 25 == 0 or step == steps:
            recent = float(np.mean(losses[-25:]))
            print(f"step {step}/{steps}  loss {recent:.3f}  {time.monotonic() - start:.0f} s", flush=True)
    model.eval()
    log = {
        "steps": steps,
        "batch": batch,
        "crop_px": crop_px,
        "max_lr": lr,
        "seed": seed,
        "threads": torch.get_num_threads(),
        "train_seconds": round(time.monotonic() - start, 1),
        "final_loss": round(float(np.mean(losses[-25:])), 4),
        "class_weights": [round(float(w), 4) for w in weights],
    }
    return model, log


def model_metadata(train_seconds: float, arch: Architecture = ARCHITECTURES["demo"], steps: int = 0) -> dict:
    """flair_qgis metadata for the demo model or ``arch`` (see the README, "Model metadata")."""
    brief = "" if arch is ARCHITECTURES["demo"] else f" ({steps} steps)"
    return {
        "model_type": "Segmentor",
        "name": arch.name,
        "version": VERSION,
        "description": (
            f"{arch.summary} trained from scratch in "
            f"{train_seconds / 60:.0f} minutes{brief} on CPU on 6 real FLAIR #1 patches "
            f"({', '.join(TRAIN_IDS)}). Not a production model: it shows the FLAIR #1 input and "
            f"output conventions, its accuracy is low (see {arch.card})."
        ),
        "license": "Etalab Open Licence 2.0 (weights by the flair_qgis authors; training data IGN FLAIR)",
        "training_data": (
            "IGN FLAIR #1 patches IMG/MSK " + ", ".join(TRAIN_IDS) + " (Etalab Open Licence 2.0, "
            "IGN - FLAIR); held out: " + ", ".join(HOLDOUT_IDS)
        ),
        "classes": [
            {"index": i, "value": c.value, "name": c.name, "color": c.color} for i, c in enumerate(FLAIR1_MODEL_CLASSES)
        ],
        "bands": list(BANDS),
        "mean": list(FLAIR1_MEAN),
        "std": list(FLAIR1_STD),
        "resolution_cm": 20,
        "tile_size": 512,
        "overlap_px": 64,
        "output_activation": "logits",
        "architecture": (
            f"U-Net, {arch.encoder} encoder width {arch.encoder_width}, decoder {list(arch.decoder_channels)}"
        ),
        "training_patches": list(TRAIN_IDS),
        "held_out_patches": list(HOLDOUT_IDS),
    }


def predict_codes(session, image: np.ndarray, mean: Sequence[float], std: Sequence[float]) -> np.ndarray:
    """Class codes ``(rows, cols)`` for one full patch: normalise, run, argmax, index + 1."""
    x = normalise(image, mean, std)[None]
    logits = session.run(None, {session.get_inputs()[0].name: x})[0][0]
    return np.argmax(logits, axis=0).astype(np.int64) + 1


def flair1_scores(confusion: np.ndarray) -> dict:
    """FLAIR #1 protocol on a 13x13 confusion matrix (rows reference codes 1..13, cols prediction).

    IoU of code ``c`` = ``TP / (TP + FP + FN)`` from the full matrix (pixels of "other" count
    as errors for the classes they are confused with, as in IGN's metric code); mIoU averages
    codes 1..12, skipping classes absent from both reference and prediction; code 13 "other"
    never enters the mean. OA = trace / total over all pixels.
    """
    tp = np.diag(confusion).astype(np.float64)
    ref = confusion.sum(axis=1).astype(np.float64)
    pred = confusion.sum(axis=0).astype(np.float64)
    union = ref + pred - tp
    per_class = {}
    for index in range(NUM_CLASSES - 1):
        code = index + 1
        per_class[code] = None if union[index] == 0 else float(tp[index] / union[index])
    scored = [v for v in per_class.values() if v is not None]
    return {
        "miou": float(np.mean(scored)) if scored else None,
        "oa": float(tp.sum() / confusion.sum()),
        "iou": per_class,
        "pixels": int(confusion.sum()),
    }


def evaluate(onnx_path: Path, patches: Sequence[Patch]) -> dict:
    """Score the ONNX model with onnxruntime on full patches, using the mean/std its metadata declares."""
    import onnxruntime as ort

    session = ort.InferenceSession(os.fspath(onnx_path), providers=["CPUExecutionProvider"])
    meta = session.get_modelmeta().custom_metadata_map
    mean, std = json.loads(meta["mean"]), json.loads(meta["std"])
    confusion = np.zeros((NUM_CLASSES, NUM_CLASSES), dtype=np.int64)
    for patch in patches:
        codes = predict_codes(session, patch.image, mean, std)
        ref = patch.target + 1
        confusion += np.bincount(
            (ref.ravel() - 1) * NUM_CLASSES + (codes.ravel() - 1), minlength=NUM_CLASSES**2
        ).reshape(NUM_CLASSES, NUM_CLASSES)
    scores = flair1_scores(confusion)
    scores["patches"] = [p.patch_id for p in patches]
    scores["confusion_matrix"] = confusion.tolist()
    return scores


def markdown_table(held_out: dict, training: dict) -> str:
    """Per-class IoU table for the model card."""
    lines = ["| code | class | IoU held-out | IoU training |", "|---:|---|---:|---:|"]

    def fmt(value: float | None) -> str:
        return "–" if value is None else f"{value:.3f}"

    for cls in FLAIR1_MODEL_CLASSES[:12]:
        lines.append(
            f"| {cls.value} | {cls.name} | {fmt(held_out['iou'][cls.value])} | {fmt(training['iou'][cls.value])} |"
        )
    lines.append(f"| | **mIoU** | **{fmt(held_out['miou'])}** | **{fmt(training['miou'])}** |")
    lines.append(f"| | **OA** | **{fmt(held_out['oa'])}** | **{fmt(training['oa'])}** |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=240)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--crop", type=int, default=256, help="crop edge in pixels (multiple of 32)")
    parser.add_argument("--lr", type=float, default=3e-3, help="peak learning rate")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--data", type=Path, default=DATA_DIR)
    parser.add_argument("--arch", choices=sorted(ARCHITECTURES), default="demo")
    parser.add_argument("--output", type=Path, help="default: the shipped demo model, or build/ for baseline")
    args = parser.parse_args(argv)
    arch = ARCHITECTURES[args.arch]
    output = args.output or arch.output

    torch.set_num_threads(args.threads)
    torch.set_flush_denormal(True)
    train_patches = [load_patch(i, args.data) for i in TRAIN_IDS]
    holdout_patches = [load_patch(i, args.data) for i in HOLDOUT_IDS]
    print(f"training on {', '.join(TRAIN_IDS)}; held out {', '.join(HOLDOUT_IDS)}", flush=True)

    model, log = train(
        train_patches, steps=args.steps, batch=args.batch, crop_px=args.crop, lr=args.lr, seed=args.seed, arch=arch
    )
    log["parameters"] = parameter_count(model)
    print(f"trained {log['parameters']:,} parameters in {log['train_seconds']:.0f} s", flush=True)
    metadata = model_metadata(log["train_seconds"], arch, args.steps)
    if arch is not ARCHITECTURES["demo"]:
        metadata["training"] = {k: log[k] for k in ("steps", "batch", "crop_px", "max_lr", "seed", "train_seconds")}
    output.parent.mkdir(parents=True, exist_ok=True)
    export_onnx(model, output, len(BANDS), metadata, tile=512)

    held_out = evaluate(output, holdout_patches)
    training = evaluate(output, train_patches)
    report = {"model": output.name, "training": log, "held_out": held_out, "training_patches": training}
    report_path = output.with_suffix(".metrics.json")
    report_path.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(markdown_table(held_out, training))
    size_mb = output.stat().st_size / 1e6
    print(f"wrote {output} ({size_mb:.1f} MB) and {report_path.name}")
    print(
        f"held-out mIoU {held_out['miou']:.3f} OA {held_out['oa']:.3f}; "
        f"training mIoU {training['miou']:.3f} OA {training['oa']:.3f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
