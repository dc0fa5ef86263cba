"""The polygon of every region of a labelled band, traced with numpy (no per-pixel Python loop).

A region's boundary is made of *sides*: maximal straight runs of pixel edges between one of its
pixels and a pixel of another label (or none). Each side is walked with the region on its right
(screen axes: column right, row down): top edges eastwards, right edges southwards, bottom edges
westwards, left edges northwards. At a side's end the walk turns: left when the pixel ahead on
the left has the same label (this also joins two pixels of one region that touch at a corner,
which keeps every ring simple: a pocket touching the outside at one corner becomes a hole
touching the shell there), otherwise right. Two regions that touch only at a corner are never
joined: labels are 4-connected and a turn only follows the same label.

The sides' successors form one cycle per ring; cycles are numbered with scipy's connected
components and ordered by pointer jumping (about log2 of the longest ring's vertex count numpy
steps). Every vertex is a pixel corner where the ring turns: integers, no collinear vertex. In
these axes a shell has a positive signed area and a hole a negative one; a region has one shell.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from shapely.geometry import Polygon

TOP, RIGHT, BOTTOM, LEFT = range(4)


@dataclass
class Sides:
    """The sides of a band: walk start pixel, end pixel and start vertex of each, and its label."""

    key: np.ndarray  # side kind * pixels + flat index of its first pixel walked
    next_key: np.ndarray  # the key of the side that follows it
    x: np.ndarray  # start vertex, column
    y: np.ndarray  # start vertex, row (of the band)
    label: np.ndarray


def trace_polygons(labels: np.ndarray, row0: int = 0) -> list[tuple[int, Polygon]]:
    """``(label, polygon)`` for every label > 0 of a band of 4-connected labels.

    Args:
        labels: ``(rows, cols)`` int labels, 0 = no region; each label one 4-connected region.
        row0: the band's first row in the window: polygons are in (column, row) of the window.

    Returns:
        One polygon per label present, in label order.
    """
    sides = _sides(labels)
    if len(sides.key) == 0:
        return []
    ring, order = _rings(sides)
    x, y, ring = sides.x[order], sides.y[order] + row0, ring[order]
    bounds = np.flatnonzero(np.diff(ring)) + 1
    starts = np.concatenate([[0], bounds])
    ends = np.concatenate([bounds, [len(ring)]])
    following = np.arange(1, len(ring) + 1)
    following[ends - 1] = starts
    twice_area = np.add.reduceat(x * y[following] - x[following] * y, starts)
    ring_label = sides.label[order][starts]
    by_label = np.lexsort((-twice_area, ring_label))  # per label, its shell (positive) first
    coords = np.stack([x, y], axis=1).astype(np.float64)
    polygons: list[tuple[int, Polygon]] = []
    shell: np.ndarray | None = None
    holes: list[np.ndarray] = []
    current = -1
    for k in by_label.tolist():
        ring_coords = np.concatenate([coords[starts[k] : ends[k]], coords[starts[k] : starts[k] + 1]])
        if ring_label[k] != current:
            if shell is not None:
                polygons.append((current, Polygon(shell, holes)))
            current, shell, holes = int(ring_label[k]), ring_coords, []
        else:
            holes.append(ring_coords)
    if shell is not None:
        polygons.append((current, Polygon(shell, holes)))
    return polygons


def _sides(labels: np.ndarray) -> Sides:
    rows, cols = labels.shape
    size = rows * cols
    padded = np.zeros((rows + 2, cols + 2), dtype=labels.dtype)
    padded[1:-1, 1:-1] = labels
    inside = labels > 0
    parts = []
    # kind, the neighbour across the side, the step along the walk (rows, cols), the pixel ahead
    # on the left, the next side on a left turn and on a right turn.
    for kind, across, step, left_turn, right_turn in (
        (TOP, (-1, 0), (0, 1), LEFT, RIGHT),
        (RIGHT, (0, 1), (1, 0), TOP, BOTTOM),
        (BOTTOM, (1, 0), (0, -1), RIGHT, LEFT),
        (LEFT, (0, -1), (-1, 0), BOTTOM, TOP),
    ):
        boundary = inside & (_shifted(padded, across) != labels)
        ahead = _shifted(padded, step)
        goes_on = boundary & (ahead == labels) & _shifted_mask(boundary, step)
        first = boundary & ~_shifted_mask(goes_on, (-step[0], -step[1]))
        last = boundary & ~goes_on
        first_px, last_px = _walk_order(first, last, step, cols)
        fr, fc = np.divmod(first_px, cols)
        lr, lc = np.divmod(last_px, cols)
        # pixel ahead on the left of the last edge: one step along, one step across
        ar, ac = lr + step[0] + across[0], lc + step[1] + across[1]
        label = labels.ravel()[first_px]
        turns_left = padded[ar + 1, ac + 1] == label
        next_px = np.where(turns_left, ar * cols + ac, last_px)
        next_key = np.where(turns_left, left_turn, right_turn) * size + next_px
        x, y = _start_vertex(kind, fr, fc)
        parts.append((kind * size + first_px, next_key, x, y, label))
    return Sides(*(np.concatenate([p[i] for p in parts]) for i in range(5)))


def _shifted(padded: np.ndarray, offset: tuple[int, int]) -> np.ndarray:
    """The label of each pixel's neighbour at ``offset`` (0 outside the band)."""
    rows, cols = padded.shape[0] - 2, padded.shape[1] - 2
    return padded[1 + offset[0] : 1 + offset[0] + rows, 1 + offset[1] : 1 + offset[1] + cols]


def _shifted_mask(mask: np.ndarray, offset: tuple[int, int]) -> np.ndarray:
    """``out[r, c] = mask[r + dr, c + dc]``, False outside."""
    rows, cols = mask.shape
    dr, dc = offset
    out = np.zeros_like(mask)
    out[max(0, -dr) : rows - max(0, dr), max(0, -dc) : cols - max(0, dc)] = mask[
        max(0, dr) : rows - max(0, -dr), max(0, dc) : cols - max(0, -dc)
    ]
    return out


def _walk_order(first: np.ndarray, last: np.ndarray, step: tuple[int, int], cols: int) -> tuple[np.ndarray, ...]:
    """Flat indices of the first and last pixel of each side, paired (sides never interleave
    along their row, or column)."""
    if step[0] == 0:
        return np.flatnonzero(first), np.flatnonzero(last)
    rows = first.shape[0]
    paired = []
    for mask in (first, last):
        col, row = np.divmod(np.flatnonzero(mask.T), rows)
        paired.append(row * cols + col)
    return paired[0], paired[1]


def _start_vertex(kind: int, row: np.ndarray, col: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The pixel corner a side starts from, given the first pixel it walks along."""
    right = kind in (RIGHT, BOTTOM)
    below = kind in (BOTTOM, LEFT)
    return col + int(right), row + int(below)


def _rings(sides: Sides) -> tuple[np.ndarray, np.ndarray]:
    """``(ring, order)``: the ring number of each side, and the sides in walk order, ring by ring."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components

    n = len(sides.key)
    by_key = np.argsort(sides.key, kind="stable")
    following = by_key[np.searchsorted(sides.key[by_key], sides.next_key)]
    graph = csr_matrix((np.ones(n, dtype=np.int8), following, np.arange(n + 1)), shape=(n, n))
    _, ring = connected_components(graph, directed=True, connection="weak")
    _, first = np.unique(ring, return_index=True)
    before = np.empty(n, dtype=np.int64)
    before[following] = np.arange(n)
    # Cut each ring before its first side, then count every side's steps to the cut (pointer jumping).
    jump = following.copy()
    last = before[first]
    jump[last] = last
    to_last = np.ones(n, dtype=np.int64)
    to_last[last] = 0
    while True:
        further = jump[jump]
        if np.array_equal(further, jump):
            break
        to_last += to_last[jump]
        jump = further
    return ring, np.lexsort((-to_last, ring))
