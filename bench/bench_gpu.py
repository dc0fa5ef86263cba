"""The segment engine against its limits, on whatever device this machine has (issue 31).

Side by side, per model: the engine end to end (``plan_segment`` + ``run_plan``, as
``scripts/flair`` drives it), the parallel-read limit (the engine's own reader threads, no model),
the model-alone limits (host arrays in and out; device-resident through IO binding and FP16 on
CUDA), GPU utilisation when ``nvidia-smi`` exists, and ``engine / min(read, model)``. Then the read
limit per file format, and peak memory from 36 to 784 tiles (child processes). Prints figures,
asserts nothing; ``make bench`` runs it at the CPU size.

    .venv/bin/python bench/bench_gpu.py                  # CPU: 3072² mosaic, 1x1 conv + demo model
    python3 bench/bench_gpu.py --size 12288 --models conv1x1,demo,unet   # the device machine
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
from common import BUILD, REPO, line, mosaic_raster
from gpu_limits import device_limits, host_limit

from flair_qgis.core.engine import capture_file, cuda_available, read_model_info
from flair_qgis.core.engine.wrapped_graph import default_readers, plan_fusion
from flair_qgis.core.errors import FlairError
from flair_qgis.core.segment import SegmentRequest, plan_segment, run_plan
from flair_qgis.core.segment.tile_pipeline import TilePipeline

TILE, OVERLAP = 512, 64
DEMO = REPO / "resources" / "models" / "flair-demo-unet.onnx"
FLAIR_MEAN = [105.08, 110.87, 101.82, 106.38, 53.26]
FLAIR_STD = [52.17, 45.38, 44.0, 39.69, 79.3]


def conv1x1_model(path: Path) -> Path:
    """One 1x1 convolution, 5 bands -> 13 classes (logits): a model that costs next to nothing."""
    from toy_models import conv_model

    weights = np.random.default_rng(0).normal(size=(13, 5, 1, 1)).astype(np.float32)
    meta = {"mean": FLAIR_MEAN, "std": FLAIR_STD, "output_activation": "logits", "tile_size": TILE}
    return conv_model(path, weights, metadata=meta) if not path.exists() else path


def unet_model(path: Path) -> Path | None:
    """The FLAIR #1 baseline U-Net/ResNet-34 (tools/ export with PyTorch, else the onnx.helper build)."""
    try:
        from baseline_onnx import baseline_model

        return baseline_model(path, REPO)[0]
    except Exception as err:  # a bench row is skipped with its reason
        line("U-Net/ResNet-34", f"skipped ({str(err)[:120]})")
        return None


def _plan(model_path: Path, raster: Path, size_px: int, out: Path, **options):
    model = read_model_info(model_path)
    x0, y1 = 800000.0, 6500000.0
    extent = (x0, y1 - size_px * 0.2, x0 + size_px * 0.2, y1)
    request = SegmentRequest(str(out), extent=extent, tile_size_px=TILE, overlap_px=OVERLAP, **options)
    return plan_segment(model, [capture_file(raster)], request)


def read_limit(plan, readers: int, batch: int) -> float:
    """Tiles/s of the engine's reader threads alone (raw pixels, as the wrapped graph takes them)."""
    dtypes = [getattr(s, "dtype", None) for s in plan.sources]
    fusion = plan_fusion(plan.model, plan.heads, dtypes, want_confidence=False)
    pipeline = TilePipeline(
        None, plan.model.inputs, plan.sources, [1.0], [], list(plan.tiles), TILE, batch,
        lambda: False, fusion=fusion, readers=readers,
    )  # fmt: skip
    started = time.perf_counter()
    for _ in pipeline.reads(threading.Event()):
        pass
    return len(plan.tiles) / (time.perf_counter() - started)


class GpuBusy:
    """Mean GPU utilisation (nvidia-smi, every 200 ms) while the block runs; None without nvidia-smi."""

    def __enter__(self) -> GpuBusy:
        self.samples: list[float] = []
        self.proc = None
        if shutil.which("nvidia-smi"):
            cmd = ["nvidia-smi", "--query-gpu=utilization.gpu", "--format=csv,noheader,nounits", "-lms", "200"]
            self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
            self.thread = threading.Thread(target=self._collect, daemon=True)
            self.thread.start()
        return self

    def _collect(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        for text in self.proc.stdout:
            try:
                self.samples.append(float(text.split(",")[0]))
            except ValueError:
                pass

    def __exit__(self, *exc) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait()

    @property
    def mean(self) -> float | None:
        return sum(self.samples) / len(self.samples) if self.samples else None


def engine(model_path: Path, raster: Path, size_px: int, device: str, batch: int, **options) -> tuple[float, object]:
    """Tiles/s of the whole engine (session creation excluded) and the result."""
    plan = _plan(model_path, raster, size_px, BUILD / "gpu_classes.tif", device=device, batch_size=batch, **options)
    started = [0.0]

    def first(p: float) -> None:
        if not started[0]:
            started[0] = time.perf_counter()

    with GpuBusy() as busy:
        result = run_plan(plan, on_progress=first)
        ended = time.perf_counter()
    # on_progress is first called once the first batch is written: count the tiles after it.
    rate = (len(plan.tiles) - batch) / max(ended - started[0], 1e-9)
    return rate, (result, busy.mean)


def model_rows(name: str, model_path: Path, raster: Path, args, readers: int) -> dict:
    """Every figure of one model."""
    figures: dict = {}
    plan = _plan(model_path, raster, args.size, BUILD / "gpu_classes.tif", batch_size=args.batch)
    figures["read_tiles_s"] = read = read_limit(plan, readers, args.batch)
    line(f"{name}: read limit, {readers} reader(s), no model", f"{read:.1f} tiles/s")
    figures["model_host_tiles_s"] = model = host_limit(plan, args.device, args.batch)
    line(f"{name}: model alone, host arrays (wrapped graph)", f"{model:.1f} tiles/s")
    if args.device != "cpu" and cuda_available():
        figures.update(device_limits(plan, args.batch, line, name))
    rate, (result, busy) = engine(model_path, raster, args.size, args.device, args.batch)
    figures["engine_tiles_s"] = rate
    line(f"{name}: engine end to end ({result.session.label}, {result.graph})", f"{rate:.1f} tiles/s")
    if busy is not None:
        figures["gpu_busy_percent"] = busy
        line(f"{name}: GPU busy during the engine run (nvidia-smi mean)", f"{busy:.0f} %")
    if result.session.label == "CUDA":
        try:
            fp16, (fp16_result, _busy) = engine(model_path, raster, args.size, "cuda", args.batch, precision="fp16")
            figures["engine_fp16_tiles_s"] = fp16
            line(f"{name}: engine fp16 ({fp16_result.graph})", f"{fp16:.1f} tiles/s")
        except FlairError as err:  # a refusal (agreement below 0.995) is a figure too
            line(f"{name}: engine fp16", f"refused: {err}")
    if args.host_path:
        old, _ = engine(model_path, raster, args.size, args.device, args.batch, fuse_graph=False, readers=1)
        figures["engine_host_path_tiles_s"] = old
        line(f"{name}: engine, host pre/post-processing and 1 reader (before)", f"{old:.1f} tiles/s")
    limit = min(read, model)
    figures["ratio_min"] = rate / limit
    line(f"{name}: engine / min(read, model)", f"{rate / limit:.2f}")
    if result.session.label == "CPU":
        # On the CPU the readers and the model share the cores: the limit is their summed time.
        cpu_limit = 1.0 / (1.0 / read + 1.0 / model)
        figures["ratio_cpu_limit"] = rate / cpu_limit
        line(f"{name}: engine / CPU limit 1/(1/read + 1/model)", f"{rate / cpu_limit:.2f}")
        line(f"{name}: engine / read limit", f"{rate / read:.2f}")
    return figures


def format_rows(raster: Path, size_px: int, readers: int, batch: int, model_path: Path) -> dict:
    """The read limit of the same pixels stored in each format, 1 reader and ``readers``."""
    import rasterio

    figures = {}
    jpeg = {"compress": "jpeg", "jpeg_quality": 90, "interleave": "band"}  # 5 bands: JPEG only band by band
    variants = {"uncompressed": {}, "deflate": None, "jpeg": jpeg}
    with rasterio.Env() as env:
        has_jp2 = "JP2OpenJPEG" in env.drivers()  # rasterio's wheels carry their own GDAL: no osgeo
    if has_jp2:
        variants["jpeg2000"] = {"driver": "JP2OpenJPEG"}
    for name, options in variants.items():
        path = (
            raster if options is None else BUILD / f"format_{size_px}_{name}.{'jp2' if 'driver' in options else 'tif'}"
        )
        if options is not None and not path.exists():
            with rasterio.open(raster) as src:
                profile = {**src.profile, "width": size_px, "height": size_px, "compress": None, **options}
                if "driver" in options:
                    profile = {
                        k: v
                        for k, v in profile.items()
                        if k not in ("tiled", "blockxsize", "blockysize", "compress", "interleave")
                    }
                    profile.update(blockxsize=512, blockysize=512, quality=25)
                with rasterio.open(path, "w", **profile) as dst:
                    dst.write(src.read(window=rasterio.windows.Window(0, 0, size_px, size_px)))
        plan = _plan(model_path, path, size_px, BUILD / "fmt.tif", batch_size=batch)
        one, many = read_limit(plan, 1, batch), read_limit(plan, readers, batch)
        figures[name] = {"1": one, str(readers): many}
        line(f"read limit {name} {size_px}², 1 / {readers} reader(s)", f"{one:.1f} / {many:.1f} tiles/s")
    return figures


def peak_rss_mb(model_path: Path, raster: Path, size_px: int) -> float:
    """Peak RSS (MB) of a fresh process running the engine over a size_px square, with confidence,
    its GDAL cache bounded as in ``scripts/flair`` (:func:`~flair_qgis.core.engine.geotiff.cap_gdal_cache`)."""
    code = "\n".join(
        [
            "import resource, sys",
            f"sys.path[:0] = [{str(REPO)!r}, {str(Path(__file__).parent)!r}]",
            "from bench_gpu import _plan, BUILD",
            "from flair_qgis.core.segment import run_plan",
            "from flair_qgis.core.engine.geotiff import cap_gdal_cache",
            "cap_gdal_cache()  # as scripts/flair and the Dask workers do",
            f"plan = _plan({str(model_path)!r}, {str(raster)!r}, {size_px}, BUILD / 'mem.tif', device='cpu',"
            " confidence_path=str(BUILD / 'mem_conf.tif'))",
            "run_plan(plan)",
            "print(len(plan.tiles), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)",
        ]
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    tiles, mb = out.split()[-2:]
    line(f"peak RSS, {size_px}² px ({tiles} tiles, 1x1 conv, confidence)", f"{float(mb):.0f} MB")
    return float(mb)


def main() -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    gpu = cuda_available()
    parser.add_argument("--size", type=int, default=12288 if gpu else 3072, help="mosaic edge, px")
    parser.add_argument("--models", default="conv1x1,demo,unet" if gpu else "conv1x1,demo")
    parser.add_argument("--batch", type=int, default=16 if gpu else 4)
    parser.add_argument("--device", default="auto")
    parser.add_argument("--formats-size", type=int, default=4096 if gpu else 3072)
    parser.add_argument("--memory", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--formats", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--host-path", action=argparse.BooleanOptionalAction, default=True, help="also today's path")
    args = parser.parse_args()
    BUILD.mkdir(parents=True, exist_ok=True)
    readers = default_readers()
    # Formats are also read with two readers where the default is one (a 2-core machine).
    format_readers = max(2, readers)
    cores = len(os.sched_getaffinity(0))
    print(f"bench_gpu: {cores} cores, {readers} reader(s), batch {args.batch}, device {args.device} (CUDA: {gpu})")
    raster = mosaic_raster(BUILD / f"mosaic_{args.size}.tif", -(-args.size // 512))
    paths = {"conv1x1": conv1x1_model(BUILD / "conv1x1_13.onnx"), "demo": DEMO}
    figures: dict = {"size_px": args.size, "cores": cores, "readers": readers, "batch": args.batch}
    for name in args.models.split(","):
        path = paths.get(name) or (unet_model(BUILD / "flair1_unet_resnet34.onnx") if name == "unet" else None)
        if path is not None:
            figures[name] = model_rows(name, path, raster, args, readers)
    if args.formats:
        formats_px = min(args.formats_size, args.size)
        figures["formats"] = format_rows(raster, formats_px, format_readers, args.batch, paths["conv1x1"])
    if args.memory:
        big = mosaic_raster(BUILD / "mosaic_12288.tif", 24)
        small_mb, large_mb = peak_rss_mb(paths["conv1x1"], big, 2560), peak_rss_mb(paths["conv1x1"], big, 12288)
        figures["memory"] = {"tiles_36_mb": small_mb, "tiles_784_mb": large_mb, "ratio": large_mb / small_mb}
        line("peak RSS ratio 784 / 36 tiles (target <= 1.15)", f"{large_mb / small_mb:.2f}")
    (BUILD / "gpu.json").write_text(json.dumps(figures, indent=2, default=str))
    return figures


if __name__ == "__main__":
    main()
