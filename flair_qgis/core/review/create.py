"""What each review item holds: the label and confidence read at each sampled pixel, the
``suspicious`` design's ranked polygons, the items of a second interpreter, and the design table.

The job that draws and writes a review is :func:`~flair_qgis.core.review.job.create_review`.

Per item: ``map_class`` is the prediction at the pixel (the majority class over the polygon for
``suspicious``), ``label_class`` the reference there (null without a reference, or where the
reference has no value), ``confidence`` the confidence raster there (the polygon's mean for
``suspicious``) and ``suspicion``:

* with a label: ``(label != map) * confidence`` (``* 1`` without confidence), as in
  :mod:`flair_qgis.core.score.labels` with a single pixel;
* without a label: ``1 - confidence`` (how unsure the model is), null without confidence.
"""

from __future__ import annotations

import json
import os
import tempfile
from datetime import datetime, timezone

import numpy as np

from ..classes import raster_classes
from ..crs import same_crs
from ..engine.grid import Grid, affine_xy
from ..errors import InputError
from ..nomenclature import default_color
from ..score import (
    BoxIndex,
    ClassRasterSource,
    CrosswalkCodes,
    PolygonSource,
    bounds_overlap,
    grid_bounds_in,
    raster_info,
    reference_key,
)
from ..vocabulary import DESIGN_STRATIFIED_LABEL, STRATIFIED_DESIGNS
from .identity import file_identity
from .label_strata import LABEL_FACTOR, LabelSplit, label_cells_of_strata
from .request import SampleRequest
from .sampling import Split, count_classes, stratum_band, stratum_map_class, window_reads


def double_items(strata: np.ndarray, share: float, rng: np.random.Generator) -> np.ndarray:
    """Which items a second interpreter reviews: ``round(share * n)`` items spread over the strata
    in proportion to their items (largest remainders), chosen at random inside each stratum.

    Args:
        strata: ``(n,)`` stratum of each item.
        share: 0..1.
        rng: seeded generator.

    Returns:
        ``(n,)`` 0/1 flags.
    """
    flags = np.zeros(len(strata), dtype=np.int64)
    if share <= 0 or len(strata) == 0:
        return flags
    values, counts = np.unique(strata, return_counts=True)
    quota = share * counts
    sizes = np.floor(quota).astype(np.int64)
    left = round(share * len(strata)) - int(sizes.sum())
    for k in np.argsort(-(quota - sizes), kind="stable")[: max(left, 0)]:
        sizes[k] += 1
    for value, size in zip(values.tolist(), sizes.tolist()):
        members = np.flatnonzero(strata == value)
        flags[rng.choice(members, size=min(size, len(members)), replace=False)] = 1
    return flags


def strata_columns(design: str, strata: dict[int, int]) -> dict[int, tuple[int, str | None]]:
    """``map_class`` and ``confidence_band`` of each stratum (the band only under ``stratified_confidence``)."""
    if design == "stratified_confidence":
        return {h: (stratum_map_class(h), stratum_band(h)) for h in strata}
    if design == DESIGN_STRATIFIED_LABEL:
        return {h: (h // LABEL_FACTOR, None) for h in strata}
    return {h: (h, None) for h in strata}


def map_classes_of(design: str, strata: np.ndarray) -> np.ndarray:
    """The map class of each stratum value of ``design``."""
    if design == "stratified_confidence":
        return strata // 2
    return strata // LABEL_FACTOR if design == DESIGN_STRATIFIED_LABEL else strata


def crosswalk_codes_of(request: SampleRequest) -> CrosswalkCodes | None:
    """The request's crosswalk resolved on the class map's declared classes (None without one).

    Raises:
        InputError: a ``class`` cell names no class of the map.
    """
    return None if request.crosswalk is None else request.crosswalk.resolve(raster_classes(request.prediction_path))


def labels_of(request: SampleRequest) -> LabelSplit | None:
    """The labels of a request as a :class:`LabelSplit` (None without a reference)."""
    codes = crosswalk_codes_of(request)
    if request.reference_raster:
        return LabelSplit(raster_path=request.reference_raster, crosswalk=codes)
    if request.reference_polygons is not None:
        return LabelSplit(polygons=request.reference_polygons, field=request.reference_field, crosswalk=codes)
    return None


def label_cells(
    request: SampleRequest, grid: Grid, strata: dict[int, int], split: Split, is_canceled=None
) -> dict[tuple[int, int], int] | None:
    """Pixels of each (stratum, label class) cell (table ``review_label_cells``), for the stratified
    designs with a reference; None otherwise. One more pass over the map and the labels, except
    under ``stratified_label`` whose strata are the cells."""
    labels = labels_of(request)
    if labels is None or request.design not in STRATIFIED_DESIGNS:
        return None
    if request.design == DESIGN_STRATIFIED_LABEL:
        return label_cells_of_strata(strata)
    cells: dict[tuple[int, int], int] = {}
    with labels.source(grid).open() as reader:
        for row, col, values, valid in window_reads(grid, request.prediction_path, is_canceled, None, (0, 0), split):
            label, known = reader.read(row, col, *values.shape)
            keep = valid & known & (label.astype(np.int64) >= 0)
            pairs, counts = np.unique(
                np.stack([values[keep].astype(np.int64), label[keep].astype(np.int64)]), axis=1, return_counts=True
            )
            for h, c, n in zip(pairs[0].tolist(), pairs[1].tolist(), counts.tolist()):
                cells[(h, c)] = cells.get((h, c), 0) + n
    return cells


def pixel_items(request: SampleRequest, grid: Grid, pixels: np.ndarray):
    """The items of a pixel sample: ``pixels`` is ``(n, 3)`` rows, columns and strata on ``grid``;
    returns a GeoDataFrame of points (pixel centres) with the fields of the module docstring."""
    import geopandas as gpd

    rows, cols, strata = pixels[:, 0], pixels[:, 1], pixels[:, 2]
    classes = map_classes_of(request.design, strata)
    xs, ys = affine_xy(grid.transform, cols + 0.5, rows + 0.5)
    labels, own_codes = _labels_at(request, grid, rows, cols, np.asarray(xs), np.asarray(ys))
    confidence = (
        _raster_at(request.confidence_path, grid, rows, cols, "confidence raster")
        if request.confidence_path
        else np.full(len(pixels), np.nan)
    )
    has_label = ~np.isnan(labels)
    with np.errstate(invalid="ignore"):
        disagree = (labels != classes).astype(np.float64)
        suspicion = np.where(has_label, disagree * np.where(np.isnan(confidence), 1.0, confidence), 1.0 - confidence)
    columns: dict[str, object] = {
        "item_id": np.arange(1, len(pixels) + 1),
        "stratum": strata if request.design in STRATIFIED_DESIGNS else np.zeros(len(pixels), dtype=np.int64),
        "map_class": classes,
        "label_class": labels,
        "confidence": confidence,
        "suspicion": suspicion,
    }
    if own_codes is not None:
        columns["reference_code"] = own_codes
    return gpd.GeoDataFrame(columns, geometry=gpd.points_from_xy(xs, ys), crs=grid.crs_wkt)


def _labels_at(
    request: SampleRequest, grid: Grid, rows: np.ndarray, cols: np.ndarray, xs, ys
) -> tuple[np.ndarray, list | None]:
    """Reference class at each pixel (NaN where none) and, with a crosswalk, the reference's own
    code there (None where none; a value the crosswalk leaves out has a code and no class)."""
    codes = crosswalk_codes_of(request)
    if request.reference_raster:
        raw = _raster_at(request.reference_raster, grid, rows, cols, "reference")
        if codes is None:
            return raw, None
        own = [None if np.isnan(v) else reference_key(float(v)) for v in raw.tolist()]
        mapped = [codes.code_of(v) for v in own]
        return np.array([np.nan if c is None else c for c in mapped], dtype=np.float64), own
    if request.reference_polygons is None:
        return np.full(len(rows), np.nan), None
    from shapely.geometry import Point

    source = PolygonSource(request.reference_polygons, request.reference_field, grid, crosswalk=codes)
    geometries = list(source.geometries)
    index = BoxIndex(geometries)
    raw_values = source.gdf[source.field].tolist()
    out = np.full(len(rows), np.nan)
    own_codes: list[str | None] = [None] * len(rows)
    for k, (x, y) in enumerate(zip(np.asarray(xs).tolist(), np.asarray(ys).tolist())):
        point = Point(x, y)
        hits = [int(h) for h in index.query((x, y, x, y)) if geometries[int(h)].intersects(point)]
        if hits:
            value = source.values[max(hits)]  # later features win, as when scoring
            out[k] = value if value >= 0 else np.nan
            own_codes[k] = reference_key(raw_values[max(hits)])
    return out, (own_codes if codes is not None else None)


def _raster_at(path: str, grid: Grid, rows: np.ndarray, cols: np.ndarray, what: str) -> np.ndarray:
    """Values of a raster at grid pixels, read on the grid (warped when in another CRS); NaN where invalid."""
    info = raster_info(path, what)
    if not bounds_overlap(grid.bounds, grid_bounds_in(grid, info.bounds, info.crs_wkt)):
        raise InputError.of("layer_outside_prediction", what=what)
    out = np.full(len(rows), np.nan)
    source = ClassRasterSource(path, grid, assume_grid_crs=same_crs(grid.crs_wkt, info.crs_wkt))
    with source.open() as reader:
        for k, (row, col) in enumerate(zip(rows.tolist(), cols.tolist())):
            value, valid = reader.read(int(row), int(col), 1, 1)
            if valid[0, 0]:
                out[k] = float(value[0, 0])
    return out


def suspicious_items(request: SampleRequest, is_canceled, on_progress):
    """The ``suspicious`` design: the reference polygons most contradicted by the model, first
    ``request.samples`` of them; returns ``(grid, strata, items)``.

    Raises:
        InputError: no polygon reference, or no polygon with a scored pixel in the extent.
    """
    import geopandas as gpd

    from ..score import prediction_grid, rank_labels

    if request.reference_polygons is None:
        raise InputError.of("suspicious_needs_polygons")
    grid = prediction_grid(request.prediction_path, request.extent)
    strata = count_classes(request.prediction_path, grid, is_canceled=is_canceled)
    with tempfile.TemporaryDirectory() as folder:
        ranked = rank_labels(
            request.prediction_path,
            request.reference_polygons,
            request.reference_field,
            os.path.join(folder, "ranked.gpkg"),
            confidence_path=request.confidence_path,
            extent=request.extent,
            crosswalk=request.crosswalk,
            is_canceled=is_canceled,
            on_progress=on_progress,
        )
    ranked = ranked[ranked["suspicion"].notna() & ranked["predicted"].notna()].head(request.samples)
    if len(ranked) == 0:
        raise InputError.of("no_scored_polygon")
    predicted = ranked["predicted"].astype(np.int64).to_numpy()
    columns: dict[str, object] = {
        "item_id": np.arange(1, len(ranked) + 1),
        "source_fid": ranked["source_fid"].to_numpy(),
        "stratum": predicted,
        "map_class": predicted,
        "label_class": ranked["label"].to_numpy(),
        "confidence": ranked["mean_confidence"].to_numpy(dtype=np.float64),
        "suspicion": ranked["suspicion"].to_numpy(dtype=np.float64),
    }
    if "reference_code" in ranked.columns:
        columns["reference_code"] = ranked["reference_code"].tolist()
    items = gpd.GeoDataFrame(columns, geometry=ranked.geometry.values, crs=ranked.crs)
    return grid, strata, items


def design_table(
    request: SampleRequest, grid: Grid, strata: dict[int, int], items, pixel_area_m2: dict[int, float]
) -> dict[str, object]:
    """The rows of table ``review_design``: the request, the sampled grid and the classes met."""
    declared = {c.value: c for c in raster_classes(request.prediction_path)}
    seen = {int(v) for v in items["map_class"].tolist()} | {int(v) for v in items["label_class"].dropna().tolist()}
    seen |= {int(v) for v in map_classes_of(request.design, np.array(sorted(strata), dtype=np.int64))}
    classes = [
        {
            "value": v,
            "name": declared[v].name if v in declared else f"class {v}",
            "color": (declared[v].color if v in declared else "") or default_color(v),
        }
        for v in sorted(seen | set(declared))
    ]
    return {
        "design": request.design,
        "samples": request.samples,
        "min_per_class": request.min_per_class,
        "seed": request.seed,
        "prediction": os.path.abspath(request.prediction_path),
        "reference": request.reference_name or (request.reference_raster or ""),
        "reference_source": request.reference_source
        or (os.path.abspath(request.reference_raster) if request.reference_raster else ""),
        "reference_provider": request.reference_provider,
        "reference_field": request.reference_field,
        "reference_kind": "raster"
        if request.reference_raster
        else ("polygons" if request.reference_polygons is not None else ""),
        "reference_identity": request.reference_identity
        or (file_identity(request.reference_raster, "gdal") if request.reference_raster else None),
        "confidence": request.confidence_path or "",
        "confidence_threshold": request.confidence_threshold,
        "low_confidence_share": request.low_confidence_share,
        "double_review": request.double_review,
        "review_order": "shuffled",
        "extent": list(request.extent) if request.extent else None,
        "crs_wkt": grid.crs_wkt or "",
        "pixel_area_m2": sum(strata[h] * pixel_area_m2[h] for h in strata) / sum(strata.values()),
        "pixel_size": abs(grid.transform.a),
        "classes": json.dumps(classes),
        "crosswalk": json.dumps(_crosswalk_entry(request)),
        "created_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }


def _crosswalk_entry(request: SampleRequest) -> dict | None:
    """The crosswalk a review was drawn with (file, SHA-256, lines), so that applying and reporting it
    can check they use the same one and write the reference's own codes back."""
    crosswalk = request.crosswalk
    if crosswalk is None:
        return None
    return {**crosswalk.describe(), "rows": [list(row) for row in crosswalk.rows]}
