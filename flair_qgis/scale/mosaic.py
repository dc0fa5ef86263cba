"""``classes.vrt``: the chunks as one raster, written once every chunk is done."""

from __future__ import annotations

import os
from collections.abc import Sequence

from ..core.atomic import write_atomic, write_text_atomic
from ..core.engine import Grid, qml_style
from ..core.errors import InputError
from ..core.nomenclature import ClassInfo


def build_mosaic(path: str, chunk_paths: Sequence[str], grid: Grid, classes: Sequence[ClassInfo]) -> str:
    """Write a VRT of the chunk files over exactly ``grid``, with a QGIS style beside it.

    Sources are referenced relative to the VRT, so the output folder can be moved as a whole.

    Raises:
        InputError: GDAL could not build the mosaic.
    """
    from osgeo import gdal

    xmin, ymin, xmax, ymax = grid.bounds
    options = gdal.BuildVRTOptions(
        outputBounds=(xmin, ymin, xmax, ymax), xRes=grid.pixel_size_m, yRes=abs(grid.transform.e)
    )

    def write(tmp: str) -> None:
        # GDAL stores sources relative to the VRT when they lie under its folder.
        dataset = gdal.BuildVRT(tmp, [os.path.abspath(p) for p in chunk_paths], options=options)
        if dataset is None:
            raise InputError.of("mosaic_failed", path=path, reason=gdal.GetLastErrorMsg())
        dataset.FlushCache()
        dataset = None

    write_atomic(path, write, suffix=".partial.vrt")
    if classes:
        write_text_atomic(os.path.splitext(path)[0] + ".qml", qml_style(classes))
    return path
