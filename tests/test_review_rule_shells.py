"""One sampling rule, one default: the Review tab refuses what the sampling job refuses (the job's
rule, in the dock's words), and every shell starts from the job's default number of items."""

from __future__ import annotations

import numpy as np
import pytest
from gui_helpers import add_raster
from qgis.core import QgsProject
from rasters import write_raster

from flair_qgis.adapters.review_sample import SampleDesign
from flair_qgis.core.errors import InputError
from flair_qgis.core.review import DEFAULT_SAMPLES, SampleRequest
from flair_qgis.core.review.request import check_request
from flair_qgis.core.vocabulary import DESIGNS
from flair_qgis.gui.review.review_create import ReviewCreateBox
from flair_qgis.i18n.errors import DOCK, PROCESSING, error_text
from flair_qgis.processing.sample_algorithm import SampleAlgorithm

CASES = [
    (design, reference, confidence, minimum)
    for design in DESIGNS
    for reference in (False, True)
    for confidence in (False, True)
    for minimum in (1, 2)
]


@pytest.fixture
def box(qgis_canvas, qgis_new_project, tmp_path):
    classes = np.random.default_rng(0).integers(1, 4, size=(1, 16, 16), dtype=np.uint8)
    layers = [add_raster(write_raster(tmp_path / f"{name}.tif", classes)) for name in ("classes", "labels", "conf")]
    widget = ReviewCreateBox(qgis_canvas)
    widget.prediction_combo.setLayer(layers[0])
    widget.layers = layers
    yield widget
    QgsProject.instance().removeMapLayers([layer.id() for layer in layers])


def test_the_box_refuses_exactly_what_the_job_refuses(box, tmp_path):
    _classes, labels, confidence_layer = box.layers
    for design, reference, confidence, minimum in CASES:
        box.design_combo.setCurrentIndex(box.design_combo.findData(design))
        box.reference_combo.setLayer(labels if reference else None)
        box.confidence_combo.setLayer(confidence_layer if confidence else None)
        box.min_spin.setValue(minimum)
        request = SampleRequest(
            "classes.tif",
            str(tmp_path / "r.gpkg"),
            design=design,
            min_per_class=minimum,
            reference_raster="labels.tif" if reference else None,
            confidence_path="conf.tif" if confidence else None,
        )
        case = (design, reference, confidence, minimum)
        try:
            check_request(request)
        except InputError as refusal:
            # The tab says the job's refusal in the dock's words; Processing shows the job's own sentence.
            assert box._design_refusal() == error_text(refusal, DOCK), case
            assert error_text(refusal, PROCESSING) == str(refusal), case
        else:
            assert box._design_refusal() == "", case


def test_every_shell_starts_from_the_jobs_default_number_of_items(box):
    algorithm = SampleAlgorithm()
    algorithm.initAlgorithm()
    defaults = {
        "job": SampleRequest("a.tif", "r.gpkg").samples,
        "capture": SampleDesign().samples,
        "flair:sample": algorithm.parameterDefinition("SAMPLES").defaultValue(),
        "Review tab": box.samples_spin.value(),
    }
    assert defaults == dict.fromkeys(defaults, DEFAULT_SAMPLES)
