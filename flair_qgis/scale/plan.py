"""A distributed run, planned on the driver: the segmentation request whole, and how it is cut.

A :class:`ScaleJob` carries the run's :class:`~flair_qgis.core.segment.SegmentRequest` as the plan
decided it (bands, tiling, device, precision...) and adds what a distributed run needs: the input
file every worker opens, the model's hash, the whole grid and the chunking. Each chunk task runs
the same segmentation on :meth:`ScaleJob.for_chunk`, a request derived with
:func:`dataclasses.replace`, so every option reaches the workers. The job crosses to them as JSON
(:meth:`ScaleJob.to_json`), never as a pickle.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, replace

import rasterio
import rasterio.errors

from ..core.describe import guessed_note
from ..core.engine import (
    Grid,
    ModelInfo,
    capture_file,
    describe_source_files,
    from_json,
    is_remote,
    read_model_info,
    to_json,
)
from ..core.errors import InputError, NotSupportedError
from ..core.segment import SegmentPlan, SegmentRequest
from ..core.segment import plan_job as plan_segment_job
from .chunks import Chunk, chunk_layout

CHUNKS_DIR = "chunks"


@dataclass(frozen=True)
class ScaleJob:
    """One distributed segmentation run.

    Attributes:
        request: the segmentation request as planned on the driver: the bands chosen, the
            tiling used, device, precision, threads per worker (None for the worker's Dask
            threads). Its output path is the planning's; chunks get their own (:meth:`for_chunk`).
        input_path: the raster (any GDAL path: GeoTIFF, VRT, ``/vsicurl/`` COG); every worker
            must be able to open it under this name.
        model_path: the ONNX model; every worker must see the same file under this name.
        model_sha256: the model's content hash (workers check it; a changed model is refused).
        grid: the whole run's output grid.
        chunk_tiles: edge of a work unit in tiles.
        output_dir: folder of ``chunks/``, ``classes.vrt`` and ``run.json``.
        vector_chunks: each chunk task also vectorises its class map (``--vector`` without
            cleaning); not part of the run's identity: a resume may add or drop it.
    """

    request: SegmentRequest
    input_path: str
    model_path: str
    model_sha256: str
    grid: Grid
    chunk_tiles: int
    output_dir: str
    vector_chunks: bool = False

    @property
    def bands(self) -> tuple[int, ...]:
        """The input's bands, one per model channel."""
        return self.request.bands[0]

    def chunks(self) -> list[Chunk]:
        """The work units, row-major."""
        return chunk_layout(self.grid, self.request.tile_size_px or 0, self.request.overlap_px or 0, self.chunk_tiles)

    def chunk_path(self, chunk: Chunk) -> str:
        """Where a chunk's class map goes."""
        return os.path.join(self.output_dir, CHUNKS_DIR, f"{chunk.name}.tif")

    def for_chunk(self, chunk: Chunk) -> SegmentRequest:
        """The request a worker runs for ``chunk``: this run's, writing the chunk's class map.

        Only what differs per chunk changes: the class map's path (further heads and per-tile
        values go beside it) and the extent, the chunk's rectangle.
        """
        return replace(
            self.request,
            output_path=self.chunk_path(chunk),
            head_paths={},
            tile_values_path=None,
            extent=chunk.sub_grid(self.grid).bounds,
        )

    def to_json(self) -> str:
        """The job as a JSON string, its request whole (:meth:`from_json` reads it back equal)."""
        return to_json(self)

    @classmethod
    def from_json(cls, text: str) -> ScaleJob:
        """The job :meth:`to_json` wrote.

        Raises:
            TypeError: a field this version does not know (driver and worker differ).
        """
        return from_json(cls, text)


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
        raise InputError.of("input_raster_unreadable", path=path, reason=str(err)) from err
    if not is_remote(path):
        identity["files"] = describe_source_files(path, grid or own).stamps()
    return identity


def job_from_plan(plan: SegmentPlan, input_path: str, output_dir: str, chunk_tiles: int) -> ScaleJob:
    """The distributed run of a planned segmentation: its request whole, on the same grid.

    Raises:
        NotSupportedError: what a distributed run does not do yet (several inputs, a mask).
        InputError: a bad ``chunk_tiles``.
    """
    if len(plan.model.inputs) != 1:
        raise NotSupportedError.of("distributed_one_input", inputs=len(plan.model.inputs))
    if getattr(plan, "cache", None) is not None:
        raise NotSupportedError.of("distributed_no_cache")
    if plan.mask is not None:
        raise NotSupportedError.of("distributed_no_mask")
    job = ScaleJob(
        request=plan.request,
        input_path=input_path,
        model_path=plan.model.path,
        model_sha256=file_sha256(plan.model.path),
        grid=plan.grid,
        chunk_tiles=chunk_tiles,
        output_dir=os.path.abspath(output_dir),
    )
    job.chunks()  # validates chunk_tiles before anything is written
    return job


def plan_job(
    input_path: str, model_path: str, output_dir: str, request: SegmentRequest, *, chunk_tiles: int = 8
) -> tuple[ScaleJob, ModelInfo, list[str]]:
    """Plan a run as ``flair:segment`` does (:func:`flair_qgis.core.segment.plan_job`), then cut it into chunks.

    Args:
        input_path: the input raster (a file or any GDAL path).
        model_path: the ONNX model.
        output_dir: folder of the run (created later, by :func:`.manifest.open_output_dir`).
        request: the run's request (bands, extent, tiling, device, precision, threads...); its
            output path is replaced: the chunks go into ``output_dir``.
        chunk_tiles: edge of a work unit in tiles.

    Returns:
        ``(job, model, notes)``: notes are messages for the user (band guesses).

    Raises:
        InputError, ModelError, NotSupportedError: the run cannot be planned.
    """
    if not os.path.isfile(model_path):
        raise InputError.of("model_file_missing", path=model_path)
    model = read_model_info(os.path.abspath(model_path))
    if os.path.exists(input_path):
        input_path = os.path.abspath(input_path)
    try:
        raster = capture_file(input_path)
    except InputError as err:
        raise InputError.of("input_raster_unreadable", path=input_path, reason=str(err)) from err
    output_dir = os.path.abspath(output_dir)
    # The plan checks an output file; the chunks go into output_dir, created later, so the
    # check is made on a name beside it (never written).
    planned = replace(request, output_path=output_dir.rstrip(os.sep) + ".tif")
    plan = plan_segment_job(planned, model, (raster,)).plan  # type: ignore[arg-type]  # RasterFile.path is str
    guessed = guessed_note(model)  # a model described by nobody: the notes say what the run guesses
    notes = [str(guessed)] if guessed is not None else []
    return job_from_plan(plan, input_path, output_dir, chunk_tiles), model, [*notes, *plan.warnings]
