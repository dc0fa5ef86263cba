"""core.engine.bands: one alias table, the proposal, the choice and the validation of band mappings."""

from __future__ import annotations

import pytest
from rasters import random_image, write_raster

from flair_qgis.core.engine.bands import (
    band_choice,
    band_label,
    canonical_band,
    channel_labels,
    choose_bands,
    file_band_labels,
    match_by_name,
    parse_band_list,
    propose_bands,
    validate_bands,
)
from flair_qgis.core.engine.model import InputSpec
from flair_qgis.core.errors import InputError


def spec(names, modality="", channels=None) -> InputSpec:
    count = channels or len(names)
    return InputSpec("x", count, tuple(names), (0.0,) * count, (1.0,) * count, modality=modality)


@pytest.mark.parametrize(
    ("words", "band"),
    [
        (["R", "Red", "rouge", "RED"], "R"),
        (["G", "green", "Vert"], "G"),
        (["B", "Blue", "bleu"], "B"),
        (["NIR", "near-infrared", "Near Infrared", "PIR", "infrarouge", "proche infrarouge", "IR"], "NIR"),
        (["elevation", "élévation", "nDSM", "DSM-DTM", "MNH", "height", "hauteur"], "ELEV"),
        (["DSM", "MNS"], "DSM"),
        (["DTM", "MNT", "DEM"], "DTM"),
        (["Alpha"], "A"),
    ],
)
def test_one_alias_table_english_and_french(words, band):
    assert {canonical_band(w) for w in words} == {band}


def test_surface_model_is_not_the_height_above_ground():
    # Decided once: FLAIR's elevation band is (DSM - DTM) * 5, not the DSM itself.
    assert canonical_band("DSM") != canonical_band("elevation")
    assert canonical_band("Band 4") == "band 4"


def test_band_label_prefers_description_then_colour():
    assert band_label(1, "NIR", "Red") == "NIR"
    assert band_label(2, "", "Green") == "Green"
    assert band_label(3, "", "Gray") == "Band 3"
    assert band_label(4, "  ", "Undefined") == "Band 4"


def test_blue_green_red_nir_layer_feeds_an_rgbi_model_by_name():
    choice = propose_bands(spec(["R", "G", "B", "NIR"]), ["Blue", "Green", "Red", "NIR"])
    assert choice.bands == (3, 2, 1, 4) and choice.how == "by name"


def test_french_band_names_match():
    assert match_by_name(["R", "G", "B", "NIR"], ["PIR", "Rouge", "Vert", "Bleu"]) == (2, 3, 4, 1)


def test_unnamed_bands_go_to_unmatched_channels_first():
    assert match_by_name(["R", "G", "B", "NIR"], ["Red", "Green", "Blue", "Band 4"]) == (1, 2, 3, 4)
    assert match_by_name(["R", "NIR"], ["Blue", "Red", "Band 3"]) == (2, 3)
    # Fewer layer bands than channels: the channel left over gets 0.
    assert match_by_name(["R", "G", "B", "NIR"], ["Red", "Green", "Blue"]) == (1, 2, 3, 0)


def test_models_without_band_names_take_bands_in_order():
    assert propose_bands(spec(["band 1", "band 2", "band 3"]), ["Red", "Green", "Blue", "Alpha"]).bands == (1, 2, 3)


def test_declared_numbers_and_modality_names():
    assert propose_bands(spec(["4", "1", "2"], "AERIAL_RGBI"), ["a", "b", "c", "d"]).bands == (4, 1, 2)
    assert propose_bands(spec(["NIR", "R", "G"], "AERIAL_RGBI"), ["a", "b", "c", "d"]).bands == (4, 1, 2)
    assert channel_labels(spec(["4", "1", "2"], "AERIAL_RGBI")) == ["NIR", "R", "G"]
    # A declared band the layer lacks is proposed as 0: the dock says why it cannot run.
    assert propose_bands(spec(["4", "1", "2"], "AERIAL_RGBI"), ["a", "b", "c"]).bands == (0, 1, 2)


def test_flairhub_guess_warns_and_falls_back_to_names_when_the_layer_cannot_serve_it():
    unnamed = spec(["band 1", "band 2", "band 3"], "AERIAL_RGBI")
    guess = propose_bands(unnamed, ["Red", "Green", "Blue", "NIR"])
    assert guess.bands == (4, 1, 2) and "NIR, R, G" in guess.warning
    assert propose_bands(unnamed, ["Red", "Green", "Blue"]).bands == (1, 2, 3)
    assert band_choice(unnamed, "AERIAL_RGBI").warning


def test_user_bands_win_and_are_checked():
    rgbi = spec(["R", "G", "B", "NIR"])
    assert choose_bands(rgbi, (1, 2, 3, 4), ["Blue", "Green", "Red", "NIR"]).bands == (1, 2, 3, 4)
    with pytest.raises(InputError, match=r"band\(s\) 9 but the raster has 4"):
        choose_bands(rgbi, (1, 2, 3, 9), ["a", "b", "c", "d"])
    with pytest.raises(InputError, match="BANDS lists 2 band"):
        choose_bands(rgbi, (1, 2), ["a", "b", "c", "d"])


def test_validation_messages_say_what_to_do():
    rgbi = spec(["R", "G", "B", "NIR"])
    with pytest.raises(InputError, match=r"expects 4 bands but the layer has 3.*BANDS"):
        validate_bands(rgbi, (1, 2, 3, 0), 3)
    with pytest.raises(InputError, match=r"Choose a layer band for model channel\(s\) G"):
        validate_bands(rgbi, (1, 0, 3, 4), 4)


def test_parse_band_list():
    assert parse_band_list(" 3, 2 ;1,4 ") == (3, 2, 1, 4)
    assert parse_band_list("") == ()
    with pytest.raises(InputError, match="separated by commas"):
        parse_band_list("1,a")
    with pytest.raises(InputError, match="start at 1"):
        parse_band_list("0,1")


def test_file_band_labels_read_descriptions(tmp_path):
    path = write_raster(tmp_path / "img.tif", random_image(8, 8, bands=5))
    import rasterio

    with rasterio.open(path, "r+") as dst:
        for index, name in enumerate(["Blue", "Green", "Red", "", ""], start=1):
            dst.set_band_description(index, name)
    assert file_band_labels(str(path)) == ("Blue", "Green", "Red", "Band 4", "Band 5")
