"""core.crs: local CRSs recognised from their WKT alone, the same way on every GDAL.

The FLAIR masks carry `LOCAL_CS["RGF93 v1 / Lambert-93", UNIT["metre",1], ...]`. GDAL 3.6
(Debian 12) and GDAL 3.13 (Debian forky) read it differently; the plugin must not depend on
either's guess. Expected values below come from EPSG:2154's definition, not from the code.
"""

from __future__ import annotations

import numpy as np
import pytest
import rasterio
from conftest import FLAIR_DATA
from rasterio.crs import CRS
from rasterio.warp import Resampling, calculate_default_transform, reproject, transform_bounds

from flair_qgis.core.crs import cannot_reproject, recognise_local, same_crs
from flair_qgis.core.engine.grid import Grid
from flair_qgis.core.errors import InputError
from flair_qgis.core.score.evaluate import Reference, score
from flair_qgis.core.score.protocols import get_protocol
from flair_qgis.core.score.reference import grid_bounds_in

EPSG_2154 = CRS.from_epsg(2154).to_wkt()
UNIT_METRE = 'UNIT["metre",1,AUTHORITY["EPSG","9001"]]'
LAMBERT_93_PARAMETERS = (
    'PARAMETER["latitude_of_origin",46.5],PARAMETER["central_meridian",3],'
    'PARAMETER["standard_parallel_1",49],PARAMETER["standard_parallel_2",44],'
    'PARAMETER["false_easting",700000],PARAMETER["false_northing",6600000]'
)


def _local(name: str, body: str = UNIT_METRE) -> str:
    return f'LOCAL_CS["{name}",{body},AXIS["Easting",EAST],AXIS["Northing",NORTH]]'


def test_the_flair_masks_local_cs_is_recognised_as_lambert_93():
    with rasterio.open(FLAIR_DATA / "MSK_000473.tif") as src:
        wkt = src.crs.to_wkt()
    assert wkt.startswith(("LOCAL_CS", "ENGCRS"))
    match = recognise_local(wkt)
    assert match is not None and match.epsg == 2154
    assert match.describe("reference") == (
        'The reference\'s local CRS "RGF93 v1 / Lambert-93" is taken as EPSG:2154 '
        "(name and metre units match EPSG:2154)."
    )


@pytest.mark.parametrize(
    "wkt",
    [
        _local("RGF93 v1 / Lambert-93"),
        _local("RGF93 / Lambert-93"),
        _local("RGF93_Lambert_93"),
        _local("Lambert 93"),
        _local(
            "RGF93 v1 / Lambert-93", f'PROJECTION["Lambert_Conformal_Conic_2SP"],{LAMBERT_93_PARAMETERS},{UNIT_METRE}'
        ),
        'ENGCRS["RGF93 v1 / Lambert-93",EDATUM["Unknown engineering datum"],CS[Cartesian,2],'
        'AXIS["easting",east,ORDER[1],LENGTHUNIT["metre",1]],AXIS["northing",north,ORDER[2],LENGTHUNIT["metre",1]]]',
    ],
)
def test_lambert_93_spellings_match(wkt):
    match = recognise_local(wkt)
    assert match is not None and match.epsg == 2154
    assert same_crs(wkt, EPSG_2154) and not cannot_reproject(wkt)


@pytest.mark.parametrize(
    "wkt",
    [
        _local("Site grid of the quarry"),  # another name
        _local("RGF93 v1 / Lambert-93", 'UNIT["US survey foot",0.304800609601219]'),  # other units
        _local("Lambert-93", LAMBERT_93_PARAMETERS.replace("6600000", "2200000") + "," + UNIT_METRE),  # Lambert II
        _local("Lambert-9"),
    ],
)
def test_a_local_cs_that_matches_nothing_stays_local(wkt):
    assert recognise_local(wkt) is None
    assert cannot_reproject(wkt) and not same_crs(wkt, EPSG_2154)


def test_projected_crss_are_not_local():
    assert recognise_local(EPSG_2154) is None and recognise_local(None) is None
    assert not cannot_reproject(EPSG_2154)


def test_recognised_bounds_are_reprojected_and_unknown_local_ones_refused():
    grid = Grid(rasterio.Affine(10.0, 0, 360000.0, 0, -10.0, 6250000.0), 100, 100, CRS.from_epsg(3857).to_wkt())
    bounds = (650000.0, 6860000.0, 650102.4, 6860102.4)
    expected = transform_bounds(CRS.from_epsg(2154), CRS.from_epsg(3857), *bounds)
    assert grid_bounds_in(grid, bounds, _local("RGF93 v1 / Lambert-93")) == pytest.approx(expected)
    with pytest.raises(InputError, match="local CRS that cannot be reprojected"):
        grid_bounds_in(grid, bounds, _local("Site grid of the quarry"))


def test_a_flair_mask_scores_a_prediction_in_web_mercator(tmp_path):
    """The real mask (LOCAL_CS) against a prediction reprojected to EPSG:3857: once the local CRS
    is recognised, the reference is warped like any other and the report says what was assumed."""
    with rasterio.open(FLAIR_DATA / "MSK_000473.tif") as src:
        mask, mask_transform, width, height, bounds = src.read(1), src.transform, src.width, src.height, src.bounds
    mercator = CRS.from_epsg(3857)
    transform, w, h = calculate_default_transform(CRS.from_epsg(2154), mercator, width, height, *bounds)
    prediction = np.zeros((h, w), dtype=np.uint8)
    reproject(
        mask, prediction, src_transform=mask_transform, src_crs=CRS.from_epsg(2154), dst_transform=transform,
        dst_crs=mercator, resampling=Resampling.nearest, dst_nodata=0,
    )  # fmt: skip
    path = tmp_path / "pred_3857.tif"
    profile = dict(driver="GTiff", width=w, height=h, count=1, dtype="uint8", crs=mercator, transform=transform)
    with rasterio.open(path, "w", nodata=0, **profile) as dst:
        dst.write(prediction, 1)
    report = score(path, Reference(raster_path=FLAIR_DATA / "MSK_000473.tif"), get_protocol("flair1"))
    # The prediction is the mask warped and warped back: nearly every pixel agrees.
    assert report.scores.oa > 0.97 and report.scores.pixels_evaluated > 0.9 * w * h
    assert list(report.crs_recognised) == [
        'The reference\'s local CRS "RGF93 v1 / Lambert-93" is taken as EPSG:2154 '
        "(name and metre units match EPSG:2154)."
    ]
