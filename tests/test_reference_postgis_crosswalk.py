"""A PostGIS reference coded as text (issue 40): the million squares with their classes written as
OCS GE-like text codes in a real PostgreSQL + PostGIS table score through CROSSWALK exactly as the
same table recoded to integers, the code left out of the crosswalk recoded to null (not scored), and
the report names that code with its pixels.

Null, not removed: the squares share edges and the prediction's pixel centres fall on some of them,
where the later square wins (as in any rasterisation); a square that is there but not scored keeps
the pixels it wins out of the figures, a square removed would hand them to its neighbour."""

from __future__ import annotations

import json
import time

import pytest

CROSSWALK = "reference,class\n" + "".join(f"CS-{code},{code}\n" for code in range(1, 13))  # CS-13 left out


def _copy(postgis, table: str, columns: str) -> str:
    """A copy of ``labels`` with other columns, built as the original (primary key, GiST index)."""
    postgis.sql(
        "flair",
        f"DROP TABLE IF EXISTS {table}; CREATE TABLE {table} AS SELECT fid, {columns}, geom FROM labels ORDER BY fid; "
        f"ALTER TABLE {table} ADD PRIMARY KEY (fid); "
        f"CREATE INDEX {table}_geom ON {table} USING gist (geom); ANALYZE {table};",
    )
    return table


@pytest.fixture(scope="module")
def tables(postgis):
    """``labels_text`` (``cs`` = ``'CS-' || code``) and its integer twin ``labels_null13`` (13 -> null)."""
    text = _copy(postgis, "labels_text", "'CS-' || code AS cs")
    twin = _copy(postgis, "labels_null13", "CASE WHEN code = 13 THEN NULL ELSE code END AS code")
    return text, twin


def _report(run_alg, prediction, reference, field, path, **extra) -> tuple[dict, float]:
    started = time.perf_counter()
    run_alg("flair:evaluate", {"PREDICTION": str(prediction), "REFERENCE": reference, "REFERENCE_FIELD": field,
                               "PROTOCOL": "flair1", "OUTPUT_REPORT": str(path), **extra})  # fmt: skip
    return json.loads(path.read_text()), time.perf_counter() - started


def test_text_codes_in_postgis_score_as_the_integer_table(postgis, tables, million_squares, run_alg, tmp_path):
    csv = tmp_path / "codes.csv"
    csv.write_text(CROSSWALK, encoding="utf-8")
    prediction = million_squares["prediction"]
    text_table, twin = tables
    text, text_s = _report(run_alg, prediction, "postgres://" + postgis.uri(text_table, field="cs"), "cs",
                           tmp_path / "text.json", CROSSWALK=str(csv))  # fmt: skip
    integer, integer_s = _report(run_alg, prediction, "postgres://" + postgis.uri(twin), "code", tmp_path / "int.json")
    for key in ("miou", "oa", "pixels_evaluated", "confusion_matrix", "classes"):
        assert text[key] == integer[key], key
    # The squares cover the whole patch and the prediction has no nodata: every pixel not scored is CS-13's.
    left_out = 512 * 512 - text["pixels_evaluated"]
    assert left_out > 0
    assert text["crosswalk"]["unmapped"] == [{"value": "CS-13", "pixels": left_out, "share": left_out / 512**2}]
    print(f"PostGIS text codes + crosswalk {text_s:.2f} s, integer codes (twin) {integer_s:.2f} s")
