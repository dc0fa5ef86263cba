"""Regions cut by band seams joined again, and the polygon pieces of each gathered until it closes.

Each band's regions get global ids (band-local labels plus the ids used so far). A region that a
seam cuts has one id per band; :class:`Stitcher` joins them (union-find, the smallest id is the
root) and keeps, per root, the polygon pieces and running sums of the pieces. A root that has no
pixel on the last row read can never grow again (a region is connected, so whatever continues
below crosses that row): it is closed, and :meth:`Stitcher.closed` hands it out and forgets it,
so memory holds only the regions along the current seam, never the raster.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
from shapely.geometry import MultiPolygon, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union


@dataclass
class Region:
    """One region (or one cleaned group of regions) being gathered.

    Attributes:
        value: class value.
        pixels: pixel count.
        area_m2: sum of its pixels' areas in m².
        confidence_sum: sum of the confidence of its pixels that have one.
        confidence_pixels: how many of its pixels have a confidence.
        pieces: the rings (shell first; pixel coordinates of the whole window) of each of its
            parts traced in a band.
    """

    value: int
    pixels: int = 0
    area_m2: float = 0.0
    confidence_sum: float = 0.0
    confidence_pixels: int = 0
    pieces: list[list[np.ndarray]] = field(default_factory=list)

    def absorb(self, other: Region) -> None:
        self.pixels += other.pixels
        self.area_m2 += other.area_m2
        self.confidence_sum += other.confidence_sum
        self.confidence_pixels += other.confidence_pixels
        self.pieces.extend(other.pieces)

    def geometry(self) -> BaseGeometry:
        """The region's polygon: its pieces dissolved (exact: pixel corners are integers)."""
        pieces = [Polygon(rings[0], rings[1:]) for rings in self.pieces]
        if len(pieces) == 1:
            return pieces[0]  # traced whole: valid, no collinear vertex
        # GEOS's union of valid pieces is valid; it keeps the vertices where the seams cut the
        # region's edges, dropped here (shape.simplify(0) does the same, a hundred times slower).
        shape = unary_union(pieces)
        parts = [shape] if isinstance(shape, Polygon) else list(getattr(shape, "geoms", []))
        polygons = [
            Polygon(_turns_only(part.exterior.coords), [_turns_only(hole.coords) for hole in part.interiors])
            for part in parts
        ]
        return polygons[0] if len(polygons) == 1 else MultiPolygon(polygons)


def _turns_only(ring) -> np.ndarray:
    """A closed ring of axis-parallel edges without its vertices where the ring goes straight on."""
    xy = np.asarray(ring)[:-1]
    before, after = np.roll(xy, 1, axis=0), np.roll(xy, -1, axis=0)
    straight = ((before == xy) & (xy == after)).any(axis=1)
    xy = xy[~straight]
    return np.concatenate([xy, xy[:1]])


class Stitcher:
    """Union-find over region ids with the :class:`Region` of each root."""

    def __init__(self) -> None:
        self._parent: dict[int, int] = {}
        self.open: dict[int, Region] = {}

    def find(self, rid: int) -> int:
        root = rid
        while root in self._parent:
            root = self._parent[root]
        while rid != root:  # path compression
            nxt = self._parent[rid]
            self._parent[rid] = root
            rid = nxt
        return root

    def add(self, rid: int, region: Region) -> None:
        root = self.find(rid)
        if root in self.open:
            self.open[root].absorb(region)
        else:
            self.open[root] = region

    def join(self, links: Iterable[tuple[int, int]]) -> None:
        """Join the ids of each pair (one region cut by a seam)."""
        for a, b in links:
            ra, rb = self.find(a), self.find(b)
            if ra == rb:
                continue
            keep, gone = min(ra, rb), max(ra, rb)
            self._parent[gone] = keep
            region = self.open.pop(gone, None)
            if region is not None:
                if keep in self.open:
                    self.open[keep].absorb(region)
                else:
                    self.open[keep] = region

    def closed(self, frontier: np.ndarray) -> list[tuple[int, Region]]:
        """Hand out the regions with no id in ``frontier`` (the ids on the last row read).

        Returns:
            ``(root id, region)`` pairs in root order; they are forgotten here.
        """
        still_open = {self.find(int(rid)) for rid in np.unique(frontier[frontier > 0]).tolist()}
        done = sorted(root for root in self.open if root not in still_open)
        out = [(root, self.open.pop(root)) for root in done]
        self._forget(still_open)
        return out

    def _forget(self, still_open: set[int]) -> None:
        # Ids of closed regions never come back: drop their union-find links.
        if len(self._parent) > 4 * (len(self.open) + 1024):
            self._parent = {k: v for k, v in self._parent.items() if self.find(v) in still_open}

    def close_all(self) -> list[tuple[int, Region]]:
        done = sorted(self.open)
        out = [(root, self.open.pop(root)) for root in done]
        self._parent.clear()
        return out
