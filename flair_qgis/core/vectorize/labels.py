"""Connected regions of a class map, band by band: labels, seams and shared edges.

A region is a 4-connected set of valid pixels of one class value: two pixels that touch only at a
corner are in two regions (``gdal_polygonize``'s default, and what keeps every polygon simple).
A band is a run of whole rows; its labels are numbered from 1 (0 = no region: nodata, a class left
out, or outside the window). Everything here works on ``(rows, cols)`` arrays and returns arrays.
scipy is imported where regions are labelled, not at import: the plugin loads and segments without
it (``flair_qgis.adapters.deps.VECTORIZE``).
"""

from __future__ import annotations

import numpy as np


def label_band(values: np.ndarray, valid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Number the regions of one band.

    All classes in one pass: each row is cut into runs of one class, runs of one class that
    overlap in two consecutive rows are linked, and the runs' connected components (scipy's
    sparse graph, in C) are the regions.

    Args:
        values: ``(rows, cols)`` class values.
        valid: ``(rows, cols)`` True where a pixel takes part (not nodata, class kept).

    Returns:
        ``(labels, classes)``: ``(rows, cols)`` int32 labels 1..n (0 where not valid) and the
        class value of each label (``classes[label - 1]``), labels numbered class by class in
        ascending class order, then in raster order inside a class.
    """
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    rows, cols = values.shape
    if not valid.any():
        return np.zeros(values.shape, dtype=np.int32), np.zeros(0, dtype=np.int64)
    same_left = np.zeros(values.shape, dtype=bool)  # pixel continues the run of its left neighbour
    np.equal(values[:, 1:], values[:, :-1], out=same_left[:, 1:])
    same_left[:, 1:] &= valid[:, :-1]
    starts = valid & ~same_left
    run = np.cumsum(starts, dtype=np.int32).reshape(rows, cols)  # run number (1..n) of each pixel
    first = np.flatnonzero(starts)
    run_class = values.ravel()[first].astype(np.int64)
    linked = valid[1:] & valid[:-1] & (values[1:] == values[:-1])
    # One link per overlap of two runs: where it begins (the pairs repeat along the overlap).
    begins = linked.copy()
    begins[:, 1:] &= ~linked[:, :-1] | starts[1:, 1:] | starts[:-1, 1:]
    upper, lower = run[:-1][begins] - 1, run[1:][begins] - 1
    n = len(first)
    graph = coo_matrix((np.ones(len(upper), dtype=np.int8), (upper, lower)), shape=(n, n))
    _, component = connected_components(graph, directed=False)
    # A region's first run in raster order is its smallest run number.
    _, first_run = np.unique(component, return_index=True)
    order = np.lexsort((first_run, run_class[first_run]))
    label_of_component = np.empty(len(order), dtype=np.int32)
    label_of_component[order] = np.arange(1, len(order) + 1, dtype=np.int32)
    label_of_run = np.concatenate([[0], label_of_component[component]]).astype(np.int32)
    labels = label_of_run[np.where(valid, run, 0)]
    return labels, run_class[first_run[order]]


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
