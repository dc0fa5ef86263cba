"""core.score.alignment: model or class-map classes aligned with protocol codes by value, by name
(English and French, case and accents ignored) or by CLASS_MAP; refused when nothing matches."""

from __future__ import annotations

import numpy as np
import pytest
import rasterio
from affine import Affine

from flair_qgis.core.classes import raster_classes
from flair_qgis.core.engine.geotiff import AtomicGeoTiff
from flair_qgis.core.engine.grid import Grid
from flair_qgis.core.errors import InputError
from flair_qgis.core.nomenclature import FLAIR1_MODEL_CLASSES, ClassInfo
from flair_qgis.core.score.alignment import align_classes, normalise_name
from flair_qgis.core.score.protocols import get_protocol, parse_class_map

DEEPNESS_NAMES = [c.name for c in FLAIR1_MODEL_CLASSES]  # building ... plowed land, other


def _declared(names, start=0):
    return [ClassInfo(start + i, name, "#000000") for i, name in enumerate(names)]


def test_deepness_indices_align_by_name_with_flair1_codes():
    alignment = align_classes(_declared(DEEPNESS_NAMES), get_protocol("flair1"))
    assert alignment.how == "names"
    assert dict(alignment.mapping) == {i: i + 1 for i in range(13)}
    assert "0 building -> 1" in alignment.describe() and "12 other -> 13" in alignment.describe()
    assert alignment.to_dict()["mapping"]["12"] == 13


def test_codes_with_matching_names_are_kept():
    alignment = align_classes(FLAIR1_MODEL_CLASSES, get_protocol("flair1"))
    assert alignment.how == "values" and not alignment.changes


def test_french_names_without_accents_or_case_align():
    names = ["Batiment", "ZONE PERMÉABLE", "zone_impermeable", "sol nu", "surface d'eau", "Conifère", "feuillu",
             "broussaille", "vigne", "pelouse", "culture", "terre labourée", "autre"]  # fmt: skip
    alignment = align_classes(_declared(names), get_protocol("flair1"))
    assert dict(alignment.mapping) == {i: i + 1 for i in range(13)}


def test_raw_flair1_names_align_to_raw_codes_then_regrouped():
    # A 19-class model in FLAIR #1's full nomenclature, indices 0..18: codes 1..19, regrouped by the protocol.
    from flair_qgis.core.nomenclature import FLAIR1_CLASSES

    alignment = align_classes(_declared([c.name for c in FLAIR1_CLASSES]), get_protocol("flair1"))
    protocol = get_protocol("flair1")
    assert [protocol.class_value(alignment.mapping.get(i, i)) for i in range(19)] == [*range(1, 13), *[13] * 7]


def test_flairhub_order_scored_under_flair1_is_mapped_by_name():
    from flair_qgis.core.nomenclature import FLAIRHUB_LANDCOVER_CLASSES

    alignment = align_classes(FLAIRHUB_LANDCOVER_CLASSES[:15], get_protocol("flair1"))
    assert alignment.mapping[0] == 1 and alignment.mapping[4] == 2  # building, pervious surface


def test_unnamed_codes_are_trusted():
    declared = [ClassInfo(v, f"class {v}", "#000000") for v in (10, 7, 2)]
    assert not align_classes(declared, get_protocol("flair1")).changes


def test_neither_values_nor_names_is_refused_with_both_lists():
    declared = _declared(["background", "tree", "road"])
    with pytest.raises(InputError) as err:
        align_classes(declared, get_protocol("flair1"))
    text = str(err.value)
    assert "0 background, 1 tree, 2 road" in text
    assert "1 building" in text and "13 other" in text
    assert "CLASS_MAP" in text


def test_class_map_wins_and_is_checked():
    declared = _declared(["background", "tree", "road"])
    alignment = align_classes(declared, get_protocol("flair1"), parse_class_map("0:13, 1:7 ,2:3"))
    assert alignment.how == "class_map" and dict(alignment.mapping) == {0: 13, 1: 7, 2: 3}
    with pytest.raises(InputError, match="CLASS_MAP maps to 42"):
        align_classes(declared, get_protocol("flair1"), {0: 42})
    with pytest.raises(InputError, match="CLASS_MAP entries are 'value:code'"):
        parse_class_map("0-1")


def test_open_protocol_aligns_nothing():
    assert not align_classes(_declared(["a", "b"]), get_protocol("custom")).changes


@pytest.mark.parametrize("dtype", ["uint8", "int32"])
def test_apply_maps_values_and_keeps_others(dtype):
    alignment = align_classes(_declared(DEEPNESS_NAMES), get_protocol("flair1"))
    values = np.array([[0, 1, 12], [200, 5, 0]], dtype=dtype)
    expected = np.array([[1, 2, 13], [200, 6, 1]])
    np.testing.assert_array_equal(alignment.apply(values), expected)


def test_normalise_name():
    assert normalise_name("  Zone_Imperméable ") == "zone impermeable"
    assert normalise_name("Surface-d'eau") == "surface d'eau"


def test_raster_classes_from_tags_and_from_gdal_categories(tmp_path):
    grid = Grid(Affine(1, 0, 0, 0, -1, 10), 4, 4, None)
    out = AtomicGeoTiff(str(tmp_path / "map.tif"), grid, "uint8", 255, 16, classes=_declared(DEEPNESS_NAMES[:3]))
    out.open()
    out.write(np.zeros((4, 4), np.uint8), 0, 0)
    out.commit()
    assert [(c.value, c.name) for c in raster_classes(str(tmp_path / "map.tif"))] == [
        (0, "building"), (1, "pervious surface"), (2, "impervious surface")
    ]  # fmt: skip
    # A raster with GDAL category names only (no flair:segment tag): read from the .aux.xml.
    with rasterio.open(
        tmp_path / "plain.tif", "w", driver="GTiff", width=2, height=2, count=1, dtype="uint8"
    ) as dst:  # fmt: skip
        dst.write(np.zeros((1, 2, 2), np.uint8))
    (tmp_path / "plain.tif.aux.xml").write_text(
        '<PAMDataset><PAMRasterBand band="1"><CategoryNames><Category>Bâtiment</Category><Category></Category>'
        "<Category>eau</Category></CategoryNames></PAMRasterBand></PAMDataset>"
    )
    assert [(c.value, c.name) for c in raster_classes(str(tmp_path / "plain.tif"))] == [(0, "Bâtiment"), (2, "eau")]
