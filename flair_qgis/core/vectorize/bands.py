"""One band of the class map turned into region statistics and polygon pieces.

Polygons come from GDAL's polygonizer run on the band's region ids (4-connected, exact: every
vertex is a pixel corner), in pixel coordinates of the whole window (column, row): integers, so
pieces of one region from two bands share their seam edges exactly and dissolve without slivers.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass

import numpy as np
import rasterio
import shapely.wkb
from rasterio.windows import Window

from .inputs import Source, VectorizeRequest
from .regions import Region


@dataclass
class Band:
    """Rows ``row0 .. row0 + rows`` of the window: ``(rows, cols)`` arrays."""

    row0: int
    values: np.ndarray
    valid: np.ndarray
    confidence: np.ndarray | None
    confidence_valid: np.ndarray | None


def read_bands(request: VectorizeRequest, source: Source) -> Iterator[Band]:
    """The window's rows, band by band (``request.band_px`` pixels each, at least one row)."""
    window, width, height = source.window, source.grid.width, source.grid.height
    rows = max(1, request.band_px // max(1, width))
    keep = np.asarray(request.classes) if request.classes else None
    with ExitStack() as stack:
        src = stack.enter_context(rasterio.open(request.prediction_path))
        conf = stack.enter_context(rasterio.open(request.confidence_path)) if request.confidence_path else None
        for row0 in range(0, height, rows):
            win = Window(window.col_off, window.row_off + row0, width, min(rows, height - row0))
            values = src.read(1, window=win)
            valid = src.read_masks(1, window=win) > 0
            if keep is not None:
                valid &= np.isin(values, keep)
            confidence = confidence_valid = None
            if conf is not None:
                confidence = conf.read(1, window=win).astype(np.float64)
                confidence_valid = (conf.read_masks(1, window=win) > 0) & np.isfinite(confidence)
            yield Band(row0, values, valid, confidence, confidence_valid)


def band_regions(
    band: Band, ids: np.ndarray, value_of: np.ndarray | None, row_areas_m2: np.ndarray | float
) -> dict[int, Region]:
    """Statistics and polygon pieces of every region id present in a band.

    Args:
        band: the band read.
        ids: ``(rows, cols)`` int64 region ids (0 = none).
        value_of: class value by id; None to take each id's pixel value.
        row_areas_m2: pixel area, one value or one per row of the window.

    Returns:
        A :class:`Region` per id, with this band's piece(s) of it.
    """
    unique, local = compact_ids(ids)
    n = len(unique)
    pixels = np.bincount(local.ravel(), minlength=n)
    if np.isscalar(row_areas_m2):
        areas = pixels * float(row_areas_m2)  # type: ignore[arg-type]
    else:
        per_row = np.asarray(row_areas_m2)[band.row0 : band.row0 + ids.shape[0]]
        areas = np.bincount(local.ravel(), weights=np.repeat(per_row, ids.shape[1]), minlength=n)
    conf_sum = conf_n = None
    if band.confidence is not None and band.confidence_valid is not None:
        inside = band.confidence_valid.ravel()
        conf_sum = np.bincount(local.ravel()[inside], weights=band.confidence.ravel()[inside], minlength=n)
        conf_n = np.bincount(local.ravel()[inside], minlength=n)
    if value_of is not None:
        values = value_of[unique]
    else:
        values = np.zeros(n, dtype=np.int64)
        values[local.ravel()] = band.values.ravel()  # every pixel of a region has its class
    regions: dict[int, Region] = {}
    for k in range(n):
        rid = int(unique[k])
        if rid == 0:
            continue
        regions[rid] = Region(
            value=int(values[k]),
            pixels=int(pixels[k]),
            area_m2=float(areas[k]),
            confidence_sum=float(conf_sum[k]) if conf_sum is not None else 0.0,
            confidence_pixels=int(conf_n[k]) if conf_n is not None else 0,
        )
    for k, piece in polygonize(local, band.row0):
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


def polygonize(local: np.ndarray, row0: int) -> Iterator[tuple[int, object]]:
    """``(label, polygon)`` for each 4-connected part of each label > 0 of an int32 band.

    Coordinates are (column, row) of the window: the band's rows start at ``row0``.
    """
    from osgeo import gdal, ogr

    gdal.UseExceptions()
    rows, cols = local.shape
    raster = gdal.GetDriverByName("MEM").Create("", cols, rows, 1, gdal.GDT_Int32)
    raster.SetGeoTransform((0.0, 1.0, 0.0, float(row0), 0.0, 1.0))
    band = raster.GetRasterBand(1)
    band.WriteArray(local)
    store = ogr.GetDriverByName("Memory").CreateDataSource("")
    layer = store.CreateLayer("regions")
    layer.CreateField(ogr.FieldDefn("label", ogr.OFTInteger))
    gdal.Polygonize(band, band, layer, 0, [])  # the band is its own mask: label 0 is no region
    for feature in layer:
        yield feature.GetField(0), shapely.wkb.loads(bytes(feature.GetGeometryRef().ExportToWkb()))
