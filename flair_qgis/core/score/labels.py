"""Suspicious labels: reference polygons ranked by how much the model disagrees with them.

For each polygon P (rasterised at pixel centres on the prediction grid, valid prediction pixels
only, both sides regrouped by the protocol, the class map's classes aligned with the protocol's
codes as in :func:`flair_qgis.core.score.evaluate.score`):

* ``pixels``: pixels of P scored;
* ``predicted``: the model's majority class over P (ties to the smaller class value);
* ``agreement = #{pixels of P predicted as P's label} / pixels`` (0..1);
* ``disagreeing_px = pixels - #{pixels of P predicted as P's label}``: the area in disagreement;
* ``mean_confidence``: mean of the confidence raster over P (when one is given);
* ``suspicion = (1 - agreement) * mean_confidence`` (``1 - agreement`` without confidence): a
  label the model contradicts, confidently, comes first.

The output GeoPackage lists the polygons from most to least suspicious (``rank`` 1 first); equal
suspicions are ordered by the area in disagreement (a wholly contradicted field before a
wholly contradicted hedge), then by pixels. Polygons without a scored pixel come last with
null figures. Memory: per-window pair counts reduced as they go, plus a few numbers per polygon.

Public entry point: :func:`rank_labels`.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import cast

import numpy as np

from ..atomic import check_output_path, write_atomic
from ..classes import raster_classes
from ..crs import same_crs
from ..engine.grid import Grid
from ..errors import InputError
from .alignment import ClassAlignment, align_classes
from .crosswalk import Crosswalk, crosswalk_codes, reference_key
from .evaluate import Reference, each_window, prediction_grid, reference_source
from .polygons import PolygonSource
from .protocols import Protocol, get_protocol
from .reference import ClassRasterSource, bounds_overlap, grid_bounds_in, raster_info

_REDUCE_EVERY = 2_000_000


@dataclass
class _PolygonCounts:
    """Per-polygon sums (index 0 = no polygon) and packed ``(polygon, class)`` pair counts."""

    n: int
    pixels: np.ndarray = field(init=False)
    agree: np.ndarray = field(init=False)
    conf_sum: np.ndarray = field(init=False)
    conf_n: np.ndarray = field(init=False)
    pair_keys: list[np.ndarray] = field(default_factory=list)
    pair_counts: list[np.ndarray] = field(default_factory=list)
    pending: int = 0

    def __post_init__(self) -> None:
        self.pixels = np.zeros(self.n + 1, dtype=np.int64)
        self.agree = np.zeros(self.n + 1, dtype=np.int64)
        self.conf_sum = np.zeros(self.n + 1, dtype=np.float64)
        self.conf_n = np.zeros(self.n + 1, dtype=np.int64)

    def add(self, index: np.ndarray, classes: np.ndarray, label_of: np.ndarray) -> None:
        """Count the scored pixels of a window: polygon ``index`` (1-based), predicted ``classes``."""
        self.pixels += np.bincount(index, minlength=self.n + 1)
        self.agree += np.bincount(index[classes == label_of[index]], minlength=self.n + 1)
        unique, counts = np.unique((index << 32) | (classes & 0xFFFFFFFF), return_counts=True)
        self.pair_keys.append(unique)
        self.pair_counts.append(counts)
        self.pending += len(unique)
        if self.pending > _REDUCE_EVERY:
            self._reduce()

    def add_confidence(self, index: np.ndarray, confidence: np.ndarray) -> None:
        self.conf_sum += np.bincount(index, weights=confidence.astype(np.float64), minlength=self.n + 1)
        self.conf_n += np.bincount(index, minlength=self.n + 1)

    def _reduce(self) -> None:
        unique, inverse = np.unique(np.concatenate(self.pair_keys), return_inverse=True)
        summed = np.bincount(inverse, weights=np.concatenate(self.pair_counts), minlength=len(unique))
        self.pair_keys, self.pair_counts = [unique], [summed.astype(np.int64)]
        self.pending = len(unique)

    def majority(self) -> np.ndarray:
        """The majority class of each polygon (``-1`` where none); ties go to the smaller class value."""
        majority = np.full(self.n + 1, -1, dtype=np.int64)
        if not self.pair_keys:
            return majority
        self._reduce()
        keys, counts = self.pair_keys[0], self.pair_counts[0]
        idx = keys >> 32
        cls = (keys & 0xFFFFFFFF).astype(np.uint32).view(np.int32).astype(np.int64)
        # Sort by (polygon, count, -class) and keep the last of each polygon.
        order = np.lexsort((-cls, counts, idx))
        last = np.r_[idx[order][1:] != idx[order][:-1], True]
        majority[idx[order][last]] = cls[order][last]
        return majority


def _confidence_source(confidence_path: str | os.PathLike[str] | None, grid: Grid) -> ClassRasterSource | None:
    if not confidence_path:
        return None
    info = raster_info(confidence_path, "confidence raster")
    if not bounds_overlap(grid.bounds, grid_bounds_in(grid, info.bounds, info.crs_wkt)):
        raise InputError.of("confidence_outside_prediction")
    return ClassRasterSource(os.fspath(confidence_path), grid, assume_grid_crs=same_crs(grid.crs_wkt, info.crs_wkt))


def _count(
    prediction: ClassRasterSource,
    source: PolygonSource,
    confidence: ClassRasterSource | None,
    protocol: Protocol,
    alignment: ClassAlignment,
    is_canceled: Callable[[], bool] | None,
    on_progress: Callable[[float], None] | None,
) -> _PolygonCounts:
    """Per-polygon counts over every window of the grid."""
    counts = _PolygonCounts(len(source.values))
    ignore = np.array(sorted(protocol.ignore), dtype=np.int64)
    label_of = np.concatenate([[-(2**40)], protocol.regroup(source.values.astype(np.int64))])
    with contextlib.ExitStack() as stack:
        pred_reader = stack.enter_context(prediction.open())
        poly_reader = stack.enter_context(source.open())
        conf_reader = stack.enter_context(confidence.open()) if confidence is not None else None
        for row, col, rows, cols in each_window(prediction.grid, is_canceled=is_canceled, on_progress=on_progress):
            index = poly_reader.read_index(row, col, rows, cols)
            pred, valid = pred_reader.read(row, col, rows, cols)
            pred = alignment.apply(pred)
            valid &= index > 0
            if ignore.size:
                valid &= ~np.isin(pred, ignore)
            counts.add(index[valid].astype(np.int64), protocol.regroup(pred[valid].astype(np.int64)), label_of)
            if conf_reader is not None:
                conf, conf_valid = conf_reader.read(row, col, rows, cols)
                use = valid & conf_valid
                counts.add_confidence(index[use], conf[use])
    return counts


def _ranked(
    source: PolygonSource, counts: _PolygonCounts, protocol: Protocol, names: Mapping[int, str], with_conf: bool
):
    """The polygons with their figures, most suspicious first, ``rank`` 1..n."""
    import geopandas as gpd

    n = counts.n
    labels = protocol.regroup(source.values.astype(np.int64))
    label_ok = (source.values >= 0) & ~np.isin(source.values, np.array(sorted(protocol.ignore), dtype=np.int64))
    majority = counts.majority()[1:]
    pixels, agree = counts.pixels[1:], counts.agree[1:]
    scored = pixels > 0
    agreement = np.where(scored, agree / np.maximum(pixels, 1), np.nan)
    mean_conf = np.where(counts.conf_n[1:] > 0, counts.conf_sum[1:] / np.maximum(counts.conf_n[1:], 1), np.nan)
    suspicion = (1.0 - agreement) * (np.nan_to_num(mean_conf, nan=1.0) if with_conf else 1.0)
    suspicion = np.where(label_ok, suspicion, np.nan)
    disagreeing = pixels - agree
    out = gpd.GeoDataFrame(
        {
            "source_fid": source.source_index,
            "label": labels,
            "label_name": [names.get(int(v), "") for v in labels],
            "predicted": [int(v) if v >= 0 else None for v in majority],
            "predicted_name": [names.get(int(v), "") if v >= 0 else "" for v in majority],
            "agreement": agreement,
            "pixels": pixels,
            "disagreeing_px": disagreeing,
            "mean_confidence": mean_conf if with_conf else np.full(n, np.nan),
            "suspicion": suspicion,
        },
        geometry=source.geometries.values,
        crs=source.gdf.crs if source.gdf.crs is not None else source.crs_wkt,
    )
    if source.crosswalk is not None:
        # The label in the reference's own nomenclature, beside the class it counts as.
        out.insert(3, "reference_code", [reference_key(v) for v in source.gdf[source.field].tolist()])
    # Most suspicious first; ties by the area in disagreement, then by the pixels scored.
    order = np.lexsort((-pixels, -disagreeing, -np.nan_to_num(suspicion, nan=-1.0)))
    out = out.iloc[order].reset_index(drop=True)
    out.insert(0, "rank", np.arange(1, n + 1))
    return out


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
    class_map: Mapping[int, int] | None = None,
    crosswalk: Crosswalk | None = None,
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
        class_map: explicit ``value -> code`` alignment of the class map (``CLASS_MAP``).
        crosswalk: which class each value of ``field`` counts as (``CROSSWALK``; adds ``reference_code``).
        is_canceled: polled between windows.
        on_progress: called with 0..100.

    Returns:
        The ranked GeoDataFrame (also written); ``attrs["class_alignment"]`` says how the class
        map's classes were aligned.

    Raises:
        InputError: bad field or geometries, no overlap, unreadable rasters, classes that cannot be
            aligned, bad output path.
        Canceled: nothing was written.
    """
    output_path = check_output_path(os.fspath(output_path), "ranked labels")
    prediction_path = os.fspath(prediction_path)
    protocol = protocol or get_protocol("custom")
    grid = prediction_grid(prediction_path, extent)
    declared = raster_classes(prediction_path)
    alignment = align_classes(declared, protocol, class_map, what="class map")
    codes = crosswalk_codes(crosswalk, protocol, alignment)
    source = reference_source(Reference(polygons=reference_gdf_or_path, field=field, layer=layer), grid, extent, codes)
    source = cast(PolygonSource, source)  # polygons given: a polygon source
    confidence = _confidence_source(confidence_path, grid)
    prediction = ClassRasterSource(prediction_path, grid)
    counts = _count(prediction, source, confidence, protocol, alignment, is_canceled, on_progress)
    names = {c.value: c.name for c in protocol.classes}
    names.update({c.value: c.name for c in declared if c.value not in names and not alignment.changes})
    out = _ranked(source, counts, protocol, names, confidence is not None)
    _write_gpkg_atomic(out, output_path, layer_name)
    out.attrs["class_alignment"] = alignment.to_dict()
    return out


def _write_gpkg_atomic(gdf, path: str, layer_name: str) -> None:
    def write(tmp: str) -> None:
        os.remove(tmp)  # the GPKG driver creates its file itself
        gdf.to_file(tmp, layer=layer_name, driver="GPKG")

    write_atomic(path, write, suffix=".gpkg")
