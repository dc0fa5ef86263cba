"""A polygon reference at département scale: a million 10 m squares in a GeoPackage.

Scoring one real FLAIR patch against it reads only the squares over the patch (the provider's
R-tree answers a filter rectangle), and the scores are those of a layer holding only them.
"""

from __future__ import annotations

import json

import numpy as np
from bigref_helpers import MILLION_SIDE, squares_meeting
from qgis.core import QgsVectorLayer

from flair_qgis.adapters.reference_input import capture_reference
from flair_qgis.core.score.evaluate import prediction_grid

SIDE = MILLION_SIDE


def test_a_million_polygons_are_read_only_where_the_patch_lies(million_squares):
    big = million_squares
    layer = QgsVectorLayer(str(big["folder"] / "labels_1m.gpkg") + "|layername=labels", "labels", "ogr")
    assert layer.isValid() and layer.featureCount() == SIDE * SIDE
    captured = capture_reference(layer, "code")  # main thread: no feature is read here
    reference = captured.resolve(str(big["prediction"]))
    expected = squares_meeting(big["bounds"], big["x0"], big["y0"], SIDE)
    assert 100 <= expected <= 200
    assert len(reference.polygons) == expected
    # Only the class field travels.
    assert list(reference.polygons.columns) == ["code", "geometry"]
    # An extent inside the patch reads fewer still.
    grid = prediction_grid(str(big["prediction"]), None)
    quarter = (grid.bounds[0], grid.bounds[1], grid.bounds[0] + 25.0, grid.bounds[1] + 25.0)
    assert len(captured.resolve(str(big["prediction"]), quarter).polygons) == squares_meeting(
        quarter, big["x0"], big["y0"], SIDE
    )


def test_scores_against_a_million_polygons_equal_those_against_the_patchs_own(million_squares, run_alg):
    """The same report from the département layer as from a layer holding only the squares over
    the patch (cut here with OGR's own spatial filter, not the plugin's)."""
    from osgeo import ogr

    big = million_squares
    folder = big["folder"]
    small = folder / "labels_patch.gpkg"
    source = ogr.Open(str(folder / "labels_1m.gpkg"))
    layer = source.GetLayer("labels")
    layer.SetSpatialFilterRect(*big["bounds"])
    out = ogr.GetDriverByName("GPKG").CreateDataSource(str(small))
    copied = out.CopyLayer(layer, "labels")
    assert copied.GetFeatureCount() == squares_meeting(big["bounds"], big["x0"], big["y0"], SIDE)
    out = source = None

    reports = {}
    for name, path in (("all", folder / "labels_1m.gpkg"), ("patch", small)):
        report_path = folder / f"report_{name}.json"
        run_alg(
            "flair:evaluate",
            {
                "PREDICTION": str(big["prediction"]),
                "REFERENCE": f"{path}|layername=labels",
                "REFERENCE_FIELD": "code",
                "PROTOCOL": "flair1",
                "OUTPUT_REPORT": str(report_path),
            },
        )
        reports[name] = json.loads(report_path.read_text())
    for key in ("miou", "oa", "pixels_evaluated", "confusion_matrix", "classes"):
        assert reports["all"][key] == reports["patch"][key]
    assert reports["all"]["pixels_evaluated"] == 512 * 512
    assert np.isfinite(reports["all"]["miou"])
