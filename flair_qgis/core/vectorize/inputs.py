"""What ``flair:vectorize`` is asked to do, and the checks made before anything is written."""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np
import rasterio
from rasterio.windows import Window

from ..atomic import check_output_path
from ..classes import raster_classes
from ..engine.grid import Grid, plan_grid
from ..errors import InputError
from ..nomenclature import ClassInfo, default_color
from .writer import driver_for

MAX_DISTINCT_VALUES = 10_000
"""More distinct values than this is not a class map (a DEM, an index, an image)."""

DEFAULT_BAND_PX = 3_000_000
"""Pixels read per band (rows of the whole window's width): bounds the memory of a run."""


@dataclass(frozen=True)
class VectorizeRequest:
    """A vectorisation, as the Processing algorithm, the dock and ``flair:segment`` build it.

    Attributes:
        prediction_path: a class-map raster (band 1; integer values).
        output_path: the polygon file (GeoPackage, shapefile, GeoJSON, FlatGeobuf, ...).
        confidence_path: optional raster on the same grid: its mean over each polygon.
        extent: ``(xmin, ymin, xmax, ymax)`` in the raster's CRS; None for the whole raster.
        min_area_m2: regions below this area are merged into a neighbour (0: none).
        simplify_m: simplification tolerance in metres, topology kept (0: none).
        fill_holes_m2: enclosed regions below this area are absorbed (0: none).
        classes: class values to keep (None: all); the others are left out like nodata.
        band_px: pixels per band read (the streaming window).
    """

    prediction_path: str
    output_path: str
    confidence_path: str | None = None
    extent: tuple[float, float, float, float] | None = None
    min_area_m2: float = 0.0
    simplify_m: float = 0.0
    fill_holes_m2: float = 0.0
    classes: tuple[int, ...] | None = None
    band_px: int = DEFAULT_BAND_PX


@dataclass(frozen=True)
class Source:
    """The checked input: the window of the class map to vectorise and what describes it."""

    grid: Grid
    window: Window
    classes: tuple[ClassInfo, ...]
    model: str


def parse_classes(text: str) -> tuple[int, ...] | None:
    """``"1,3"`` -> ``(1, 3)``; empty -> None (all classes).

    Raises:
        InputError: something that is not a comma-separated list of integers.
    """
    items = [item.strip() for item in (text or "").replace(";", ",").split(",") if item.strip()]
    try:
        return tuple(sorted({int(item) for item in items})) or None
    except ValueError:
        raise InputError.of("bad_class_list", text=text) from None


def check_request(request: VectorizeRequest) -> Source:
    """Check the request before any work; nothing is written.

    Raises:
        InputError: a float raster, an output that is an input, an unknown output format, a
            confidence raster on another grid, an extent outside the raster, negative options.
    """
    for name, path in (("PREDICTION", request.prediction_path), ("CONFIDENCE", request.confidence_path)):
        if path and request.output_path and os.path.realpath(path) == os.path.realpath(request.output_path):
            raise InputError.of("output_is_input_raster", setting=name)
    _check_output(request)
    for name, value in (
        ("MIN_AREA_M2", request.min_area_m2),
        ("SIMPLIFY_M", request.simplify_m),
        ("FILL_HOLES_M2", request.fill_holes_m2),
    ):
        if value < 0:
            raise InputError.of("negative_setting", setting=name, value=value)
    with _open(request.prediction_path, "PREDICTION") as src:
        if np.dtype(src.dtypes[0]).kind not in "iub":
            raise InputError.of("continuous_prediction", file=os.path.basename(src.name), dtype=src.dtypes[0])
        wkt = src.crs.to_wkt() if src.crs else None
        grid = plan_grid(src.transform, src.width, src.height, wkt, request.extent)
        col = round((grid.transform.c - src.transform.c) / src.transform.a)
        row = round((grid.transform.f - src.transform.f) / src.transform.e)
        window = Window(col, row, grid.width, grid.height)
        shape, transform, colormap = (src.height, src.width), src.transform, _colormap(src)
        tags = src.tags()
    if request.confidence_path:
        with _open(request.confidence_path, "CONFIDENCE") as conf:
            if (conf.height, conf.width) != shape or not conf.transform.almost_equals(transform):
                raise InputError.of("confidence_off_grid", file=os.path.basename(request.confidence_path))
    return Source(grid, window, _classes(request.prediction_path, colormap), _model(tags))


def _check_output(request: VectorizeRequest) -> str:
    if request.output_path and os.path.isdir(request.output_path):
        raise InputError.of("vector_output_is_folder", path=request.output_path)
    output = check_output_path(request.output_path, "OUTPUT")
    driver_for(output)
    return output


def _open(path: str | None, what: str):
    if not path or not os.path.exists(path):
        raise InputError.of("raster_not_found", setting=what, path=path)
    try:
        return rasterio.open(path)
    except rasterio.errors.RasterioIOError as err:
        raise InputError.of("raster_unreadable", setting=what, file=os.path.basename(path), error=str(err)) from err


def _colormap(src) -> dict[int, tuple[int, ...]]:
    try:
        return src.colormap(1)
    except ValueError:
        return {}


def _classes(path: str, colormap: dict[int, tuple[int, ...]]) -> tuple[ClassInfo, ...]:
    """Names and colours the raster declares (flair:segment's CLASSES tag, category names, colour table)."""
    declared = raster_classes(path)
    out = []
    for index, info in enumerate(declared):
        color = info.color
        if not (len(color) == 7 and color.startswith("#")):
            rgb = colormap.get(info.value)
            color = "#" + "".join(f"{c:02x}" for c in rgb[:3]) if rgb else default_color(index)
        out.append(ClassInfo(info.value, info.name, color))
    return tuple(out)


def _model(tags: dict[str, str]) -> str:
    """``name digest`` from flair:segment's tags (``blake2b:`` and 16 hex digits of the model file)."""
    return " ".join(text for text in (tags.get("FLAIR_MODEL_NAME"), tags.get("FLAIR_MODEL_DIGEST")) if text)


def class_info(classes: tuple[ClassInfo, ...], value: int, index: int = 0) -> ClassInfo:
    """The declared class of ``value``, or ``class <value>`` with a default colour."""
    for info in classes:
        if info.value == value:
            return info
    return ClassInfo(value, f"class {value}", default_color(index))
