"""Suspicious labels: reference polygons ranked by how much the model disagrees with them.

For each polygon P (rasterised at pixel centres on the prediction grid, valid prediction pixels
only, both sides regrouped by the protocol):

* ``pixels``: pixels of P scored;
* ``predicted``: the model's majority class over P;
* ``agreement = #{pixels of P predicted as P's label} / pixels`` (0..1);
* ``mean_confidence``: mean of the confidence raster over P (when one is given);
* ``suspicion = (1 - agreement) * mean_confidence`` (``1 - agreement`` without confidence): a
  label the model contradicts, confidently, comes first.

The output GeoPackage lists the polygons from most to least suspicious (``rank`` 1 first);
polygons without a scored pixel come last with null figures. Memory: per-window pair counts
reduced as they go, plus a few numbers per polygon.

Public entry point: :func:`rank_labels`.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import numpy as np

from .errors import Canceled, InputError
from .evaluate import _prediction_classes, prediction_grid, windows
from .protocols import Protocol
from .reference import ClassRasterSource, PolygonSource, bounds_overlap, grid_bounds_in, raster_info, same_crs
from .writer import check_output_path, write_atomic

_REDUCE_EVERY = 2_000_000


def rank_labels(
    prediction_path: str | os.PathLike[str],
    reference_gdf_or_path,
    field: str,
    output_path: str | os.PathLike[str],
    *,
    confidence_path: str | os.PathLike[str] | None = None,
    protocol: Protocol | None = None,
    extent: tuple[float, float, float, float] | None = None,
    layer: str | None = None,
    layer_name: str = "suspicious_labels",
    is_canceled: Callable[[], bool] | None = None,
    on_progress: Callable[[float], None] | None = None,
):
    """Rank reference polygons by disagreement with a class map and write them to a GeoPackage.

    Args:
        prediction_path: the class map.
        reference_gdf_or_path: polygons (GeoDataFrame or vector file).
        field: class field of the polygons.
        output_path: the GeoPackage written (replaced only when complete).
        confidence_path: optional confidence raster (e.g. probability of the winning class).
        protocol: regrouping and ignored values applied to labels and predictions (None = raw values).
        extent: only this area (prediction CRS).
        layer: layer of a multi-layer input file.
        layer_name: name of the output layer.
        is_canceled: polled between windows.
        on_progress: called with 0..100.

    Returns:
        The ranked GeoDataFrame (also written).

    Raises:
        InputError: bad field or geometries, no overlap, unreadable rasters, bad output path.
        Canceled: nothing was written.
    """
    import geopandas as gpd

    output_path = check_output_path(os.fspath(output_path), "ranked labels")
    prediction_path = os.fspath(prediction_path)
    grid = prediction_grid(prediction_path, extent)
    source = PolygonSource(reference_gdf_or_path, field, grid, layer=layer)
    if len(source.values) == 0 or not bounds_overlap(grid.bounds, source.bounds):
        raise InputError(
            "The prediction and the reference polygons do not overlap: choose layers covering the same area."
        )
    confidence = None
    if confidence_path:
        info = raster_info(confidence_path, "confidence raster")
        if not bounds_overlap(grid.bounds, grid_bounds_in(grid, info.bounds, info.crs_wkt)):
            raise InputError("The confidence raster does not overlap the prediction.")
        confidence = ClassRasterSource(
            os.fspath(confidence_path), grid, assume_grid_crs=same_crs(grid.crs_wkt, info.crs_wkt)
        )
    ignore = np.array(sorted(protocol.ignore), dtype=np.int64) if protocol else np.zeros(0, dtype=np.int64)

    def regroup(values: np.ndarray) -> np.ndarray:
        if protocol is None or not protocol.remap:
            return values
        out = values.copy()
        for raw, target in protocol.remap.items():
            out[values == raw] = target
        return out

    n = len(source.values)
    labels = regroup(source.values.astype(np.int64))
    label_ok = (source.values >= 0) & ~np.isin(source.values, ignore)
    pixels = np.zeros(n + 1, dtype=np.int64)
    agree = np.zeros(n + 1, dtype=np.int64)
    conf_sum = np.zeros(n + 1, dtype=np.float64)
    conf_n = np.zeros(n + 1, dtype=np.int64)
    pair_keys: list[np.ndarray] = []
    pair_counts: list[np.ndarray] = []
    pending = 0
    prediction = ClassRasterSource(prediction_path, grid)
    label_of = np.concatenate([[-(2**40)], labels])
    plan = windows(grid)
    with prediction.open() as pred_reader, source.open() as poly_reader:
        conf_ctx = confidence.open() if confidence is not None else None
        conf_reader = conf_ctx.__enter__() if conf_ctx is not None else None
        try:
            for done, (row, col, rows, cols) in enumerate(plan):
                if is_canceled is not None and is_canceled():
                    raise Canceled()
                index = poly_reader.read_index(row, col, rows, cols)
                pred, valid = pred_reader.read(row, col, rows, cols)
                valid &= index > 0
                if ignore.size:
                    valid &= ~np.isin(pred, ignore)
                idx = index[valid].astype(np.int64)
                cls = regroup(pred[valid].astype(np.int64))
                pixels += np.bincount(idx, minlength=n + 1)
                agree += np.bincount(idx[cls == label_of[idx]], minlength=n + 1)
                keys = (idx << 32) | (cls & 0xFFFFFFFF)
                unique, counts = np.unique(keys, return_counts=True)
                pair_keys.append(unique)
                pair_counts.append(counts)
                pending += len(unique)
                if pending > _REDUCE_EVERY:
                    pair_keys, pair_counts = _reduce(pair_keys, pair_counts)
                    pending = len(pair_keys[0])
                if conf_reader is not None:
                    conf, conf_valid = conf_reader.read(row, col, rows, cols)
                    use = valid & conf_valid
                    conf_sum += np.bincount(index[use], weights=conf[use].astype(np.float64), minlength=n + 1)
                    conf_n += np.bincount(index[use], minlength=n + 1)
                if on_progress is not None:
                    on_progress(100.0 * (done + 1) / len(plan))
        finally:
            if conf_ctx is not None:
                conf_ctx.__exit__(None, None, None)
    majority = np.full(n + 1, -1, dtype=np.int64)
    if pair_keys:
        keys, counts = (a[0] for a in _reduce(pair_keys, pair_counts))
        idx = keys >> 32
        cls = (keys & 0xFFFFFFFF).astype(np.uint32).view(np.int32).astype(np.int64)
        # Majority per polygon: sort by (polygon, count) and keep the last of each polygon; ties
        # go to the smaller class value (stable sort on descending class).
        order = np.lexsort((-cls, counts, idx))
        last = np.r_[idx[order][1:] != idx[order][:-1], True]
        majority[idx[order][last]] = cls[order][last]
    names = {c.value: c.name for c in (protocol.classes if protocol else ())}
    names.update({c.value: c.name for c in _prediction_classes(prediction_path) if c.value not in names})
    scored = pixels[1:] > 0
    agreement = np.where(scored, agree[1:] / np.maximum(pixels[1:], 1), np.nan)
    mean_conf = np.where(conf_n[1:] > 0, conf_sum[1:] / np.maximum(conf_n[1:], 1), np.nan)
    suspicion = (1.0 - agreement) * (np.nan_to_num(mean_conf, nan=1.0) if confidence is not None else 1.0)
    suspicion = np.where(label_ok, suspicion, np.nan)
    out = gpd.GeoDataFrame(
        {
            "source_fid": source.source_index,
            "label": labels,
            "label_name": [names.get(int(v), "") for v in labels],
            "predicted": [int(v) if v >= 0 else None for v in majority[1:]],
            "predicted_name": [names.get(int(v), "") if v >= 0 else "" for v in majority[1:]],
            "agreement": agreement,
            "pixels": pixels[1:],
            "mean_confidence": mean_conf if confidence is not None else np.full(n, np.nan),
            "suspicion": suspicion,
        },
        geometry=source.geometries.values,
        crs=source.gdf.crs,
    )
    order = np.lexsort((-out["pixels"].to_numpy(), -np.nan_to_num(out["suspicion"].to_numpy(), nan=-1.0)))
    out = out.iloc[order].reset_index(drop=True)
    out.insert(0, "rank", np.arange(1, n + 1))
    _write_gpkg_atomic(out, output_path, layer_name)
    return out


def _reduce(keys: list[np.ndarray], counts: list[np.ndarray]) -> tuple[list[np.ndarray], list[np.ndarray]]:
    all_keys = np.concatenate(keys)
    unique, inverse = np.unique(all_keys, return_inverse=True)
    summed = np.bincount(inverse, weights=np.concatenate(counts), minlength=len(unique)).astype(np.int64)
    return [unique], [summed]


def _write_gpkg_atomic(gdf, path: str, layer_name: str) -> None:
    def write(tmp: str) -> None:
        os.remove(tmp)  # the GPKG driver creates its file itself
        gdf.to_file(tmp, layer=layer_name, driver="GPKG")

    write_atomic(path, write, suffix=".gpkg")
