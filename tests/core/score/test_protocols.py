"""core.score.protocols: presets as data (benchmark conventions included), parameters parsed into a
protocol, regrouping of arrays."""

from __future__ import annotations

import numpy as np
import pytest

from flair_qgis.core.errors import InputError
from flair_qgis.core.score.protocols import get_protocol, parse_class_map, parse_remap, protocol_from_parameters


def test_benchmark_conventions_are_protocol_data():
    flair1, landcover = get_protocol("flair1"), get_protocol("flairhub-landcover")
    crops, weeds = get_protocol("flairhub-croptype"), get_protocol("weedsense")
    assert (flair1.layout, flair1.submission_offset, len(flair1.raw_classes)) == ("flair1", -1, 19)
    assert (landcover.layout, landcover.label_modality) == ("flairhub", "AERIAL_LABEL-COSIA")
    assert crops.label_modality == "ALL_LABEL-LPIS"
    assert weeds.image_targets == ("height_cm", "growth_week") and weeds.layout == "weedsense"
    assert get_protocol("custom").image_targets == () and get_protocol("custom").layout == ""


def test_parameters_give_the_protocol_asked_for():
    protocol = protocol_from_parameters("custom", "0,255", "13-19:13", "1-12", "1-13", "zero", False)
    assert protocol.ignore == frozenset({0, 255}) and protocol.remap[17] == 13
    assert protocol.evaluated == tuple(range(1, 13)) and protocol.absent == "zero" and not protocol.drop_excluded
    assert protocol_from_parameters("flair1").absent == "skip"
    assert protocol_from_parameters("flair1", absent="protocol").remap == get_protocol("flair1").remap
    with pytest.raises(InputError, match="Unknown protocol 'flair3'"):
        protocol_from_parameters("flair3")
    with pytest.raises(InputError, match="EVALUATED_CLASSES"):
        protocol_from_parameters("custom", evaluated="1-x")


def test_regroup_arrays():
    values = np.array([[1, 13, 19], [12, 14, 0]], dtype=np.uint8)
    np.testing.assert_array_equal(get_protocol("flair1").regroup(values), [[1, 13, 13], [12, 13, 0]])
    assert get_protocol("weedsense").regroup(values) is values


def test_pairs_parsing():
    assert parse_remap("13-15:13; 0:255") == {13: 13, 14: 13, 15: 13, 0: 255}
    assert parse_class_map(" 0:1, 12:13 ") == {0: 1, 12: 13}
    with pytest.raises(InputError, match="CLASS_MAP target must be an integer"):
        parse_class_map("0:building")
