"""Tiles read from their pixel sources into a model's feeds: normalised on the host, or raw for a wrapped graph.

The segmentation tile pipeline and the INT8 calibration read their tiles with these, so every job
feeds a model the same pixels.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import rasterio

from ..errors import ModelError
from .grid import Tile
from .model import InputSpec
from .pixel_sources import WindowReader
from .sessions import default_threads
from .wrapped_graph import FusedInput


def decode_threads(readers: int) -> int:
    """Threads GDAL decodes the blocks of one window on: the cores the readers leave, from GDAL 3.8.

    GDAL 3.6-3.7 multi-threaded GTiff reading returns wrong pixels for band-interleaved files
    (rasterio#2847) and deadlocks beside multi-threaded writing (GDAL#8561, fixed in 3.8): there
    every reader decodes on its own thread only, and opens no ``rasterio.Env`` of its own (with one,
    a Dask worker reading a VRT whose source tile is damaged hung in GDAL's read, seen by py-spy).
    """
    major, minor = (int(part) for part in rasterio.__gdal_version__.split(".")[:2])
    if (major, minor) < (3, 8):
        return 1
    return max(1, default_threads() // max(1, readers))


def read_batch(
    readers: Sequence[WindowReader],
    specs: Sequence[InputSpec],
    factors: Sequence[float],
    affine: Sequence[tuple[np.ndarray, np.ndarray]],
    batch: Sequence[Tile],
    tile_px: int,
) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Read and normalise a batch of tiles: the model's feeds, as every run sees them.

    Args:
        readers: one open reader per model input.
        specs: the model inputs.
        factors: pixels of input k per pixel of input 0 (:func:`.heads.scale_factors`).
        affine: ``(scale, offset)`` per input (:func:`.stages.normalisation`).
        batch: the tiles, in the first input's grid.
        tile_px: the first input's tile edge.

    Returns:
        ``(feeds, valid)``: input name -> ``(batch, channels, rows, cols)`` arrays and the
        boolean ``(batch, tile_px, tile_px)`` validity of the first input.
    """
    feeds = {}
    valid = np.empty((len(batch), tile_px, tile_px), dtype=bool)
    for k, (reader, spec, factor, (scale, offset)) in enumerate(zip(readers, specs, factors, affine)):
        t = tile_px if k == 0 else round(tile_px * factor)
        inputs = np.empty((len(batch), spec.channels, t, t), dtype=np.float32)
        for i, tile in enumerate(batch):
            row, col = (
                (tile.read_row, tile.read_col)
                if k == 0
                else (round(tile.read_row * factor), round(tile.read_col * factor))
            )
            data, mask = reader.read(row, col, t, t)
            if k == 0:
                valid[i] = mask
            # (pixel - mean) / std as one fused multiply-add, in place, in float32.
            np.multiply(data, scale, out=inputs[i], casting="unsafe")
            inputs[i] += offset
            if not mask.all():
                # Zero in normalised space, as a network's own zero padding sees its borders.
                inputs[i][:, ~mask] = 0.0
        feeds[spec.name] = inputs if spec.dtype == "float32" else inputs.astype(spec.dtype)
    return feeds, valid


def read_raw_batch(
    readers: Sequence[WindowReader],
    specs: Sequence[InputSpec],
    inputs: Sequence[FusedInput],
    factors: Sequence[float],
    batch: Sequence[Tile],
    tile_px: int,
) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Read a batch of tiles as the raster holds them, for a graph that normalises (:mod:`.wrapped_graph`).

    Returns:
        ``(feeds, valid)``: per input its raw ``(batch, channels, rows, cols)`` pixels and its
        boolean ``(batch, 1, rows, cols)`` validity, and the ``(batch, tile_px, tile_px)``
        validity of the first input.

    Raises:
        ModelError: a source returned another pixel type than it declared.
    """
    feeds = {}
    for k, (reader, spec, item, factor) in enumerate(zip(readers, specs, inputs, factors)):
        t = tile_px if k == 0 else round(tile_px * factor)
        raw = np.empty((len(batch), spec.channels, t, t), dtype=item.dtype)
        valid = np.empty((len(batch), 1, t, t), dtype=bool)
        for i, tile in enumerate(batch):
            row, col = (
                (tile.read_row, tile.read_col)
                if k == 0
                else (round(tile.read_row * factor), round(tile.read_col * factor))
            )
            data, valid[i, 0] = reader.read(row, col, t, t)
            if data.dtype != raw.dtype:
                raise ModelError.of("input_dtype_mismatch", name=spec.name, declared=item.dtype, read=data.dtype)
            raw[i] = data
        feeds[item.raw], feeds[item.valid] = raw, valid
    return feeds, feeds[inputs[0].valid][:, 0]
