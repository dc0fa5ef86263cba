"""Independent checks of polygon layers against the class map they came from (GDAL rasterize,
GEOS overlays), shared by the vectorize tests and the bench."""

from __future__ import annotations

import numpy as np
import rasterio
from rasterio.features import rasterize
from shapely.ops import unary_union
from shapely.strtree import STRtree


def read_polygons(path):
    import geopandas as gpd

    return gpd.read_file(path, layer="predictions") if str(path).endswith(".gpkg") else gpd.read_file(path)


def rasterized(frame, raster_path, fill=0):
    """The polygons burnt on the raster's grid with their ``class`` (``fill`` where none)."""
    with rasterio.open(raster_path) as src:
        shape, transform = (src.height, src.width), src.transform
    shapes = [(geom, int(value)) for geom, value in zip(frame.geometry, frame["class"])]
    return rasterize(shapes, out_shape=shape, transform=transform, fill=fill, dtype="int32")


def overlap_area(frame) -> float:
    """Sum of the areas of pairwise intersections (0 for a coverage)."""
    geoms = list(frame.geometry)
    tree = STRtree(geoms)
    index = {id(g): i for i, g in enumerate(geoms)}
    total = 0.0
    for i, geom in enumerate(geoms):
        for other in tree.query(geom):
            j = index[id(other)] if not isinstance(other, (int, np.integer)) else int(other)
            if j > i:
                total += geom.intersection(geoms[j]).area
    return total


def union_area(frame) -> float:
    return unary_union(list(frame.geometry)).area


def same_polygons(a, b) -> bool:
    """Same classes and geometrically equal polygons, whatever their order and vertex order."""

    def key(item):
        value, geom = item
        point = geom.centroid
        return (int(value), round(geom.area, 6), round(point.x, 6), round(point.y, 6))

    left = sorted(zip(a["class"], a.geometry), key=key)
    right = sorted(zip(b["class"], b.geometry), key=key)
    return len(left) == len(right) and all(x[0] == y[0] and x[1].equals(y[1]) for x, y in zip(left, right))
