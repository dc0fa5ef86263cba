"""Class rasters and polygon layers read as windows of a prediction grid.

Every reader answers ``read(row, col, rows, cols) -> (values, valid)`` in pixels of the
prediction :class:`~flair_qgis.core.engine.grid.Grid`: ``values`` a ``(rows, cols)`` integer array and
``valid`` a boolean mask (False outside the layer, on nodata, on masked pixels).

* :class:`ClassRasterSource`: a single-band raster. Read directly when it shares the grid's
  pixels (resolutions equal up to float noise, integer offset), else warped onto the grid with
  nearest-neighbour resampling (class values are never interpolated) and an alpha band marking
  what the raster covers.
* polygons with a class field: :mod:`.polygons`.

:func:`same_crs` treats CRSs equal in substance as equal: the FLAIR masks carry a ``LOCAL_CS``
named "RGF93 v1 / Lambert-93" without EPSG code while the images carry EPSG:2154.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import rasterio
import rasterio.errors
import rasterio.windows
from rasterio.crs import CRS
from rasterio.enums import MaskFlags, Resampling
from rasterio.vrt import WarpedVRT
from rasterio.windows import Window

from ..crs import cannot_reproject, effective_wkt, same_crs
from ..engine.grid import Grid, pixel_offset, window_bounds
from ..errors import InputError
from .crosswalk import CrosswalkCodes, UnlistedTally


def grid_bounds_in(grid: Grid, bounds: tuple[float, float, float, float], bounds_wkt: str | None) -> tuple:
    """``bounds`` (in ``bounds_wkt``) expressed in the grid's CRS."""
    if same_crs(grid.crs_wkt, bounds_wkt):
        return bounds
    if cannot_reproject(grid.crs_wkt) or cannot_reproject(bounds_wkt):
        raise InputError.of("local_crs_rasters")
    from rasterio.warp import transform_bounds

    source, target = CRS.from_user_input(effective_wkt(bounds_wkt)), CRS.from_user_input(effective_wkt(grid.crs_wkt))
    return transform_bounds(source, target, *bounds)


def bounds_overlap(a: tuple, b: tuple) -> bool:
    """True when two ``(xmin, ymin, xmax, ymax)`` boxes share an area."""
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


@dataclass(frozen=True)
class RasterInfo:
    """What is needed of a class raster before reading it."""

    path: str
    transform: rasterio.Affine
    width: int
    height: int
    crs_wkt: str | None
    dtype: str
    nodata: float | None
    count: int

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        return window_bounds(self.transform, 0, 0, self.width, self.height)


def raster_info(path: str | os.PathLike[str], what: str = "raster") -> RasterInfo:
    """Describe a raster file.

    Raises:
        InputError: the file is missing or not a raster GDAL can read.
    """
    path = os.fspath(path)
    if not os.path.exists(path):
        raise InputError.of("raster_file_missing", what=what, path=path)
    try:
        with rasterio.open(path) as src:
            return RasterInfo(
                path,
                src.transform,
                src.width,
                src.height,
                src.crs.to_wkt() if src.crs else None,
                src.dtypes[0],
                src.nodata,
                src.count,
            )
    except rasterio.errors.RasterioIOError as err:
        raise InputError.of("unreadable_raster", what=what, path=path, error=str(err)) from err


class ClassRasterSource:
    """Band ``band`` of a raster, read on ``grid`` (aligned, or warped with nearest neighbour).

    Args:
        path: the raster file.
        grid: the prediction grid.
        band: 1-based band.
        assume_grid_crs: read the raster as if it were in the grid's CRS (the CRSs are the same
            in substance but written differently).
        crosswalk: which class each raster value counts as; values it does not list read as not
            valid, their pixels tallied by the reader (``tally``).
    """

    def __init__(
        self,
        path: str,
        grid: Grid,
        band: int = 1,
        assume_grid_crs: bool = True,
        crosswalk: CrosswalkCodes | None = None,
    ) -> None:
        self.info = raster_info(path)
        self.grid = grid
        self.band = band
        self.assume_grid_crs = assume_grid_crs
        self.crosswalk = crosswalk

    @property
    def aligned(self) -> bool:
        """True when the raster shares the grid's pixels (no resampling)."""
        return self.assume_grid_crs and pixel_offset(self.info.transform, self.grid) is not None

    @contextlib.contextmanager
    def open(self) -> Iterator[_AlignedClassReader | _WarpedClassReader | _CrosswalkReader]:
        """Open in the calling thread."""
        with self._open() as reader:
            yield reader if self.crosswalk is None else _CrosswalkReader(reader, self.crosswalk)

    @contextlib.contextmanager
    def _open(self) -> Iterator[_AlignedClassReader | _WarpedClassReader]:
        with rasterio.open(self.info.path) as src:
            offset = pixel_offset(src.transform, self.grid) if self.assume_grid_crs else None
            if offset is not None:
                yield _AlignedClassReader(src, self.band, offset)
                return
            # A recognised local CRS is warped as the EPSG CRS it stands for (crs.recognise_local).
            grid_crs = CRS.from_user_input(effective_wkt(self.grid.crs_wkt)) if self.grid.crs_wkt else None
            own_crs = CRS.from_user_input(effective_wkt(src.crs.to_wkt())) if src.crs is not None else None
            src_crs = grid_crs if (self.assume_grid_crs or own_crs is None) else own_crs
            options = {"src_crs": src_crs} if src_crs is not None else {}
            with WarpedVRT(
                src,
                crs=grid_crs or src_crs,
                transform=self.grid.transform,
                width=self.grid.width,
                height=self.grid.height,
                resampling=Resampling.nearest,
                add_alpha=True,
                **options,
            ) as vrt:
                yield _WarpedClassReader(vrt, self.band)


def _valid_from(src: rasterio.DatasetReader, band: int, data: np.ndarray, window: Window) -> np.ndarray:
    flags = src.mask_flag_enums[band - 1]
    if MaskFlags.all_valid in flags:
        valid = np.ones(data.shape, dtype=bool)
    elif MaskFlags.nodata in flags and src.nodata is not None:
        valid = data != src.nodata if not np.isnan(src.nodata) else ~np.isnan(data)
    else:
        valid = src.read_masks(band, window=window) != 0
    if data.dtype.kind == "f":
        valid &= np.isfinite(data)
    return valid


class _AlignedClassReader:
    def __init__(self, src: rasterio.DatasetReader, band: int, offset: tuple[int, int]) -> None:
        self.src = src
        self.band = band
        self.row_offset, self.col_offset = offset

    def read(self, row: int, col: int, rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
        src = self.src
        r0, c0 = row + self.row_offset, col + self.col_offset
        rr0, cc0 = max(r0, 0), max(c0, 0)
        rr1, cc1 = min(r0 + rows, src.height), min(c0 + cols, src.width)
        if (rr0, cc0, rr1, cc1) == (r0, c0, r0 + rows, c0 + cols):
            window = Window(c0, r0, cols, rows)
            data = src.read(self.band, window=window)
            return data, _valid_from(src, self.band, data, window)
        data = np.zeros((rows, cols), dtype=src.dtypes[self.band - 1])
        valid = np.zeros((rows, cols), dtype=bool)
        if rr1 <= rr0 or cc1 <= cc0:
            return data, valid
        window = Window(cc0, rr0, cc1 - cc0, rr1 - rr0)
        dr, dc = rr0 - r0, cc0 - c0
        part = src.read(self.band, window=window)
        data[dr : dr + part.shape[0], dc : dc + part.shape[1]] = part
        valid[dr : dr + part.shape[0], dc : dc + part.shape[1]] = _valid_from(src, self.band, part, window)
        return data, valid


class _WarpedClassReader:
    def __init__(self, vrt: WarpedVRT, band: int) -> None:
        self.vrt = vrt
        self.band = band
        self.alpha = vrt.count

    def read(self, row: int, col: int, rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
        window = Window(col, row, cols, rows)
        data = self.vrt.read(self.band, window=window)
        valid = self.vrt.read(self.alpha, window=window) != 0
        if data.dtype.kind == "f":
            valid &= np.isfinite(data)
        return data, valid


class _CrosswalkReader:
    """A class raster's reader whose values go through a crosswalk (unlisted values not valid, tallied)."""

    def __init__(self, reader: _AlignedClassReader | _WarpedClassReader, crosswalk: CrosswalkCodes) -> None:
        self.reader = reader
        self.crosswalk = crosswalk
        self.tally = UnlistedTally()

    def read(self, row: int, col: int, rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
        data, valid = self.reader.read(row, col, rows, cols)
        return self.crosswalk.recode_raster(data, valid, self.tally)
