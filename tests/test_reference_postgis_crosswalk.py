"""A PostGIS reference coded as text (issue 40): the million squares with their classes written as
OCS GE-like text codes in a real PostgreSQL + PostGIS table score through CROSSWALK exactly as the
same table recoded to integers, the code left out of the crosswalk recoded to null (not scored), and
the report names that code with its pixels.

The prediction is the million-square case's, moved by less than a pixel so that no pixel centre
lies on a square's edge: there the later square would win, and the order in which PostGIS hands
two tables' rows back is not something a test should depend on. Null, not removed: a square that
is there but not scored still keeps its pixels out of the figures.
"""

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


def _off_the_edges(case: dict, path) -> str:
    """The case's prediction moved so that its pixel centres lie midway between square edges."""
    import rasterio
    from affine import Affine

    with rasterio.open(case["prediction"]) as src:
        profile, data, t = src.profile, src.read(), src.transform
    # Centres at c + a/2 + k*a (x) and f - a/2 - k*a (y); edges every 10 m from (x0, y0).
    dx = (t.a / 2 - (t.c + t.a / 2 - case["x0"])) % t.a
    dy = (t.a / 2 - (t.f - t.a / 2 - case["y0"])) % t.a
    profile["transform"] = Affine(t.a, t.b, t.c + dx, t.d, t.e, t.f + dy)
    with rasterio.open(path, "w", **profile) as dst:
        dst.write(data)
    return str(path)


def test_text_codes_in_postgis_score_as_the_integer_table(postgis, tables, million_squares, run_alg, tmp_path):
    csv = tmp_path / "codes.csv"
    csv.write_text(CROSSWALK, encoding="utf-8")
    prediction = _off_the_edges(million_squares, tmp_path / "pred.tif")
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
