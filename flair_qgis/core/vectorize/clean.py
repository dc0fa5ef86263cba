"""Cleaning on the region graph: small regions merged, enclosed holes filled; nothing deleted.

The graph's nodes are the regions of the whole raster (area in m², class), its edges the pixel
edges two regions share. Cleaning only decides which region absorbs which; the polygons are then
drawn from the merged ids, so the result is still one coverage of the valid area, exact on the
pixel grid, and the total area does not change.

* ``FILL_HOLES_M2``: a region below that area whose whole boundary is shared with one other region
  (it touches neither nodata nor the raster's edge) is absorbed by that region.
* ``MIN_AREA_M2``: regions below that area are taken smallest first (ties: lowest id) and each is
  absorbed by the neighbour with which it shares the longest boundary (ties: the largest, then the
  lowest id); the merged region is looked at again while it is still small. A region with no
  neighbour (the only region of its connected valid area) is kept whatever its size.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Mapping

import numpy as np

OUTSIDE = 0


def clean_regions(
    areas_m2: Mapping[int, float],
    pairs: np.ndarray,
    counts: np.ndarray,
    min_area_m2: float = 0.0,
    fill_holes_m2: float = 0.0,
) -> dict[int, int]:
    """Decide which region absorbs which.

    Args:
        areas_m2: area of every region, by id (ids > 0).
        pairs: ``(n, 2)`` pairs of region ids that share pixel edges; id 0 is "outside" (nodata,
            a class left out, the raster's edge).
        counts: the number of pixel edges each pair shares.
        min_area_m2: regions below this area are merged (0: none).
        fill_holes_m2: enclosed regions below this area are filled (0: none).

    Returns:
        The absorbing region of every region that was absorbed (final ids, no chains).
    """
    area = dict(areas_m2)
    links: dict[int, dict[int, int]] = defaultdict(dict)
    for (a, b), n in zip(pairs.tolist(), counts.tolist()):
        links[a][b] = links[a].get(b, 0) + n
        links[b][a] = links[b].get(a, 0) + n
    absorbed: dict[int, int] = {}

    def merge(small: int, into: int) -> None:
        absorbed[small] = into
        area[into] += area.pop(small)
        for other, n in links.pop(small).items():
            del links[other][small]
            if other != into:
                links[into][other] = links[into].get(other, 0) + n
                links[other][into] = links[other].get(into, 0) + n

    if fill_holes_m2 > 0:
        for rid in sorted(area, key=lambda r: (area[r], r)):
            around = links.get(rid, {})
            if rid in area and area[rid] < fill_holes_m2 and len(around) == 1 and OUTSIDE not in around:
                merge(rid, next(iter(around)))
    if min_area_m2 > 0:
        queue = [(a, r) for r, a in area.items() if a < min_area_m2]
        heapq.heapify(queue)
        while queue:
            size, rid = heapq.heappop(queue)
            if rid not in area or area[rid] != size:
                continue  # absorbed, or grown since it was queued
            neighbours = {r: n for r, n in links.get(rid, {}).items() if r != OUTSIDE}
            if not neighbours:
                continue
            into = max(neighbours, key=lambda r: (neighbours[r], area[r], -r))
            merge(rid, into)
            if area[into] < min_area_m2:
                heapq.heappush(queue, (area[into], into))
    return {rid: _final(rid, absorbed) for rid in absorbed}


def _final(rid: int, absorbed: Mapping[int, int]) -> int:
    while rid in absorbed:
        rid = absorbed[rid]
    return rid
