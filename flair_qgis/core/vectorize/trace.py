"""The polygon of every region of a labelled band, traced with numpy (no per-pixel Python loop).

A region's boundary is made of *sides*: maximal straight runs of pixel edges between one of its
pixels and a pixel of another label (or none). Each side is walked with the region on its right
(screen axes: column right, row down): top edges eastwards, right edges southwards, bottom edges
westwards, left edges northwards. At a side's end the walk turns: left when the pixel ahead on
the left has the same label (this also joins two pixels of one region that touch at a corner,
which keeps every ring simple: a pocket touching the outside at one corner becomes a hole
touching the shell there), otherwise right. Two regions that touch only at a corner are never
joined: labels are 4-connected and a turn only follows the same label.

The sides' successors form one cycle per ring; cycles are numbered and ordered by pointer
jumping (about log2 of the longest ring's vertex count numpy steps). Every vertex is a pixel
corner where the ring turns: integers, no collinear vertex. In these axes a shell has a positive
signed area and a hole a negative one; a region has exactly one shell.
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
    """``(label, polygon)`` for every label > 0 of a band of 4-connected labels (see :func:`trace_rings`)."""
    return [(label, Polygon(rings[0], rings[1:])) for label, rings in trace_rings(labels, row0)]


def trace_rings(labels: np.ndarray, row0: int = 0) -> list[tuple[int, list[np.ndarray]]]:
    """``(label, rings)`` for every label > 0 of a band of 4-connected labels.

    Args:
        labels: ``(rows, cols)`` int labels, 0 = no region; each label one 4-connected region.
        row0: the band's first row in the window: rings are in (column, row) of the window.

    Returns:
        Per label present, in label order, its rings: ``(n + 1, 2)`` float64 closed rings, the
        shell first, then the holes.
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
    out: list[tuple[int, list[np.ndarray]]] = []
    current = -1
    for k in by_label.tolist():
        ring_coords = np.concatenate([coords[starts[k] : ends[k]], coords[starts[k] : starts[k] + 1]])
        if ring_label[k] != current:
            current = int(ring_label[k])
            out.append((current, [ring_coords]))
        else:
            out[-1][1].append(ring_coords)
    return out


def _sides(labels: np.ndarray) -> Sides:
    rows, cols = labels.shape
    size = rows * cols
    flat = labels.ravel()
    inside = labels > 0
    same_below = labels[1:] == labels[:-1]  # (rows - 1, cols): a pixel and the one below
    same_right = labels[:, 1:] == labels[:, :-1]  # (rows, cols - 1): a pixel and the one right
    parts = []
    # kind, the neighbour across the side, the step along the walk (rows, cols), the next side on
    # a left turn and on a right turn.
    for kind, across, step, left_turn, right_turn in (
        (TOP, (-1, 0), (0, 1), LEFT, RIGHT),
        (RIGHT, (0, 1), (1, 0), TOP, BOTTOM),
        (BOTTOM, (1, 0), (0, -1), RIGHT, LEFT),
        (LEFT, (0, -1), (-1, 0), BOTTOM, TOP),
    ):
        first_px, last_px = _side_ends(_has_side(inside, same_below, same_right, across), same_below, same_right, step)
        fr, fc = np.divmod(first_px, cols)
        lr, lc = np.divmod(last_px, cols)
        # pixel ahead on the left of the last edge: one step along, one step across
        ar, ac = lr + step[0] + across[0], lc + step[1] + across[1]
        label = flat[first_px]
        within = (ar >= 0) & (ar < rows) & (ac >= 0) & (ac < cols)
        turns_left = within & (flat[np.where(within, ar * cols + ac, 0)] == label)
        next_px = np.where(turns_left, ar * cols + ac, last_px)
        next_key = np.where(turns_left, left_turn, right_turn) * size + next_px
        x, y = _start_vertex(kind, fr, fc)
        parts.append((kind * size + first_px, next_key, x, y, label))
    return Sides(*(np.concatenate([p[i] for p in parts]) for i in range(5)))


def _has_side(inside: np.ndarray, same_below: np.ndarray, same_right: np.ndarray, across: tuple[int, int]):
    """``(rows, cols)``: the pixels of a region whose neighbour at ``across`` is not of their label."""
    side = inside.copy()
    if across == (-1, 0):
        side[1:] &= ~same_below
    elif across == (1, 0):
        side[:-1] &= ~same_below
    elif across == (0, -1):
        side[:, 1:] &= ~same_right
    else:
        side[:, :-1] &= ~same_right
    return side


def _side_ends(
    side: np.ndarray, same_below: np.ndarray, same_right: np.ndarray, step: tuple[int, int]
) -> tuple[np.ndarray, np.ndarray]:
    """Flat indices of the first and the last pixel walked of each side, paired.

    Args:
        side: ``(rows, cols)`` the pixels that have an edge of this kind; a side is a run of them
            of one label along the walk.
        same_below, same_right: a pixel has the label of the one below, of the one right.
        step: the walk's step (rows, cols).
    """
    rows, cols = side.shape
    begins = side.copy()  # of a run, in raster order
    ends = side.copy()
    if step[0] == 0:
        linked = side[:, 1:] & side[:, :-1] & same_right
        begins[:, 1:] &= ~linked
        ends[:, :-1] &= ~linked
    else:
        linked = side[1:] & side[:-1] & same_below
        begins[1:] &= ~linked
        ends[:-1] &= ~linked
    begin, end = np.flatnonzero(begins), np.flatnonzero(ends)
    if step[0] != 0:  # runs down columns: pair them column by column
        begin = begin[np.argsort(begin % cols * rows + begin // cols, kind="stable")]
        end = end[np.argsort(end % cols * rows + end // cols, kind="stable")]
    return (begin, end) if step[0] + step[1] > 0 else (end, begin)


def _start_vertex(kind: int, row: np.ndarray, col: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The pixel corner a side starts from, given the first pixel it walks along."""
    right = kind in (RIGHT, BOTTOM)
    below = kind in (BOTTOM, LEFT)
    return col + int(right), row + int(below)


def _rings(sides: Sides) -> tuple[np.ndarray, np.ndarray]:
    """``(ring, order)``: the ring of each side (its smallest side index), and the sides in walk
    order, ring by ring, each ring from its smallest side."""
    n = len(sides.key)
    by_key = np.argsort(sides.key, kind="stable")
    following = by_key[np.searchsorted(sides.key[by_key], sides.next_key)]
    # Pointer jumping: after k rounds, ring[i] is the smallest of the 2**k sides from i on. Once a
    # round changes nothing, every ring holds one value: its smallest side.
    ring, jump = np.arange(n), following
    while True:
        smaller = np.minimum(ring, ring[jump])
        if np.array_equal(smaller, ring):
            break
        ring, jump = smaller, jump[jump]
    first = np.flatnonzero(ring == np.arange(n))
    before = np.empty(n, dtype=np.int64)
    before[following] = np.arange(n)
    # Cut each ring before its first side, then count every side's steps to the cut.
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
