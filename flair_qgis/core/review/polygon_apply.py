"""A corrected copy of reference polygons from a review, streamed feature by feature.

Rule (issue 16): a polygon takes a new class only when the decided items (``correct`` or
``wrong``, with a ``true_class``) that fall in it agree on one class. Items of one polygon
that disagree are a *conflict*: the polygon is left as it is, and the conflict is listed in the
output's table ``conflicts`` and in the result (the Processing log). ``unsure`` items and items
without a verdict change nothing.

Which polygon an item falls in:

* an item with a ``source_fid`` (the ``suspicious`` design) belongs to that feature, but only
  when its point (the item geometry's representative point, moved into the layer's CRS) lies in
  that feature's polygon; otherwise the item is *refused* (listed in ``conflicts`` too): the
  layer is not the one whose ids the review recorded, or the feature was redrawn since;
* a point item belongs to the polygon holding its point (the feature with the largest id where
  polygons overlap); an item in no polygon is counted as ``outside``.

Memory: the items are looked up with one request each (by id, or by the point's box, which the
provider answers from its spatial index), then the layer is read once, feature by feature, and
written to the output GeoPackage in transactions of :data:`.polygon_writer.CHUNK` features. Nothing
holds the layer. The layer reaches the core as a :class:`PolygonFeatures` (the QGIS adapter streams
a ``QgsVectorLayerFeatureSource``; :class:`FrameFeatures` wraps a GeoDataFrame).

Output GeoPackage (:mod:`.polygon_writer`): layer ``reference_corrected`` (every field of the
reference, feature ids kept, plus ``label_before``, the class before the review, and
``review_items``, how many decided items agree on the polygon's class, null where none) and table
``conflicts`` (``polygon_fid``, ``label``, ``item_ids``, ``true_classes``, ``reason``).
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..atomic import check_output_path, write_atomic
from ..errors import InputError
from ..paths import check_outputs_not_inputs
from ..score import Crosswalk, polygons_crs_wkt, reference_key
from .apply import DISAGREE, ApplyResult, Conflict, decided_items, item_points
from .code_writeback import CodeWriteBack, code_write_back
from .identity import check_reference_identity
from .polygon_writer import write_corrected_copy
from .schema import ReviewItem
from .store import ReviewStore

OUTSIDE_FID = "point outside its source_fid polygon"
MISSING_FID = "source_fid not in the layer"

Feature = tuple[int, bytes, tuple]
"""``(feature id, WKB geometry or b"", attribute values in the order of the fields)``."""


@dataclass(frozen=True)
class FieldSpec:
    """A field of the reference: its name and kind (``int``, ``real`` or ``text``)."""

    name: str
    kind: str


class PolygonFeatures(Protocol):
    """A polygon layer the core reads feature by feature (any thread).

    Attributes:
        crs_wkt: the layer's CRS as WKT (None when unknown).
        fields: the fields, in the order of each feature's values.
        wkb_type: the layer's WKB geometry type (ISO code, as QGIS and OGR give it).
        feature_count: the number of features (for progress), None when unknown.
    """

    crs_wkt: str | None
    fields: tuple[FieldSpec, ...]
    wkb_type: int
    feature_count: int | None

    def features(
        self, *, fids: Sequence[int] | None = None, bounds: tuple[float, float, float, float] | None = None
    ) -> Iterator[Feature]:
        """The features with these ids, or whose boxes meet ``bounds``, or all of them."""
        ...


def _kind(dtype) -> str:
    return "int" if dtype.kind in "iub" else "real" if dtype.kind == "f" else "text"


@dataclass(frozen=True)
class FrameFeatures:
    """A GeoDataFrame as :class:`PolygonFeatures` (its index is the feature ids)."""

    gdf: object
    crs_wkt: str | None = None
    fields: tuple[FieldSpec, ...] = ()
    wkb_type: int = 6  # MultiPolygon: holds polygons and multipolygons
    feature_count: int | None = None

    @classmethod
    def of(cls, gdf) -> FrameFeatures:
        columns = [c for c in gdf.columns if c != gdf.geometry.name]
        fields = tuple(FieldSpec(str(c), _kind(gdf[c].dtype)) for c in columns)
        return cls(gdf[[*columns, gdf.geometry.name]], polygons_crs_wkt(gdf), fields, 6, len(gdf))

    def features(self, *, fids=None, bounds=None) -> Iterator[Feature]:
        gdf: Any = self.gdf
        if fids is not None:
            gdf = gdf[gdf.index.isin(list(fids))]
        elif bounds is not None:
            box = gdf.bounds
            meets = (
                (box.minx <= bounds[2]) & (box.maxx >= bounds[0]) & (box.miny <= bounds[3]) & (box.maxy >= bounds[1])
            )
            gdf = gdf[meets.to_numpy()]
        names = [f.name for f in self.fields]
        rows = gdf[names].itertuples(index=False, name=None)
        for fid, row, geometry in zip(gdf.index, rows, gdf.geometry):
            wkb = b"" if geometry is None or geometry.is_empty else geometry.wkb
            yield int(fid), wkb, tuple(None if _isnan(v) else (v.item() if hasattr(v, "item") else v) for v in row)


def _isnan(value: object) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


@dataclass
class _Decision:
    """The decided items of one polygon, and its label."""

    label: object
    items: list[ReviewItem] = field(default_factory=list)

    @property
    def classes(self) -> list[int]:
        return sorted({int(i.true_class) for i in self.items})  # type: ignore[arg-type]


def _contains(wkb: bytes, x: float, y: float) -> bool:
    from shapely import wkb as shapely_wkb
    from shapely.geometry import Point

    return bool(wkb) and shapely_wkb.loads(wkb).intersects(Point(x, y))


def _match_items(
    polygons: PolygonFeatures, field_index: int, items, xy, fids: dict
) -> tuple[dict[int, _Decision], list[Conflict], int]:
    """Which polygon each decided item belongs to (one request per item or per batch of ids).

    Returns:
        ``(decisions, refused, outside)``: per polygon id its :class:`_Decision`; refused items
        as conflict rows; how many point items fell in no polygon.
    """
    decisions: dict[int, _Decision] = {}
    refused: list[Conflict] = []
    outside = 0
    wanted = sorted({int(fids[i.item_id]) for i in items if fids.get(i.item_id) is not None})
    by_fid = {fid: (wkb, values) for fid, wkb, values in polygons.features(fids=wanted)} if wanted else {}
    for item, (x, y) in zip(items, xy):
        fid = fids.get(item.item_id)
        if fid is not None:
            found = by_fid.get(int(fid))
            if found is None or not _contains(found[0], x, y):
                label = found[1][field_index] if found else None
                reason = MISSING_FID if found is None else OUTSIDE_FID
                refused.append(_conflict_row(int(fid), label, [item], reason))
                continue
            decisions.setdefault(int(fid), _Decision(found[1][field_index])).items.append(item)
            continue
        hits = [(f, values) for f, wkb, values in polygons.features(bounds=(x, y, x, y)) if _contains(wkb, x, y)]
        if not hits:
            outside += 1
            continue
        fid, values = max(hits, key=lambda hit: hit[0])
        decisions.setdefault(fid, _Decision(values[field_index])).items.append(item)
    return decisions, refused, outside


def _conflict_row(fid: int, label: object, items: list[ReviewItem], reason: str) -> Conflict:
    return Conflict(
        polygon_fid=fid,
        label=None if label is None else str(label),
        item_ids=", ".join(str(i.item_id) for i in items),
        true_classes=", ".join(str(i.true_class) for i in items),
        reason=reason,
    )


def _same_class(label: object, value: int) -> bool:
    try:
        return label is not None and float(label) == value  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False


@dataclass(frozen=True)
class PolygonPlan:
    """What the copy changes: new class per polygon id, items behind each, conflicts."""

    relabel: dict[int, object]
    support: dict[int, int]
    conflicts: list[Conflict]


def plan_polygon_changes(
    decisions: dict[int, _Decision], refused: list[Conflict], codes: CodeWriteBack | None = None
) -> PolygonPlan:
    """Relabel a polygon only when its decided items agree; list the others as conflicts. With
    ``codes`` (a crosswalk) the new label is a reference code (:mod:`.code_writeback`)."""
    relabel: dict[int, object] = {}
    support, conflicts = {}, list(refused)
    for fid in sorted(decisions):
        decision = decisions[fid]
        if len(decision.classes) != 1:
            conflicts.append(_conflict_row(fid, decision.label, decision.items, DISAGREE))
            continue
        if codes is None:
            support[fid] = len(decision.items)
            if not _same_class(decision.label, decision.classes[0]):
                relabel[fid] = decision.classes[0]
            continue
        code, reason = codes.target(decision.label, decision.classes[0], decision.items)
        if reason:
            conflicts.append(_conflict_row(fid, decision.label, decision.items, reason))
            continue
        support[fid] = len(decision.items)
        if reference_key(code) != reference_key(decision.label):
            relabel[fid] = code
    return PolygonPlan(relabel, support, conflicts)


def apply_review_polygons(
    polygons,
    field: str,
    review_path: str,
    output_path: str,
    reference_path: str | None = None,
    *,
    identity: dict | None = None,
    crosswalk: Crosswalk | None = None,
    is_canceled: Callable[[], bool] | None = None,
    on_progress: Callable[[float], None] | None = None,
) -> ApplyResult:
    """Write a corrected copy of reference polygons to a GeoPackage (see the module docstring).

    Args:
        polygons: a :class:`PolygonFeatures` (the Processing shell streams the QGIS layer), a
            GeoDataFrame indexed by the feature ids that ``source_fid`` records, or a vector file
            (read with GeoPandas: ids 0..n-1, so only point items are matched reliably).
        field: the class field.
        review_path: the review GeoPackage.
        output_path: the GeoPackage written.
        reference_path: the file behind ``polygons``, to refuse writing over it.
        identity: the reference's identity (:mod:`.identity`), checked against the one the review
            recorded; None skips the check.
        crosswalk: write reference codes (``CROSSWALK``, default the review's; :mod:`.code_writeback`).
        is_canceled: cancel hook; on cancel nothing is written.
        on_progress: progress in percent.

    Returns:
        Changed, decided, outside, refused, conflicts, changes on one item, warnings.

    Raises:
        InputError: output is an input, another reference than the review's, missing field.
        Canceled: on cancel.
    """
    polygons, reference_path = _features_of(polygons, reference_path)
    check_outputs_not_inputs({"OUTPUT": output_path}, {"REFERENCE": reference_path, "REVIEW": review_path})
    output_path = check_output_path(os.path.abspath(output_path))
    field_index, kind = _class_field(polygons, field)
    items, review_wkt, fids, recorded = _read_review(review_path)
    warnings = check_reference_identity(recorded, identity) if identity is not None else []
    xy = item_points(items, review_wkt, polygons.crs_wkt)
    decisions, refused, outside = _match_items(polygons, field_index, items, xy, fids)
    plan = plan_polygon_changes(decisions, refused, code_write_back(review_path, crosswalk))

    def write(tmp: str) -> None:
        os.remove(tmp)
        write_corrected_copy(tmp, polygons, field, kind, plan, is_canceled, on_progress)

    write_atomic(output_path, write, suffix=".gpkg")
    return ApplyResult(
        output_path,
        len(plan.relabel),
        len(items),
        outside,
        tuple(warnings),
        refused=len(refused),
        conflicts=tuple(plan.conflicts),
        single_item=sum(1 for fid in plan.relabel if plan.support[fid] == 1),
    )


def _features_of(polygons, reference_path: str | None) -> tuple[PolygonFeatures, str | None]:
    """``polygons`` as :class:`PolygonFeatures`, and the file behind them (a path is read with GeoPandas)."""
    import geopandas as gpd

    if isinstance(polygons, (str, os.PathLike)):
        reference_path = os.fspath(polygons)
        polygons = gpd.read_file(reference_path)
    if isinstance(polygons, gpd.GeoDataFrame):
        polygons = FrameFeatures.of(polygons)
    return polygons, reference_path


def _class_field(polygons: PolygonFeatures, field: str) -> tuple[int, str]:
    """Where the class field sits among the layer's fields, and its kind.

    Returns:
        ``(position, kind)`` (kind: ``int``, ``real`` or ``text``).

    Raises:
        InputError: the layer has no field ``field``.
    """
    names = [f.name for f in polygons.fields]
    if field not in names:
        raise InputError.of("missing_class_field", field=field)
    return names.index(field), polygons.fields[names.index(field)].kind


def _read_review(review_path: str) -> tuple[list[ReviewItem], str, dict[int, object], dict | None]:
    """The decided items, the review's CRS, the ``source_fid`` of each item and the recorded reference identity."""
    with ReviewStore.open(review_path) as store:
        recorded = json.loads(store.design["reference_identity"]) if store.design.get("reference_identity") else None
        return decided_items(store), store.design.get("crs_wkt", ""), store.column("source_fid"), recorded
