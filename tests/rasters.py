"""Small generated GeoTIFFs with a real projected CRS, written with a fixed seed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import rasterio
from rasterio.transform import from_origin

LAMBERT93 = "EPSG:2154"


def write_raster(
    path: Path,
    data: np.ndarray,
    *,
    res: float = 0.2,
    origin=(600000.0, 6800000.0),
    crs=LAMBERT93,
    nodata=None,
    **profile,
) -> Path:
    """Write ``data`` ``(bands, rows, cols)`` as a GeoTIFF."""
    bands, rows, cols = data.shape
    meta = dict(
        driver="GTiff",
        width=cols,
        height=rows,
        count=bands,
        dtype=data.dtype.name,
        transform=from_origin(origin[0], origin[1], res, res),
        nodata=nodata,
    )
    if crs is not None:
        meta["crs"] = crs
    meta.update(profile)
    with rasterio.open(path, "w", **meta) as dst:
        dst.write(data)
    return path


def random_image(rows: int, cols: int, bands: int = 5, seed: int = 0) -> np.ndarray:
    """uint8 noise ``(bands, rows, cols)``: every pixel's argmax is a coin toss, so any misplaced
    tile shows."""
    return np.random.default_rng(seed).integers(0, 256, size=(bands, rows, cols), dtype=np.uint8)


def read(path: Path | str, band: int = 1) -> np.ndarray:
    with rasterio.open(path) as src:
        return src.read(band)
