"""flair:apply_review on a raster reference reviewed through a crosswalk (issue 40), through
Processing: flair:sample draws the review with CROSSWALK, the corrected GeoTIFF holds the raster's
own codes, a class with two codes and no code named is left as it is and named in the log, and a
crosswalk whose code is text is refused in one line, in French too."""

from __future__ import annotations

import numpy as np
import pytest
import rasterio
from conftest import RecordingFeedback
from qgis.core import QgsProcessingException
from raster_codes_helpers import CSV, NODATA, cell_of, raster_case
from test_i18n import french_qgis  # noqa: F401 - the fr_FR profile fixture

from flair_qgis import i18n
from flair_qgis.core.review.store import ReviewStore


@pytest.fixture
def drawn(run_alg, tmp_path):
    reference, prediction = raster_case(tmp_path)
    (tmp_path / "own.csv").write_text(CSV, encoding="utf-8")
    review = tmp_path / "review.gpkg"
    run_alg("flair:sample", {"PREDICTION": str(prediction), "REFERENCE": str(reference), "DESIGN": "random",
                             "SAMPLES": 80, "SEED": 2, "CROSSWALK": str(tmp_path / "own.csv"),
                             "OUTPUT": str(review)})  # fmt: skip
    with rasterio.open(reference) as src, ReviewStore.open(review) as store:
        original = src.read(1)
        cells = {i.item_id: cell_of(src, i) for i in store.items()}
        first_of = {code: next(k for k, c in cells.items() if original[c] == code) for code in (20, 30, 80)}
        # Recorded at sampling: the raster's own code at each item.
        assert {int(v) for v in store.column("reference_code").values()} <= {11, 20, 30, 50, 71, 72, 80, 99}
        store.set_verdict(first_of[80], "wrong", 1, "a")  # 1 has one code: 11
        store.set_verdict(first_of[20], "wrong", 7, "a", true_code="72")
        store.set_verdict(first_of[30], "wrong", 7, "a")  # 71 or 72: not guessed
    return reference, review, original, cells, first_of


def test_apply_review_writes_the_raster_codes(run_alg, drawn, tmp_path):
    reference, review, original, cells, first_of = drawn
    feedback = RecordingFeedback()
    res = run_alg("flair:apply_review", {"REFERENCE": str(reference), "REVIEW": str(review),
                                         "OUTPUT": str(tmp_path / "fixed.tif")}, feedback)  # fmt: skip
    with rasterio.open(tmp_path / "fixed.tif") as out:
        fixed = out.read(1)
        assert (out.dtypes[0], out.nodata) == ("uint8", NODATA)
    expected = original.copy()
    expected[cells[first_of[80]]] = 11
    expected[cells[first_of[20]]] = 72
    assert np.array_equal(fixed, expected) and res["CHANGED"] == 2
    row, col = cells[first_of[30]]
    assert any(
        w.startswith(f"Cell at row {row}, column {col} (code 30) left unchanged: items {first_of[30]}")
        and "several reference codes" in w
        for w in feedback.warnings
    ), feedback.warnings


def test_a_text_code_is_refused_in_french(french_qgis, run_alg, drawn, tmp_path):  # noqa: F811
    assert i18n.install_translator() == "fr"
    reference, review, *_ = drawn
    (tmp_path / "ocsge.csv").write_text("reference,class\nCS1.1.1.1,1\n", encoding="utf-8")
    with pytest.raises(QgsProcessingException) as err:
        run_alg("flair:apply_review", {"REFERENCE": str(reference), "REVIEW": str(review),
                                       "CROSSWALK": str(tmp_path / "ocsge.csv"),
                                       "OUTPUT": str(tmp_path / "fixed.tif")})  # fmt: skip
    assert "Le code de référence « CS1.1.1.1 »" in str(err.value) and "uint8" in str(err.value)
    assert not (tmp_path / "fixed.tif").exists()
