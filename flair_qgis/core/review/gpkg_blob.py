"""GeoPackage geometry blobs read without GDAL: bounds and WKT of an item, and the SQL functions
GDAL's GeoPackage triggers call, so a plain :mod:`sqlite3` connection can update a GDAL-written layer."""

from __future__ import annotations

import sqlite3


def geometry_of(blob: bytes | None) -> tuple[tuple[float, float, float, float], str]:
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
        return lambda blob: geometry_of(blob)[0][k] if blob else None

    conn.create_function("ST_IsEmpty", 1, lambda blob: 1 if not blob or blob[3] & 0x10 else 0)
    for k, name in enumerate(("ST_MinX", "ST_MinY", "ST_MaxX", "ST_MaxY")):
        conn.create_function(name, 1, bound(k))
