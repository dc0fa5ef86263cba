"""One band of the class map turned into region statistics and polygon pieces.

Polygons are traced from the band's region ids (:mod:`.trace`; 4-connected, exact: every vertex
is a pixel corner), in pixel coordinates of the whole window (column, row): integers, so pieces
of one region from two bands share their seam edges exactly and dissolve without slivers.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from .inputs import Source, VectorizeRequest
from .labels import label_band
from .regions import Region
from .trace import trace_rings


@dataclass
class Band:
    """Rows ``row0 .. row0 + rows`` of the window: ``(rows, cols)`` arrays."""

    row0: int
    values: np.ndarray
    valid: np.ndarray
    confidence: np.ndarray | None
    confidence_valid: np.ndarray | None


def read_bands(request: VectorizeRequest, source: Source) -> Iterator[Band]:
    """The window's rows, band by band (``request.band_px`` pixels each, at least one row).

    Read with GDAL, whose block cache is emptied after each band: a dataset keeps the blocks it
    decoded while it is open (up to 5 % of the RAM by default), which would hold most of a large
    raster. Bands are whole rows of blocks when they are that tall, so each block is decoded once.
    """
    from osgeo import gdal

    gdal.UseExceptions()
    window, width, height = source.window, source.grid.width, source.grid.height
    rows = max(1, request.band_px // max(1, width))
    keep = np.asarray(request.classes) if request.classes else None
    src = gdal.Open(request.prediction_path)
    conf = gdal.Open(request.confidence_path) if request.confidence_path else None
    for row0 in range(0, height, rows):
        win = (int(window.col_off), int(window.row_off) + row0, width, min(rows, height - row0))
        values, valid = _read(src, win)
        if keep is not None:
            valid &= np.isin(values, keep)
        confidence = confidence_valid = None
        if conf is not None:
            confidence, confidence_valid = _read(conf, win)
            confidence = confidence.astype(np.float64)
            confidence_valid &= np.isfinite(confidence)
        yield Band(row0, values, valid, confidence, confidence_valid)


def _read(dataset, win: tuple[int, int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Band 1's values and validity (its GDAL mask: nodata, alpha, ...) in ``win``; the blocks
    read are then dropped from GDAL's cache."""
    band = dataset.GetRasterBand(1)
    values = band.ReadAsArray(*win)
    valid = band.GetMaskBand().ReadAsArray(*win) > 0
    dataset.FlushCache()
    return values, valid


def band_regions(
    band: Band,
    unique: np.ndarray,
    local: np.ndarray,
    values: np.ndarray,
    row_areas_m2: np.ndarray | float,
    connected: bool,
) -> dict[int, Region]:
    """Statistics and polygon pieces of every region id present in a band.

    Args:
        band: the band read.
        unique: the region ids present, 0 (none) first.
        local: ``(rows, cols)`` int32 indices into ``unique``.
        values: the class value of each entry of ``unique``.
        row_areas_m2: pixel area, one value or one per row of the window.
        connected: each index of ``local`` is one 4-connected part of the band (otherwise a
            cleaned region may have several parts here: each is traced apart).

    Returns:
        A :class:`Region` per id, with this band's piece(s) of it.
    """
    n = len(unique)
    flat = local.ravel()
    pixels = np.bincount(flat, minlength=n)
    if np.isscalar(row_areas_m2):
        areas = pixels * float(row_areas_m2)  # type: ignore[arg-type]
    else:
        per_row = np.asarray(row_areas_m2)[band.row0 : band.row0 + local.shape[0]]
        areas = np.bincount(flat, weights=np.repeat(per_row, local.shape[1]), minlength=n)
    conf_sum = conf_n = None
    if band.confidence is not None and band.confidence_valid is not None:
        inside = band.confidence_valid.ravel()
        conf_sum = np.bincount(flat[inside], weights=band.confidence.ravel()[inside], minlength=n)
        conf_n = np.bincount(flat[inside], minlength=n)
    regions: dict[int, Region] = {}
    for k in range(1, n):
        regions[int(unique[k])] = Region(
            value=int(values[k]),
            pixels=int(pixels[k]),
            area_m2=float(areas[k]),
            confidence_sum=float(conf_sum[k]) if conf_sum is not None else 0.0,
            confidence_pixels=int(conf_n[k]) if conf_n is not None else 0,
        )
    if connected:
        pieces = trace_rings(local, band.row0)
    else:
        parts, owner = label_band(local, local > 0)
        pieces = [(int(owner[k - 1]), piece) for k, piece in trace_rings(parts, band.row0)]
    for k, piece in pieces:
        regions[int(unique[k])].pieces.append(piece)
    return regions


def compact_ids(ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(unique, local)``: the ids present (0 first) and ``(rows, cols)`` int32 indices into it."""
    inside = ids > 0
    if not inside.any():
        return np.zeros(1, dtype=np.int64), np.zeros(ids.shape, dtype=np.int32)
    low, high = int(ids[inside].min()), int(ids.max())
    if high - low + 1 > 16 * ids.size:  # ids spread far apart: sort instead of a lookup table
        unique, local = np.unique(ids.ravel(), return_inverse=True)
        if unique[0] != 0:
            unique, local = np.concatenate([[0], unique]), local + 1
        return unique, local.reshape(ids.shape).astype(np.int32)
    present = np.zeros(high - low + 2, dtype=bool)
    present[ids[inside] - low + 1] = True
    present[0] = True
    lookup = np.cumsum(present).astype(np.int32) - 1
    local = np.where(inside, lookup[np.where(inside, ids - low + 1, 0)], 0).astype(np.int32)
    unique = np.concatenate([[0], np.flatnonzero(present[1:]) + low]).astype(np.int64)
    return unique, local
