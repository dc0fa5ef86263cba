"""core/review/sql: names enter the review's statements only when plain; values are always bound."""

from __future__ import annotations

import sqlite3

import pytest
from rasters import write_raster
from review_data import classes_array

from flair_qgis.core.errors import InputError
from flair_qgis.core.review import SampleRequest, create_review
from flair_qgis.core.review.sql import sql
from flair_qgis.core.review.store import ReviewStore


@pytest.fixture
def review_file(tmp_path):
    class_map = write_raster(tmp_path / "map.tif", classes_array()[None], nodata=0)
    out = tmp_path / "review.gpkg"
    create_review(SampleRequest(str(class_map), str(out), design="stratified", samples=20, min_per_class=2))
    return out


def test_a_crafted_geometry_column_is_refused_and_changes_nothing(review_file):
    conn = sqlite3.connect(review_file)
    crafted = 'geom" FROM review; DROP TABLE review_design; --'
    conn.execute("UPDATE gpkg_geometry_columns SET column_name = ? WHERE table_name = 'review'", (crafted,))
    conn.commit()
    conn.close()
    with ReviewStore.open(review_file) as store, pytest.raises(InputError, match="does not read") as raised:
        store.items()
    assert crafted in str(raised.value)
    with sqlite3.connect(review_file) as conn:
        tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "review_design" in tables


def test_values_with_quotes_are_stored_as_they_are(review_file):
    note = "it's \"wrong\"'); DROP TABLE review; --"
    with ReviewStore.open(review_file) as store:
        count = len(store.items())
        first = store.items()[0]
        store.set_verdict(first.item_id, "wrong", 2, reviewer="O'Brien", note=note)
    with ReviewStore.open(review_file) as store:
        again = store.item(first.item_id)
        assert (again.verdict, again.reviewer, again.note) == ("wrong", "O'Brien", note)
        assert len(store.items()) == count


@pytest.mark.parametrize("name", ["a b", "x;y", 'x"', "1abc", "note TEXT; DROP", ""])
def test_sql_refuses_what_is_not_a_plain_name(name):
    with pytest.raises(InputError):
        sql("SELECT {column} FROM review", column=name)


def test_sql_fills_names_lists_and_placeholders():
    assert sql("UPDATE {t} SET ({c}) = ({marks})", 2, t="review", c=["a", "b"]) == "UPDATE review SET (a, b) = (?, ?)"
    assert sql("CREATE TABLE {t} ({c})", t="x", c="item_id INTEGER PRIMARY KEY, note TEXT").endswith("note TEXT)")
