"""A reference in a real PostgreSQL + PostGIS database (a million squares, GiST index): scored in
Processing (a loaded layer and a ``postgres://`` layer string) and in the dock, with the same
figures as the GeoPackage it was loaded from; and what a wrong URI, a missing table or a dead
server get."""

from __future__ import annotations

import json

import pytest
from bigref_helpers import squares_meeting
from gui_helpers import score_and_wait
from qgis.core import QgsProject, QgsRasterLayer, QgsVectorLayer

from flair_qgis.adapters.reference_input import capture_reference
from flair_qgis.core.errors import InputError


def _evaluate(run_alg, prediction, reference, report_path) -> dict:
    run_alg(
        "flair:evaluate",
        {"PREDICTION": str(prediction), "REFERENCE": reference, "REFERENCE_FIELD": "code", "PROTOCOL": "flair1",
         "OUTPUT_REPORT": str(report_path)},
    )  # fmt: skip
    return json.loads(report_path.read_text())


@pytest.fixture
def gpkg_report(million_squares, run_alg):
    case = million_squares
    return _evaluate(run_alg, case["prediction"], f"{case['gpkg']}|layername=labels", case["folder"] / "gpkg.json")


def test_the_table_holds_the_million_squares_with_a_gist_index(postgis):
    assert int(postgis.sql("flair", "SELECT count(*) FROM labels")) == 1_000_000
    assert "USING gist (geom)" in postgis.sql("flair", "SELECT indexdef FROM pg_indexes WHERE tablename='labels'")


def test_a_loaded_postgis_layer_scores_like_the_geopackage(postgis, million_squares, run_alg, gpkg_report, tmp_path):
    layer = QgsVectorLayer(postgis.uri("labels"), "labels (PostGIS)", "postgres")
    assert layer.isValid(), layer.error().summary()
    # Read in the worker with the patch as filter rectangle: only the squares over it come back.
    reference = capture_reference(layer, "code").resolve(str(million_squares["prediction"]))
    case = million_squares
    assert len(reference.polygons) == squares_meeting(case["bounds"], case["x0"], case["y0"], 1000)
    QgsProject.instance().addMapLayer(layer)
    try:
        report = _evaluate(run_alg, case["prediction"], layer.id(), tmp_path / "pg.json")
    finally:
        QgsProject.instance().removeMapLayer(layer.id())
    for key in ("miou", "oa", "pixels_evaluated", "confusion_matrix", "classes"):
        assert report[key] == gpkg_report[key]


def test_a_postgres_layer_string_scores_like_the_geopackage(postgis, million_squares, run_alg, gpkg_report, tmp_path):
    """What qgis_process users pass: ``postgres://`` followed by the provider URI."""
    layer_string = "postgres://" + postgis.uri("labels")
    report = _evaluate(run_alg, million_squares["prediction"], layer_string, tmp_path / "s.json")
    for key in ("miou", "oa", "pixels_evaluated", "confusion_matrix"):
        assert report[key] == gpkg_report[key]


def test_the_dock_scores_the_view_against_a_postgis_layer(postgis, million_squares, plugin, qgis_canvas, qtbot):
    qa = plugin.dock.qa
    prediction = QgsRasterLayer(str(million_squares["prediction"]), "prediction")
    labels = QgsVectorLayer(postgis.uri("labels"), "labels (PostGIS)", "postgres")
    QgsProject.instance().addMapLayers([prediction, labels])
    try:
        qa.prediction_combo.setLayer(prediction)
        qgis_canvas.setDestinationCrs(prediction.crs())
        qgis_canvas.setExtent(prediction.extent())
        score_and_wait(qa, qtbot, labels, "code", timeout_ms=120000)
        assert qa.report["pixels_evaluated"] == 512 * 512
        assert len(qa.ranked) == squares_meeting(
            million_squares["bounds"], million_squares["x0"], million_squares["y0"], 1000
        )
    finally:
        QgsProject.instance().removeMapLayers([labels.id(), prediction.id()])


@pytest.mark.parametrize("case", ["wrong database", "missing table", "dead server"])
def test_unreachable_tables_get_a_clear_message(postgis, case):
    uri = {
        "wrong database": postgis.uri("labels").replace("dbname='flair'", "dbname='nosuchdb'"),
        "missing table": postgis.uri("no_such_table"),
        "dead server": postgis.uri("labels").replace(f"port={postgis.port}", "port=1"),
    }[case]
    layer = QgsVectorLayer(uri, "labels", "postgres")
    assert not layer.isValid()
    with pytest.raises(InputError) as raised:
        capture_reference(layer, "code")
    message = str(raised.value)
    assert message.startswith("The layer 'labels' (postgres) cannot be opened")
    assert "check the connection (host, port, database, user, table) and that the server is running" in message
