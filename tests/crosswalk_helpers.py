"""A real FLAIR mask polygonised with OCS GE-like text codes (issue 40): two codes for deciduous,
herbaceous left out of the crosswalk, and the same polygons recoded by hand to integer classes."""

from __future__ import annotations

import geopandas as gpd
from rasterio.features import shapes
from shapely.geometry import shape

PATCH = "024577"  # classes 1, 2, 3, 5, 7, 8, 10
# FLAIR code -> OCS GE-like cover code written in the reference; deciduous (7) gets two codes.
TEXT = {1: "CS1.1.1.1", 2: "CS2.2.2", 3: "CS1.1.1.2", 5: "CS1.2.2", 8: "CS2.1.2", 10: "CS2.2.1"}
DECIDUOUS = ("CS2.1.1.1", "CS2.1.1.3")
UNLISTED = "CS2.2.1"  # herbaceous: left out of the crosswalk, so not scored
UNLISTED_CLASS = 10
CSV = """reference,class
CS1.1.1.1,building
CS1.1.1.2,3
CS2.2.2,pervious surface
CS1.2.2,Surface d’eau
CS2.1.1.1,deciduous
CS2.1.1.3,7
CS2.1.2,8
"""


def text_and_integer_polygons(mask, transform, crs) -> tuple[gpd.GeoDataFrame, gpd.GeoDataFrame]:
    """The mask's regions with text codes in ``cs``, and the same regions with integer classes in
    ``code``, the left-out code's regions removed."""
    geoms, codes, text = [], [], []
    for geom, value in shapes(mask, transform=transform):
        geoms.append(shape(geom))
        codes.append(int(value))
    seen_deciduous = 0
    for code in codes:
        if code == 7:
            text.append(DECIDUOUS[seen_deciduous % 2])
            seen_deciduous += 1
        else:
            text.append(TEXT[code])
    assert seen_deciduous >= 2
    text_gdf = gpd.GeoDataFrame({"cs": text}, geometry=geoms, crs=crs)
    keep = [c != UNLISTED_CLASS for c in codes]
    int_gdf = gpd.GeoDataFrame({"code": codes}, geometry=geoms, crs=crs)[keep]
    return text_gdf, int_gdf
