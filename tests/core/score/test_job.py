"""core.score.job.run_score: the one entry of scoring. Figures equal to score()'s, the report file
equal to the typed report's JSON, ranking and figures sharing the progress, and a failure or a
cancel after a file was written leaving nothing behind."""

from __future__ import annotations

import json

import geopandas as gpd
import numpy as np
import pytest
import rasterio
from affine import Affine
from rasterio.features import shapes
from shapely.geometry import shape

from flair_qgis.core.engine.geotiff import AtomicGeoTiff
from flair_qgis.core.engine.grid import Grid
from flair_qgis.core.errors import Canceled, InputError
from flair_qgis.core.score import Reference, ScoreRequest, get_protocol, run_score, score
from flair_qgis.core.score.report import report_json

TRANSFORM = Affine(0.2, 0.0, 650000.0, 0.0, -0.2, 6860000.0)


def _write(path, array):
    grid = Grid(TRANSFORM, array.shape[1], array.shape[0], rasterio.crs.CRS.from_epsg(2154).to_wkt())
    out = AtomicGeoTiff(str(path), grid, "uint8", 255, 64)
    out.open()
    out.write(array, 0, 0)
    out.commit()
    return str(path)


@pytest.fixture
def case(tmp_path):
    rng = np.random.default_rng(7)
    ref = np.repeat(np.repeat(rng.integers(1, 14, (4, 6)), 16, axis=0), 16, axis=1).astype(np.uint8)
    pred = ref.copy()
    pred[rng.random(ref.shape) < 0.25] = 4
    polygons = gpd.GeoDataFrame(
        {"code": [int(v) for _, v in shapes(ref, transform=TRANSFORM)]},
        geometry=[shape(g) for g, _ in shapes(ref, transform=TRANSFORM)], crs="EPSG:2154",
    )  # fmt: skip
    return tmp_path, _write(tmp_path / "pred.tif", pred), _write(tmp_path / "ref.tif", ref), polygons


def test_figures_and_published_report_are_those_of_score(case):
    tmp, pred_path, ref_path, _ = case
    request = ScoreRequest(
        pred_path, Reference(raster_path=ref_path), get_protocol("flair1"), error_map_path=str(tmp / "errors.tif"),
        report_path=str(tmp / "report.json"), csv_path=str(tmp / "report.csv"),
    )  # fmt: skip
    result = run_score(request)
    direct = score(pred_path, Reference(raster_path=ref_path), get_protocol("flair1"))
    assert result.report.scores == direct.scores
    assert result.report.error_map == str(tmp / "errors.tif")
    assert result.published.json_path == str(tmp / "report.json") and result.ranked is None
    assert (tmp / "report.json").read_text() == report_json(result.report.to_report())
    written = json.loads((tmp / "report.json").read_text())
    assert list(written)[:4] == ["protocol", "miou", "oa", "pixels_evaluated"]
    assert written["error_map"] == result.report.error_map and written["reference_resampled"] is False


def test_ranking_shares_the_progress_and_needs_polygons(case):
    tmp, pred_path, ref_path, polygons = case
    progress: list[float] = []
    request = ScoreRequest(
        pred_path, Reference(polygons=polygons, field="code"), get_protocol("flair1"),
        ranked_path=str(tmp / "ranked.gpkg"),
    )  # fmt: skip
    result = run_score(request, on_progress=progress.append)
    assert len(result.ranked) == len(polygons) and (tmp / "ranked.gpkg").exists()
    assert result.report.reference_field == "code"
    assert max(p for p in progress if p <= 50.0) == 50.0 and progress[-1] == 100.0
    assert progress == sorted(progress)
    only_rank = run_score(
        ScoreRequest(pred_path, request.reference, request.protocol, metrics=False, ranked_path=str(tmp / "r2.gpkg"))
    )
    assert only_rank.report is None and only_rank.ranked["rank"].tolist() == result.ranked["rank"].tolist()
    with pytest.raises(InputError, match="polygon references only"):
        run_score(
            ScoreRequest(pred_path, Reference(raster_path=ref_path), request.protocol, ranked_path=str(tmp / "x.gpkg"))
        )
    assert not (tmp / "x.gpkg").exists()


def test_a_failed_publish_removes_the_error_map_and_the_ranking(case):
    tmp, pred_path, _, polygons = case
    request = ScoreRequest(
        pred_path, Reference(polygons=polygons, field="code"), get_protocol("flair1"),
        error_map_path=str(tmp / "errors.tif"), ranked_path=str(tmp / "ranked.gpkg"),
        report_path=str(tmp / "missing" / "report.json"),
    )  # fmt: skip
    with pytest.raises(InputError):
        run_score(request)
    assert sorted(p.name for p in tmp.iterdir()) == ["pred.tif", "ref.tif"]


def test_a_cancel_while_ranking_removes_the_error_map(case):
    tmp, pred_path, _, polygons = case
    calls = []

    def cancel_after_scoring() -> bool:
        calls.append(1)
        return (tmp / "errors.tif").exists()

    request = ScoreRequest(
        pred_path, Reference(polygons=polygons, field="code"), get_protocol("flair1"),
        error_map_path=str(tmp / "errors.tif"), ranked_path=str(tmp / "ranked.gpkg"),
    )  # fmt: skip
    with pytest.raises(Canceled):
        run_score(request, is_canceled=cancel_after_scoring)
    assert calls and sorted(p.name for p in tmp.iterdir()) == ["pred.tif", "ref.tif"]
