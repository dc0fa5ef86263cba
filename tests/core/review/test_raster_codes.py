"""apply_review on a RASTER reference reviewed through a crosswalk (issue 40): the copy holds the
raster's own codes, not class values. A real FLAIR mask recoded to its own numbering: deciduous (7)
has two codes (71 left half, 72 right half), herbaceous (10) becomes 99, left out of the crosswalk.
The written pixels are read back with rasterio and compared with the rule, cell by cell."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
import rasterio
from raster_codes_helpers import CSV, NODATA, cell_of, raster_case

from flair_qgis.core.errors import InputError
from flair_qgis.core.review import CODE_NOT_CLASS, CODES_DISAGREE, SEVERAL_CODES, SampleRequest, create_review
from flair_qgis.core.review.apply import apply_review_raster
from flair_qgis.core.review.store import ReviewStore
from flair_qgis.core.score import parse_crosswalk


@pytest.fixture
def case(tmp_path):
    reference, prediction = raster_case(tmp_path)
    review = tmp_path / "review.gpkg"
    crosswalk = parse_crosswalk(CSV, "own.csv", "e" * 64)
    create_review(SampleRequest(str(prediction), str(review), design="random", samples=120, seed=3,
                                reference_raster=str(reference), crosswalk=crosswalk, double_review=0.2))  # fmt: skip
    return reference, review, tmp_path


def test_raster_written_in_its_own_codes_never_guessed(case):
    reference, review, tmp = case
    before = hashlib.sha256(reference.read_bytes()).hexdigest()
    with rasterio.open(reference) as src, ReviewStore.open(review) as store:
        original = src.read(1)
        items = store.items()
        code_at = {i.item_id: int(original[cell_of(src, i)]) for i in items}
        cells = {i.item_id: cell_of(src, i) for i in items}
        by_code = {code: [i for i in items if code_at[i.item_id] == code] for code in (11, 30, 71, 72, 80, 99)}
        to_building, several, named, kept, unlisted, wrong_code = (
            by_code[80][0], by_code[30][0], by_code[11][0], by_code[71][0], by_code[99][0], by_code[72][0],
        )  # fmt: skip
        store.set_verdict(to_building.item_id, "wrong", 1, "a")  # 1 has one code: 11
        store.set_verdict(several.item_id, "wrong", 7, "a")  # 7 has 71 and 72, none named
        store.set_verdict(named.item_id, "wrong", 7, "a", true_code="72")
        store.set_verdict(kept.item_id, "correct", 7, "a")  # 71 counts as 7: kept
        store.set_verdict(unlisted.item_id, "wrong", 8, "a")  # 99 (not scored) -> 80
        store.set_verdict(wrong_code.item_id, "wrong", 8, "a", true_code="71")  # 71 is not an 8
    result = apply_review_raster(str(reference), str(review), str(tmp / "fixed.tif"))
    with rasterio.open(tmp / "fixed.tif") as out:
        fixed = out.read(1)
        assert (out.dtypes[0], out.nodata) == ("uint8", NODATA)
    expected = original.copy()
    expected[cells[to_building.item_id]] = 11
    expected[cells[named.item_id]] = 72
    expected[cells[unlisted.item_id]] = 80
    assert np.array_equal(fixed, expected)
    assert int(np.sum(fixed != original)) == 3 == result.changed and result.reviewed == 6
    reasons = {c.cell: (c.label, c.reason) for c in result.conflicts}
    assert reasons == {
        cells[several.item_id]: ("30", SEVERAL_CODES),
        cells[wrong_code.item_id]: ("72", CODE_NOT_CLASS),
    }
    assert hashlib.sha256(reference.read_bytes()).hexdigest() == before


def src_value(path, cell) -> int:
    with rasterio.open(path) as src:
        return int(src.read(1)[cell])


def test_adjudicated_code_wins_on_a_raster(case):
    reference, review, tmp = case
    with ReviewStore.open(review) as store, rasterio.open(reference) as src:
        doubled = next(
            i for i in store.items() if i.item_id in store.doubles() and int(src.read(1)[cell_of(src, i)]) == 11
        )
        cell = cell_of(src, doubled)
        store.set_verdict(doubled.item_id, "wrong", 8, "a")
        store.set_second_verdict(doubled.item_id, "wrong", 7, "b", true_code="71")
    # Not adjudicated: the first interpreter's class (8, one code) is written; the second's code
    # is for another class and counts for nothing.
    assert apply_review_raster(str(reference), str(review), str(tmp / "a.tif")).changed == 1
    assert src_value(tmp / "a.tif", cell) == 80
    with ReviewStore.open(review) as store:
        store.set_adjudication(doubled.item_id, 7, "chief", true_code="72")
        assert store.true_codes("adjudicate") == {doubled.item_id: "72"}
        assert store.true_codes("second") == {doubled.item_id: "71"}
    apply_review_raster(str(reference), str(review), str(tmp / "b.tif"))
    assert src_value(tmp / "b.tif", cell) == 72  # the adjudicated class, and its code
    with ReviewStore.open(review) as store:
        store.set_adjudication(doubled.item_id, 7, "chief")  # no code: the second's 71 counts for 7
    apply_review_raster(str(reference), str(review), str(tmp / "c.tif"))
    assert src_value(tmp / "c.tif", cell) == 71
    with ReviewStore.open(review) as store:
        store.set_verdict(doubled.item_id, "wrong", 7, "a", true_code="72")  # the first names 72 for 7
    result = apply_review_raster(str(reference), str(review), str(tmp / "d.tif"))
    assert [(c.cell, c.reason) for c in result.conflicts] == [(cell, CODES_DISAGREE)]
    assert src_value(tmp / "d.tif", cell) == 11


def test_text_code_refused_and_nothing_written(case):
    reference, review, tmp = case
    with ReviewStore.open(review) as store, rasterio.open(reference) as src:
        original = src.read(1)
        item = next(i for i in store.items() if int(original[cell_of(src, i)]) == 11)
        store.set_verdict(item.item_id, "wrong", 8, "a")
    text = parse_crosswalk("reference,class\n11,1\nCS2.1.2,8\n", "ocsge.csv")
    with pytest.raises(InputError) as info:
        apply_review_raster(str(reference), str(review), str(tmp / "fixed.tif"), crosswalk=text)
    assert info.value.key == "code_not_for_raster"
    assert "'CS2.1.2'" in str(info.value) and "uint8" in str(info.value) and "CROSSWALK" in str(info.value)
    assert not (tmp / "fixed.tif").exists()
