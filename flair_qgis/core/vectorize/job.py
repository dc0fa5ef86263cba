"""``flair:vectorize``: a class map to one polygon per connected region, streamed band by band.

Uncleaned, one pass: each band is labelled, its regions joined to those the seam above cut
(:class:`~.regions.Stitcher`), and a region is written as soon as no pixel of it lies on the last
row read. Memory holds one band and the regions along the seam, whatever the raster's size.

With ``MIN_AREA_M2`` or ``FILL_HOLES_M2``, two passes: the first gathers the region graph (area
and class of each region, pixel edges shared by each pair: numbers, no geometry), :mod:`.clean`
decides the merges on it, and the second pass draws the polygons of the merged ids band by band
as above. ``SIMPLIFY_M`` simplifies the finished coverage (:mod:`.simplify`): it holds every
polygon in memory (the only step that does).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import cast

import numpy as np
from shapely.affinity import affine_transform
from shapely.geometry import MultiPolygon, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.geometry.polygon import orient

from ..areas import row_pixel_areas_m2
from ..atomic import job_outputs
from ..crs import effective_wkt
from ..errors import Canceled, InputError
from ..nomenclature import ClassInfo
from .bands import Band, band_regions, compact_ids, read_bands
from .clean import clean_regions
from .inputs import MAX_DISTINCT_VALUES, Source, VectorizeRequest, check_request, class_info
from .labels import count_pairs, edge_counts, label_band, seam_links
from .regions import Region, Stitcher
from .simplify import simplify_coverage
from .writer import Feature, PolygonWriter, affine_wkb, rings_wkb


@dataclass(frozen=True)
class VectorizeResult:
    """What a vectorisation wrote.

    Attributes:
        path: the polygon file.
        polygons: features written.
        classes: the classes of the raster (names and colours), for styling.
        files: every file written (``path``; a shapefile's ``.dbf``, ``.shx``, ``.prj`` too).
    """

    path: str
    polygons: int
    classes: tuple[ClassInfo, ...]
    files: tuple[str, ...] = ()


def vectorize(
    request: VectorizeRequest,
    is_canceled: Callable[[], bool] = lambda: False,
    on_progress: Callable[[float], None] = lambda percent: None,
) -> VectorizeResult:
    """Write the polygons of a class map.

    The layer is written in a hidden folder and moved into place once complete; a failure or a
    cancel, even one after the last polygon, leaves the folder as it was.

    Raises:
        InputError: bad input (see :func:`.inputs.check_request`; also more than 10,000 values).
        Canceled: ``is_canceled`` answered True; ``removed`` lists the files deleted (none unless
            the cancel came once the layer was in place).
    """
    source = check_request(request)
    created = datetime.now(timezone.utc).isoformat(timespec="seconds")
    output = os.path.abspath(request.output_path)
    with job_outputs(is_canceled) as written:
        writer = PolygonWriter(
            output, source.grid.crs_wkt, source.model, os.path.basename(request.prediction_path), created
        )
        try:
            run = _Run(request, source, writer, is_canceled, on_progress)
            run.execute()
            writer.commit()
        except BaseException:
            writer.abort()
            raise
        written.add(*writer.published)
        on_progress(100.0)
    return VectorizeResult(output, writer.count, run.classes_seen(), tuple(writer.published))


class _Run:
    def __init__(self, request: VectorizeRequest, source: Source, writer: PolygonWriter, is_canceled, on_progress):
        self.request, self.source, self.writer = request, source, writer
        self.is_canceled, self.on_progress = is_canceled, on_progress
        self.row_areas = row_pixel_areas_m2(source.grid)
        self.held: list[tuple[Region, BaseGeometry]] = []  # only with SIMPLIFY_M
        self.seen: set[int] = set()

    def execute(self) -> None:
        cleaning = self.request.min_area_m2 > 0 or self.request.fill_holes_m2 > 0
        draw_share = 60.0 if cleaning else 100.0
        if self.request.simplify_m > 0:
            draw_share *= 0.7
        if cleaning:
            final, value_of = self._plan_merges(share=40.0)
            self._draw(final, value_of, start=40.0, share=draw_share)
        else:
            self._draw(None, None, start=0.0, share=draw_share)
        if self.held:
            self._write_simplified()

    def _labelled(self, start: float, share: float) -> Iterator[tuple[Band, np.ndarray, int, np.ndarray]]:
        """Each band with its labels, the offset that makes them global region ids, and the class
        of each label."""
        offset = 0
        for band in read_bands(self.request, self.source):
            if self.is_canceled():
                raise Canceled()
            labels, classes = label_band(band.values, band.valid)
            self._check_distinct(classes)
            yield band, labels, offset, classes
            offset += len(classes)
            done = (band.row0 + labels.shape[0]) / self.source.grid.height
            self.on_progress(start + share * done)

    def _check_distinct(self, classes: np.ndarray) -> None:
        self.seen.update(np.unique(classes).tolist())
        if len(self.seen) > MAX_DISTINCT_VALUES:
            raise InputError.of("too_many_values", limit=MAX_DISTINCT_VALUES)

    def _draw(self, final: np.ndarray | None, value_of: np.ndarray | None, start: float, share: float) -> None:
        """Polygons band by band; each region is written once closed.

        Args:
            final: the final region id of every region id (cleaned); None: uncleaned.
            value_of: the class of every final region id (cleaned).
        """
        stitcher = Stitcher()
        previous: tuple[np.ndarray, np.ndarray] | None = None
        for band, labels, offset, classes in self._labelled(start, share):
            if final is None:  # labels + offset are the ids: no need to renumber the band
                unique = np.arange(offset, offset + len(classes) + 1)
                unique[0] = 0
                local, values = labels, np.concatenate([[0], classes])
                if previous is not None:
                    links = seam_links(previous[0], unique[local[0]], previous[1], band.values[0])
                    stitcher.join(map(tuple, links.tolist()))
            else:
                unique, local = compact_ids(final[_global_ids(labels, offset)])
                values = value_of[unique] if value_of is not None else unique
            regions = band_regions(band, unique, local, values, self.row_areas, connected=final is None)
            for rid, region in regions.items():
                stitcher.add(rid, region)
            last = unique[local[-1]]
            previous = (last, band.values[-1])
            for _, region in stitcher.closed(last):
                self._emit(region)
        for _, region in stitcher.close_all():
            self._emit(region)

    def _plan_merges(self, share: float) -> tuple[np.ndarray, np.ndarray]:
        """First pass: the region graph, then the merges; returns id -> final id and final id -> class."""
        graph = _Graph()
        previous: tuple[np.ndarray, np.ndarray] | None = None
        last_row = self.source.grid.height
        for band, labels, offset, classes in self._labelled(0.0, share):
            ids = _global_ids(labels, offset)
            graph.add_band(band, ids, classes, self.row_areas, previous, last_row)
            previous = (ids[-1], band.values[-1])
        return graph.merged(self.request.min_area_m2, self.request.fill_holes_m2)

    def _emit(self, region: Region) -> None:
        if self.request.simplify_m <= 0 and len(region.pieces) == 1:  # one polygon: no shapely needed
            self._write_wkb(region, rings_wkb(region.pieces[0], self._transform()), region.area_m2)
            return
        shape = region.geometry()
        if self.request.simplify_m > 0:
            self.held.append((region, shape))
            return
        parts = _polygons(shape)
        for part in parts:
            area = region.area_m2 if len(parts) == 1 else self._area_m2(part)
            self._write(region, part, area)

    def _write(self, region: Region, shape_px: BaseGeometry, area_m2: float) -> None:
        self._write_wkb(region, affine_wkb(shape_px, self._transform()), area_m2)

    def _write_wkb(self, region: Region, wkb: bytes, area_m2: float) -> None:
        info = class_info(self.source.classes, region.value)
        confidence = None
        if self.request.confidence_path and region.confidence_pixels:
            confidence = region.confidence_sum / region.confidence_pixels
        self.writer.write(Feature(wkb, region.value, info.name, area_m2, confidence))

    def _transform(self) -> tuple[float, float, float, float, float, float]:
        t = self.source.grid.transform
        return (t.a, t.b, t.c, t.d, t.e, t.f)

    def _write_simplified(self) -> None:
        tolerance_px = self.request.simplify_m / self._pixel_edge_m()
        shapes = simplify_coverage([shape for _, shape in self.held], tolerance_px)
        if self.is_canceled():
            raise Canceled()
        for (region, _), shape in zip(self.held, shapes):
            for part in _polygons(shape):
                self._write(region, part, self._area_m2(part))

    def _to_map(self, shape_px: BaseGeometry) -> BaseGeometry:
        t = self.source.grid.transform
        return affine_transform(shape_px, [t.a, t.b, t.d, t.e, t.c, t.f])

    def _pixel_edge_m(self) -> float:
        return math.sqrt(float(np.mean(np.asarray(self.row_areas))))

    def _area_m2(self, shape_px: BaseGeometry) -> float:
        """Area of a polygon in pixel coordinates, in m² (geodesic on a geographic CRS)."""
        if np.isscalar(self.row_areas):
            return shape_px.area * float(self.row_areas)  # type: ignore[arg-type]
        from pyproj import CRS, Geod

        geod = CRS.from_wkt(effective_wkt(self.source.grid.crs_wkt) or "").get_geod()
        geod = cast(Geod, geod)  # a geographic CRS has an ellipsoid
        area, _ = geod.geometry_area_perimeter(orient(self._to_map(shape_px), 1.0))
        return abs(area)

    def classes_seen(self) -> tuple[ClassInfo, ...]:
        return tuple(class_info(self.source.classes, v, i) for i, v in enumerate(sorted(self.seen)))


class _Graph:
    """The region graph of the first pass: per id its area and class; pixel edges per pair of ids."""

    def __init__(self) -> None:
        self.areas: list[np.ndarray] = []
        self.classes: list[np.ndarray] = []
        self.links: list[np.ndarray] = []
        self.pairs = np.zeros((0, 2), dtype=np.int64)
        self.counts = np.zeros(0, dtype=np.int64)

    def add_band(self, band: Band, ids, classes, row_areas, previous, last_row: int) -> None:
        n = len(classes)
        first = int(ids[ids > 0].min()) if n else 0
        local = np.where(ids > 0, ids - first + 1, 0) if n else ids
        if np.isscalar(row_areas):
            area = np.bincount(local.ravel(), minlength=n + 1)[1:] * float(row_areas)  # type: ignore[arg-type]
        else:
            weights = np.repeat(np.asarray(row_areas)[band.row0 : band.row0 + ids.shape[0]], ids.shape[1])
            area = np.bincount(local.ravel(), weights=weights, minlength=n + 1)[1:]
        self.areas.append(area)
        self.classes.append(classes)
        found = [edge_counts(ids)]
        above = previous[0] if previous is not None else np.zeros_like(ids[0])
        if previous is not None:
            self.links.append(seam_links(previous[0], ids[0], previous[1], band.values[0]))
        differ = above != ids[0]
        if previous is not None:
            differ &= ~((above > 0) & (ids[0] > 0) & (previous[1] == band.values[0]))
        found.append(count_pairs(above[differ], ids[0][differ]))
        if band.row0 + ids.shape[0] == last_row:
            bottom = ids[-1][ids[-1] > 0]
            found.append(count_pairs(np.zeros_like(bottom), bottom))
        self._add_pairs(found)

    def _add_pairs(self, found: list[tuple[np.ndarray, np.ndarray]]) -> None:
        pairs = np.concatenate([self.pairs, *(p for p, _ in found)])
        counts = np.concatenate([self.counts, *(c for _, c in found)])
        self.pairs, self.counts = _sum_pairs(pairs, counts)

    def merged(self, min_area_m2: float, fill_holes_m2: float) -> tuple[np.ndarray, np.ndarray]:
        """``(final, value_of)``: final region id by id (0 stays 0) and class by final id."""
        from scipy.sparse import coo_matrix
        from scipy.sparse.csgraph import connected_components

        areas = np.concatenate(self.areas) if self.areas else np.zeros(0)
        classes = np.concatenate(self.classes) if self.classes else np.zeros(0, dtype=np.int64)
        n = len(areas)
        links = np.concatenate(self.links) if self.links else np.zeros((0, 2), dtype=np.int64)
        graph = coo_matrix((np.ones(len(links)), (links[:, 0] - 1, links[:, 1] - 1)), shape=(n, n))
        _, component = connected_components(graph, directed=False)
        # Regions (seams joined) are numbered by their first id, so the numbering is the one of
        # a run in one band whatever the band height.
        first_id = np.full(component.max() + 1 if n else 0, n, dtype=np.int64)
        np.minimum.at(first_id, component, np.arange(n))
        region_of = np.concatenate([[0], first_id[component] + 1])
        region_area = np.bincount(region_of, weights=np.concatenate([[0.0], areas]), minlength=n + 1)
        pairs, counts = _sum_pairs(region_of[self.pairs], self.counts)
        keep = pairs[:, 0] != pairs[:, 1]
        roots = np.unique(region_of[1:])
        absorbed = clean_regions(
            {int(r): float(region_area[r]) for r in roots.tolist()},
            pairs[keep],
            counts[keep],
            min_area_m2,
            fill_holes_m2,
        )
        final_of = np.arange(n + 1, dtype=np.int64)
        for rid, into in absorbed.items():
            final_of[rid] = into
        value_of = np.concatenate([[0], classes]).astype(np.int64)
        return final_of[region_of], value_of


def _global_ids(labels: np.ndarray, offset: int) -> np.ndarray:
    """A band's labels as region ids of the whole window (0 stays 0)."""
    return np.where(labels > 0, labels.astype(np.int64) + offset, 0)


def _sum_pairs(pairs: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    if len(pairs) == 0:
        return np.zeros((0, 2), dtype=np.int64), np.zeros(0, dtype=np.int64)
    low, high = np.minimum(pairs[:, 0], pairs[:, 1]), np.maximum(pairs[:, 0], pairs[:, 1])
    unique, inverse = np.unique(np.stack([low, high], axis=1), axis=0, return_inverse=True)
    return unique, np.bincount(inverse.ravel(), weights=counts, minlength=len(unique)).astype(np.int64)


def _polygons(shape: BaseGeometry | None) -> list[Polygon]:
    if shape is None or shape.is_empty:
        return []
    if isinstance(shape, Polygon):
        return [shape]
    if isinstance(shape, MultiPolygon):
        return list(shape.geoms)
    return [g for g in getattr(shape, "geoms", []) if isinstance(g, Polygon) and g.area > 0]
