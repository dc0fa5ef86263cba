"""Score a class-map raster against a reference raster or polygon layer, window by window.

Public entry points (the GUI's "score this view" and ``flair:evaluate`` call these):

``evaluate_rasters(prediction_path, reference_path, protocol, *, extent=None, error_map_path=None,
is_canceled=None, on_progress=None, window_px=...) -> dict``
    The reference raster is read on the prediction's grid: directly when both share pixels,
    else warped with nearest-neighbour resampling (another CRS or resolution).
``evaluate_vector(prediction_path, reference_gdf_or_path, field, protocol, *, extent=None,
error_map_path=None, layer=None, ...) -> dict``
    Polygons are rasterised on the prediction grid (a pixel is in the polygon containing its
    centre).
``write_report(report, json_path, csv_path=None) -> None``
    The JSON report (DESIGN.md format) and a per-class CSV, each written completely or not at all.

Pixels that are nodata (or outside the layer) on either side are not counted. The report is
:func:`flair_qgis.core.metrics.build_report`'s, plus ``prediction``, ``reference``, ``extent``.
The error map (see :mod:`flair_qgis.core.errormap`) is published only when the report could be
built: bad input leaves nothing behind.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
from collections.abc import Callable

import numpy as np

from .errormap import FIRST_MISSED, error_classes, error_dtype, error_qml, error_window, uint8_lut
from .errors import Canceled, InputError
from .grid import Grid, plan_grid
from .metrics import ConfusionMatrix, build_report
from .nomenclature import ClassInfo, default_color
from .protocols import Protocol
from .reference import ClassRasterSource, PolygonSource, bounds_overlap, grid_bounds_in, raster_info, same_crs
from .writer import AtomicGeoTiff, check_output_path, write_text_atomic

WINDOW_PX = 1024 * 1024
"""Pixels per window (1 Mpx: about 16 MB of temporaries in flight, whatever the area)."""
_ROW_MULTIPLE = 128


def prediction_grid(prediction_path: str, extent: tuple[float, float, float, float] | None) -> Grid:
    """The grid scored: the prediction raster's, clipped to ``extent`` (in the prediction's CRS).

    Raises:
        InputError: unreadable raster, empty extent, or an extent outside the raster.
    """
    info = raster_info(prediction_path, "prediction")
    if info.count < 1:
        raise InputError(f"The prediction {prediction_path} has no band.")
    return plan_grid(info.transform, info.width, info.height, info.crs_wkt, extent)


def windows(grid: Grid, window_px: int = WINDOW_PX) -> list[tuple[int, int, int, int]]:
    """``(row, col, rows, cols)`` windows covering the grid, full-width strips when they fit."""
    cols = min(grid.width, 4096)
    rows = max(_ROW_MULTIPLE, (window_px // cols) // _ROW_MULTIPLE * _ROW_MULTIPLE)
    return [
        (r, c, min(rows, grid.height - r), min(cols, grid.width - c))
        for r in range(0, grid.height, rows)
        for c in range(0, grid.width, cols)
    ]


def _prediction_classes(prediction_path: str) -> tuple[ClassInfo, ...]:
    """Classes declared in a class map written by ``flair:segment`` (band tag ``CLASSES``)."""
    import rasterio

    with rasterio.open(prediction_path) as src:
        text = src.tags(1).get("CLASSES")
    if not text:
        return ()
    try:
        return tuple(ClassInfo(int(c["value"]), str(c["name"]), str(c["color"])) for c in json.loads(text))
    except (ValueError, KeyError, TypeError):
        return ()


def _score(
    prediction_path: str,
    *,
    grid: Grid,
    reference_source,
    protocol: Protocol,
    error_map_path: str | None,
    is_canceled: Callable[[], bool] | None,
    on_progress: Callable[[float], None] | None,
    window_px: int,
) -> dict:
    matrix = ConfusionMatrix()
    prediction = ClassRasterSource(prediction_path, grid)
    names = {c.value: c for c in _prediction_classes(prediction_path)}
    if protocol.is_open:
        map_classes: tuple[ClassInfo, ...] = tuple(
            names.get(v, ClassInfo(v, f"class {v}", default_color(v))) for v in range(256)
        )
        map_protocol = protocol.with_classes(map_classes)
    else:
        map_classes, map_protocol = protocol.classes, protocol
    writer = None
    lut = None
    if error_map_path:
        dtype = error_dtype(map_classes)
        writer = AtomicGeoTiff(
            error_map_path, grid, dtype, None, 256, classes=error_classes(map_classes),
            description="error map: 0 not evaluated, 1 correct, 2+i reference class i missed",
            tags={"FLAIR_ERROR_MAP": "1", "PROTOCOL": protocol.name},
        )  # fmt: skip
        lut = uint8_lut(map_protocol, map_classes, dtype)
        writer.open()
    try:
        plan = windows(grid, window_px)
        with prediction.open() as pred_reader, reference_source.open() as ref_reader:
            for done, (row, col, rows, cols) in enumerate(plan):
                if is_canceled is not None and is_canceled():
                    raise Canceled()
                pred, pred_valid = pred_reader.read(row, col, rows, cols)
                ref, ref_valid = ref_reader.read(row, col, rows, cols)
                valid = pred_valid
                valid &= ref_valid
                matrix.update(ref, pred, valid)
                if writer is not None:
                    writer.write(
                        error_window(
                            map_protocol,
                            map_classes,
                            reference=ref,
                            prediction=pred,
                            valid=valid,
                            dtype=writer.dtype,
                            lut=lut,
                        ),
                        row,
                        col,
                    )
                if on_progress is not None:
                    on_progress(100.0 * (done + 1) / len(plan))
        if matrix.total == 0:
            raise InputError(
                "No pixel has data in both the prediction and the reference over the area scored: check "
                "that they cover the same place (and the extent), and their nodata."
            )
        if protocol.is_open and names:
            found = set(matrix.reference_values()) | set(matrix.prediction_values())
            protocol = protocol.with_classes(
                [names.get(v, ClassInfo(v, f"class {v}", default_color(v))) for v in sorted(found)]
            )
        report = build_report(matrix, protocol)
        if writer is not None:
            if map_protocol is not protocol:
                # Open protocol: codes are 2 + value; the legend lists the classes found only.
                found_values = set(report["confusion_labels"])
                writer.classes = tuple(
                    e for e in writer.classes if e.value < FIRST_MISSED or e.value - FIRST_MISSED in found_values
                )
            writer.commit()
            write_text_atomic(os.path.splitext(writer.path)[0] + ".qml", error_qml(writer.classes))
            report["error_map"] = writer.path
    except BaseException:
        if writer is not None:
            writer.abort()
        raise
    return report


def evaluate_rasters(
    prediction_path: str | os.PathLike[str],
    reference_path: str | os.PathLike[str],
    protocol: Protocol,
    *,
    extent: tuple[float, float, float, float] | None = None,
    error_map_path: str | None = None,
    is_canceled: Callable[[], bool] | None = None,
    on_progress: Callable[[float], None] | None = None,
    window_px: int = WINDOW_PX,
) -> dict:
    """Score a class map against a reference raster.

    Args:
        prediction_path: the class map (band 1); its grid is the grid scored.
        reference_path: the reference class raster (band 1), any CRS/resolution.
        protocol: see :mod:`flair_qgis.core.protocols`.
        extent: ``(xmin, ymin, xmax, ymax)`` in the prediction's CRS; None = the whole prediction.
        error_map_path: optional GeoTIFF error map on the scored grid.
        is_canceled: polled between windows.
        on_progress: called with 0..100.
        window_px: pixels per window (memory bound).

    Returns:
        The report dict (DESIGN.md format).

    Raises:
        InputError: unreadable rasters, no overlap, empty extent, undeclared values.
        Canceled: ``is_canceled`` answered True; nothing was written.
    """
    prediction_path, reference_path = os.fspath(prediction_path), os.fspath(reference_path)
    if error_map_path:
        check_output_path(error_map_path, "error map")
    grid = prediction_grid(prediction_path, extent)
    info = raster_info(reference_path, "reference")
    if not bounds_overlap(grid.bounds, grid_bounds_in(grid, info.bounds, info.crs_wkt)):
        raise InputError(
            "The prediction and the reference do not overlap"
            + (" within the extent" if extent else "")
            + ": choose layers (and an extent) covering the same area."
        )
    source = ClassRasterSource(reference_path, grid, assume_grid_crs=same_crs(grid.crs_wkt, info.crs_wkt))
    report = _score(
        prediction_path, grid=grid, reference_source=source, protocol=protocol, error_map_path=error_map_path,
        is_canceled=is_canceled, on_progress=on_progress, window_px=window_px,
    )  # fmt: skip
    report.update(_where(prediction_path, reference_path, grid, extent))
    report["reference_resampled"] = not source.aligned
    return report


def evaluate_vector(
    prediction_path: str | os.PathLike[str],
    reference_gdf_or_path,
    field: str,
    protocol: Protocol,
    *,
    extent: tuple[float, float, float, float] | None = None,
    error_map_path: str | None = None,
    layer: str | None = None,
    is_canceled: Callable[[], bool] | None = None,
    on_progress: Callable[[float], None] | None = None,
    window_px: int = WINDOW_PX,
) -> dict:
    """Score a class map against polygons with a class field (rasterised at pixel centres).

    Args:
        prediction_path: the class map (band 1).
        reference_gdf_or_path: a GeoDataFrame or a vector file.
        field: the field holding class values (integers, or text holding integers).
        protocol: see :mod:`flair_qgis.core.protocols`.
        extent: in the prediction's CRS; None = the whole prediction.
        error_map_path: optional GeoTIFF error map.
        layer: layer of a multi-layer file.
        is_canceled: polled between windows.
        on_progress: called with 0..100.
        window_px: pixels per window.

    Returns:
        The report dict.

    Raises:
        InputError: missing field, non-class values, non-polygon layer, no overlap, undeclared values.
        Canceled: nothing was written.
    """
    prediction_path = os.fspath(prediction_path)
    if error_map_path:
        check_output_path(error_map_path, "error map")
    grid = prediction_grid(prediction_path, extent)
    source = PolygonSource(reference_gdf_or_path, field, grid, layer=layer)
    if len(source.values) == 0 or not bounds_overlap(grid.bounds, source.bounds):
        raise InputError(
            "The prediction and the reference polygons do not overlap"
            + (" within the extent" if extent else "")
            + ": choose layers (and an extent) covering the same area."
        )
    report = _score(
        prediction_path, grid=grid, reference_source=source, protocol=protocol, error_map_path=error_map_path,
        is_canceled=is_canceled, on_progress=on_progress, window_px=window_px,
    )  # fmt: skip
    name = os.fspath(reference_gdf_or_path) if isinstance(reference_gdf_or_path, (str, os.PathLike)) else "<layer>"
    report.update(_where(prediction_path, name, grid, extent))
    report["reference_field"] = field
    return report


def _where(prediction: str, reference: str, grid: Grid, extent: tuple | None) -> dict:
    return {
        "prediction": prediction,
        "reference": reference,
        "extent": list(grid.bounds) if extent is not None else None,
        "grid": {"width": grid.width, "height": grid.height, "pixel_size": grid.pixel_size_m},
    }


CSV_FIELDS = ("value", "name", "iou", "precision", "recall", "f1", "support")


def report_csv(report: dict) -> str:
    """Per-class figures as CSV text (one row per evaluated class, then mIoU and OA rows)."""
    buffer = io.StringIO()
    out = csv.writer(buffer, lineterminator="\n")
    out.writerow(CSV_FIELDS)
    for row in report["classes"]:
        out.writerow(["" if row[k] is None else row[k] for k in CSV_FIELDS])
    out.writerow(["", "mIoU", "" if report["miou"] is None else report["miou"], "", "", "", report["pixels_evaluated"]])
    out.writerow(["", "OA", "" if report["oa"] is None else report["oa"], "", "", "", report["pixels_evaluated"]])
    return buffer.getvalue()


def _json_default(value: object) -> object:
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return None if math.isnan(value) else float(value)
    raise TypeError(f"not JSON serialisable: {type(value).__name__}")


def write_report(
    report: dict, json_path: str | os.PathLike[str], csv_path: str | os.PathLike[str] | None = None
) -> None:
    """Write the report as JSON (and the per-class CSV), each file completely or not at all.

    Raises:
        InputError: an output folder does not exist or cannot be written.
    """
    json_path = check_output_path(os.fspath(json_path), "report")
    text = json.dumps(report, indent=2, default=_json_default, allow_nan=False)
    csv_text = report_csv(report) if csv_path else None
    csv_file = check_output_path(os.fspath(csv_path), "CSV report") if csv_path else None
    write_text_atomic(json_path, text + "\n")
    if csv_file and csv_text is not None:
        try:
            write_text_atomic(csv_file, csv_text)
        except BaseException:
            os.remove(json_path)
            raise
