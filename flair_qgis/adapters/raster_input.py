"""QGIS raster layers as pixel sources for the core.

Captured on the main thread (:func:`capture_raster`): the layer's grid, CRS and either a file
path that rasterio reads directly (GDAL-backed files, the fast path) or a clone of the layer's
data provider (WMS, WMTS, XYZ, and anything else QGIS reads). The worker thread never touches
the layer itself.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np
from affine import Affine
from qgis.core import (
    Qgis,
    QgsCoordinateReferenceSystem,
    QgsRasterDataProvider,
    QgsRasterLayer,
    QgsRectangle,
)

from ..core.crs import same_crs
from ..core.engine import Grid, PixelSource, RasterioSource, affine_xy, band_label, check_band_numbers
from ..core.errors import InputError, NotSupportedError
from ..i18n import tr
from .layer_source import layer_source

_QGIS_TO_NUMPY = {
    Qgis.DataType.Byte: np.uint8,
    Qgis.DataType.UInt16: np.uint16,
    Qgis.DataType.Int16: np.int16,
    Qgis.DataType.UInt32: np.uint32,
    Qgis.DataType.Int32: np.int32,
    Qgis.DataType.Float32: np.float32,
    Qgis.DataType.Float64: np.float64,
}
_ARGB_TYPES = (Qgis.DataType.ARGB32, Qgis.DataType.ARGB32_Premultiplied)


@dataclass(frozen=True)
class RasterInput:
    """A raster layer captured for a worker.

    Attributes:
        name: layer name, for messages.
        path: file rasterio can open, or None when only QGIS can read the layer.
        provider: a cloned data provider for non-file layers, else None.
        transform: native grid (for layers without one, the layer extent at ``fallback_res``).
        width: native columns.
        height: native rows.
        crs_wkt: the layer CRS, or None when it has none.
        band_count: bands (4 virtual R, G, B, A bands for ARGB web layers).
        argb: True when the provider returns ARGB32 colours (web layers).
        band_labels: a label per band (:func:`layer_band_labels`).
        uri: the provider and source of a non-file layer (what keys its tiles in a tile cache).
    """

    name: str
    path: str | None
    provider: QgsRasterDataProvider | None
    transform: Affine
    width: int
    height: int
    crs_wkt: str | None
    band_count: int
    argb: bool = False
    band_labels: tuple[str, ...] = ()
    uri: str = ""


def layer_band_labels(layer: QgsRasterLayer) -> list[str]:
    """A label per band of a raster layer (:func:`flair_qgis.core.engine.bands.band_label`).

    Web layers (ARGB32) are read as four virtual bands R, G, B, A.
    """
    provider = layer.dataProvider()
    if provider is not None and provider.dataType(1) in _ARGB_TYPES:
        return ["R", "G", "B", "A"]
    labels = []
    for band in range(1, layer.bandCount() + 1):
        # QGIS names a GDAL band "Band 1: <description>" when the file describes it.
        name = layer.bandName(band)
        description = name.split(":", 1)[1] if ":" in name else ""
        interpretation = provider.colorInterpretationName(band) if provider is not None else ""
        labels.append(band_label(band, description, interpretation))
    return labels


def file_path_of(layer: QgsRasterLayer) -> str | None:
    """The file behind a GDAL layer, or None for web and database layers."""
    if layer.providerType() != "gdal":
        return None
    parts = layer_source(layer)
    path = parts.path or layer.source()
    return path if os.path.isfile(path) and not parts.layer_name else None


def crs_wkt_of(crs: QgsCoordinateReferenceSystem) -> str | None:
    """WKT of a CRS, or None when it is not valid."""
    if not crs.isValid():
        return None
    return crs.toWkt(QgsCoordinateReferenceSystem.WktVariant.WKT1_GDAL)


def capture_raster(layer: QgsRasterLayer, fallback_res_m: float | None = None) -> RasterInput:
    """Capture what a worker needs from a raster layer. Call on the main thread.

    Args:
        layer: any valid QGIS raster layer.
        fallback_res_m: pixel size for layers without a native grid (web layers); typically the
            model's resolution.

    Raises:
        InputError: invalid layer, or a web layer and no resolution to read it at.
    """
    if layer is None or not layer.isValid():
        raise InputError(tr("The input raster layer is not valid: check that its source can be read."))
    crs_wkt = crs_wkt_of(layer.crs())
    path = file_path_of(layer)
    if path is not None:
        import rasterio

        with rasterio.open(path) as src:
            return RasterInput(
                layer.name(),
                path,
                None,
                src.transform,
                src.width,
                src.height,
                crs_wkt or (src.crs.to_wkt() if src.crs else None),
                src.count,
                band_labels=tuple(layer_band_labels(layer)),
            )
    provider = layer.dataProvider().clone()
    extent = layer.extent()
    argb = provider.dataType(1) in _ARGB_TYPES
    band_count = 4 if argb else layer.bandCount()
    if layer.width() > 0 and layer.height() > 0 and provider.capabilities() & QgsRasterDataProvider.Capability.Size:
        width, height = layer.width(), layer.height()
        res_x, res_y = extent.width() / width, extent.height() / height
    else:
        if not fallback_res_m:
            raise InputError(
                tr(
                    "Layer '{name}' has no native resolution and the model declares none: "
                    "set the model's resolution in its metadata or use a file-based layer."
                ).format(name=layer.name())
            )
        res_x = res_y = fallback_res_m
        width = max(1, round(extent.width() / res_x))
        height = max(1, round(extent.height() / res_y))
    transform = Affine(res_x, 0.0, extent.xMinimum(), 0.0, -res_y, extent.yMaximum())
    labels = tuple(layer_band_labels(layer))
    uri = f"{layer.providerType()}:{layer.source()}"
    return RasterInput(layer.name(), None, provider, transform, width, height, crs_wkt, band_count, argb, labels, uri)


def make_source(raster: RasterInput, bands: Sequence[int], grid: Grid) -> PixelSource:
    """A core pixel source reading ``bands`` of ``raster`` on ``grid``."""
    if raster.path is not None:
        return RasterioSource(raster.path, bands, grid)
    check_band_numbers(bands, raster.band_count)
    if not same_crs(raster.crs_wkt, grid.crs_wkt):
        # Provider blocks are fetched in the layer's own CRS; a file source is warped instead.
        raise NotSupportedError(
            tr(
                "Layer '{name}' is a web/database layer in another CRS than the first input: "
                "save it to a GeoTIFF in that CRS (Raster > Projections > Warp) and use the file."
            ).format(name=raster.name)
        )
    return ProviderSource(raster, tuple(bands), grid)


class ProviderSource:
    """Reads output-grid windows through a cloned QGIS raster data provider.

    The provider renders each window at exactly the output grid's resolution
    (``QgsRasterDataProvider.block``), so web layers are fetched at the model's resolution.
    """

    def __init__(self, raster: RasterInput, bands: tuple[int, ...], grid: Grid) -> None:
        self.raster = raster
        self.bands = bands
        self.grid = grid
        self.band_count = raster.band_count

    @contextlib.contextmanager
    def open(self) -> Iterator[ProviderSource]:
        yield self

    def read(self, row: int, col: int, rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
        t = self.grid.transform
        x0, y1 = affine_xy(t, col, row)
        x1, y0 = affine_xy(t, col + cols, row + rows)
        extent = QgsRectangle(x0, y0, x1, y1)
        # Only rasters QGIS reads (not GDAL files) come here, and those carry their cloned provider.
        provider = cast(QgsRasterDataProvider, self.raster.provider)
        if self.raster.argb:
            block = provider.block(1, extent, cols, rows)
            argb = np.frombuffer(bytes(block.data()), dtype=np.uint32).reshape(rows, cols)
            # QGIS ARGB32 is 0xAARRGGBB in native (little-endian) order: bytes B, G, R, A.
            channels = argb.view(np.uint8).reshape(rows, cols, 4)
            rgba = np.stack([channels[..., 2], channels[..., 1], channels[..., 0], channels[..., 3]])
            valid = rgba[3] > 0
            data = rgba[[b - 1 for b in self.bands]]
            data[:, ~valid] = 0
            return np.ascontiguousarray(data), valid
        planes = []
        valid = np.ones((rows, cols), dtype=bool)
        for band in self.bands:
            block = provider.block(band, extent, cols, rows)
            dtype = _QGIS_TO_NUMPY.get(block.dataType())
            if dtype is None or block.isEmpty():
                raise InputError(
                    tr("Layer '{name}' returned no readable data for band {band}.").format(
                        name=self.raster.name, band=band
                    )
                )
            plane = np.frombuffer(bytes(block.data()), dtype=dtype).reshape(rows, cols)
            if block.hasNoDataValue():
                valid &= plane != block.noDataValue()
            planes.append(plane)
        data = np.stack(planes)
        data[:, ~valid] = 0
        return data, valid


def layer_grid_extent(layer: QgsRasterLayer, extent: QgsRectangle | None) -> tuple[float, float, float, float] | None:
    """An extent (already in the layer CRS) as a core ``(xmin, ymin, xmax, ymax)``; None = whole layer."""
    if extent is None or extent.isNull() or extent.isEmpty():
        return None
    return (extent.xMinimum(), extent.yMinimum(), extent.xMaximum(), extent.yMaximum())
