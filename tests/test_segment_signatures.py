"""flair:segment on models written the ways other tools write them (issue 39): what a user sees.

The models are those of the conformance suite (tests/core/engine/test_conformance.py); here
they go through Processing, and the note of a graph that cannot be fused reaches the log, in
French under a French QGIS.
"""

from __future__ import annotations

import numpy as np
import pytest
from conformance_models import Variant, build
from conftest import RecordingFeedback
from rasters import random_image, read, write_raster
from test_i18n import french_qgis  # noqa: F401 - the fr_FR profile fixture

from flair_qgis import i18n

UNFUSABLE = Variant(hidden_channels=True, shape="symbolic", symbolic_input=True, declare_classes=True)


def _segment(run_alg, tmp_path, variant: Variant):
    pixels = random_image(70, 90, bands=3, seed=5)
    raster = write_raster(tmp_path / "image.tif", pixels)
    toy = build(tmp_path / "models", variant)
    feedback = RecordingFeedback()
    params = {"INPUT": str(raster), "MODEL": str(toy.path), "OUTPUT": str(tmp_path / "out.tif")}
    result = run_alg("flair:segment", {**params, "TILE_SIZE": 64, "OVERLAP": 0, "DEVICE": "cpu"}, feedback)
    classes, sure = toy.class_map(pixels)
    assert sure.mean() > 0.97
    assert np.array_equal(read(result["OUTPUT"])[sure], classes[sure])
    return feedback


@pytest.mark.parametrize(
    "variant",
    [
        Variant(shape="symbolic"),  # once a TypeError: '<=' between 'str' and 'int'
        Variant(shape="none", input_dtype="float16", output_dtype="float16", opset=11),  # once an IndexError
        Variant(shape="unknown", head="softmax", opset=21),  # once a TypeError: 'NoneType' and 'int'
        Variant(head="argmax_keepdims", declare_classes=True),
    ],
    ids=lambda v: v.label,
)
def test_models_written_by_other_tools_segment_without_a_note(run_alg, tmp_path, variant):
    feedback = _segment(run_alg, tmp_path, variant)
    assert not [w for w in feedback.warnings if "not fused" in w]
    assert not feedback.errors


def test_a_graph_that_cannot_be_fused_says_so_in_one_line_of_the_log(run_alg, tmp_path):
    feedback = _segment(run_alg, tmp_path, UNFUSABLE)
    assert [w for w in feedback.warnings if "not fused" in w] == [
        "Model graph not fused for output 'scores' (it has no channel count, even after shape inference): its "
        "argmax runs on the host, slower."
    ]


def test_the_note_reaches_a_french_user_in_french(french_qgis, run_alg, tmp_path):  # noqa: F811
    assert i18n.install_translator() == "fr"
    feedback = _segment(run_alg, tmp_path, UNFUSABLE)
    assert (
        "Graphe du modèle non fusionné pour la sortie « scores » (elle n’a pas de nombre de canaux, même après "
        "inférence des formes) : son argmax est calculé sur l’hôte, plus lentement." in feedback.warnings
    )
    assert not [w for w in feedback.warnings if "not fused" in w]
