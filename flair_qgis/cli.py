"""``python -m flair_qgis.cli segment``: the segmentation engine on Dask distributed, without QGIS.

Exit codes: 0 all chunks done and the mosaic (and ``--vector`` polygons) written; 1 some chunks
failed (see run.json); 2 the run could not start or could not write (bad input, unreachable
scheduler, workers lacking packages, an output folder or ``--vector`` file that cannot be created
or written, a full disk); 130 interrupted (finished chunks are kept: run the same command again
to resume).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, TextIO

from .core.engine import PRECISIONS, cuda_available, decide_device, parse_band_list
from .core.errors import Canceled, FlairError, InputError, removed_message
from .scale import messages as scale_messages  # noqa: F401  (registers the keys of the flags' refusals)

if TYPE_CHECKING:
    from .core.segment import SegmentRequest

EXIT_OK, EXIT_CHUNKS_FAILED, EXIT_BAD_INPUT, EXIT_INTERRUPTED = 0, 1, 2, 130


def _extent(text: str) -> tuple[float, float, float, float]:
    try:
        xmin, ymin, xmax, ymax = (float(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--extent must be xmin,ymin,xmax,ymax in the input's CRS, got {text!r}"
        ) from None
    return xmin, ymin, xmax, ymax


def build_parser() -> argparse.ArgumentParser:
    """The ``flair`` command line."""
    parser = argparse.ArgumentParser(prog="flair", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    seg = commands.add_parser("segment", help="segment a raster on Dask workers into chunks/, classes.vrt, run.json")
    seg.add_argument("--input", required=True, help="GeoTIFF, VRT or any GDAL path (/vsicurl/ COGs too)")
    seg.add_argument("--model", required=True, help="the ONNX model (the same file must be visible to every worker)")
    seg.add_argument("--output-dir", required=True, help="folder for chunks/, classes.vrt and run.json")
    where = seg.add_mutually_exclusive_group()
    where.add_argument("--scheduler", help="address of an existing Dask scheduler, e.g. tcp://10.0.0.1:8786")
    where.add_argument("--workers", type=int, help="worker processes of a local cluster (default: one per core)")
    where.add_argument(
        "--gpus",
        metavar="all|0,1",
        help="a local cluster of one worker per GPU (all, or the indices nvidia-smi -L gives), each pinned to "
        "its GPU with CUDA_VISIBLE_DEVICES; --device auto becomes cuda",
    )
    seg.add_argument("--threads", type=int, help="onnxruntime threads per worker (default: the worker's Dask threads)")
    seg.add_argument("--chunk-tiles", type=int, default=8, help="edge of a work unit in tiles (default 8)")
    seg.add_argument("--tile-size", type=int, help="model input edge in px (default: the model's)")
    seg.add_argument("--overlap", type=int, help="overlap between tiles in px (default: the model's)")
    seg.add_argument("--batch-size", type=int, default=4, help="tiles per onnxruntime call (default 4)")
    seg.add_argument("--bands", default="", help="input bands for the model's channels, e.g. 1,2,3,4,5")
    seg.add_argument("--device", default="auto", choices=("auto", "cuda", "cpu"))
    seg.add_argument(
        "--precision",
        default="fp32",
        choices=PRECISIONS,
        help="fp32 (default) or fp16: the model in half precision on CUDA only (refused on the CPU), checked "
        "against fp32 on the first tiles of each worker process, as flair:segment's PRECISION; recorded in "
        "run.json, so a resume with the other precision is refused",
    )
    seg.add_argument("--extent", type=_extent, help="xmin,ymin,xmax,ymax in the input's CRS (default: all)")
    seg.add_argument(
        "--force",
        action="store_true",
        help="discard a run of another model, input, extent, bands, tiling or precision in the folder",
    )
    _add_vector_arguments(seg)
    return parser


def _add_vector_arguments(seg: argparse.ArgumentParser) -> None:
    vec = seg.add_argument_group(
        "polygons (flair:vectorize)",
        "--vector writes one polygon per 4-connected region (layer 'predictions': class, name, area_m2, "
        "confidence, model, source, created), exactly as flair:vectorize on classes.vrt. Without cleaning, "
        "each chunk is vectorised on its worker and the driver stitches regions across chunk edges. With any "
        "cleaning option, cleaning needs the whole region graph: the driver vectorises the finished mosaic "
        "itself (streamed band by band, one process).",
    )
    vec.add_argument("--vector", metavar="PATH.gpkg", help="also write the polygons to this file")
    vec.add_argument(
        "--vector-min-area",
        type=float,
        default=0.0,
        metavar="M2",
        help="merge regions smaller than this into a neighbour (m², default 0: off)",
    )
    vec.add_argument(
        "--vector-simplify",
        type=float,
        default=0.0,
        metavar="M",
        help="simplify with this tolerance, topology kept (m, default 0: off)",
    )
    vec.add_argument(
        "--vector-fill-holes",
        type=float,
        default=0.0,
        metavar="M2",
        help="fill enclosed regions smaller than this (m², default 0: off)",
    )


class ProgressBar:
    """One status line: a bar, tiles done, tiles/s and ETA; a new line at most every 10 s off a terminal."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.tty = stream.isatty()
        self._last = 0.0

    def __call__(self, progress) -> None:
        now = time.monotonic()
        done = progress.tiles_done >= progress.tiles_total
        if not self.tty and not done and now - self._last < 10.0:
            return
        self._last = now
        width = 30
        filled = int(width * progress.percent / 100.0)
        eta = "--" if progress.eta_s is None else time.strftime("%H:%M:%S", time.gmtime(progress.eta_s))
        failed = f", {progress.chunks_failed} chunk(s) failed" if progress.chunks_failed else ""
        line = (
            f"[{'#' * filled}{'.' * (width - filled)}] {progress.percent:5.1f}% "
            f"{progress.tiles_done}/{progress.tiles_total} tiles, {progress.tiles_per_s:.2f} tiles/s, ETA {eta}{failed}"
        )
        self.stream.write(("\r" + line) if self.tty else line + "\n")
        if self.tty and done:
            self.stream.write("\n")
        self.stream.flush()


def segment_command(args: argparse.Namespace, out: TextIO) -> int:
    """Plan, check the folder, connect, check the workers, run; returns the exit code."""
    from .scale.cluster import check_workers, dashboard_link, open_client, pinned_gpus
    from .scale.manifest import open_output_dir
    from .scale.plan import plan_job
    from .scale.runner import execute

    gpus = _local_cluster(args)
    vector = _vector_options(args)
    request = _request(args, gpus)
    job, model, notes = plan_job(args.input, args.model, args.output_dir, request, chunk_tiles=args.chunk_tiles)
    if vector is not None and not vector.cleaning:
        job = replace(job, vector_chunks=True)
    for note in notes:
        out.write(f"note: {note}\n")
    manifest = open_output_dir(job, args.force)
    g = job.grid
    out.write(
        f"flair: {g.width} x {g.height} px ({g.area_km2:.3f} km²) at {g.pixel_size_m:g} m, "
        f"{len(job.chunks())} chunk(s) of up to {job.chunk_tiles}x{job.chunk_tiles} tiles of "
        f"{job.request.tile_size_px} px, {job.request.precision}\n"
    )
    with open_client(args.scheduler, args.workers, gpus=gpus) as client:
        reports = check_workers(client)
        out.write(f"flair: {len(reports)} worker(s) ready\n")
        out.writelines(f"flair: {line}\n" for line in (pinned_gpus(reports, gpus) if gpus else []))
        link = dashboard_link(client)
        if link:
            out.write(f"flair: Dask dashboard at {link}\n")
        result = execute(job, model, manifest, client, on_progress=ProgressBar(out), vector=vector)
    for warning in result.warnings:
        out.write(f"warning: {warning}\n")
    providers = ", ".join(sorted(set(result.providers.values()))) or "none (nothing to compute)"
    out.write(
        f"flair: {result.chunks_run} chunk(s) computed, {result.chunks_skipped} already done, "
        f"{len(result.failed)} failed; {result.tiles_run} tiles in {result.seconds:.1f} s "
        f"({result.tiles_per_s:.2f} tiles/s) on {providers}\n"
    )
    if result.failed:
        for name, error in sorted(result.failed.items()):
            out.write(f"error: chunk {name} failed: {error.splitlines()[0][:300]}\n")
        out.write(
            f"flair: no mosaic written; the failed chunks are listed in {manifest.path}. "
            "Fix their cause and run the same command again to compute only them.\n"
        )
        return EXIT_CHUNKS_FAILED
    out.write(f"flair: mosaic {result.mosaic_path}\n")
    if result.vector is not None:
        out.write(f"flair: {result.vector.polygons} polygon(s) in {result.vector.path}\n")
    return EXIT_OK


def run_device(device: str, gpus: list[str]) -> str:
    """The device the workers' sessions ask for: the engine's decision (``auto`` is ``cuda`` with ``--gpus``)."""
    return decide_device(device, cuda=cuda_available(), pinned_gpu=bool(gpus)).checked().device


def _request(args: argparse.Namespace, gpus: Sequence[str]) -> SegmentRequest:
    """The run's one request, built from the flags (the Dask workers run it whole)."""
    from .core.segment import SegmentRequest
    from .scale.manifest import MOSAIC

    return SegmentRequest(
        output_path=os.path.join(args.output_dir, MOSAIC),
        bands=(parse_band_list(args.bands),),
        extent=args.extent,
        tile_size_px=args.tile_size,
        overlap_px=args.overlap,
        batch_size=args.batch_size,
        device=run_device(args.device, gpus),
        threads=args.threads,
        precision=args.precision,
    )


def _local_cluster(args: argparse.Namespace) -> list[str]:
    """Check ``--workers``; the GPUs of ``--gpus`` (checked against the machine's), or ``[]`` without it."""
    if args.workers is not None and args.workers < 1:
        raise InputError.of("workers_too_low", workers=args.workers)
    if args.gpus is None:
        return []
    from .scale.cluster import available_gpus, parse_gpus

    if args.device == "cpu":
        raise InputError.of("gpus_with_cpu")
    return parse_gpus(args.gpus, available_gpus())


def _vector_options(args: argparse.Namespace):
    """The checked ``--vector`` options, or None; cleaning options without ``--vector`` are refused."""
    from .scale.vector import check_vector_options

    cleaning = (args.vector_min_area, args.vector_simplify, args.vector_fill_holes)
    if not args.vector:
        if any(cleaning):
            raise InputError.of("vector_options_need_vector")
        return None
    return check_vector_options(args.vector, *cleaning, output_dir=args.output_dir)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit code."""
    args = build_parser().parse_args(argv)
    out = sys.stderr
    from .core.engine import cap_gdal_cache

    cap_gdal_cache()  # this process is ours (in QGIS the cache is QGIS's and never changed)
    vector = os.path.abspath(args.vector) if args.vector else None
    try:
        return segment_command(args, out)
    except FlairError as err:
        removed = removed_message(err.removed)
        out.write(f"error: {err}{' ' + removed if removed else ''}\n")
        return EXIT_BAD_INPUT
    except OSError as err:
        # The machine, not a chunk, failed (unwritable folder, full disk): one line, exit 2.
        where = f": {err.filename}" if err.filename else ""
        what = "--vector file" if err.filename and os.path.abspath(str(err.filename)) == vector else "--output-dir"
        out.write(f"error: {err.strerror or err}{where}. Free space or choose another {what}, then run again.\n")
        return EXIT_BAD_INPUT
    except (KeyboardInterrupt, Canceled):
        out.write("\nflair: interrupted; finished chunks are kept, run the same command again to resume.\n")
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
