"""Pixel sources: read windows of an output grid from a raster, with a validity mask.

A source is opened in the thread that reads (GDAL handles are not shared across threads) and
answers ``read(row, col, rows, cols)`` in output-grid pixels. Pixels outside the raster, and
pixels that are nodata (nodata value on every selected band, alpha 0, or a GDAL mask of 0), are
returned as zeros with ``valid`` False.

:class:`RasterioSource` covers file-backed rasters. Layers that only QGIS can read (WMS, WMTS,
XYZ) get a source of the same shape in ``flair_qgis.adapters``.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import rasterio
import rasterio.errors
from affine import Affine
from rasterio.enums import ColorInterp, MaskFlags, Resampling
from rasterio.vrt import WarpedVRT
from rasterio.windows import Window

from ..errors import InputError
from .bands import check_band_numbers, file_band_labels
from .grid import Grid, pixel_offset


class WindowReader(Protocol):
    """An open source bound to an output grid."""

    def read(self, row: int, col: int, rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
        """Read a window of the output grid.

        Returns:
            ``(data, valid)``: ``data`` of shape ``(bands, rows, cols)`` and ``valid`` a boolean
            ``(rows, cols)`` array.
        """
        ...


class PixelSource(Protocol):
    """Something that can be opened, in the reading thread, into a :class:`WindowReader`.

    A source may also have a ``dtype`` attribute: the numpy pixel type its reads return. When
    every input's is known, the model's graph normalises the raw pixels (:mod:`.wrapped_graph`).
    """

    band_count: int

    def open(self) -> contextlib.AbstractContextManager[WindowReader]:
        """Open the source for reading in the calling thread."""
        ...


def describe_raster(path: str | os.PathLike[str]) -> tuple[rasterio.Affine, int, int, str | None, int]:
    """``(transform, width, height, crs_wkt, band_count)`` of a raster file.

    Raises:
        InputError: the file cannot be opened as a raster.
    """
    try:
        with rasterio.open(path) as src:
            crs_wkt = src.crs.to_wkt() if src.crs else None
            return src.transform, src.width, src.height, crs_wkt, src.count
    except rasterio.errors.RasterioIOError as err:
        raise InputError.of("cannot_open_raster", path=path, error=str(err)) from err


@dataclass(frozen=True)
class RasterFile:
    """A raster file captured for a run (a :class:`CapturedRaster`).

    Attributes:
        name: shown in messages.
        path: the file.
        transform: its north-up grid.
        width: columns.
        height: rows.
        crs_wkt: its CRS, or None.
        band_count: bands.
        band_labels: a label per band (description, colour interpretation or ``Band n``).
    """

    name: str
    path: str
    transform: rasterio.Affine
    width: int
    height: int
    crs_wkt: str | None
    band_count: int
    band_labels: tuple[str, ...]


def capture_file(path: str | os.PathLike[str]) -> RasterFile:
    """Capture a raster file for :func:`flair_qgis.core.segment.plan.plan_segment` (scripts, tests).

    Raises:
        InputError: the file cannot be opened as a raster.
    """
    transform, width, height, crs_wkt, count = describe_raster(path)
    path = os.fspath(path)
    name = os.path.splitext(os.path.basename(path))[0]
    return RasterFile(name, path, transform, width, height, crs_wkt, count, file_band_labels(path))


class RasterioSource:
    """Windows of an output grid read from a raster file with rasterio.

    Args:
        path: the raster file (any GDAL-readable path, VRT included).
        bands: 1-based band indices, in the order the model wants its channels.
        grid: the output grid.
        resampling: used when the grid differs from the raster's; by default the area average
            when the model's pixels are coarser than the raster's (no aliasing), bilinear when
            they are finer.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        bands: Sequence[int],
        grid: Grid,
        resampling: Resampling | None = None,
    ) -> None:
        self.path = os.fspath(path)
        self.bands = tuple(int(b) for b in bands)
        self.grid = grid
        transform, _, _, _, self.band_count = describe_raster(self.path)
        if resampling is None:
            coarser = grid.pixel_size_m > abs(transform.a) * (1 + 1e-6)
            resampling = Resampling.average if coarser else Resampling.bilinear
        self.resampling = resampling
        check_band_numbers(self.bands, self.band_count)
        with rasterio.open(self.path) as src:
            # Reads land in an array of the first band's type (see the readers below).
            self.dtype: str = src.dtypes[self.bands[0] - 1]

    @contextlib.contextmanager
    def open(self) -> Iterator[WindowReader]:
        """Open the raster in the calling thread."""
        from ..crs import same_crs

        with rasterio.open(self.path) as src:
            src_wkt = src.crs.to_wkt() if src.crs else None
            # Another CRS (a second model input from another layer) is warped into the grid's.
            target_crs = (
                src.crs if same_crs(src_wkt, self.grid.crs_wkt) else rasterio.crs.CRS.from_wkt(self.grid.crs_wkt)
            )
            offset = pixel_offset(src.transform, self.grid) if target_crs is src.crs else None
            if offset is not None:
                yield _AlignedReader(src, self.bands, offset)
            else:
                with WarpedVRT(
                    src,
                    crs=target_crs,
                    transform=self.grid.transform,
                    width=self.grid.width,
                    height=self.grid.height,
                    resampling=self.resampling,
                ) as vrt:
                    yield _WarpedReader(vrt, self.bands)


def _nodata_mode(src: rasterio.DatasetReader, bands: tuple[int, ...]) -> tuple[str, float | None]:
    """How validity is read: ``nodata`` value, GDAL ``mask``, or ``none`` (all valid).

    A 4-band 8-bit GeoTIFF often flags its 4th band as alpha although it holds near-infrared
    (FLAIR RGBI imagery): a band the model reads is data, never a mask.
    """
    flags = src.mask_flag_enums[bands[0] - 1]
    if MaskFlags.nodata in flags and src.nodata is not None:
        return "nodata", src.nodata
    if MaskFlags.all_valid in flags:
        return "none", None
    if MaskFlags.alpha in flags:
        alpha_bands = {i + 1 for i, ci in enumerate(src.colorinterp) if ci == ColorInterp.alpha}
        if alpha_bands & set(bands):
            return "none", None
    return "mask", None


class _AlignedReader:
    """Reads windows of a raster that shares its pixel grid with the output."""

    def __init__(self, src: rasterio.DatasetReader, bands: tuple[int, ...], offset: tuple[int, int]) -> None:
        self.src = src
        self.bands = bands
        self.row_offset, self.col_offset = offset
        self.mode, self.nodata = _nodata_mode(src, bands)

    def read(self, row: int, col: int, rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
        src = self.src
        data = np.zeros((len(self.bands), rows, cols), dtype=src.dtypes[self.bands[0] - 1])
        valid = np.zeros((rows, cols), dtype=bool)
        r0, c0 = row + self.row_offset, col + self.col_offset
        rr0, cc0 = max(r0, 0), max(c0, 0)
        rr1, cc1 = min(r0 + rows, src.height), min(c0 + cols, src.width)
        if rr1 <= rr0 or cc1 <= cc0:
            return data, valid
        window = Window(cc0, rr0, cc1 - cc0, rr1 - rr0)
        dr, dc = rr0 - r0, cc0 - c0
        target = data[:, dr : dr + (rr1 - rr0), dc : dc + (cc1 - cc0)]
        src.read(self.bands, window=window, out=target)
        inside = valid[dr : dr + (rr1 - rr0), dc : dc + (cc1 - cc0)]
        if self.mode == "nodata":
            np.logical_not(np.all(target == self.nodata, axis=0), out=inside)
        elif self.mode == "mask":
            np.not_equal(src.read_masks(self.bands[0], window=window), 0, out=inside)
        else:
            inside[...] = True
        return data, valid


class _WarpedReader:
    """Reads windows of a raster resampled onto the output grid."""

    def __init__(self, vrt: WarpedVRT, bands: tuple[int, ...]) -> None:
        self.vrt = vrt
        self.bands = bands

    def read(self, row: int, col: int, rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
        vrt = self.vrt
        data = np.zeros((len(self.bands), rows, cols), dtype=vrt.dtypes[self.bands[0] - 1])
        valid = np.zeros((rows, cols), dtype=bool)
        r0, c0 = max(row, 0), max(col, 0)
        r1, c1 = min(row + rows, vrt.height), min(col + cols, vrt.width)
        if r1 <= r0 or c1 <= c0:
            return data, valid
        window = Window(c0, r0, c1 - c0, r1 - r0)
        inside = np.s_[r0 - row : r1 - row, c0 - col : c1 - col]
        data[(slice(None), *inside)] = vrt.read(self.bands, window=window)
        valid[inside] = vrt.read_masks(self.bands[0], window=window) != 0
        return data, valid


class CapturedRaster(Protocol):
    """A raster captured for a run (``flair_qgis.adapters.raster_input.RasterInput`` is one)."""

    name: str
    path: str | None
    transform: Affine
    width: int
    height: int
    crs_wkt: str | None
    band_count: int
    band_labels: tuple[str, ...]


#: Makes the pixel source of one input: ``(raster, bands, grid) -> PixelSource``.
SourceFactory = Callable[[CapturedRaster, Sequence[int], Grid], PixelSource]


def file_source(raster: CapturedRaster, bands: Sequence[int], grid: Grid) -> PixelSource:
    """The default :data:`SourceFactory`: rasterio reads the raster's file."""
    if raster.path is None:
        raise InputError.of("layer_not_a_file", name=raster.name)
    return RasterioSource(raster.path, bands, grid)
