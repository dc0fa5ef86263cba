"""Score a class-map raster against a reference raster or polygon layer, window by window.

One entry point, :func:`score`, behind ``flair:evaluate``, the dock's "Score this view" and the
demo. The reference is a :class:`Reference`: a class raster (read on the prediction's grid:
directly when both share pixels, else warped with nearest-neighbour resampling) or polygons with
a class field (rasterised at pixel centres). :func:`evaluate_rasters` and
:func:`evaluate_vector` are the same call for one kind of reference.

The class map's declared classes are aligned with the protocol's codes first
(:func:`flair_qgis.core.score.alignment.align_classes`: by value, by name, or ``CLASS_MAP``). Pixels
that are nodata (or outside the layer) on either side are not counted. The result is a typed
:class:`~.result.ScoreReport`: the figures of :func:`.metrics.build_scores` plus the prediction,
reference, extent, grid and class alignment; its ``to_report()`` is the report JSON. The error map
(:mod:`.errormap`) is published only when the figures could be computed: bad input leaves nothing
behind. Reports are written by :func:`.report.publish_report`; the whole job (reference, score,
rank, publish) is :func:`.job.run_score`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from ..atomic import check_output_path
from ..classes import raster_classes
from ..crs import recognise_local, same_crs
from ..engine.grid import Grid, plan_grid
from ..errors import Canceled, InputError
from ..nomenclature import ClassInfo, default_color
from .alignment import ClassAlignment, align_classes
from .crosswalk import Crosswalk, CrosswalkCodes, UnlistedTally, crosswalk_codes
from .errormap_writer import ErrorMapOutput
from .metrics import ConfusionMatrix, build_scores
from .polygons import PolygonSource
from .protocols import Protocol
from .reference import ClassRasterSource, bounds_overlap, grid_bounds_in, raster_info
from .result import ScoreReport, Scores

WINDOW_PX = 1024 * 1024
"""Pixels per window (1 Mpx: about 16 MB of temporaries in flight, whatever the area)."""
_ROW_MULTIPLE = 128


@dataclass(frozen=True)
class Reference:
    """The reference a class map is scored against.

    Attributes:
        raster_path: a class raster (band 1), or None for polygons.
        polygons: a GeoDataFrame or a vector file, or None for a raster.
        field: the class field of the polygons.
        layer: layer of a multi-layer vector file (None = first).
        name: the layer's name, what the report calls polygons (default: their file).
    """

    raster_path: str | None = None
    polygons: object | None = None
    field: str = ""
    layer: str | None = None
    name: str = ""

    def resolve(
        self,
        prediction_path: str,
        extent: tuple | None = None,
        *,
        is_canceled: Callable[[], bool] | None = None,
    ) -> Reference:
        """Itself: a core reference is already read (a captured QGIS layer resolves to one)."""
        return self

    @property
    def label(self) -> str:
        """The reference as the report names it: a raster's file, else the layer's name or file."""
        if self.raster_path is not None:
            return self.raster_path
        if self.name:
            return self.name
        return os.fspath(self.polygons) if isinstance(self.polygons, (str, os.PathLike)) else "<layer>"


def prediction_grid(prediction_path: str, extent: tuple[float, float, float, float] | None) -> Grid:
    """The grid scored: the prediction raster's, clipped to ``extent`` (in the prediction's CRS).

    Raises:
        InputError: unreadable raster, empty extent, or an extent outside the raster.
    """
    info = raster_info(prediction_path, "prediction")
    if info.count < 1:
        raise InputError.of("prediction_without_band", path=prediction_path)
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


def each_window(
    grid: Grid,
    window_px: int = WINDOW_PX,
    is_canceled: Callable[[], bool] | None = None,
    on_progress: Callable[[float], None] | None = None,
) -> Iterator[tuple[int, int, int, int]]:
    """The :func:`windows` of a grid, polling ``is_canceled`` before and reporting 0..100 after each.

    Raises:
        Canceled: ``is_canceled`` answered True.
    """
    plan = windows(grid, window_px)
    for done, window in enumerate(plan):
        if is_canceled is not None and is_canceled():
            raise Canceled()
        yield window
        if on_progress is not None:
            on_progress(100.0 * (done + 1) / len(plan))


def _no_overlap(what: str, extent: tuple | None) -> InputError:
    if extent:
        return InputError.of("no_overlap_in_extent", what=what)
    return InputError.of("no_overlap", what=what)


def reference_source(
    reference: Reference, grid: Grid, extent: tuple | None, crosswalk: CrosswalkCodes | None = None
) -> ClassRasterSource | PolygonSource:
    """The reader of a reference on the prediction grid (its values through ``crosswalk`` when given).

    Raises:
        InputError: unreadable layer, bad field or geometries, or no overlap with the grid.
    """
    if reference.raster_path is not None:
        info = raster_info(reference.raster_path, "reference")
        if not bounds_overlap(grid.bounds, grid_bounds_in(grid, info.bounds, info.crs_wkt)):
            raise _no_overlap("reference", extent)
        return ClassRasterSource(
            os.fspath(reference.raster_path),
            grid,
            assume_grid_crs=same_crs(grid.crs_wkt, info.crs_wkt),
            crosswalk=crosswalk,
        )
    if reference.polygons is None:
        raise InputError.of("no_reference")
    source = PolygonSource(reference.polygons, reference.field, grid, layer=reference.layer, crosswalk=crosswalk)
    if len(source.values) == 0 or not bounds_overlap(grid.bounds, source.bounds):
        raise _no_overlap("reference polygons", extent)
    return source


def score(
    prediction_path: str | os.PathLike[str],
    reference: Reference,
    protocol: Protocol,
    *,
    extent: tuple[float, float, float, float] | None = None,
    error_map_path: str | None = None,
    class_map: Mapping[int, int] | None = None,
    crosswalk: Crosswalk | None = None,
    is_canceled: Callable[[], bool] | None = None,
    on_progress: Callable[[float], None] | None = None,
    window_px: int = WINDOW_PX,
) -> ScoreReport:
    """Score a class map against a reference under a protocol.

    Args:
        prediction_path: the class map (band 1); its grid is the grid scored.
        reference: a class raster (any CRS/resolution) or polygons with a class field.
        protocol: see :mod:`.protocols`.
        extent: ``(xmin, ymin, xmax, ymax)`` in the prediction's CRS; None = the whole prediction.
        error_map_path: optional GeoTIFF error map on the scored grid.
        class_map: explicit ``value -> code`` alignment of the class map (``CLASS_MAP``).
        crosswalk: which class each reference value counts as (``CROSSWALK``; unlisted: not scored).
        is_canceled: polled between windows.
        on_progress: called with 0..100.
        window_px: pixels per window (memory bound).

    Returns:
        The figures and their provenance; ``to_report()`` is the report JSON (DESIGN.md format).

    Raises:
        InputError: unreadable layers, no overlap, empty extent, classes that cannot be aligned,
            undeclared values.
        Canceled: ``is_canceled`` answered True; nothing was written.
    """
    prediction_path = os.fspath(prediction_path)
    if error_map_path:
        check_output_path(error_map_path, "error map")
    grid = prediction_grid(prediction_path, extent)
    alignment = align_classes(raster_classes(prediction_path), protocol, class_map, what="class map")
    source = reference_source(reference, grid, extent, crosswalk_codes(crosswalk, protocol, alignment))
    scores, error_map, tally = _score(
        prediction_path, grid, source, protocol, alignment, error_map_path, is_canceled, on_progress, window_px
    )
    reference_wkt, resampled, field = _reference_provenance(source, reference)
    return ScoreReport(
        scores,
        prediction_path,
        reference.label,
        grid.bounds if extent is not None else None,
        grid.width,
        grid.height,
        grid.pixel_size_m,
        alignment,
        _crs_recognised(grid.crs_wkt, reference_wkt),
        reference_resampled=resampled,
        reference_field=field,
        error_map=error_map,
        crosswalk=tally.report(crosswalk, grid.width * grid.height) if crosswalk is not None else None,
    )


def _reference_provenance(
    source: ClassRasterSource | PolygonSource, reference: Reference
) -> tuple[str | None, bool | None, str | None]:
    """What the report says of the reference: its CRS, and how it met the prediction's grid.

    Args:
        source: the reference as read (:func:`reference_source`).
        reference: the reference as asked for.

    Returns:
        ``(crs_wkt, resampled, field)``: a raster's CRS and whether it was warped to the
        prediction's grid (field None); a polygon layer's CRS and its class field (resampled None).
    """
    if isinstance(source, ClassRasterSource):
        return source.info.crs_wkt, not source.aligned, None
    return source.layer_crs_wkt, None, reference.field


def _crs_recognised(prediction_wkt: str | None, reference_wkt: str | None) -> tuple[str, ...]:
    """Notes on the local CRSs (``LOCAL_CS``/``ENGCRS``) of the prediction and the reference taken
    as EPSG ones (:func:`flair_qgis.core.crs.recognise_local`).

    Args:
        prediction_wkt: the prediction's CRS.
        reference_wkt: the reference's CRS.

    Returns:
        One note per CRS recognised, the prediction's first; none for CRSs that are not local.
    """
    return tuple(
        match.describe(what)
        for what, wkt in (("prediction", prediction_wkt), ("reference", reference_wkt))
        if (match := recognise_local(wkt)) is not None
    )


def _named(protocol: Protocol, declared: tuple[ClassInfo, ...], values) -> Protocol:
    """An open protocol closed on ``values``, named by the class map where it declares names."""
    names = {c.value: c for c in declared}
    return protocol.with_classes([names.get(v, ClassInfo(v, f"class {v}", default_color(v))) for v in values])


def _score(
    prediction_path: str,
    grid: Grid,
    source: ClassRasterSource | PolygonSource,
    protocol: Protocol,
    alignment: ClassAlignment,
    error_map_path: str | None,
    is_canceled: Callable[[], bool] | None,
    on_progress: Callable[[float], None] | None,
    window_px: int,
) -> tuple[Scores, str | None, UnlistedTally]:
    """Count the pairs window by window (writing the error map), then the figures; returns them,
    the error map published (None without one) and the reference values a crosswalk left out."""
    tally = UnlistedTally()
    matrix = ConfusionMatrix()
    # An open protocol's error map cannot wait for the values found: it lists every uint8 value.
    map_protocol = _named(protocol, alignment.declared, range(256)) if protocol.is_open else protocol
    error_map = ErrorMapOutput(error_map_path, grid, map_protocol) if error_map_path else None
    try:
        with ClassRasterSource(prediction_path, grid).open() as pred_reader, source.open() as ref_reader:
            for row, col, rows, cols in each_window(grid, window_px, is_canceled, on_progress):
                pred, valid = pred_reader.read(row, col, rows, cols)
                ref, ref_valid = ref_reader.read(row, col, rows, cols)
                valid &= ref_valid
                pred = alignment.apply(pred)
                matrix.update(ref, pred, valid)
                if error_map is not None:
                    error_map.write(ref, pred, valid, row, col)
            tally = getattr(ref_reader, "tally", tally)
        if matrix.total == 0:
            raise InputError.of("no_common_pixel")
        if protocol.is_open and alignment.declared:
            found = sorted(set(matrix.reference_values()) | set(matrix.prediction_values()))
            protocol = _named(protocol, alignment.declared, found)
        scores = build_scores(matrix, protocol)
        published = None
        if error_map is not None:
            published = error_map.commit(scores.confusion_labels if map_protocol is not protocol else None)
    except BaseException:
        if error_map is not None:
            error_map.abort()
        raise
    return scores, published, tally


def evaluate_rasters(
    prediction_path: str | os.PathLike[str],
    reference_path: str | os.PathLike[str],
    protocol: Protocol,
    **options,
) -> ScoreReport:
    """:func:`score` against a reference raster (``options``: those of :func:`score`)."""
    return score(prediction_path, Reference(raster_path=os.fspath(reference_path)), protocol, **options)


def evaluate_vector(
    prediction_path: str | os.PathLike[str],
    reference_gdf_or_path,
    field: str,
    protocol: Protocol,
    *,
    layer: str | None = None,
    **options,
) -> ScoreReport:
    """:func:`score` against polygons with a class field (``options``: those of :func:`score`)."""
    return score(
        prediction_path, Reference(polygons=reference_gdf_or_path, field=field, layer=layer), protocol, **options
    )
