"""Polygons of a distributed run (``scripts/flair segment --vector``): per chunk, then stitched.

Uncleaned, every chunk task vectorises its own class map into ``chunks/rRRRR_cCCCC.gpkg`` (the core
:func:`~flair_qgis.core.vectorize.job.vectorize`, on the worker), and the driver stitches the chunk
layers once every chunk is done: a region that a chunk edge cuts is one polygon per chunk, and the
polygons of one class that share a stretch of a chunk edge (not only a corner) are dissolved into
one. The result is the one ``flair:vectorize`` gives on the mosaic: one polygon per 4-connected
region, the same fields, ``area_m2`` the sum of the pieces' pixel areas (the core's own sum).

Stitching works in pixel coordinates of the whole grid (integers: the pieces share their seam
edges exactly), chunk row by chunk row: a polygon that touches no inner chunk edge is written at
once; the others wait in groups until no member touches the edge below the chunk row being read.
Memory holds the polygons along one chunk row and its seams, not the run.

Cleaning (``MIN_AREA_M2``, ``SIMPLIFY_M``, ``FILL_HOLES_M2``) needs the whole region graph: with any
of them, the driver runs the streaming ``vectorize`` on the finished mosaic instead.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timezone

import numpy as np
from affine import Affine
from shapely.geometry import MultiPolygon, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import transform as transform_coords

from ..core.atomic import check_output_path
from ..core.errors import Canceled, InputError
from ..core.vectorize import (
    LAYER_NAME,
    Feature,
    PolygonWriter,
    Region,
    Stitcher,
    VectorizeRequest,
    affine_wkb,
    check_request,
    driver_for,
    rings_wkb,
    vectorize,
)
from .chunks import Chunk
from .plan import ScaleJob


@dataclass(frozen=True)
class VectorOptions:
    """``--vector`` and its cleaning options.

    Attributes:
        path: the polygon file (absolute), layer ``predictions``.
        min_area_m2, simplify_m, fill_holes_m2: as ``flair:vectorize``'s MIN_AREA_M2, SIMPLIFY_M,
            FILL_HOLES_M2 (0: off).
    """

    path: str
    min_area_m2: float = 0.0
    simplify_m: float = 0.0
    fill_holes_m2: float = 0.0

    @property
    def cleaning(self) -> bool:
        """True when a cleaning option is set: the whole mosaic is vectorised on the driver."""
        return self.min_area_m2 > 0 or self.simplify_m > 0 or self.fill_holes_m2 > 0


@dataclass(frozen=True)
class VectorResult:
    """What the polygon output holds: its path and polygon count."""

    path: str
    polygons: int


def check_vector_options(
    path: str, min_area_m2: float, simplify_m: float, fill_holes_m2: float, output_dir: str = ""
) -> VectorOptions:
    """The options checked before any chunk runs (``path`` may lie in ``output_dir``, not made yet).

    Raises:
        InputError: a negative option, a folder that does not exist, an unknown file format.
    """
    for flag, value in (
        ("--vector-min-area", min_area_m2),
        ("--vector-simplify", simplify_m),
        ("--vector-fill-holes", fill_holes_m2),
    ):
        if value < 0:
            raise InputError.of("vector_option_negative", flag=flag, value=value)
    if os.path.isdir(path):
        raise InputError.of("vector_path_is_folder", path=path)
    path = os.path.abspath(path)
    if not (output_dir and os.path.dirname(path) == os.path.abspath(output_dir)):
        check_output_path(path, "--vector")
    driver_for(path)
    return VectorOptions(path, min_area_m2, simplify_m, fill_holes_m2)


def chunk_vector_path(job: ScaleJob, chunk: Chunk) -> str:
    """Where a chunk's polygons go: beside its class map."""
    return os.path.splitext(job.chunk_path(chunk))[0] + ".gpkg"


def vector_done(job: ScaleJob, chunk: Chunk) -> bool:
    """True when the chunk's polygons exist and are not older than its class map."""
    polygons, class_map = chunk_vector_path(job, chunk), job.chunk_path(chunk)
    return os.path.isfile(polygons) and os.path.getmtime(polygons) >= os.path.getmtime(class_map)


@dataclass(frozen=True)
class ChunkPolygons:
    """A finished chunk vectorised on its own (a resume with ``--vector``): its polygon count."""

    polygons: int

    def manifest_fields(self) -> dict[str, int]:
        """The chunk's fields this adds to ``run.json``."""
        return {"polygons": self.polygons}


def vectorize_chunk(chunk: Chunk, job: ScaleJob) -> ChunkPolygons:
    """Vectorise a finished chunk's class map (on a worker); the layer is written atomically.

    Returns:
        The polygon count, for the manifest.
    """
    request = VectorizeRequest(job.chunk_path(chunk), chunk_vector_path(job, chunk))
    return ChunkPolygons(vectorize(request).polygons)


def publish_vectors(
    job: ScaleJob, mosaic_path: str, options: VectorOptions, is_canceled: Callable[[], bool] = lambda: False
) -> VectorResult:
    """Write the run's polygon layer: the chunks' layers stitched, or the mosaic vectorised when cleaning.

    Raises:
        OSError: the output could not be written (its ``filename`` is the output path).
        Canceled: ``is_canceled`` answered True; nothing was written.
    """
    try:
        if options.cleaning:
            request = VectorizeRequest(
                mosaic_path,
                options.path,
                min_area_m2=options.min_area_m2,
                simplify_m=options.simplify_m,
                fill_holes_m2=options.fill_holes_m2,
            )
            return VectorResult(options.path, vectorize(request, is_canceled).polygons)
        return _stitch(job, mosaic_path, options.path, is_canceled)
    except OSError as err:
        raise OSError(err.errno or errno.EIO, err.strerror or str(err), options.path) from err
    except RuntimeError as err:  # GDAL/OGR failing to write (full disk, locked file)
        raise OSError(errno.EIO, str(err).splitlines()[0] if str(err) else "write failed", options.path) from err


def _stitch(job: ScaleJob, mosaic_path: str, output: str, is_canceled: Callable[[], bool]) -> VectorResult:
    """The chunks' polygon layers as one layer, regions cut by chunk edges dissolved."""
    source = check_request(VectorizeRequest(mosaic_path, output))
    created = datetime.now(timezone.utc).isoformat(timespec="seconds")
    model = source.model or _first_chunk_model(job)
    writer = PolygonWriter(output, source.grid.crs_wkt, model, os.path.basename(mosaic_path), created)
    try:
        stitcher = _Stitcher(job, writer, source.grid.transform)
        rows: dict[int, list[Chunk]] = {}
        for chunk in job.chunks():
            rows.setdefault(chunk.row, []).append(chunk)
        for row in sorted(rows):
            if is_canceled():
                raise Canceled()
            stitcher.chunk_row(rows[row], last=row == max(rows))
        writer.commit()
    except BaseException:
        writer.abort()
        raise
    return VectorResult(output, writer.count)


def _first_chunk_model(job: ScaleJob) -> str:
    """The ``model`` field the chunk layers carry (the mosaic VRT has no model tags)."""
    for chunk in job.chunks():
        for _, _, _, model in _read_layer(chunk_vector_path(job, chunk), Affine.identity(), limit=1):
            return model
    return ""


class _Stitcher:
    """Reads the chunk layers chunk row by chunk row and writes the layer's features."""

    def __init__(self, job: ScaleJob, writer: PolygonWriter, map_transform: Affine) -> None:
        self.job, self.writer = job, writer
        t = map_transform
        self.to_map = (t.a, t.b, t.c, t.d, t.e, t.f)
        self.to_px = ~job.grid.transform
        self.regions = Stitcher()  # the core's union-find over the pieces that chunk edges cut
        self.names: dict[int, str] = {}
        self.next_id = 1
        self.above = np.zeros(0, dtype=np.int64)  # piece ids along the seam below the last row read

    def chunk_row(self, chunks: list[Chunk], last: bool) -> None:
        """Add one chunk row's polygons, join them across its seams, write the closed groups."""
        width = self.job.grid.width
        first = chunks[0]
        below = np.zeros(width, dtype=np.int64)  # ids along the seam above this row (its top edge)
        bottom = np.zeros(width if not last else 0, dtype=np.int64)
        left_of: dict[int, np.ndarray] = {}
        right_of: dict[int, np.ndarray] = {}
        for chunk in chunks:
            seams = _ChunkSeams(chunk, first.row > 0, not last, chunk.col > 0, chunk is not chunks[-1])
            seams.bind(below, bottom, left_of, right_of, width)
            for shape_px, piece, name, _ in _read_layer(chunk_vector_path(self.job, chunk), self.to_px):
                self.names[piece.value] = name
                if not seams.touched_by(shape_px):
                    self._write(piece)
                    continue
                pid = self._hold(piece)
                seams.mark(shape_px, pid)
        for x, left in left_of.items():
            self._join(left, right_of[x])
        if first.row > 0:
            self._join(self.above, below)
        self.above = bottom
        for _, region in self.regions.closed(bottom):
            self._write(region)

    def _hold(self, piece: Region) -> int:
        pid, self.next_id = self.next_id, self.next_id + 1
        self.regions.add(pid, piece)
        return pid

    def _join(self, one: np.ndarray, other: np.ndarray) -> None:
        """Join the pieces of one class on the two sides of a seam (pixel edge by pixel edge)."""
        touching = (one > 0) & (other > 0)
        if not touching.any():
            return
        pairs = np.unique(np.stack([one[touching], other[touching]], axis=1), axis=0)
        regions = self.regions
        for a, b in pairs.tolist():
            if regions.open[regions.find(a)].value == regions.open[regions.find(b)].value:
                regions.join([(a, b)])

    def _write(self, region: Region) -> None:
        """Write a region whole (its pieces dissolved as the core does), in map coordinates."""
        name = self.names[region.value]
        confidence = region.confidence_sum / region.confidence_pixels if region.confidence_pixels else None
        if len(region.pieces) == 1:  # not cut by a chunk edge: its rings as read
            wkb = rings_wkb(region.pieces[0], self.to_map)
            self.writer.write(Feature(wkb, region.value, name, region.area_m2, confidence))
            return
        shape = region.geometry()
        parts = list(shape.geoms) if isinstance(shape, MultiPolygon) else [shape]
        for part in parts:
            area = region.area_m2 if len(parts) == 1 else region.area_m2 * part.area / shape.area
            self.writer.write(Feature(affine_wkb(part, self.to_map), region.value, name, area, confidence))


class _ChunkSeams:
    """The inner chunk edges around one chunk, and which pieces lie along them."""

    def __init__(self, chunk: Chunk, top: bool, bottom: bool, left: bool, right: bool) -> None:
        self.chunk = chunk
        self.row1, self.col1 = chunk.row0 + chunk.rows, chunk.col0 + chunk.cols
        self.edges = {"top": top, "bottom": bottom, "left": left, "right": right}

    def bind(self, below, bottom, left_of, right_of, width: int) -> None:
        """Point each inner edge at the seam array it fills (shared with the neighbouring chunk)."""
        rows = self.chunk.rows
        self.arrays = {"top": below, "bottom": bottom}
        if self.edges["left"]:
            self.arrays["left"] = right_of.setdefault(self.chunk.col0, np.zeros(rows, dtype=np.int64))
        if self.edges["right"]:
            self.arrays["right"] = left_of.setdefault(self.col1, np.zeros(rows, dtype=np.int64))

    def touched_by(self, shape_px: BaseGeometry) -> bool:
        xmin, ymin, xmax, ymax = shape_px.bounds
        return (
            (self.edges["top"] and ymin == self.chunk.row0)
            or (self.edges["bottom"] and ymax == self.row1)
            or (self.edges["left"] and xmin == self.chunk.col0)
            or (self.edges["right"] and xmax == self.col1)
        )

    def mark(self, shape_px: BaseGeometry, pid: int) -> None:
        """Write ``pid`` on every pixel edge of a seam that the piece's boundary runs along."""
        lines = {"top": (1, self.chunk.row0), "bottom": (1, self.row1)}
        lines.update({"left": (0, self.chunk.col0), "right": (0, self.col1)})
        # Vertical seams are indexed by row within the chunk row, horizontal ones by grid column.
        offsets = {"top": 0, "bottom": 0, "left": self.chunk.row0, "right": self.chunk.row0}
        for edge, on in self.edges.items():
            if not on:
                continue
            axis, at = lines[edge]
            for lo, hi in _runs_on(shape_px, axis, at):
                self.arrays[edge][lo - offsets[edge] : hi - offsets[edge]] = pid


def _runs_on(shape_px: BaseGeometry, axis: int, at: int) -> Iterator[tuple[int, int]]:
    """``(start, stop)`` pixel ranges where the polygon's rings run along the line ``coord[axis] == at``."""
    rings = [shape_px.exterior, *shape_px.interiors] if isinstance(shape_px, Polygon) else []
    for ring in rings:
        coords = np.asarray(ring.coords)
        start, end = coords[:-1], coords[1:]
        on = (start[:, axis] == at) & (end[:, axis] == at)
        other = 1 - axis
        for a, b in zip(start[on, other].tolist(), end[on, other].tolist()):
            yield int(min(a, b)), int(max(a, b))


def _read_layer(path: str, to_px: Affine, limit: int | None = None) -> Iterator[tuple[BaseGeometry, Region, str, str]]:
    """The polygons of a chunk layer in whole-grid pixel coordinates (rounded: pixel corners):
    ``(polygon, region, class name, model)``; the region's confidence weighs its pixels, as the core's.

    Raises:
        InputError: the chunk layer cannot be read (delete it and run again to redo it).
    """
    import shapely.wkb
    from osgeo import ogr

    ogr.UseExceptions()
    try:
        dataset = ogr.Open(path)
        layer = dataset.GetLayerByName(LAYER_NAME)
    except RuntimeError as err:
        raise InputError.of("chunk_polygons_unreadable", path=path, reason=str(err)) from None

    def to_pixels(x, y):
        x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
        return np.rint(to_px.a * x + to_px.b * y + to_px.c), np.rint(to_px.d * x + to_px.e * y + to_px.f)

    for count, feature in enumerate(layer):
        if limit is not None and count >= limit:
            return
        shape = transform_coords(to_pixels, shapely.wkb.loads(bytes(feature.GetGeometryRef().ExportToWkb())))
        rings = [np.asarray(shape.exterior.coords), *(np.asarray(hole.coords) for hole in shape.interiors)]
        pixels = round(shape.area)
        piece = Region(int(feature.GetField("class")), pixels, feature.GetField("area_m2"), pieces=[rings])
        confidence = feature.GetField("confidence")
        if confidence is not None:
            piece.confidence_sum, piece.confidence_pixels = confidence * pixels, pixels
        yield shape, piece, feature.GetField("name") or "", feature.GetField("model") or ""
