"""A distributed run, planned on the driver: everything a worker needs, frozen and picklable."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass

import rasterio
import rasterio.errors

from ..core.errors import InputError, NotSupportedError
from ..core.grid import Grid, plan_grid
from ..core.model import ModelInfo, read_model_info
from ..core.multi import choose_bands
from ..core.segment import SegmentRequest, _resolve_tiling, check_supported
from .chunks import Chunk, chunk_layout

CHUNKS_DIR = "chunks"
# Input files up to this size are identified by their content (a VRT, a single GeoTIFF), larger
# ones by size and modification time.
_HASHED_INPUT_MAX_BYTES = 64 * 2**20


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


def input_identity(path: str) -> dict[str, object]:
    """What identifies an input: its name, its raster shape and, for a local file, its content.

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
    except rasterio.errors.RasterioIOError as err:
        raise InputError(f"Cannot open the input raster {path}: {err}") from err
    if os.path.isfile(path):
        stat = os.stat(path)
        identity["bytes"] = stat.st_size
        if stat.st_size <= _HASHED_INPUT_MAX_BYTES:
            identity["sha256"] = file_sha256(path)
        else:
            identity["mtime_ns"] = stat.st_mtime_ns
    return identity


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
    """Plan a run the way ``flair:segment`` plans it: same grid, bands and tiling.

    Returns:
        ``(job, model, notes)``: notes are band-choice messages for the user.

    Raises:
        InputError, ModelError, NotSupportedError: the run cannot be planned.
    """
    if not os.path.isfile(model_path):
        raise InputError(f"The model file {model_path} does not exist.")
    model_path = os.path.abspath(model_path)
    model = read_model_info(model_path)
    check_supported(model)
    if len(model.inputs) != 1:
        raise NotSupportedError(
            f"The model has {len(model.inputs)} inputs: distributed runs take one input raster; "
            "run it with flair:segment (no SCHEDULER)."
        )
    if os.path.exists(input_path):
        input_path = os.path.abspath(input_path)
    identity = input_identity(input_path)
    with rasterio.open(input_path) as src:
        transform, crs = src.transform, src.crs
    geographic = bool(crs and crs.is_geographic)
    grid = plan_grid(
        transform,
        int(identity["width"]),  # type: ignore[call-overload]
        int(identity["height"]),  # type: ignore[call-overload]
        crs.to_wkt() if crs else None,
        extent,
        None if geographic else model.resolution_m,
    )
    chosen, note = choose_bands(model.input, bands, int(identity["bands"]))  # type: ignore[call-overload]
    request = SegmentRequest(output_path="", tile_size_px=tile_size_px, overlap_px=overlap_px, batch_size=batch_size)
    tile_px, overlap, batch = _resolve_tiling(model, request)
    job = ScaleJob(
        input_path=input_path,
        model_path=model_path,
        model_sha256=file_sha256(model_path),
        bands=tuple(chosen),
        grid=grid,
        tile_size_px=tile_px,
        overlap_px=overlap,
        batch_size=batch,
        device=device,
        threads=threads,
        chunk_tiles=chunk_tiles,
        output_dir=os.path.abspath(output_dir),
    )
    job.chunks()  # validates chunk_tiles and the tiling before anything is written
    return job, model, [note] if note else []
