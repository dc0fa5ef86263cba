"""flair:apply_review streams a million-polygon reference (GeoPackage and PostGIS): every feature is
copied with its id, only the polygons whose items agree change, and the review's identity check
holds for a database layer."""

from __future__ import annotations

import sqlite3

import pytest

from flair_qgis.core.review.store import ReviewStore


def _sample_and_decide(run_alg, prediction, reference: str, out) -> tuple[str, set[int]]:
    review = run_alg(
        "flair:sample",
        {"PREDICTION": str(prediction), "REFERENCE": reference, "REFERENCE_FIELD": "code", "DESIGN": "random",
         "SAMPLES": 30, "SEED": 2, "OUTPUT": str(out)},
    )["OUTPUT"]  # fmt: skip
    with ReviewStore.open(review) as store:
        items = store.items()
        for item in items[:10]:
            store.set_verdict(item.item_id, "wrong", 19, "ana")
        decided = {i.item_id for i in items[:10]}
    return review, decided


def _check_copy(path, expected_changes: int) -> None:
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT count(*) FROM reference_corrected").fetchone()[0] == 1_000_000
        changed = conn.execute("SELECT count(*) FROM reference_corrected WHERE code != label_before").fetchone()[0]
        assert changed == expected_changes
        assert (
            conn.execute("SELECT count(*) FROM reference_corrected WHERE code = 19 AND review_items > 0").fetchone()[0]
            == expected_changes
        )
        # Squares are 1 m: each decided item is alone in its square, so no conflict.
        assert conn.execute("SELECT count(*) FROM conflicts").fetchone()[0] == 0


def test_a_million_squares_geopackage_is_streamed(million_squares, run_alg, tmp_path):
    reference = f"{million_squares['gpkg']}|layername=labels"
    review, decided = _sample_and_decide(run_alg, million_squares["prediction"], reference, tmp_path / "r.gpkg")
    out = run_alg("flair:apply_review", {"REFERENCE": reference, "REFERENCE_FIELD": "code", "REVIEW": review,
                                         "OUTPUT": str(tmp_path / "fixed.gpkg")})  # fmt: skip
    assert 0 < out["CHANGED"] <= len(decided)
    _check_copy(out["OUTPUT"], out["CHANGED"])


def test_a_million_squares_postgis_table_is_streamed_and_checked(postgis, million_squares, run_alg, tmp_path):
    layer_string = "postgres://" + postgis.uri("labels")
    review, decided = _sample_and_decide(run_alg, million_squares["prediction"], layer_string, tmp_path / "r.gpkg")
    with ReviewStore.open(review) as store:
        assert '"provider": "postgres"' in store.design["reference_identity"]
    out = run_alg("flair:apply_review", {"REFERENCE": layer_string, "REFERENCE_FIELD": "code", "REVIEW": review,
                                         "OUTPUT": str(tmp_path / "fixed.gpkg")})  # fmt: skip
    assert 0 < out["CHANGED"] <= len(decided)
    _check_copy(out["OUTPUT"], out["CHANGED"])
    gpkg = f"{million_squares['gpkg']}|layername=labels"
    with pytest.raises(Exception, match="review was drawn from the reference"):
        run_alg("flair:apply_review", {"REFERENCE": gpkg, "REFERENCE_FIELD": "code", "REVIEW": review,
                                       "OUTPUT": str(tmp_path / "other.gpkg")})  # fmt: skip
