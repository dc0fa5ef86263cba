"""An open review GeoPackage: items read, verdicts written one by one (:class:`ReviewStore`).

The layout is :mod:`.schema`'s (new files: :func:`~.schema.create_review_file`); geometry blobs are
read by :mod:`.gpkg_blob`; the second interpreter's rules are :mod:`.interpreters`'.

Durability and sharing: each verdict is one SQLite transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``,
``synchronous=FULL``): when :meth:`ReviewStore.set_verdict` returns, the verdict is on disk, and a
crash or a closed QGIS loses nothing. Two sessions on one file are serialised by SQLite's file
lock: each write touches one item, so the last write wins per item and the file stays whole. The
journal mode is left as the file has it (rollback journal when created; QGIS may switch a
GeoPackage it edits to WAL, which SQLite handles the same way).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Sequence
from datetime import datetime, timezone

from ..errors import InputError
from .gpkg_blob import geometry_of, register_gpkg_functions
from .interpreters import SecondReview, check_second_verdict, disagreements, second_review_of
from .schema import (
    ADJUDICATION_TABLE,
    DESIGN_TABLE,
    FIELDS,
    LABEL_CELLS_TABLE,
    REVIEW_LAYER,
    SECOND_TABLE,
    STRATA_TABLE,
    ReviewItem,
    check_verdict,
    create_interpreter_tables,
)
from .sql import sql, sql_name_ok

LOCK_TIMEOUT_S = 10.0
"""How long a write waits for another session's write before giving up."""
_READ_COLUMNS = ", ".join(name for name, _ in FIELDS)


def _item(row: Sequence) -> ReviewItem:
    bounds, wkt = geometry_of(row[len(FIELDS)])
    return ReviewItem(
        item_id=int(row[0]),
        stratum=int(row[1]) if row[1] is not None else 0,
        map_class=row[2],
        label_class=row[3],
        confidence=row[4],
        suspicion=row[5],
        verdict=row[6] or "",
        true_class=row[7],
        reviewed_at=row[8] or "",
        reviewer=row[9] or "",
        note=row[10] or "",
        bounds=bounds,
        wkt=wkt,
    )


class ReviewStore:
    """An open review GeoPackage. Reads are cheap; every write is durable when it returns.

    Use :meth:`open`; close with :meth:`close` (or as a context manager).
    """

    def __init__(self, path: str, conn: sqlite3.Connection, geometry_column: str) -> None:
        self.path = path
        self._conn = conn
        self._geometry_column = geometry_column
        self._names = {"columns": _READ_COLUMNS, "geometry": geometry_column, "table": REVIEW_LAYER}
        self.design = {k: v for k, v in conn.execute(sql("SELECT key, value FROM {table}", table=DESIGN_TABLE))}
        self.strata = {
            int(s): int(n)
            for s, n in conn.execute(sql("SELECT stratum, pixels FROM {table} ORDER BY stratum", table=STRATA_TABLE))
        }
        default = float(self.design.get("pixel_area_m2", "1"))
        self.stratum_pixel_area_m2 = {
            int(s): float(a) if a is not None else default
            for s, a in conn.execute(
                sql("SELECT stratum, pixel_area_m2 FROM {table} ORDER BY stratum", table=STRATA_TABLE)
            )
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
            raise InputError.of("review_file_missing", path=path)
        try:
            conn = sqlite3.connect(path, timeout=LOCK_TIMEOUT_S, isolation_level=None)
            register_gpkg_functions(conn)
            tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        except sqlite3.DatabaseError as err:
            raise InputError.of("not_a_geopackage", path=path, error=str(err)) from err
        missing = [t for t in (REVIEW_LAYER, STRATA_TABLE, DESIGN_TABLE, "gpkg_geometry_columns") if t not in tables]
        if missing:
            conn.close()
            raise InputError.of("not_a_review", path=path, tables=", ".join(missing))
        columns = {row[1] for row in conn.execute(f"PRAGMA table_info({REVIEW_LAYER})")}
        absent = [name for name, _ in FIELDS if name not in columns]
        geometry = [
            g
            for (g,) in conn.execute(
                "SELECT column_name FROM gpkg_geometry_columns WHERE table_name = ?", (REVIEW_LAYER,)
            )
        ]
        if absent or not geometry:
            conn.close()
            if absent:
                raise InputError.of("review_lacks_fields", path=path, fields=", ".join(absent))
            raise InputError.of("review_lacks_geometry", path=path)
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
        query = sql('SELECT {columns}, "{geometry}" FROM {table} ORDER BY item_id', **self._names)
        return [_item(row) for row in self._conn.execute(query)]

    def item(self, item_id: int) -> ReviewItem:
        """One item as it is on disk now (another session may have changed it).

        Raises:
            InputError: no such item.
        """
        query = sql('SELECT {columns}, "{geometry}" FROM {table} WHERE item_id = ?', **self._names)
        rows = self._conn.execute(query, (int(item_id),)).fetchall()
        if not rows:
            raise InputError.of("unknown_item", item_id=item_id)
        return _item(rows[0])

    def column(self, name: str) -> dict[int, object]:
        """``item_id -> value`` of an extra field (e.g. ``source_fid``); empty when there is none."""
        columns = {row[1] for row in self._conn.execute(f"PRAGMA table_info({REVIEW_LAYER})")}
        if name not in columns or name in dict(FIELDS) or not sql_name_ok(name):
            return {}
        return dict(self._conn.execute(sql('SELECT item_id, "{name}" FROM {table}', name=name, table=REVIEW_LAYER)))

    def set_verdict(
        self,
        item_id: int,
        verdict: str,
        true_class: int | None,
        reviewer: str = "",
        note: str | None = None,
        seconds: float | None = None,
        true_code: str | None = None,
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
            true_code: the reference's own code seen on the ground, where several codes count as
                ``true_class`` (issue 40; field ``true_code``, added by the first verdict naming one).

        Raises:
            InputError: unknown verdict or item, or the file stays locked by another program.
        """
        check_verdict(verdict)
        when = datetime.now(timezone.utc).isoformat(timespec="seconds") if verdict else None
        query = sql("UPDATE {table} SET verdict = ?, true_class = ?, reviewed_at = ?, reviewer = ?", table=REVIEW_LAYER)
        args: list[object] = [verdict, true_class if verdict else None, when, reviewer if verdict else None]
        if note is not None:
            query += ", note = ?"
            args.append(note)
        if seconds is not None and self._has_column("seconds"):
            query += ", seconds = ?"
            args.append(float(seconds))
        if self._add_code_column(REVIEW_LAYER, true_code):
            query += ", true_code = ?"
            args.append(true_code if verdict and true_code else None)
        self._write(query + " WHERE item_id = ?", (*args, int(item_id)))

    def _has_column(self, name: str, table: str = REVIEW_LAYER) -> bool:
        return name in {row[1] for row in self._conn.execute(sql("PRAGMA table_info({table})", table=table))}

    def _add_code_column(self, table: str, true_code: str | None) -> list[str]:
        """Add field ``true_code`` to ``table`` on the first verdict naming a code; the fields to
        write (``true_code`` where the table has it)."""
        if true_code and not self._has_column("true_code", table):
            self._write(sql("ALTER TABLE {table} ADD COLUMN true_code TEXT", table=table), (), rows=None)
        return ["true_code"] if self._has_column("true_code", table) else []

    def true_codes(self, mode: str = "first") -> dict[int, str]:
        """``item_id -> reference code`` named by the verdicts of one interpreter (``mode`` as in
        :data:`~.session.MODES`: ``first``, ``second`` or ``adjudicate``); empty where none named one."""
        table = {"first": REVIEW_LAYER, "second": SECOND_TABLE, "adjudicate": ADJUDICATION_TABLE}[mode]
        if not self._has_table(table) or not self._has_column("true_code", table):
            return {}
        rows = self._conn.execute(sql("SELECT item_id, true_code FROM {table} WHERE true_code <> ''", table=table))
        return {int(k): str(v) for k, v in rows if v is not None}

    def _has_table(self, name: str) -> bool:
        query = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?"
        return bool(self._conn.execute(query, (name,)).fetchall())

    @property
    def label_cells(self) -> dict[tuple[int, int], int] | None:
        """Pixels of each (stratum, label class) cell recorded at sampling (table ``review_label_cells``),
        or None for a review made before they were recorded (or without a raster reference)."""
        if not self._has_table(LABEL_CELLS_TABLE):
            return None
        rows = self._conn.execute(sql("SELECT stratum, label_class, pixels FROM {table}", table=LABEL_CELLS_TABLE))
        return {(int(h), int(c)): int(n) for h, c, n in rows}

    def doubles(self) -> set[int]:
        """Items marked for a second interpreter (``double = 1``); none in older reviews."""
        return {int(k) for k, v in self.column("double").items() if v}

    def seconds(self) -> dict[int, float]:
        """``item_id -> seconds`` from showing the item to the first verdict, where recorded."""
        return {int(k): float(v) for k, v in self.column("seconds").items() if isinstance(v, (int, float))}

    def second_reviews(self) -> dict[int, SecondReview]:
        """The second interpreter's verdicts by item (empty without the table)."""
        if not self._has_table(SECOND_TABLE):
            return {}
        rows = self._conn.execute(
            sql(
                "SELECT item_id, verdict, true_class, reviewer, reviewed_at, seconds, note FROM {table}",
                table=SECOND_TABLE,
            )
        )
        return {int(r[0]): second_review_of(r) for r in rows}

    def set_second_verdict(
        self,
        item_id: int,
        verdict: str,
        true_class: int | None,
        reviewer: str,
        seconds: float | None = None,
        note: str = "",
        true_code: str | None = None,
    ) -> None:
        """Record the second interpreter's verdict on a ``double`` item, durably ("" clears it);
        ``true_code`` as in :meth:`set_verdict` (field ``true_code`` of table ``second_review``).

        Raises:
            InputError: unknown verdict or item, an item not marked ``double``, the same reviewer as
                the first verdict, or the file stays locked.
        """
        check_verdict(verdict)
        check_second_verdict(self.item(item_id), self.doubles(), verdict, reviewer)
        self._ensure_interpreter_tables()
        if not verdict:
            self._write(sql("DELETE FROM {table} WHERE item_id = ?", table=SECOND_TABLE), (int(item_id),), rows=None)
            return
        when = datetime.now(timezone.utc).isoformat(timespec="seconds")
        columns = ["item_id", "verdict", "true_class", "reviewer", "reviewed_at", "seconds", "note"]
        code = self._add_code_column(SECOND_TABLE, true_code)
        self._write(
            sql(
                "INSERT OR REPLACE INTO {table} ({columns}) VALUES ({marks})",
                len(columns) + len(code),
                table=SECOND_TABLE,
                columns=columns + code,
            ),
            (int(item_id), verdict, true_class, reviewer, when, seconds, note, *([true_code or None] if code else [])),
        )

    def adjudications(self) -> dict[int, tuple[int, str, str]]:
        """``item_id -> (true_class, reviewer, decided_at)`` (empty without the table)."""
        if not self._has_table(ADJUDICATION_TABLE):
            return {}
        rows = self._conn.execute(
            sql("SELECT item_id, true_class, reviewer, decided_at FROM {table}", table=ADJUDICATION_TABLE)
        )
        return {int(r[0]): (int(r[1]), r[2] or "", r[3] or "") for r in rows if r[1] is not None}

    def set_adjudication(
        self, item_id: int, true_class: int | None, reviewer: str, true_code: str | None = None
    ) -> None:
        """Record the class decided for an item the two interpreters disagree on (None clears it),
        and the reference code seen (``true_code`` as in :meth:`set_verdict`; table ``adjudication``).

        Raises:
            InputError: unknown item, or the file stays locked.
        """
        self.item(item_id)
        self._ensure_interpreter_tables()
        if true_class is None:
            self._write(
                sql("DELETE FROM {table} WHERE item_id = ?", table=ADJUDICATION_TABLE), (int(item_id),), rows=None
            )
            return
        when = datetime.now(timezone.utc).isoformat(timespec="seconds")
        columns = ["item_id", "true_class", "reviewer", "decided_at"]
        code = self._add_code_column(ADJUDICATION_TABLE, true_code)
        self._write(
            sql(
                "INSERT OR REPLACE INTO {table} ({columns}) VALUES ({marks})",
                len(columns) + len(code),
                table=ADJUDICATION_TABLE,
                columns=columns + code,
            ),
            (int(item_id), int(true_class), reviewer, when, *([true_code or None] if code else [])),
        )

    def disagreements(self, items: list[ReviewItem] | None = None) -> list[int]:
        """Items whose two interpreters gave different true classes, in review order (the
        "Disagreements" queue; adjudicated ones included, see :meth:`adjudications`)."""
        return disagreements(self.items() if items is None else items, self.second_reviews())

    def _ensure_interpreter_tables(self) -> None:
        if self._has_table(SECOND_TABLE) and self._has_table(ADJUDICATION_TABLE):
            return
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            create_interpreter_tables(self._conn)
            self._conn.execute("COMMIT")
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise

    def set_note(self, item_id: int, note: str) -> None:
        """Record a free note for one item, durably (the verdict is left as it is).

        Raises:
            InputError: unknown item, or the file stays locked by another program.
        """
        self._write(sql("UPDATE {table} SET note = ? WHERE item_id = ?", table=REVIEW_LAYER), (note, int(item_id)))

    def _write(self, sql: str, args: Sequence[object], rows: int | None = 1) -> None:
        try:
            self._conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as err:
            raise InputError.of("review_locked", path=self.path, seconds=LOCK_TIMEOUT_S, error=str(err)) from err
        try:
            changed = self._conn.execute(sql, args).rowcount
            if rows is not None and changed != rows:
                raise InputError.of("unknown_item", item_id=args[-1])
            self._conn.execute("COMMIT")
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
