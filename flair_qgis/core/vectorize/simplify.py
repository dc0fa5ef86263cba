"""Topology-kept simplification of a polygon coverage, with shapely 1.8 as well as 2.

Shapely 2.1's ``coverage_simplify`` is not on Debian 12 (shapely 1.8), so the coverage is
simplified through its arcs, with GEOS operations both versions have:

1. the rings of all polygons are noded and dissolved (``unary_union``): every shared boundary
   becomes one line, present once; ``linemerge`` joins them into arcs that run from one junction
   (three or more regions, or nodata) to the next;
2. each arc is simplified once (Douglas-Peucker, its end points kept), so both neighbours get the
   same line; arcs on the boundary of the valid area (nodata, the raster's edge) are kept as they
   are, so the coverage's outline and area do not change;
3. the simplified arcs are noded again (two simplified arcs that cross get a node at the
   crossing) and ``polygonize`` builds the faces: a planar partition, so no face overlaps another
   and no gap opens, and every face is valid;
4. each face goes to the region it overlaps most; the faces of a region are dissolved.

A region thinner than the tolerance may lose all its faces to its neighbours: it disappears, its
area going to them (the total is unchanged).
"""

from __future__ import annotations

import warnings
from collections import Counter, defaultdict
from collections.abc import Sequence, Set

from shapely.geometry import LinearRing, LineString, MultiLineString, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import linemerge, polygonize, unary_union
from shapely.prepared import prep
from shapely.strtree import STRtree


def simplify_coverage(shapes: Sequence[BaseGeometry], tolerance: float) -> list[BaseGeometry | None]:
    """Simplify polygons that form a coverage, keeping it one.

    Args:
        shapes: polygons without overlaps (e.g. pixel coordinates of a class map's regions).
        tolerance: Douglas-Peucker tolerance, in the shapes' units.

    Returns:
        The simplified polygon of each shape, in order; None for a shape that lost all its area.
    """
    if tolerance <= 0 or not shapes:
        return list(shapes)
    arcs = _arcs(shapes)
    outline = prep(unary_union(shapes).boundary)
    junctions = _junctions(arcs)
    simplified = [arc if outline.covers(arc) else _simplify_arc(arc, tolerance, junctions) for arc in arcs]
    faces = list(polygonize(unary_union(simplified)))
    return _assign(shapes, faces)


def _arcs(shapes: Sequence[BaseGeometry]) -> list[LineString]:
    rings = unary_union([shape.boundary for shape in shapes])
    # shapely 1.8's linemerge refuses a lone LineString (one region, one ring): give it a list.
    merged = linemerge(list(getattr(rings, "geoms", [rings])))
    return list(merged.geoms) if isinstance(merged, MultiLineString) else [merged]


def _canonical(arc: LineString, junctions: Set[tuple[float, ...]]) -> LineString:
    """The arc traced in a way that does not depend on how its polygons were traced.

    Douglas-Peucker keeps an arc's end points and, among points equally far from the chord (common
    on a pixel grid), keeps the first one met: the result depends on the start and the direction.
    Polygon rings come clockwise from one GDAL and counter-clockwise from another (GDAL 3.7's new
    polygonizer), and a region cut by a band seam is dissolved, which re-traces its rings; so a run
    over the whole raster and one by bands must both bring every arc to one start and direction.
    An open arc runs from its smaller end point. A closed arc runs counter-clockwise, from its
    smallest vertex, unless it starts at a junction (a point other arcs end at), which it keeps.
    """
    coords = list(arc.coords)
    if not arc.is_closed:
        return LineString(coords if coords[0] <= coords[-1] else coords[::-1])
    ring = coords[:-1]
    if not LinearRing(coords).is_ccw:
        ring = ring[::-1]
    start = 0 if tuple(ring[0]) in junctions else min(range(len(ring)), key=lambda i: ring[i])
    ring = ring[start:] + ring[:start]
    return LineString([*ring, ring[0]])


def _junctions(arcs: Sequence[LineString]) -> set[tuple[float, ...]]:
    """Points where three or more arc ends meet (a closed arc's start counts twice)."""
    ends: Counter[tuple[float, ...]] = Counter()
    for arc in arcs:
        ends.update([tuple(arc.coords[0]), tuple(arc.coords[-1])])
    return {point for point, count in ends.items() if count > 2}


def _simplify_arc(arc: LineString, tolerance: float, junctions: Set[tuple[float, ...]]) -> LineString:
    arc = _canonical(arc, junctions)
    out = arc.simplify(tolerance, preserve_topology=False)
    if arc.is_closed and (len(out.coords) < 4 or Polygon(out.coords).area == 0):
        return arc  # a ring collapsing to a line would delete its region: keep it as is
    if out.is_empty or out.length == 0:
        return arc
    return out


def _assign(shapes: Sequence[BaseGeometry], faces: list[Polygon]) -> list[BaseGeometry | None]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # shapely 1.8 announces 2.0's STRtree; both are handled
        tree = STRtree(list(shapes))
    index = {id(shape): i for i, shape in enumerate(shapes)}
    parts: dict[int, list[Polygon]] = defaultdict(list)
    for face in faces:
        best, best_area = -1, 0.0
        for candidate in tree.query(face):
            i = index[id(candidate)] if isinstance(candidate, BaseGeometry) else int(candidate)
            overlap = face.intersection(shapes[i]).area
            if overlap > best_area:
                best, best_area = i, overlap
        if best >= 0:  # a face over no region is a nodata hole
            parts[best].append(face)
    result: list[BaseGeometry | None] = [None] * len(shapes)
    for i, pieces in parts.items():
        result[i] = pieces[0] if len(pieces) == 1 else unary_union(pieces)
    return result
