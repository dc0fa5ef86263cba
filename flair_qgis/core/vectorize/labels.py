"""Connected regions of a class map, band by band: labels, seams and shared edges.

A region is a 4-connected set of valid pixels of one class value: two pixels that touch only at a
corner are in two regions (``gdal_polygonize``'s default, and what keeps every polygon simple).
A band is a run of whole rows; its labels are numbered from 1 (0 = no region: nodata, a class left
out, or outside the window). Everything here works on ``(rows, cols)`` arrays and returns arrays.
Labelling is numpy only: scipy is needed by the merges of cleaning alone (``flair_qgis.adapters.deps.VECTORIZE``).
"""

from __future__ import annotations

import numpy as np


def label_band(values: np.ndarray, valid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Number the regions of one band.

    All classes in one pass, on runs (stretches of a row of one class, or of nodata): two runs of
    one class that overlap in consecutive rows are linked, and the linked runs' components are
    the regions (:func:`components`). An overlap begins where one of its two runs begins, so the
    links are found at the runs' starts: the work per pixel is finding the runs and writing the
    labels out.

    Args:
        values: ``(rows, cols)`` class values.
        valid: ``(rows, cols)`` True where a pixel takes part (not nodata, class kept).

    Returns:
        ``(labels, classes)``: ``(rows, cols)`` int32 labels 1..n (0 where not valid) and the
        class value of each label (``classes[label - 1]``), labels numbered class by class in
        ascending class order, then in raster order inside a class.
    """
    rows, cols = values.shape
    change = np.empty(values.shape, dtype=bool)
    change[:, 0] = True
    np.not_equal(values[:, 1:], values[:, :-1], out=change[:, 1:])
    change[:, 1:] |= valid[:, 1:] != valid[:, :-1]
    starts = np.flatnonzero(change)
    flat_values, flat_valid = values.ravel(), valid.ravel()
    run_valid = flat_valid[starts]
    # Pixel pairs (above, below) at every run start, in the row above and the row below.
    top = np.concatenate([starts[starts >= cols] - cols, starts[starts < (rows - 1) * cols]])
    linked = flat_valid[top] & flat_valid[top + cols] & (flat_values[top] == flat_values[top + cols])
    top = top[linked]
    upper = np.searchsorted(starts, top, side="right") - 1
    lower = np.searchsorted(starts, top + cols, side="right") - 1
    root = components(len(starts), upper, lower)
    # Regions numbered by class, then by their first run (the root is the smallest run).
    roots = np.flatnonzero((root == np.arange(len(starts))) & run_valid)
    run_class = flat_values[starts].astype(np.int64)
    order = roots[np.argsort(run_class[roots], kind="stable")]
    label_of_root = np.zeros(len(starts), dtype=np.int32)
    label_of_root[order] = np.arange(1, len(order) + 1, dtype=np.int32)
    run_label = np.where(run_valid, label_of_root[root], 0).astype(np.int32)
    lengths = np.diff(np.append(starts, rows * cols))
    labels = np.repeat(run_label, lengths).reshape(rows, cols)
    return labels, run_class[order]


def components(n: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The smallest node of each node's connected component, for ``n`` nodes and edges ``a - b``.

    Hooking and pointer jumping in numpy: each round points every root at the smallest root
    linked to its tree, then flattens the trees; a few rounds for any graph.
    """
    parent = np.arange(n)
    while True:
        ra, rb = parent[a], parent[b]
        apart = ra != rb
        if not apart.any():
            return parent
        ra, rb = ra[apart], rb[apart]
        np.minimum.at(parent, np.maximum(ra, rb), np.minimum(ra, rb))
        while True:
            grand = parent[parent]
            if np.array_equal(grand, parent):
                break
            parent = grand
        a, b = a[apart], b[apart]


def seam_links(upper: np.ndarray, lower: np.ndarray, upper_values: np.ndarray, lower_values: np.ndarray) -> np.ndarray:
    """The region pairs joined across a seam between two bands.

    Args:
        upper: labels of the upper band's last row (global ids, 0 = none).
        lower: labels of the lower band's first row (global ids, 0 = none).
        upper_values, lower_values: the class values of those rows.

    Returns:
        ``(n, 2)`` unique ``(upper id, lower id)`` pairs of vertically adjacent pixels of the same
        class: each pair is one region cut by the seam.
    """
    joined = (upper > 0) & (lower > 0) & (upper_values == lower_values)
    if not joined.any():
        return np.zeros((0, 2), dtype=np.int64)
    pairs = np.stack([upper[joined].astype(np.int64), lower[joined].astype(np.int64)], axis=1)
    return np.unique(pairs, axis=0)


def edge_counts(ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Pixel edges shared by each pair of different regions inside a band.

    Args:
        ids: ``(rows, cols)`` int64 region ids, 0 = no region.

    Returns:
        ``(pairs, counts)``: ``(n, 2)`` region pairs (smaller id first; id 0 stands for "outside":
        nodata, a class left out, the raster's edge) and the number of pixel edges each shares.
    """
    padded = np.pad(ids, ((0, 0), (1, 1)))  # the left/right raster edges border "outside"
    left, right = padded[:, :-1].ravel(), padded[:, 1:].ravel()
    upper, lower = ids[:-1, :].ravel(), ids[1:, :].ravel()
    a = np.concatenate([left, upper])
    b = np.concatenate([right, lower])
    differ = a != b
    return count_pairs(a[differ], b[differ])


def count_pairs(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Unique unordered pairs of ``a`` and ``b`` (smaller first) and how often each occurs."""
    if a.size == 0:
        return np.zeros((0, 2), dtype=np.int64), np.zeros(0, dtype=np.int64)
    low, high = np.minimum(a, b), np.maximum(a, b)
    pairs, counts = np.unique(np.stack([low, high], axis=1), axis=0, return_counts=True)
    return pairs, counts.astype(np.int64)
