"""Segmentation benchmarks (issue 2): pipeline efficiency, memory, per-tile overhead, baseline speed.

Prints figures; asserts nothing. Run through `make bench` (or `.venv/bin/python bench/bench_segment.py`).
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from common import BUILD, REPO, extent_of, line, mosaic_raster, read_windows, run_segment, start_qgis

TILE = 512


def trivial_model(path: Path) -> Path:
    """One 1x1 convolution, 5 bands -> 13 classes: the model costs next to nothing."""
    from toy_models import conv_model

    weights = np.random.default_rng(0).normal(size=(13, 5, 1, 1)).astype(np.float32)
    meta = {"mean": [105.08, 110.87, 101.82, 106.38, 53.26], "std": [52.17, 45.38, 44.0, 39.69, 79.3]}
    return conv_model(path, weights, metadata=meta)


FLAIR1_METADATA = {
    "model_type": "Segmentor",
    "mean": [105.08, 110.87, 101.82, 106.38, 53.26],
    "std": [52.17, 45.38, 44.0, 39.69, 79.3],
    "resolution_cm": 20,
    "tile_size": 512,
    "output_activation": "logits",
}


def baseline_model(path: Path) -> Path | None:
    """FLAIR #1 baseline U-Net/ResNet-34 (5 in, 13 classes, random weights), exported with the tools env."""
    if path.exists():
        return path
    code = "\n".join(
        [
            "import json, sys",
            f"sys.path.insert(0, {str(REPO)!r})",
            "from tools.unet import build_unet",
            "from tools.onnx_export import export_onnx",
            "m = build_unet('resnet34', in_channels=5, classes=13).eval()",
            "print(sum(p.numel() for p in m.parameters()))",
            f"export_onnx(m, {str(path)!r}, 5, json.loads({json.dumps(FLAIR1_METADATA)!r}))",
        ]
    )
    try:
        subprocess.run([str(REPO / "scripts" / "tools-env.sh")], check=True, capture_output=True)
        out = subprocess.run(
            [str(REPO / ".venv-tools" / "bin" / "python"), "-c", code], check=True, capture_output=True, text=True
        )
    except (subprocess.CalledProcessError, FileNotFoundError) as err:
        line("baseline U-Net/ResNet-34 export", f"skipped ({err})")
        return None
    line("baseline U-Net/ResNet-34 parameters", f"{int(out.stdout.split()[0]) / 1e6:.2f} M")
    return path


def ort_alone(model: Path, raster: Path, tiles: int, batch: int) -> float:
    """Seconds per tile of onnxruntime alone on tiles already normalised in memory."""
    import rasterio
    from rasterio.windows import Window

    from flair_qgis.core.engine.model import read_model_info
    from flair_qgis.core.engine.sessions import create_session

    info = read_model_info(model)
    session, _ = create_session(str(model), "cpu")
    spec = info.input
    with rasterio.open(raster) as src:
        data = [src.read(window=Window((i % 8) * TILE, (i // 8) * TILE, TILE, TILE)) for i in range(tiles)]
    mean = np.float32(spec.mean)[:, None, None]
    std = np.float32(spec.std)[:, None, None]
    x = np.stack([(d.astype(np.float32) - mean) / std for d in data])
    name = spec.name
    session.run(None, {name: x[:batch]})  # warm-up
    started = time.perf_counter()
    for i in range(0, tiles, batch):
        session.run(None, {name: x[i : i + batch]})
    return (time.perf_counter() - started) / tiles


def marginal_segment(
    model: Path, raster: Path, small_px: int, large_px: int, batch: int, out: Path, confidence: bool = False
) -> tuple[float, int]:
    """Marginal seconds per tile of flair:segment between two extents, and the tiles added."""
    times = []
    for size in (small_px, large_px):
        params = {
            "INPUT": str(raster),
            "MODEL": str(model),
            "EXTENT": extent_of(size),
            "TILE_SIZE": TILE,
            "OVERLAP": 0,
            "BATCH_SIZE": batch,
            "DEVICE": "cpu",
            "OUTPUT": str(out),
        }
        if confidence:
            params["OUTPUT_CONFIDENCE"] = str(out.with_name("conf.tif"))
        run_segment(params)  # warm-up: page cache, first session
        times.append(min(run_segment(params)[0] for _ in range(2)))
    added = (large_px // TILE) ** 2 - (small_px // TILE) ** 2
    return (times[1] - times[0]) / added, added


def peak_memory_mb(model: Path, raster: Path, size_px: int, out: Path) -> float:
    """Peak RSS (MB) of a fresh process running flair:segment over a size_px square."""
    params = {
        "INPUT": str(raster),
        "MODEL": str(model),
        "TILE_SIZE": 512,
        "OVERLAP": 64,
        "BATCH_SIZE": 4,
        "DEVICE": "cpu",
        "OUTPUT": str(out),
        "OUTPUT_CONFIDENCE": str(out.with_name("mconf.tif")),
    }
    code = "\n".join(
        [
            "import resource, sys",
            f"sys.path.insert(0, {str(Path(__file__).parent)!r})",
            "from common import start_qgis, run_segment, extent_of",
            "app = start_qgis()",
            f"run_segment({{**{params!r}, 'EXTENT': extent_of({size_px})}})",
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)",
        ]
    )
    res = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    return float(res.stdout.strip().splitlines()[-1])


def main() -> dict:
    BUILD.mkdir(parents=True, exist_ok=True)
    app = start_qgis()  # noqa: F841 - keeps QGIS alive
    raster = mosaic_raster(BUILD / "mosaic_6144.tif", 12)
    out = BUILD / "classes.tif"
    figures: dict = {}
    print("flair:segment benchmarks (CPU, onnxruntime threads = all cores)", flush=True)

    trivial = trivial_model(BUILD / "trivial_1x1.onnx")
    per_tile, added = marginal_segment(trivial, raster, 2048, 6144, 4, out)
    read_s = read_windows(raster, 6144) - read_windows(raster, 2048)
    read_per_tile = read_s / added
    mpx = TILE * TILE / 1e6
    figures["overhead"] = {
        "segment_mpx_s": mpx / per_tile,
        "read_mpx_s": mpx / read_per_tile,
        "ratio": read_per_tile / per_tile,
        "segment_ms_per_tile": per_tile * 1e3,
        "read_ms_per_tile": read_per_tile * 1e3,
    }
    line("trivial 1x1-conv model: flair:segment marginal", f"{mpx / per_tile:.1f} Mpx/s ({per_tile * 1e3:.1f} ms/tile)")
    line(
        "plain rasterio read of the same windows",
        f"{mpx / read_per_tile:.1f} Mpx/s ({read_per_tile * 1e3:.1f} ms/tile)",
    )
    line("per-tile overhead ratio (target >= 0.5)", f"{read_per_tile / per_tile:.2f}")

    small_mb = peak_memory_mb(trivial, raster, 2048, BUILD / "mem_small.tif")
    large_mb = peak_memory_mb(trivial, raster, 6144, BUILD / "mem_large.tif")
    figures["memory"] = {"extent_1x_mb": small_mb, "extent_9x_mb": large_mb, "ratio": large_mb / small_mb}
    line("peak RSS, 2048² px extent (with confidence)", f"{small_mb:.0f} MB")
    line("peak RSS, 6144² px extent (9x the area)", f"{large_mb:.0f} MB")
    line("memory ratio 9x extent (target <= 1.2)", f"{large_mb / small_mb:.2f}")

    baseline = baseline_model(BUILD / "flair1_unet_resnet34.onnx")
    if baseline is not None:
        ort_tile = ort_alone(baseline, raster, 8, 2)
        seg_tile, added = marginal_segment(baseline, raster, 1024, 2048, 2, out)
        km2_h = (TILE * 0.2) ** 2 / 1e6 / seg_tile * 3600
        figures["baseline_cpu"] = {
            "ort_s_per_tile": ort_tile,
            "segment_s_per_tile": seg_tile,
            "efficiency": ort_tile / seg_tile,
            "tiles_per_s": 1 / seg_tile,
            "km2_per_h": km2_h,
        }
        line("U-Net/ResNet-34: onnxruntime alone", f"{ort_tile:.3f} s/tile ({1 / ort_tile:.2f} tiles/s)")
        line("U-Net/ResNet-34: flair:segment marginal", f"{seg_tile:.3f} s/tile ({1 / seg_tile:.2f} tiles/s)")
        line("pipeline efficiency (target >= 0.9)", f"{ort_tile / seg_tile:.2f}")
        line("throughput at 0.2 m", f"{km2_h:.2f} km²/h")
    (BUILD / "segment.json").write_text(json.dumps(figures, indent=2))
    line("peak RSS of this benchmark process", f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    return figures


if __name__ == "__main__":
    main()
