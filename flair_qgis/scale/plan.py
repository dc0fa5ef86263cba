"""A distributed run, planned on the driver: everything a worker needs, frozen and picklable."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass

import rasterio
import rasterio.errors

from ..core.engine import Grid, ModelInfo, capture_file, describe_source_files, is_remote, read_model_info
from ..core.errors import InputError, NotSupportedError
from ..core.segment import SegmentJobRequest, SegmentPlan, SegmentRequest
from ..core.segment import plan_job as plan_segment_job
from .chunks import Chunk, chunk_layout

CHUNKS_DIR = "chunks"


@dataclass(frozen=True)
class ScaleJob:
    """One distributed segmentation run.

    Attributes:
        input_path: the raster (any GDAL path: GeoTIFF, VRT, ``/vsicurl/`` COG); every worker
            must be able to open it under this name.
        model_path: the ONNX model; every worker must see the same file under this name.
        model_sha256: the model's content hash (workers check it; a changed model is refused).
        bands: 1-based input bands, one per model channel.
        grid: the whole run's output grid.
        tile_size_px: model input edge.
        overlap_px: overlap between tiles.
        batch_size: tiles per onnxruntime call.
        device: ``auto``, ``cuda`` or ``cpu``.
        threads: onnxruntime threads per worker process; None for the worker's Dask threads.
        chunk_tiles: edge of a work unit in tiles.
        output_dir: folder of ``chunks/``, ``classes.vrt`` and ``run.json``.
        vector_chunks: each chunk task also vectorises its class map (``--vector`` without
            cleaning); not part of the run's identity: a resume may add or drop it.
    """

    input_path: str
    model_path: str
    model_sha256: str
    bands: tuple[int, ...]
    grid: Grid
    tile_size_px: int
    overlap_px: int
    batch_size: int
    device: str
    threads: int | None
    chunk_tiles: int
    output_dir: str
    vector_chunks: bool = False

    def chunks(self) -> list[Chunk]:
        """The work units, row-major."""
        return chunk_layout(self.grid, self.tile_size_px, self.overlap_px, self.chunk_tiles)

    def chunk_path(self, chunk: Chunk) -> str:
        """Where a chunk's class map goes."""
        return os.path.join(self.output_dir, CHUNKS_DIR, f"{chunk.name}.tif")


def file_sha256(path: str) -> str:
    """Hex SHA-256 of a file's content, read in 1 MiB blocks."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(2**20), b""):
            digest.update(block)
    return digest.hexdigest()


def input_identity(path: str, grid: Grid | None = None) -> dict[str, object]:
    """What identifies an input: its name, its raster shape and, for local files, every file behind it.

    ``files`` maps each file of the raster (a VRT and all its sources, sidecars but ``.aux.xml``)
    to its :func:`flair_qgis.core.engine.source_stamps.file_stamp`: size and modification time,
    and the content for files up to 4 MiB (a VRT by its XML without the statistics GDAL writes
    into it). Stamping is one ``stat`` per big file, so a mosaic of hundreds of tiles stays cheap.

    Args:
        path: the input raster.
        grid: the run's grid (its CRS is part of the identity); None for the raster's own.

    Raises:
        InputError: GDAL cannot open it.
    """
    try:
        with rasterio.open(path) as src:
            identity: dict[str, object] = {
                "path": path,
                "width": src.width,
                "height": src.height,
                "bands": src.count,
                "transform": list(src.transform)[:6],
                "crs": src.crs.to_wkt() if src.crs else None,
            }
            own = Grid(src.transform, src.width, src.height, identity["crs"])  # type: ignore[arg-type]
    except rasterio.errors.RasterioIOError as err:
        raise InputError(f"Cannot open the input raster {path}: {err}") from err
    if not is_remote(path):
        identity["files"] = describe_source_files(path, grid or own).stamps()
    return identity


def job_from_plan(
    plan: SegmentPlan, input_path: str, output_dir: str, chunk_tiles: int, threads: int | None = None
) -> ScaleJob:
    """The distributed run of a planned segmentation: the same grid, bands and tiling.

    Raises:
        NotSupportedError: what a distributed run does not do yet (several inputs, a mask).
        InputError: a bad ``chunk_tiles``.
    """
    if len(plan.model.inputs) != 1:
        raise NotSupportedError(
            f"The model has {len(plan.model.inputs)} inputs: distributed runs take one input raster; "
            "run it in-process (no scheduler)."
        )
    if getattr(plan, "cache", None) is not None:
        raise NotSupportedError(
            "CACHE is not used by distributed runs (they resume by chunk): leave CACHE or SCHEDULER empty."
        )
    if plan.mask is not None:
        raise NotSupportedError("A MASK is not applied by distributed runs yet: leave MASK or SCHEDULER empty.")
    job = ScaleJob(
        input_path=input_path,
        model_path=plan.model.path,
        model_sha256=file_sha256(plan.model.path),
        bands=tuple(plan.bands[0]),
        grid=plan.grid,
        tile_size_px=plan.tile_px,
        overlap_px=plan.overlap_px,
        batch_size=plan.batch_size,
        device=plan.request.device,
        threads=threads,
        chunk_tiles=chunk_tiles,
        output_dir=os.path.abspath(output_dir),
    )
    job.chunks()  # validates chunk_tiles before anything is written
    return job


def plan_job(
    input_path: str,
    model_path: str,
    output_dir: str,
    *,
    bands: tuple[int, ...] = (),
    extent: tuple[float, float, float, float] | None = None,
    tile_size_px: int | None = None,
    overlap_px: int | None = None,
    batch_size: int = 4,
    device: str = "auto",
    threads: int | None = None,
    chunk_tiles: int = 8,
) -> tuple[ScaleJob, ModelInfo, list[str]]:
    """Plan a run as ``flair:segment`` does (:func:`flair_qgis.core.segment.plan_job`), then cut it into chunks.

    Returns:
        ``(job, model, notes)``: notes are messages for the user (band guesses).

    Raises:
        InputError, ModelError, NotSupportedError: the run cannot be planned.
    """
    if not os.path.isfile(model_path):
        raise InputError(f"The model file {model_path} does not exist.")
    model = read_model_info(os.path.abspath(model_path))
    if os.path.exists(input_path):
        input_path = os.path.abspath(input_path)
    try:
        raster = capture_file(input_path)
    except InputError as err:
        raise InputError(f"Cannot open the input raster {input_path}: {err}") from err
    output_dir = os.path.abspath(output_dir)
    # The plan checks an output file; the chunks go into output_dir, created later, so the
    # check is made on a name beside it (never written).
    request = SegmentRequest(
        output_path=output_dir.rstrip(os.sep) + ".tif",
        tile_size_px=tile_size_px,
        overlap_px=overlap_px,
        batch_size=batch_size,
        device=device,
    )
    rasters = (raster,)  # RasterFile.path is str, the protocol allows None
    plan = plan_segment_job(SegmentJobRequest(model, rasters, request, bands=(bands,), extent=extent)).plan  # type: ignore[arg-type]
    return job_from_plan(plan, input_path, output_dir, chunk_tiles, threads), model, list(plan.warnings)
