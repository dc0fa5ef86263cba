"""Pixel areas in m² for any CRS, checked against pyproj's geodesic areas (not our own formula)."""

from __future__ import annotations

import numpy as np
import pytest
from affine import Affine
from pyproj import CRS, Geod, Transformer
from rasters import write_raster

from flair_qgis.core.areas import row_pixel_areas_m2
from flair_qgis.core.engine.grid import Grid
from flair_qgis.core.review import SampleRequest, create_review
from flair_qgis.core.review.store import ReviewStore


def test_geographic_pixels_have_their_geodesic_area():
    # 0.0001 degree pixels over 45..45.1 N: about 7.9 m x 11.1 m, not 1e-8 "m²".
    grid = Grid(Affine(1e-4, 0, 2.0, 0, -1e-4, 45.1), 500, 1000, CRS.from_epsg(4326).to_wkt())
    rows = np.asarray(row_pixel_areas_m2(grid))
    whole, _ = Geod(ellps="WGS84").polygon_area_perimeter([2.0, 2.05, 2.05, 2.0], [45.1, 45.1, 45.0, 45.0])
    assert rows.sum() * 500 == pytest.approx(abs(whole), rel=1e-6)  # edges: geodesics vs parallels
    assert 85 < rows.mean() < 90 and rows[0] < rows[-1]  # smaller towards the pole


def test_us_survey_feet_pixels_are_converted_to_square_metres():
    crs = CRS.from_epsg(2227)  # NAD83 / California zone 3 (ftUS)
    x0, y0 = 6_000_000.0, 2_100_000.0
    grid = Grid(Affine(10.0, 0, x0, 0, -10.0, y0), 100, 100, crs.to_wkt())
    area = row_pixel_areas_m2(grid)
    assert area == pytest.approx(100 * 0.3048006096**2, rel=1e-9)
    # The geodesic area of the same 1000 ft square agrees to the projection's scale error (< 1e-3).
    to_geo = Transformer.from_crs(crs, crs.geodetic_crs, always_xy=True)
    lon, lat = to_geo.transform([x0, x0 + 1000, x0 + 1000, x0], [y0, y0, y0 - 1000, y0 - 1000])
    geodesic, _ = crs.get_geod().polygon_area_perimeter(lon, lat)
    assert area * 10_000 == pytest.approx(abs(geodesic), rel=1e-3)


def test_a_review_of_a_geographic_map_reports_hectares(tmp_path):
    data = np.ones((1, 200, 300), dtype=np.uint8)
    data[0, :, 200:] = 2
    path = write_raster(tmp_path / "wgs84.tif", data, nodata=0, crs="EPSG:4326", res=1e-4, origin=(2.0, 45.02))
    out = tmp_path / "r.gpkg"
    create_review(SampleRequest(str(path), str(out), design="stratified", samples=20, min_per_class=5))
    with ReviewStore.open(out) as store:
        areas = store.stratum_pixel_area_m2
    geod = Geod(ellps="WGS84")
    one, _ = geod.polygon_area_perimeter([2.0, 2.02, 2.02, 2.0], [45.02, 45.02, 45.0, 45.0])
    two, _ = geod.polygon_area_perimeter([2.02, 2.03, 2.03, 2.02], [45.02, 45.02, 45.0, 45.0])
    assert areas[1] * 200 * 200 == pytest.approx(abs(one), rel=1e-6)
    assert areas[2] * 200 * 100 == pytest.approx(abs(two), rel=1e-6)
