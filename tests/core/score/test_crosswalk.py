"""Scoring through a crosswalk (issue 40): a real FLAIR mask polygonised with OCS GE-like text codes
(two codes for one class, one code left out) scores exactly as the same polygons recoded by hand to
the integer classes, the left-out polygons removed: mIoU, OA, confusion matrix, error map pixels and
suspicious labels. Also the CSV rules and the one-line refusal that names CROSSWALK."""

from __future__ import annotations

import geopandas as gpd
import numpy as np
import pytest
import rasterio
from crosswalk_helpers import CSV, PATCH, UNLISTED, text_and_integer_polygons
from eval_helpers import image_crs, perturb, read_mask, write_raster

from flair_qgis.core.errors import InputError
from flair_qgis.core.score import Reference, get_protocol, parse_crosswalk, rank_labels, read_crosswalk, score


@pytest.fixture(scope="module")
def case(tmp_path_factory):
    """The mask, a perturbed prediction, the text-coded polygons and their integer twin."""
    tmp = tmp_path_factory.mktemp("crosswalk")
    mask, profile = read_mask(PATCH)
    crs = image_crs()
    pred = perturb(mask, seed=40, rate=0.1, values=list(range(1, 14)))
    pred_path = write_raster(tmp / "pred.tif", pred, profile, crs=crs)
    text_gdf, int_gdf = text_and_integer_polygons(mask, profile["transform"], crs)
    csv_path = tmp / "ocsge_flair1.csv"
    csv_path.write_text(CSV, encoding="utf-8")
    return {"tmp": tmp, "mask": mask, "profile": profile, "pred": pred_path, "text": text_gdf, "int": int_gdf,
            "csv": csv_path}  # fmt: skip


def _same_figures(a: dict, b: dict) -> None:
    for key in ("miou", "oa", "pixels_evaluated", "classes", "confusion_matrix", "confusion_labels"):
        assert a[key] == b[key], key


def test_polygons_through_crosswalk_score_as_recoded_polygons(case):
    tmp, protocol = case["tmp"], get_protocol("flair1")
    crosswalk = read_crosswalk(case["csv"])
    through = score(case["pred"], Reference(polygons=case["text"], field="cs"), protocol, crosswalk=crosswalk,
                    error_map_path=str(tmp / "err_text.tif"))  # fmt: skip
    recoded = score(case["pred"], Reference(polygons=case["int"], field="code"), protocol,
                    error_map_path=str(tmp / "err_int.tif"))  # fmt: skip
    a, b = through.to_report(), recoded.to_report()
    _same_figures(a, b)
    # The herbaceous pixels are not scored: the figures count only the other classes' pixels.
    assert a["pixels_evaluated"] == int(np.sum(case["mask"] != 10))
    with rasterio.open(tmp / "err_text.tif") as x, rasterio.open(tmp / "err_int.tif") as y:
        assert np.array_equal(x.read(1), y.read(1))
    entry = a["crosswalk"]
    assert entry["file"] == "ocsge_flair1.csv" and len(entry["sha256"]) == 64 and entry["lines"] == 7
    herbaceous_px = int(np.sum(case["mask"] == 10))
    assert entry["unmapped"] == [{"value": UNLISTED, "pixels": herbaceous_px, "share": herbaceous_px / 512**2}]
    assert "crosswalk" not in b


def test_suspicious_labels_through_crosswalk_are_the_recoded_ones(case):
    tmp, protocol = case["tmp"], get_protocol("flair1")
    crosswalk = read_crosswalk(case["csv"])
    text = rank_labels(case["pred"], case["text"], "cs", tmp / "ranked_text.gpkg", protocol=protocol,
                       crosswalk=crosswalk)  # fmt: skip
    recoded = rank_labels(case["pred"], case["int"], "code", tmp / "ranked_int.gpkg", protocol=protocol)
    scored = text[text["reference_code"] != UNLISTED].reset_index(drop=True)
    # The left-out polygons have no suspicion and come last; the others in the same order, same figures.
    assert text["reference_code"].tolist()[len(scored) :] == [UNLISTED] * (len(text) - len(scored))
    assert text["suspicion"].iloc[len(scored) :].isna().all()
    columns = ["source_fid", "label", "predicted", "agreement", "pixels", "disagreeing_px", "suspicion"]
    assert scored[columns].equals(recoded[columns])
    # The reference's own code beside the class it counts as.
    assert set(zip(scored["reference_code"], scored["label"])) <= {
        ("CS1.1.1.1", 1), ("CS2.2.2", 2), ("CS1.1.1.2", 3), ("CS1.2.2", 5), ("CS2.1.1.1", 7), ("CS2.1.1.3", 7),
        ("CS2.1.2", 8),
    }  # fmt: skip
    written = gpd.read_file(tmp / "ranked_text.gpkg")
    assert written["reference_code"].tolist() == text["reference_code"].tolist()


def test_raster_reference_through_crosswalk(case):
    tmp, protocol = case["tmp"], get_protocol("flair1")
    # A raster whose values are a nomenclature's numbers: 101 -> 1, 107 and 117 -> 7, 110 not listed.
    mask = case["mask"].astype(np.int32)
    coded = np.where(mask == 7, np.where(np.arange(mask.shape[1]) % 2 == 0, 107, 117), mask + 100)
    ref = write_raster(tmp / "ref_coded.tif", coded, case["profile"], crs=image_crs(), dtype="int16")
    lines = "".join(f"{c + 100},{c}\n" for c in (1, 2, 3, 5, 8)) + "107,7\n117,deciduous\n"
    crosswalk = parse_crosswalk("reference,class\n" + lines, "codes.csv")
    twin = write_raster(tmp / "ref_twin.tif", np.where(mask == 10, 0, mask), case["profile"], crs=image_crs(),
                        nodata=0)  # fmt: skip
    a = score(case["pred"], Reference(raster_path=str(ref)), protocol, crosswalk=crosswalk).to_report()
    b = score(case["pred"], Reference(raster_path=str(twin)), protocol).to_report()
    _same_figures(a, b)
    assert a["crosswalk"]["unmapped"] == [{"value": "110", "pixels": int(np.sum(mask == 10)),
                                           "share": np.sum(mask == 10) / 512**2}]  # fmt: skip


def test_text_field_without_crosswalk_names_crosswalk(case):
    with pytest.raises(InputError) as info:
        score(case["pred"], Reference(polygons=case["text"], field="cs"), get_protocol("flair1"))
    message = str(info.value)
    assert "CROSSWALK" in message and "'CS2.1.1.1', 'CS2.1.1.3'" in message and "\n" not in message


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("value,class\nA,1\n", "header reference,class"),
        ("reference,class\nA\n", "Line 2"),
        ("reference,class\nA,1\nA,2\n", "two classes to the value 'A'"),
    ],
)
def test_malformed_crosswalk_is_refused(text, words):
    with pytest.raises(InputError, match=words):
        parse_crosswalk(text, "x.csv")


def test_unknown_class_name_is_refused(case):
    crosswalk = parse_crosswalk("reference,class\nCS1.1.1.1,palace\n", "x.csv")
    with pytest.raises(InputError, match="'palace'"):
        score(case["pred"], Reference(polygons=case["text"], field="cs"), get_protocol("flair1"), crosswalk=crosswalk)


def test_semicolons_bom_and_numbers_in_text_fields():
    crosswalk = parse_crosswalk("\ufeffReference;Class\n 01 ;2\n3;4\n", "x.csv")
    codes = crosswalk.resolve(())
    # A text "01" is "01"; a number 3 or 3.0 is "3".
    assert codes.code_of("01") == 2 and codes.code_of(1) is None
    assert codes.code_of(3.0) == 4 and codes.code_of(3) == 4 and codes.code_of(None) is None


def test_recode_nulls_unlisted_and_numbers():
    codes = parse_crosswalk("reference,class\nA,1\nB,1\n3,2\n", "x.csv").resolve(())
    values, unlisted, names = codes.recode(["A", None, "Z", 3.0, float("nan"), " B ", "Y", 3, "Z"])
    assert values.tolist() == [1, -1, -1, 2, -1, 1, -1, 2, -1]
    assert names == ("Y", "Z") and unlisted.tolist() == [0, 0, 2, 0, 0, 0, 1, 0, 2]


def test_the_shipped_ocs_ge_example_resolves_on_flair1():
    """resources/crosswalks: every class it names is a FLAIR #1 class, each OCS GE cover code once."""
    from pathlib import Path

    path = Path(__file__).resolve().parents[3] / "resources" / "crosswalks" / "ocsge_couverture_to_flair1.csv"
    codes = read_crosswalk(path).resolve(get_protocol("flair1").raw_classes)
    assert codes.code_of("CS1.1.1.1") == 1 and codes.code_of("CS2.1.1.1") == 7 and codes.code_of("CS2.1.1.2") == 6
    assert codes.values_of(2) == ("CS1.1.2.1", "CS1.1.2.2")
    # Left out: the cover alone cannot say vineyard/orchard or herbaceous/agricultural land.
    assert codes.code_of("CS2.1.3") is None and codes.code_of("CS2.2.1") is None and codes.code_of("CS2.2.2") is None
