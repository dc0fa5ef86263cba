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


def test_a_shapefile_without_qix_gets_an_offer_that_indexes_it(plugin, qtbot, tmp_path, million_squares, run_alg):
    """A shapefile without .qix: every read scans the file. The Evaluate tab offers to index it;
    the index file appears beside it, the data files are untouched, and the scores do not change."""
    import hashlib
    import subprocess

    from bigref_helpers import square_grid_gpkg
    from qgis.core import QgsProject

    big = million_squares
    b = big["bounds"]
    square_grid_gpkg(tmp_path / "grid.gpkg", ((b[0] + b[2]) / 2 + 3.3, (b[1] + b[3]) / 2 + 4.7), 200)
    shp = tmp_path / "labels.shp"
    subprocess.run(["ogr2ogr", "-f", "ESRI Shapefile", str(shp), str(tmp_path / "grid.gpkg"), "labels",
                    "-lco", "SPATIAL_INDEX=NO"], check=True)  # fmt: skip
    data_files = sorted(tmp_path.glob("labels.*"))
    digest = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in data_files}
    before = json.loads(json.dumps(_evaluate_file(run_alg, big["prediction"], shp, tmp_path / "before.json")))

    layer = QgsVectorLayer(str(shp), "labels", "ogr")
    QgsProject.instance().addMapLayer(layer)
    qa = plugin.dock.qa
    qa.reference_combo.setLayer(layer)
    assert not qa.layers.index_row.isHidden()
    task = qa.layers.create_spatial_index()
    assert task is not None
    qtbot.waitUntil(lambda: qa.layers.index_task is None, timeout=30000)
    assert (tmp_path / "labels.qix").exists()
    assert qa.layers.index_row.isHidden()
    assert {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in data_files} == digest
    after = _evaluate_file(run_alg, big["prediction"], shp, tmp_path / "after.json")
    for key in ("miou", "oa", "pixels_evaluated", "confusion_matrix"):
        assert after[key] == before[key]
    # A GeoPackage has its R-tree: no offer.
    qa.reference_combo.setLayer(QgsProject.instance().addMapLayer(
        QgsVectorLayer(f"{tmp_path / 'grid.gpkg'}|layername=labels", "grid", "ogr")))  # fmt: skip
    assert qa.layers.index_row.isHidden()


def _evaluate_file(run_alg, prediction, reference, report_path) -> dict:
    run_alg(
        "flair:evaluate",
        {"PREDICTION": str(prediction), "REFERENCE": str(reference), "REFERENCE_FIELD": "code", "PROTOCOL": "flair1",
         "OUTPUT_REPORT": str(report_path)},
    )  # fmt: skip
    return json.loads(report_path.read_text())
