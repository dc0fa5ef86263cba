"""The review GeoPackage's schema: layer ``review``, tables ``review_strata``, ``review_design``,
``second_review`` and ``adjudication``, and :func:`create_review_file` that writes a new review.

Layout (checked by :meth:`~flair_qgis.core.review.store.ReviewStore.open`):

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
  created by the first write that needs them (:func:`create_interpreter_tables`).
* table ``review_label_cells`` (``stratum``, ``label_class``, ``pixels``; issue 34): the pixels of
  each stratum x label class cell, counted at sampling from the map and a raster reference, so
  the report can withhold the rate of a label class split across strata. Reviews made before
  (or with a polygon reference) lack it; their report says the check was not made.
"""

from __future__ import annotations

import json
import math
import os
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass

from ..atomic import check_output_path, write_atomic
from ..errors import InputError
from .gpkg_blob import register_gpkg_functions
from .sql import sql

REVIEW_LAYER = "review"
STRATA_TABLE = "review_strata"
DESIGN_TABLE = "review_design"
LABEL_CELLS_TABLE = "review_label_cells"
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


def check_verdict(verdict: str) -> None:
    """Refuse a verdict the schema does not know ("" clears one).

    Raises:
        InputError: not one of :data:`VERDICTS` nor "".
    """
    if verdict not in (*VERDICTS, ""):
        raise InputError.of("unknown_verdict", verdict=verdict, choices=", ".join(VERDICTS))


@dataclass(frozen=True)
class ReviewItem:
    """One sample unit as stored in layer ``review`` (``verdict`` is "" until reviewed)."""

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
    label_cells: Mapping[tuple[int, int], int] | None = None,
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
        label_cells: pixels per ``(stratum, label class)`` (table ``review_label_cells``), or None.

    Raises:
        InputError: bad output path.
    """
    path = check_output_path(path, "review GeoPackage")
    # Extra fields kept as they are: the polygon an item is, and the reference's own code (issue 40).
    base_columns = ["item_id"] + [name for name in ("source_fid", "reference_code") if name in items.columns]
    frame = items[[*base_columns, items.geometry.name]].copy()

    def write(tmp: str) -> None:
        os.remove(tmp)  # the GPKG driver creates its file itself
        frame.to_file(tmp, layer=REVIEW_LAYER, driver="GPKG")
        with sqlite3.connect(tmp) as conn:
            register_gpkg_functions(conn)
            _fill_item_fields(conn, items)
            _write_design_tables(conn, strata, pixel_area_m2, design, strata_columns or {h: (h, None) for h in strata})
            create_interpreter_tables(conn)
            if label_cells is not None:
                _write_label_cells(conn, label_cells)

    write_atomic(path, write, suffix=".gpkg")


def _fill_item_fields(conn: sqlite3.Connection, items) -> None:
    """Add the :data:`FIELDS` columns to the written review layer and fill them from ``items``.

    Args:
        conn: the new GeoPackage, its review layer holding ``item_id`` and the geometries.
        items: the items (fields it lacks stay null; a null verdict becomes ``''``).
    """
    fields = (*FIELDS[1:], *OPTIONAL_FIELDS)
    for name, kind in fields:
        conn.execute(sql("ALTER TABLE {table} ADD COLUMN {column}", table=REVIEW_LAYER, column=f"{name} {kind}"))
    rows = [
        (
            *(_db_value(items[name].iloc[k]) if name in items.columns else None for name, _ in fields),
            int(items["item_id"].iloc[k]),
        )
        for k in range(len(items))
    ]
    update = "UPDATE {table} SET ({columns}) = ({marks}) WHERE item_id = ?"
    columns = [name for name, _ in fields]
    conn.executemany(sql(update, len(columns), table=REVIEW_LAYER, columns=columns), rows)
    conn.execute(sql("UPDATE {table} SET verdict = '' WHERE verdict IS NULL", table=REVIEW_LAYER))
    conn.execute(sql("UPDATE {table} SET double = 0 WHERE double IS NULL", table=REVIEW_LAYER))
    conn.execute(
        sql("CREATE UNIQUE INDEX {index} ON {table}(item_id)", index=f"{REVIEW_LAYER}_item_id", table=REVIEW_LAYER)
    )


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
        sql(
            "CREATE TABLE {table} (stratum INTEGER PRIMARY KEY, pixels INTEGER, pixel_area_m2 REAL, "
            "map_class INTEGER, confidence_band TEXT)",
            table=STRATA_TABLE,
        )
    )
    conn.executemany(
        sql("INSERT INTO {table} VALUES (?, ?, ?, ?, ?)", table=STRATA_TABLE),
        [
            (
                int(s),
                int(n),
                float(pixel_area_m2[s] if isinstance(pixel_area_m2, Mapping) else pixel_area_m2),
                int(strata_columns[s][0]),
                strata_columns[s][1],
            )
            for s, n in sorted(strata.items())
        ],
    )
    conn.execute(sql("CREATE TABLE {table} (key TEXT PRIMARY KEY, value TEXT)", table=DESIGN_TABLE))
    values = {**design, "schema_version": SCHEMA_VERSION}
    conn.executemany(
        sql("INSERT INTO {table} VALUES (?, ?)", table=DESIGN_TABLE),
        [(k, v if isinstance(v, str) else json.dumps(v)) for k, v in values.items()],
    )
    # Registered as attribute tables so QGIS and GDAL list them.
    conn.executemany(
        "INSERT INTO gpkg_contents (table_name, data_type, identifier) VALUES (?, 'attributes', ?)",
        [(STRATA_TABLE, STRATA_TABLE), (DESIGN_TABLE, DESIGN_TABLE)],
    )


def _write_label_cells(conn: sqlite3.Connection, cells: Mapping[tuple[int, int], int]) -> None:
    """Table ``review_label_cells``, registered as an attribute table."""
    conn.execute(
        sql(
            "CREATE TABLE {table} (stratum INTEGER, label_class INTEGER, pixels INTEGER, "
            "PRIMARY KEY (stratum, label_class))",
            table=LABEL_CELLS_TABLE,
        )
    )
    rows = [(int(h), int(c), int(n)) for (h, c), n in sorted(cells.items())]
    conn.executemany(sql("INSERT INTO {table} VALUES (?, ?, ?)", table=LABEL_CELLS_TABLE), rows)
    conn.execute(
        "INSERT INTO gpkg_contents (table_name, data_type, identifier) VALUES (?, 'attributes', ?)",
        (LABEL_CELLS_TABLE, LABEL_CELLS_TABLE),
    )


def create_interpreter_tables(conn: sqlite3.Connection) -> None:
    """The second interpreter's and the adjudication tables, registered as attribute tables."""
    for table, columns in ((SECOND_TABLE, _SECOND_COLUMNS), (ADJUDICATION_TABLE, _ADJUDICATION_COLUMNS)):
        conn.execute(sql("CREATE TABLE IF NOT EXISTS {table} ({columns})", table=table, columns=columns))
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
