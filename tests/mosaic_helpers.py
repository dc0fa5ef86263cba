"""A VRT mosaic of real FLAIR imagery, cut into uncompressed GeoTIFF tiles that can be rewritten in place."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import rasterio
from rasters import write_raster

from flair_qgis.core.engine.grid import Tile, window_tile_layout

FLAIR_NORM = {"mean": [105.08, 110.87, 101.82, 106.38, 53.26], "std": [52.17, 45.38, 44.0, 39.69, 79.3]}


def flair_mosaic(flair_data: Path, folder: Path, pieces: int = 2) -> tuple[Path, dict[tuple[int, int], Path]]:
    """A real FLAIR patch (512 x 512, 5 bands, EPSG:2154) cut into ``pieces`` x ``pieces``
    uncompressed GeoTIFFs and a VRT over them (gdalbuildvrt, sources relative to the VRT).

    Returns:
        ``(vrt, tiles)``: tiles by ``(row, col)`` of the piece.
    """
    from osgeo import gdal

    patch = sorted(flair_data.glob("IMG_*.tif"))[0]
    with rasterio.open(patch) as src:
        image, transform, crs = src.read(), src.transform, src.crs
    folder.mkdir(parents=True, exist_ok=True)
    _, rows, cols = image.shape
    step_r, step_c = rows // pieces, cols // pieces
    x0, y0 = round(transform.c, 1), round(transform.f, 1)
    tiles = {}
    for i in range(pieces):
        for j in range(pieces):
            piece = np.ascontiguousarray(image[:, i * step_r : (i + 1) * step_r, j * step_c : (j + 1) * step_c])
            origin = (x0 + j * step_c * 0.2, y0 - i * step_r * 0.2)
            tiles[(i, j)] = write_raster(folder / f"tile_{i}_{j}.tif", piece, res=0.2, origin=origin, crs=crs)
    vrt = folder / "mosaic.vrt"
    gdal.BuildVRT(str(vrt), [str(p) for p in tiles.values()]).FlushCache()
    return vrt, tiles


def rewrite_in_place(path: Path, keep_mtime: bool) -> None:
    """Overwrite a GeoTIFF tile's pixels in place (``r+``, same size), as a re-delivery would.

    With ``keep_mtime`` the file's modification time is set back to what it was (``touch -r``);
    otherwise it moves 10 s forward.
    """
    before = os.stat(path)
    with rasterio.open(path, "r+") as dst:
        data = dst.read()
        dst.write(255 - data)
    after = os.stat(path)
    assert after.st_size == before.st_size
    mtime_ns = before.st_mtime_ns if keep_mtime else before.st_mtime_ns + 10 * 10**9
    os.utime(path, ns=(after.st_atime_ns, mtime_ns))
    assert (os.stat(path).st_mtime_ns == before.st_mtime_ns) == keep_mtime


def tiles_reading(
    width: int, height: int, tile_px: int, overlap_px: int, box: tuple[int, int, int, int]
) -> set[tuple[int, int]]:
    """``(core_row, core_col)`` of the whole-layer tiles whose model input window meets ``box``
    (``row0, col0, row1, col1`` in layer pixels): the tiles a change inside ``box`` can alter."""
    tiles: list[Tile] = window_tile_layout(width, height, (0, 0, height, width), tile_px, overlap_px)
    r0, c0, r1, c1 = box
    return {
        (t.core_row, t.core_col)
        for t in tiles
        if t.read_row < r1 and t.read_row + tile_px > r0 and t.read_col < c1 and t.read_col + tile_px > c0
    }
