"""INT8 benchmarks (issues 20, 33): FP32 vs INT8 speed through flair:segment, demo accuracy, agreement.

Prints figures side by side; asserts nothing. Targets: the U-Net/ResNet-34 baseline architecture
>= 2.0x tiles/s and agreement >= 0.95; the demo model mIoU within 0.5 points of FP32 and
agreement >= 0.98 on its three held-out patches. Run through `make bench`.

Both models are quantised with flair:quantize's defaults (every convolution in INT8):
``FLAIR_BENCH_INT8_OPTIONS`` (JSON of extra parameters, e.g. ``{"FP32_ENDS": true}``) measures
another setting on the baseline. Keeping the end convolutions in FP32 was about 9 % slower on this
AVX2 CPU (median of 14 paired rounds of onnxruntime alone; docs/int8.md has the A/B figures).

flair:quantize pre-processes the FP32 graph (``quant_pre_process``) and times INT8 against FP32
itself before writing the file: its own figure (onnxruntime alone, the held-out or calibration
tiles, all cores) is printed beside the flair:segment one. ``FLAIR_BENCH_INT8_MODELS`` picks the
models (``baseline,demo`` by default; ``demo`` alone skips the baseline's build or training).
"""

from __future__ import annotations

import json
import os
import statistics
import sys
from pathlib import Path

from baseline_onnx import int8_baseline_model
from common import BUILD, REPO, extent_of, line, mosaic_raster, run_segment, start_qgis

TILES_PER_SIDE = 6  # 36 tiles of 512 px, no overlap
DEMO = REPO / "resources" / "models" / "flair-demo-unet.onnx"
ROUNDS = 3  # FP32/INT8 pairs timed per model, after a warm-up pair
sys.path.insert(0, str(REPO / "scripts"))


def paired_rates(fp32: Path, int8: Path, raster: Path, prefix: str) -> tuple[float, float, float]:
    """``(fp32, int8, ratio)``: median tiles per second of flair:segment over the 36-tile extent,
    FP32 and INT8 alternated ``ROUNDS`` times after one warm-up run each, so that the load of a
    shared machine weighs on both alike; the ratio is the median of the per-round ratios."""
    size = TILES_PER_SIDE * 512
    runs: dict[str, list[float]] = {"fp32": [], "int8": []}
    for round_ in range(ROUNDS + 1):
        for name, model in (("fp32", fp32), ("int8", int8)):
            params = {"INPUT": str(raster), "MODEL": str(model), "EXTENT": extent_of(size), "TILE_SIZE": 512,
                      "OVERLAP": 0, "BATCH_SIZE": 2, "DEVICE": "cpu",
                      "OUTPUT": str(BUILD / f"{prefix}_{name}.tif")}  # fmt: skip
            seconds, result = run_segment(params)
            assert result["TILES"] == TILES_PER_SIDE**2, result["TILES"]
            if round_:
                runs[name].append(result["TILES"] / seconds)
    ratio = statistics.median(i / f for f, i in zip(runs["fp32"], runs["int8"]))
    return statistics.median(runs["fp32"]), statistics.median(runs["int8"]), ratio


def quantize(model: Path, calibration: Path, out: Path, **extra) -> dict:
    import processing
    from qgis.core import QgsRasterLayer

    layer = QgsRasterLayer(str(calibration), "calibration mosaic")
    params = {"MODEL": str(model), "CALIBRATION": [layer], "CALIBRATION_TILES": 32, "VALIDATION_TILES": 8,
              "SEED": 0, "OUTPUT": str(out), **extra}  # fmt: skip
    return processing.run("flair:quantize", params)


def bench_baseline(raster: Path, calibration: Path, figures: dict) -> None:
    fp32, kind, how = int8_baseline_model(REPO, BUILD)
    line(f"baseline U-Net/ResNet-34 FP32 measured: {kind}", how)
    options = json.loads(os.environ.get("FLAIR_BENCH_INT8_OPTIONS", "{}"))
    result = quantize(fp32, calibration, BUILD / "unet_resnet34_int8.onnx", **options)
    fp32_rate, int8_rate, ratio = paired_rates(fp32, Path(result["OUTPUT"]), raster, "q")
    figures["baseline"] = {"model": kind, "how": how, "fp32_tiles_per_s": fp32_rate, "int8_tiles_per_s": int8_rate,
                           "options": options, "ratio": ratio,
                           "agreement": result["AGREEMENT"]}  # fmt: skip
    line(f"baseline INT8 options {options}", f"{result['CALIBRATION_TILES_USED']} calibration tiles")
    line("baseline FP32 vs INT8 (36 tiles, flair:segment, medians)", f"{fp32_rate:.2f} -> {int8_rate:.2f} tiles/s")
    line("baseline INT8 speed-up (target >= 2.0)", f"{ratio:.2f}x (median of {ROUNDS} alternated pairs)")
    line("baseline INT8 agreement, 8 held-out tiles (target >= 0.95)", f"{result['AGREEMENT']:.4f}")
    line("baseline speed-up flair:quantize measured (8 held-out tiles, onnxruntime alone)", f"{result['SPEEDUP']:.2f}x")
    figures["baseline"]["quantize_speedup"] = result["SPEEDUP"]


def bench_demo(raster: Path, figures: dict) -> None:
    from demo_int8 import agreement, quantize_demo, score_held_out

    from flair_qgis.core.engine.model import read_model_info

    out = BUILD / "demo_int8"
    quantized = quantize_demo(DEMO, out)
    int8 = Path(quantized["OUTPUT"])
    fp32_rate, int8_rate, ratio = paired_rates(DEMO, int8, raster, "d")
    held_out = json.loads(read_model_info(DEMO).metadata["held_out_patches"])
    fp32_report, fp32_maps = score_held_out(DEMO, held_out, out / "fp32")
    int8_report, int8_maps = score_held_out(int8, held_out, out / "int8")
    agree = agreement(fp32_maps, int8_maps)
    delta = 100 * (int8_report["miou"] - fp32_report["miou"])
    figures["demo"] = {"fp32_tiles_per_s": fp32_rate, "int8_tiles_per_s": int8_rate, "ratio": ratio,
                       "fp32_miou": fp32_report["miou"], "int8_miou": int8_report["miou"], "miou_delta_pt": delta,
                       "agreement": agree}  # fmt: skip
    line("demo FP32 vs INT8 (36 tiles, flair:segment, medians)", f"{fp32_rate:.2f} -> {int8_rate:.2f} tiles/s")
    line("demo INT8 speed-up", f"{ratio:.2f}x (median of {ROUNDS} alternated pairs)")
    line(
        "demo mIoU FP32 / INT8, 3 held-out patches (target |d| <= 0.5 pt)",
        f"{fp32_report['miou']:.4f} / {int8_report['miou']:.4f} ({delta:+.2f} pt)",
    )
    line("demo INT8 agreement, 3 held-out patches (target >= 0.98)", f"{agree:.4f}")
    speedup = quantized["SPEEDUP"]
    line("demo speed-up flair:quantize measured (calibration tiles, onnxruntime alone)", f"{speedup:.2f}x")
    figures["demo"]["quantize_speedup"] = speedup


def main() -> dict:
    BUILD.mkdir(parents=True, exist_ok=True)
    app = start_qgis()  # noqa: F841 - keeps QGIS alive
    import onnxruntime

    from flair_qgis.core.engine.sessions import default_threads
    from flair_qgis.core.quantize.cpu import cpu_identity, int8_capability

    models = os.environ.get("FLAIR_BENCH_INT8_MODELS", "baseline,demo").split(",")
    raster = mosaic_raster(BUILD / "mosaic_3072.tif", TILES_PER_SIDE)
    capability, cpu = int8_capability(), cpu_identity()
    threads = default_threads()
    print(f"flair:quantize benchmarks (CPU, onnxruntime {onnxruntime.__version__}, {threads} threads)", flush=True)
    line("CPU", f"{cpu.name or '?'} ({', '.join(cpu.flags)})")
    line("CPU INT8 capability", capability.summary)
    figures: dict = {"int8_capability": capability.summary, "cpu": cpu.name, "cpu_flags": list(cpu.flags),
                     "threads": threads, "models": models}  # fmt: skip
    if "baseline" in models:
        bench_baseline(raster, mosaic_raster(BUILD / "mosaic_4096.tif", 8), figures)
    if "demo" in models:
        bench_demo(raster, figures)
    (BUILD / "quantize.json").write_text(json.dumps(figures, indent=2))
    return figures


if __name__ == "__main__":
    main()
