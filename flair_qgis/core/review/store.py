"""The review GeoPackage: sample items, verdicts written one by one, design and strata tables.

Layout (created by :func:`create_review_file`, checked by :meth:`ReviewStore.open`):

* layer ``review``: one feature per item (point at a pixel centre, or a polygon) with the fields of
  :data:`FIELDS` (extra fields such as ``source_fid`` are allowed);
* table ``review_strata``: ``stratum``, ``pixels`` (N_h inside the extent), ``pixel_area_m2``;
* table ``review_design``: ``key``/``value`` text rows (design, samples, seed, inputs, class
  names and colours as JSON), so a report needs nothing else.

Durability and sharing: each verdict is one SQLite transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``,
``synchronous=FULL``): when :meth:`ReviewStore.set_verdict` returns, the verdict is on disk, and a
crash or a closed QGIS loses nothing. Two sessions on one file are serialised by SQLite's file
lock: each write touches one item, so the last write wins per item and the file stays whole. The
journal mode is left as the file has it (rollback journal when created; QGIS may switch a
GeoPackage it edits to WAL, which SQLite handles the same way).
"""

from __future__ import annotations

import json
import math
import os
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone

from ..atomic import check_output_path, write_atomic
from ..errors import InputError

REVIEW_LAYER = "review"
STRATA_TABLE = "review_strata"
DESIGN_TABLE = "review_design"
SCHEMA_VERSION = "1"
FIELDS: tuple[tuple[str, str], ...] = (
    ("item_id", "INTEGER"),
    ("stratum", "INTEGER"),
    ("map_class", "INTEGER"),
    ("label_class", "INTEGER"),
    ("confidence", "REAL"),
    ("suspicion", "REAL"),
    ("verdict", "TEXT"),
    ("true_class", "INTEGER"),
    ("reviewed_at", "TEXT"),
    ("reviewer", "TEXT"),
    ("note", "TEXT"),
)
VERDICTS = ("correct", "wrong", "unsure")
LOCK_TIMEOUT_S = 10.0
"""How long a write waits for another session's write before giving up."""
_READ_COLUMNS = ", ".join(name for name, _ in FIELDS)


@dataclass(frozen=True)
class ReviewItem:
    """One sample unit as stored (``verdict`` is "" until reviewed)."""

    item_id: int
    stratum: int
    map_class: int | None
    label_class: int | None
    confidence: float | None
    suspicion: float | None
    verdict: str
    true_class: int | None
    reviewed_at: str
    reviewer: str
    note: str
    bounds: tuple[float, float, float, float]
    wkt: str

    @property
    def reviewed(self) -> bool:
        """True once a verdict (correct, wrong or unsure) is recorded."""
        return bool(self.verdict)


def create_review_file(
    path: str,
    items,
    strata: Mapping[int, int],
    pixel_area_m2: float | Mapping[int, float],
    design: Mapping[str, object],
) -> None:
    """Write a new review GeoPackage, completely or not at all.

    Args:
        path: the GeoPackage (replaced when complete).
        items: GeoDataFrame with ``item_id``, the other :data:`FIELDS` it knows (missing ones are
            null), optional ``source_fid``, and geometries in the review CRS.
        strata: ``N_h`` per stratum.
        pixel_area_m2: area of one pixel of the sampled grid (m²), or its mean per stratum.
        design: the design parameters (values JSON-encoded unless strings).

    Raises:
        InputError: bad output path.
    """
    path = check_output_path(path, "review GeoPackage")
    base_columns = ["item_id"] + (["source_fid"] if "source_fid" in items.columns else [])
    frame = items[[*base_columns, items.geometry.name]].copy()

    def write(tmp: str) -> None:
        os.remove(tmp)  # the GPKG driver creates its file itself
        frame.to_file(tmp, layer=REVIEW_LAYER, driver="GPKG")
        with sqlite3.connect(tmp) as conn:
            register_gpkg_functions(conn)
            _fill_item_fields(conn, items)
            _write_design_tables(conn, strata, pixel_area_m2, design)

    write_atomic(path, write, suffix=".gpkg")


def _fill_item_fields(conn: sqlite3.Connection, items) -> None:
    """Add the :data:`FIELDS` columns to the written review layer and fill them from ``items``.

    Args:
        conn: the new GeoPackage, its review layer holding ``item_id`` and the geometries.
        items: the items (fields it lacks stay null; a null verdict becomes ``''``).
    """
    for name, kind in FIELDS[1:]:
        conn.execute(f"ALTER TABLE {REVIEW_LAYER} ADD COLUMN {name} {kind}")
    rows = [
        (
            *(_db_value(items[name].iloc[k]) if name in items.columns else None for name, _ in FIELDS[1:]),
            int(items["item_id"].iloc[k]),
        )
        for k in range(len(items))
    ]
    sets = ", ".join(f"{name} = ?" for name, _ in FIELDS[1:])
    conn.executemany(f"UPDATE {REVIEW_LAYER} SET {sets} WHERE item_id = ?", rows)
    conn.execute(f"UPDATE {REVIEW_LAYER} SET verdict = '' WHERE verdict IS NULL")
    conn.execute(f"CREATE UNIQUE INDEX {REVIEW_LAYER}_item_id ON {REVIEW_LAYER}(item_id)")


def _write_design_tables(
    conn: sqlite3.Connection,
    strata: Mapping[int, int],
    pixel_area_m2: float | Mapping[int, float],
    design: Mapping[str, object],
) -> None:
    """Write the strata and design tables and register them as GeoPackage attribute tables.

    Args:
        conn: the new GeoPackage.
        strata: ``N_h`` per stratum.
        pixel_area_m2: area of one pixel of the sampled grid.
        design: the design parameters (values JSON-encoded unless strings).
    """
    conn.execute(f"CREATE TABLE {STRATA_TABLE} (stratum INTEGER PRIMARY KEY, pixels INTEGER, pixel_area_m2 REAL)")
    conn.executemany(
        f"INSERT INTO {STRATA_TABLE} VALUES (?, ?, ?)",
        [
            (int(s), int(n), float(pixel_area_m2[s] if isinstance(pixel_area_m2, Mapping) else pixel_area_m2))
            for s, n in sorted(strata.items())
        ],
    )
    conn.execute(f"CREATE TABLE {DESIGN_TABLE} (key TEXT PRIMARY KEY, value TEXT)")
    values = {**design, "schema_version": SCHEMA_VERSION}
    conn.executemany(
        f"INSERT INTO {DESIGN_TABLE} VALUES (?, ?)",
        [(k, v if isinstance(v, str) else json.dumps(v)) for k, v in values.items()],
    )
    # Registered as attribute tables so QGIS and GDAL list them.
    conn.executemany(
        "INSERT INTO gpkg_contents (table_name, data_type, identifier) VALUES (?, 'attributes', ?)",
        [(STRATA_TABLE, STRATA_TABLE), (DESIGN_TABLE, DESIGN_TABLE)],
    )


def _db_value(value: object) -> object:
    """A numpy/pandas scalar as a SQLite value (NaN and None are NULL)."""
    if value is None:
        return None
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def _geometry_of(blob: bytes | None) -> tuple[tuple[float, float, float, float], str]:
    """Bounds and WKT of a GeoPackage geometry blob (header, optional envelope, then WKB)."""
    from shapely import wkb

    if not blob:
        return (0.0, 0.0, 0.0, 0.0), ""
    flags = blob[3]
    envelope_bytes = {0: 0, 1: 32, 2: 48, 3: 48, 4: 64}.get((flags >> 1) & 0x07, 0)
    geometry = wkb.loads(bytes(blob[8 + envelope_bytes :]))
    return tuple(float(v) for v in geometry.bounds), geometry.wkt  # type: ignore[return-value]


def register_gpkg_functions(conn: sqlite3.Connection) -> None:
    """The SQL functions GDAL's GeoPackage triggers call (``ST_IsEmpty``, ``ST_MinX``, ...).

    SQLite prepares every trigger of a table on UPDATE, even those whose condition is false, so a
    plain connection needs them to update attributes of a GDAL-written layer.
    """

    def bound(k: int):
        return lambda blob: _geometry_of(blob)[0][k] if blob else None

    conn.create_function("ST_IsEmpty", 1, lambda blob: 1 if not blob or blob[3] & 0x10 else 0)
    for k, name in enumerate(("ST_MinX", "ST_MinY", "ST_MaxX", "ST_MaxY")):
        conn.create_function(name, 1, bound(k))


def _item(row: Sequence) -> ReviewItem:
    bounds, wkt = _geometry_of(row[len(FIELDS)])
    return ReviewItem(
        item_id=int(row[0]), stratum=int(row[1]) if row[1] is not None else 0,
        map_class=row[2], label_class=row[3], confidence=row[4], suspicion=row[5],
        verdict=row[6] or "", true_class=row[7], reviewed_at=row[8] or "", reviewer=row[9] or "",
        note=row[10] or "", bounds=bounds, wkt=wkt,
    )  # fmt: skip


class ReviewStore:
    """An open review GeoPackage. Reads are cheap; every write is durable when it returns.

    Use :meth:`open`; close with :meth:`close` (or as a context manager).
    """

    def __init__(self, path: str, conn: sqlite3.Connection, geometry_column: str) -> None:
        self.path = path
        self._conn = conn
        self._geometry_column = geometry_column
        self.design = {k: v for k, v in conn.execute(f"SELECT key, value FROM {DESIGN_TABLE}")}
        self.strata = {
            int(s): int(n) for s, n in conn.execute(f"SELECT stratum, pixels FROM {STRATA_TABLE} ORDER BY stratum")
        }
        default = float(self.design.get("pixel_area_m2", "1"))
        self.stratum_pixel_area_m2 = {
            int(s): float(a) if a is not None else default
            for s, a in conn.execute(f"SELECT stratum, pixel_area_m2 FROM {STRATA_TABLE} ORDER BY stratum")
        }
        """Mean area (m²) of one pixel of each stratum (geographic CRSs: geodesic, varies by row)."""
        total = sum(self.strata.values())
        self.pixel_area_m2 = (
            sum(n * self.stratum_pixel_area_m2[s] for s, n in self.strata.items()) / total if total else default
        )
        """Mean area (m²) of one pixel of the map."""
        self.pixel_size = float(self.design.get("pixel_size", self.pixel_area_m2**0.5))
        """Pixel width in the review CRS's units (for zooming on an item)."""

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> ReviewStore:
        """Open and check a review GeoPackage.

        Raises:
            InputError: missing file, not a GeoPackage, or a GeoPackage of another schema.
        """
        path = os.path.abspath(os.fspath(path))
        if not os.path.isfile(path):
            raise InputError(f"The review file does not exist: {path}. Create one with flair:sample.")
        advice = "Open a review GeoPackage made by flair:sample (or create one in the Review tab)."
        try:
            conn = sqlite3.connect(path, timeout=LOCK_TIMEOUT_S, isolation_level=None)
            register_gpkg_functions(conn)
            tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        except sqlite3.DatabaseError as err:
            raise InputError(f"{path} is not a GeoPackage ({err}). {advice}") from err
        missing = [t for t in (REVIEW_LAYER, STRATA_TABLE, DESIGN_TABLE, "gpkg_geometry_columns") if t not in tables]
        if missing:
            conn.close()
            raise InputError(f"{path} is not a review GeoPackage: it has no {', '.join(missing)} table. {advice}")
        columns = {row[1] for row in conn.execute(f"PRAGMA table_info({REVIEW_LAYER})")}
        absent = [name for name, _ in FIELDS if name not in columns]
        geometry = [g for (g,) in conn.execute(
            "SELECT column_name FROM gpkg_geometry_columns WHERE table_name = ?", (REVIEW_LAYER,)
        )]  # fmt: skip
        if absent or not geometry:
            conn.close()
            what = f"fields {', '.join(absent)}" if absent else "geometry"
            raise InputError(f"{path} is a GeoPackage of another schema: its layer 'review' lacks the {what}. {advice}")
        conn.execute("PRAGMA synchronous = FULL")
        return cls(path, conn, geometry[0])

    def __enter__(self) -> ReviewStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection (every verdict is already on disk)."""
        self._conn.close()

    def items(self) -> list[ReviewItem]:
        """Every item, in review order (``item_id``)."""
        sql = f'SELECT {_READ_COLUMNS}, "{self._geometry_column}" FROM {REVIEW_LAYER} ORDER BY item_id'
        return [_item(row) for row in self._conn.execute(sql)]

    def item(self, item_id: int) -> ReviewItem:
        """One item as it is on disk now (another session may have changed it).

        Raises:
            InputError: no such item.
        """
        sql = f'SELECT {_READ_COLUMNS}, "{self._geometry_column}" FROM {REVIEW_LAYER} WHERE item_id = ?'
        rows = self._conn.execute(sql, (int(item_id),)).fetchall()
        if not rows:
            raise InputError(f"The review has no item {item_id}.")
        return _item(rows[0])

    def column(self, name: str) -> dict[int, object]:
        """``item_id -> value`` of an extra field (e.g. ``source_fid``); empty when there is none."""
        columns = {row[1] for row in self._conn.execute(f"PRAGMA table_info({REVIEW_LAYER})")}
        if name not in columns or name in dict(FIELDS):
            return {}
        return dict(self._conn.execute(f'SELECT item_id, "{name}" FROM {REVIEW_LAYER}'))

    def set_verdict(
        self, item_id: int, verdict: str, true_class: int | None, reviewer: str = "", note: str | None = None
    ) -> None:
        """Record a verdict for one item, durably (one transaction; the last write wins).

        Args:
            item_id: the item.
            verdict: ``correct``, ``wrong``, ``unsure``, or "" to clear it.
            true_class: the class seen on the ground (None for unsure).
            reviewer: who decided.
            note: a free note (None leaves the stored note).

        Raises:
            InputError: unknown verdict or item, or the file stays locked by another program.
        """
        if verdict not in (*VERDICTS, ""):
            raise InputError(f"Unknown verdict '{verdict}': use one of {', '.join(VERDICTS)}.")
        when = datetime.now(timezone.utc).isoformat(timespec="seconds") if verdict else None
        sql = f"UPDATE {REVIEW_LAYER} SET verdict = ?, true_class = ?, reviewed_at = ?, reviewer = ?"
        args: list[object] = [verdict, true_class if verdict else None, when, reviewer if verdict else None]
        if note is not None:
            sql += ", note = ?"
            args.append(note)
        self._write(sql + " WHERE item_id = ?", (*args, int(item_id)))

    def set_note(self, item_id: int, note: str) -> None:
        """Record a free note for one item, durably (the verdict is left as it is).

        Raises:
            InputError: unknown item, or the file stays locked by another program.
        """
        self._write(f"UPDATE {REVIEW_LAYER} SET note = ? WHERE item_id = ?", (note, int(item_id)))

    def _write(self, sql: str, args: Sequence[object]) -> None:
        try:
            self._conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as err:
            raise InputError(
                f"The review file {self.path} stayed locked by another program for {LOCK_TIMEOUT_S:g} s ({err}); "
                "the verdict was not saved: try again."
            ) from err
        try:
            changed = self._conn.execute(sql, args).rowcount
            if changed != 1:
                raise InputError(f"The review has no item {args[-1]}.")
            self._conn.execute("COMMIT")
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
