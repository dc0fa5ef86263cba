"""pyproj on QGIS's pooled worker threads: each thread's PROJ context is kept between tasks.

pyproj 3.7 freed a thread's context when PyQt dropped the Python thread state after a task, and
the next task on that reused thread crashed (QGIS 3.40, Debian 13). Here successive QgsTasks use
pyproj on the task manager's threads and a polygon reference without a pyproj CRS is reprojected
in the worker.
"""

from __future__ import annotations

import threading

import geopandas as gpd
import numpy as np
import pyproj
import pytest
from qgis.core import QgsApplication, QgsTask
from rasterio.transform import from_origin
from shapely.geometry import Polygon, box

from flair_qgis.adapters.proj_threads import _per_thread_contexts, keep_proj_context, kept_threads
from flair_qgis.core.engine.grid import Grid
from flair_qgis.core.score.polygons import CRS_WKT_ATTR, PolygonSource, without_own_crs

LAMBERT93_WKT = pyproj.CRS.from_epsg(2154).to_wkt()
WGS84_WKT = pyproj.CRS.from_epsg(4326).to_wkt()


def test_successive_tasks_use_pyproj_on_reused_threads(qtbot):
    results: list[tuple[int, int | None]] = []
    errors: list[BaseException] = []

    def work(_task):
        keep_proj_context()
        crs = pyproj.CRS.from_wkt(LAMBERT93_WKT)
        results.append((threading.get_native_id(), crs.to_epsg()))

    def finished(exception, _result=None):
        errors.append(exception)

    tasks = []  # kept referenced until they finish
    for done in range(4):
        tasks.append(QgsTask.fromFunction("pyproj on a pooled thread", work, on_finished=finished))
        QgsApplication.taskManager().addTask(tasks[-1])
        qtbot.waitUntil(lambda done=done: len(errors) == done + 1, timeout=60000)
    assert errors == [None] * 4
    assert [epsg for _, epsg in results] == [2154] * 4
    if _per_thread_contexts() is not None:  # pyproj 3.7+: every thread that ran pyproj keeps its context
        assert {tid for tid, _ in results} <= kept_threads()


@pytest.mark.skipif(_per_thread_contexts() is None, reason="this pyproj has no per-thread PROJ context")
def test_keep_proj_context_keeps_a_plain_threads_context():
    seen = {}

    def work():
        keep_proj_context()
        seen["tid"] = threading.get_native_id()

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert seen["tid"] in kept_threads()


def test_polygons_carried_as_wkt_are_reprojected_in_the_worker():
    # A 100 m square in Lambert-93, given in WGS 84 without a pyproj CRS (the WKT beside it).
    to_wgs84 = pyproj.Transformer.from_crs(2154, 4326, always_xy=True)
    x0, y0 = 650000.0, 6860000.0
    corners = [(x0, y0), (x0 + 100.0, y0), (x0 + 100.0, y0 + 100.0), (x0, y0 + 100.0)]
    gdf = gpd.GeoDataFrame({"code": [3]}, geometry=[Polygon([to_wgs84.transform(x, y) for x, y in corners])])
    gdf.attrs[CRS_WKT_ATTR] = WGS84_WKT
    grid = Grid(from_origin(x0 - 100.0, y0 + 200.0, 1.0, 1.0), 300, 300, LAMBERT93_WKT)
    source = PolygonSource(gdf, "code", grid)
    assert source.crs_wkt == LAMBERT93_WKT
    xmin, ymin, xmax, ymax = source.bounds
    assert (xmin, ymin) == pytest.approx((x0, y0), abs=0.5)
    assert (xmax, ymax) == pytest.approx((x0 + 100.0, y0 + 100.0), abs=0.5)
    assert gdf.crs is None  # the input is not modified
    with source.open() as reader:
        index = reader.read_index(0, 0, 300, 300)
    assert int(np.count_nonzero(index)) == pytest.approx(100 * 100, rel=0.03)


def test_without_own_crs_keeps_rows_and_carries_the_wkt():
    gdf = gpd.GeoDataFrame({"rank": [1, 2]}, geometry=[box(0, 0, 1, 1), box(2, 2, 3, 3)], crs=LAMBERT93_WKT)
    out = without_own_crs(gdf)
    assert out.crs is None
    assert pyproj.CRS.from_wkt(out.attrs[CRS_WKT_ATTR]).to_epsg() == 2154
    assert list(out["rank"]) == [1, 2]
    assert [g.bounds for g in out.geometry] == [(0, 0, 1, 1), (2, 2, 3, 3)]
