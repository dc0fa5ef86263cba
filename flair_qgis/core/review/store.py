"""The review GeoPackage: sample items, verdicts written one by one, design and strata tables.

Layout (created by :func:`create_review_file`, checked by :meth:`ReviewStore.open`):

* layer ``review``: one feature per item (point at a pixel centre, or a polygon) with the fields of
  :data:`FIELDS` (extra fields such as ``source_fid`` are allowed);
* table ``review_strata``: ``stratum``, ``pixels`` (N_h inside the extent), ``pixel_area_m2``,
  ``map_class`` and ``confidence_band`` (``low``/``high`` under ``stratified_confidence``, else null);
* table ``review_design``: ``key``/``value`` text rows (design, samples, seed, inputs, class
  names and colours as JSON), so a report needs nothing else;
* two interpreters: layer ``review`` also has ``double`` (1: a second interpreter reviews the
  item blind) and ``seconds`` (time from showing the item to the verdict); table
  ``second_review`` (``item_id``, ``verdict``, ``true_class``, ``reviewer``, ``reviewed_at``,
  ``seconds``, ``note``; one row per item) holds the second interpreter's verdicts and table
  ``adjudication`` (``item_id``, ``true_class``, ``reviewer``, ``decided_at``) the class decided
  where the two disagree. Reviews made before these existed open as they are; the tables are
  created by the first write that needs them.

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
OPTIONAL_FIELDS: tuple[tuple[str, str], ...] = (("double", "INTEGER"), ("seconds", "REAL"))
"""Fields of layer ``review`` that older reviews lack (read as 0 / null there)."""
SECOND_TABLE = "second_review"
ADJUDICATION_TABLE = "adjudication"
_SECOND_COLUMNS = (
    "item_id INTEGER PRIMARY KEY, verdict TEXT, true_class INTEGER, reviewer TEXT, reviewed_at TEXT, "
    "seconds REAL, note TEXT"
)
_ADJUDICATION_COLUMNS = "item_id INTEGER PRIMARY KEY, true_class INTEGER, reviewer TEXT, decided_at TEXT"
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
    strata_columns: Mapping[int, tuple[int, str | None]] | None = None,
) -> None:
    """Write a new review GeoPackage, completely or not at all.

    Args:
        path: the GeoPackage (replaced when complete).
        items: GeoDataFrame with ``item_id``, the other :data:`FIELDS` it knows (missing ones are
            null), optional ``source_fid``, and geometries in the review CRS.
        strata: ``N_h`` per stratum.
        pixel_area_m2: area of one pixel of the sampled grid (m²), or its mean per stratum.
        design: the design parameters (values JSON-encoded unless strings).
        strata_columns: ``(map_class, confidence_band)`` per stratum (default: the stratum is the
            map class, no band).

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
            _write_design_tables(conn, strata, pixel_area_m2, design, strata_columns or {h: (h, None) for h in strata})
            _create_interpreter_tables(conn)

    write_atomic(path, write, suffix=".gpkg")


def _fill_item_fields(conn: sqlite3.Connection, items) -> None:
    """Add the :data:`FIELDS` columns to the written review layer and fill them from ``items``.

    Args:
        conn: the new GeoPackage, its review layer holding ``item_id`` and the geometries.
        items: the items (fields it lacks stay null; a null verdict becomes ``''``).
    """
    fields = (*FIELDS[1:], *OPTIONAL_FIELDS)
    for name, kind in fields:
        conn.execute(f"ALTER TABLE {REVIEW_LAYER} ADD COLUMN {name} {kind}")
    rows = [
        (
            *(_db_value(items[name].iloc[k]) if name in items.columns else None for name, _ in fields),
            int(items["item_id"].iloc[k]),
        )
        for k in range(len(items))
    ]
    sets = ", ".join(f"{name} = ?" for name, _ in fields)
    conn.executemany(f"UPDATE {REVIEW_LAYER} SET {sets} WHERE item_id = ?", rows)
    conn.execute(f"UPDATE {REVIEW_LAYER} SET verdict = '' WHERE verdict IS NULL")
    conn.execute(f"UPDATE {REVIEW_LAYER} SET double = 0 WHERE double IS NULL")
    conn.execute(f"CREATE UNIQUE INDEX {REVIEW_LAYER}_item_id ON {REVIEW_LAYER}(item_id)")


def _write_design_tables(
    conn: sqlite3.Connection,
    strata: Mapping[int, int],
    pixel_area_m2: float | Mapping[int, float],
    design: Mapping[str, object],
    strata_columns: Mapping[int, tuple[int, str | None]],
) -> None:
    """Write the strata and design tables and register them as GeoPackage attribute tables.

    Args:
        conn: the new GeoPackage.
        strata: ``N_h`` per stratum.
        pixel_area_m2: area of one pixel of the sampled grid.
        design: the design parameters (values JSON-encoded unless strings).
        strata_columns: ``(map_class, confidence_band)`` per stratum.
    """
    conn.execute(
        f"CREATE TABLE {STRATA_TABLE} (stratum INTEGER PRIMARY KEY, pixels INTEGER, pixel_area_m2 REAL, "
        "map_class INTEGER, confidence_band TEXT)"
    )
    conn.executemany(
        f"INSERT INTO {STRATA_TABLE} VALUES (?, ?, ?, ?, ?)",
        [
            (int(s), int(n), float(pixel_area_m2[s] if isinstance(pixel_area_m2, Mapping) else pixel_area_m2),
             int(strata_columns[s][0]), strata_columns[s][1])
            for s, n in sorted(strata.items())
        ],
    )  # fmt: skip
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


def _create_interpreter_tables(conn: sqlite3.Connection) -> None:
    """The second interpreter's and the adjudication tables, registered as attribute tables."""
    for table, columns in ((SECOND_TABLE, _SECOND_COLUMNS), (ADJUDICATION_TABLE, _ADJUDICATION_COLUMNS)):
        conn.execute(f"CREATE TABLE IF NOT EXISTS {table} ({columns})")
        conn.execute(
            "INSERT OR IGNORE INTO gpkg_contents (table_name, data_type, identifier) VALUES (?, 'attributes', ?)",
            (table, table),
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


@dataclass(frozen=True)
class SecondReview:
    """The second interpreter's verdict on one item (table ``second_review``)."""

    item_id: int
    verdict: str
    true_class: int | None
    reviewer: str
    reviewed_at: str
    seconds: float | None
    note: str


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
        self,
        item_id: int,
        verdict: str,
        true_class: int | None,
        reviewer: str = "",
        note: str | None = None,
        seconds: float | None = None,
    ) -> None:
        """Record a verdict for one item, durably (one transaction; the last write wins).

        Args:
            item_id: the item.
            verdict: ``correct``, ``wrong``, ``unsure``, or "" to clear it.
            true_class: the class seen on the ground (None for unsure).
            reviewer: who decided.
            note: a free note (None leaves the stored note).
            seconds: time from showing the item to the verdict (None leaves it; ignored on reviews
                made before the field existed).

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
        if seconds is not None and self._has_column("seconds"):
            sql += ", seconds = ?"
            args.append(float(seconds))
        self._write(sql + " WHERE item_id = ?", (*args, int(item_id)))

    def _has_column(self, name: str) -> bool:
        return name in {row[1] for row in self._conn.execute(f"PRAGMA table_info({REVIEW_LAYER})")}

    def _has_table(self, name: str) -> bool:
        query = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?"
        return bool(self._conn.execute(query, (name,)).fetchall())

    def doubles(self) -> set[int]:
        """Items marked for a second interpreter (``double = 1``); none in older reviews."""
        return {int(k) for k, v in self.column("double").items() if v}

    def seconds(self) -> dict[int, float]:
        """``item_id -> seconds`` from showing the item to the first verdict, where recorded."""
        return {int(k): float(v) for k, v in self.column("seconds").items() if isinstance(v, (int, float))}

    def set_seconds(self, item_id: int, seconds: float) -> None:
        """Record how long the first verdict took (no-op on a review made before ``seconds`` existed)."""
        if self._has_column("seconds"):
            self._write(f"UPDATE {REVIEW_LAYER} SET seconds = ? WHERE item_id = ?", (float(seconds), int(item_id)))

    def second_reviews(self) -> dict[int, SecondReview]:
        """The second interpreter's verdicts by item (empty without the table)."""
        if not self._has_table(SECOND_TABLE):
            return {}
        rows = self._conn.execute(
            f"SELECT item_id, verdict, true_class, reviewer, reviewed_at, seconds, note FROM {SECOND_TABLE}"
        )
        return {
            int(r[0]): SecondReview(int(r[0]), r[1] or "", r[2], r[3] or "", r[4] or "", r[5], r[6] or "") for r in rows
        }

    def set_second_verdict(
        self,
        item_id: int,
        verdict: str,
        true_class: int | None,
        reviewer: str,
        seconds: float | None = None,
        note: str = "",
    ) -> None:
        """Record the second interpreter's verdict on a ``double`` item, durably ("" clears it).

        Raises:
            InputError: unknown verdict or item, an item not marked ``double``, the same reviewer as
                the first verdict, or the file stays locked.
        """
        if verdict not in (*VERDICTS, ""):
            raise InputError(f"Unknown verdict '{verdict}': use one of {', '.join(VERDICTS)}.")
        first = self.item(item_id)
        if int(item_id) not in self.doubles():
            raise InputError(f"Item {item_id} is not marked for a second review (field 'double').")
        if verdict and reviewer and first.reviewer and reviewer == first.reviewer:
            raise InputError(
                f"{reviewer} gave the first verdict on item {item_id}: the second review must be another person's."
            )
        self._ensure_interpreter_tables()
        if not verdict:
            self._write(f"DELETE FROM {SECOND_TABLE} WHERE item_id = ?", (int(item_id),), rows=None)
            return
        when = datetime.now(timezone.utc).isoformat(timespec="seconds")
        self._write(
            f"INSERT OR REPLACE INTO {SECOND_TABLE} VALUES (?, ?, ?, ?, ?, ?, ?)",
            (int(item_id), verdict, true_class, reviewer, when, seconds, note),
        )

    def adjudications(self) -> dict[int, tuple[int, str, str]]:
        """``item_id -> (true_class, reviewer, decided_at)`` (empty without the table)."""
        if not self._has_table(ADJUDICATION_TABLE):
            return {}
        rows = self._conn.execute(f"SELECT item_id, true_class, reviewer, decided_at FROM {ADJUDICATION_TABLE}")
        return {int(r[0]): (int(r[1]), r[2] or "", r[3] or "") for r in rows if r[1] is not None}

    def set_adjudication(self, item_id: int, true_class: int | None, reviewer: str) -> None:
        """Record the class decided for an item the two interpreters disagree on (None clears it).

        Raises:
            InputError: unknown item, or the file stays locked.
        """
        self.item(item_id)
        self._ensure_interpreter_tables()
        if true_class is None:
            self._write(f"DELETE FROM {ADJUDICATION_TABLE} WHERE item_id = ?", (int(item_id),), rows=None)
            return
        when = datetime.now(timezone.utc).isoformat(timespec="seconds")
        self._write(
            f"INSERT OR REPLACE INTO {ADJUDICATION_TABLE} VALUES (?, ?, ?, ?)",
            (int(item_id), int(true_class), reviewer, when),
        )

    def disagreements(self, items: list[ReviewItem] | None = None) -> list[int]:
        """Items whose two interpreters gave different true classes, in review order (the
        "Disagreements" queue; adjudicated ones included, see :meth:`adjudications`)."""
        second = self.second_reviews()
        items = self.items() if items is None else items
        return [
            i.item_id for i in items
            if i.item_id in second and i.true_class is not None and second[i.item_id].true_class is not None
            and second[i.item_id].true_class != i.true_class
        ]  # fmt: skip

    def _ensure_interpreter_tables(self) -> None:
        if self._has_table(SECOND_TABLE) and self._has_table(ADJUDICATION_TABLE):
            return
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            _create_interpreter_tables(self._conn)
            self._conn.execute("COMMIT")
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise

    def set_note(self, item_id: int, note: str) -> None:
        """Record a free note for one item, durably (the verdict is left as it is).

        Raises:
            InputError: unknown item, or the file stays locked by another program.
        """
        self._write(f"UPDATE {REVIEW_LAYER} SET note = ? WHERE item_id = ?", (note, int(item_id)))

    def _write(self, sql: str, args: Sequence[object], rows: int | None = 1) -> None:
        try:
            self._conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as err:
            raise InputError(
                f"The review file {self.path} stayed locked by another program for {LOCK_TIMEOUT_S:g} s ({err}); "
                "the verdict was not saved: try again."
            ) from err
        try:
            changed = self._conn.execute(sql, args).rowcount
            if rows is not None and changed != rows:
                raise InputError(f"The review has no item {args[-1]}.")
            self._conn.execute("COMMIT")
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
