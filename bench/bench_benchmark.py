"""flair:benchmark throughput: samples per second against onnxruntime alone on the same samples.

The real FLAIR patches (tests/data/flair), copied a few times into IGN's D0xx_YYYY/Zn_XX/img|msk
layout, are scored with the FLAIR #1 protocol by the benchmark engine (reader thread, onnxruntime,
scorer thread); the same samples, read and normalised beforehand, are then run by onnxruntime
alone in batches of the same size. Target: ratio >= 0.9 on CPU with the baseline U-Net.

Prints figures; asserts nothing. Run through `make bench` or `.venv/bin/python bench/bench_benchmark.py`.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

import numpy as np
import rasterio
from bench_segment import baseline_model, trivial_model
from common import BUILD, FLAIR_DATA, line

from flair_qgis.core.benchmark.runner import BenchmarkRequest, run_benchmark
from flair_qgis.core.engine.model import read_model_info
from flair_qgis.core.engine.sessions import create_session

COPIES = 2
BATCH = 4
REPEATS = 2


def dataset(root: Path, copies: int) -> list[Path]:
    """The 9 real patches, ``copies`` times under distinct ids, in IGN's layout; returns the images."""
    if root.exists():
        shutil.rmtree(root)
    images = []
    for copy in range(copies):
        for img in sorted(FLAIR_DATA.glob("IMG_*.tif")):
            patch = f"{copy}{img.stem[5:]}"
            zone = root / f"D0{10 + copy}_2021" / "Z1_UF"
            (zone / "img").mkdir(parents=True, exist_ok=True)
            (zone / "msk").mkdir(parents=True, exist_ok=True)
            images.append(Path(shutil.copy(img, zone / "img" / f"IMG_{patch}.tif")))
            shutil.copy(FLAIR_DATA / img.name.replace("IMG_", "MSK_"), zone / "msk" / f"MSK_{patch}.tif")
    return images


def ort_alone(model: Path, images: list[Path], batch: int) -> float:
    """Samples per second of onnxruntime alone on samples normalised in memory beforehand."""
    info = read_model_info(model)
    spec = info.input
    session, _ = create_session(str(model), "cpu")
    mean = np.float32(spec.mean)[:, None, None]
    std = np.float32(spec.std)[:, None, None]
    data = []
    for path in images:
        with rasterio.open(path) as src:
            data.append((src.read().astype(np.float32) - mean) / std)
    x = np.stack(data)
    session.run(None, {spec.name: x[:batch]})  # warm-up
    started = time.perf_counter()
    for i in range(0, len(images), batch):
        session.run(None, {spec.name: x[i : i + batch]})
    return len(images) / (time.perf_counter() - started)


def engine(model: Path, root: Path, out: Path, batch: int) -> tuple[float, float | None]:
    """Samples per second of the benchmark engine's pipeline (session creation excluded, as for ort_alone)."""
    request = BenchmarkRequest(
        str(root), str(model), "flair1", str(out / "report.json"), batch_size=batch, device="cpu"
    )
    report = run_benchmark(request).report
    return float(report.run.samples_per_second or 0.0), report.scores.miou


def main() -> None:
    print("flair:benchmark throughput (CPU, FLAIR #1 protocol, real patches in IGN's layout)", flush=True)
    work = Path(tempfile.mkdtemp(prefix="bench-benchmark-", dir=BUILD if BUILD.exists() else None))
    try:
        root = work / "flair1"
        images = dataset(root, COPIES)
        line("samples", f"{len(images)} x 512 x 512 px, batch {BATCH}")
        BUILD.mkdir(parents=True, exist_ok=True)
        models = [("1x1 convolution (I/O and scoring bound)", trivial_model(BUILD / "trivial_1x1.onnx"))]
        baseline = baseline_model(BUILD / "flair1_unet_resnet34.onnx")
        if baseline is not None:
            models.append(("U-Net/ResNet-34 baseline", baseline))
        for label, model in models:
            engine(model, root, work, BATCH)  # warm the file cache
            # Alternate the two measurements and keep the best of each: the machine is shared,
            # and a load change between two single runs would skew the ratio either way.
            alone, rate, miou = 0.0, 0.0, None
            for _ in range(REPEATS):
                alone = max(alone, ort_alone(model, images, BATCH))
                measured, miou = engine(model, root, work, BATCH)
                rate = max(rate, measured)
            line(f"{label}: onnxruntime alone", f"{alone:.2f} samples/s")
            line(f"{label}: flair:benchmark engine", f"{rate:.2f} samples/s")
            line(f"{label}: ratio", f"{rate / alone:.2f} (target >= 0.9 for the baseline)")
            line(f"{label}: mIoU (random weights)", f"{miou:.4f}" if miou is not None else "n/a")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
