"""A label layer at département scale: a GeoPackage of ``side²`` square polygons (with its R-tree),
written with OGR in one transaction (a million squares in about a minute)."""

from __future__ import annotations

from pathlib import Path

MILLION_SIDE = 1000  # 1,000,000 squares of 10 m: a 10 km x 10 km label layer


def square_grid_gpkg(
    path: Path, center: tuple[float, float], side: int, size_m: float = 10.0, epsg: int = 2154
) -> tuple[float, float]:
    """Write ``side x side`` squares of ``size_m`` centred on ``center``, field ``code`` = 1..13.

    Returns:
        ``(x0, y0)``: the lower-left corner of the grid of squares.
    """
    from osgeo import ogr, osr

    x0 = center[0] - side * size_m / 2.0
    y0 = center[1] - side * size_m / 2.0
    source = ogr.GetDriverByName("GPKG").CreateDataSource(str(path))
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(epsg)
    layer = source.CreateLayer("labels", srs, ogr.wkbPolygon)
    layer.CreateField(ogr.FieldDefn("code", ogr.OFTInteger))
    definition = layer.GetLayerDefn()
    layer.StartTransaction()
    for i in range(side):
        for j in range(side):
            x, y = x0 + i * size_m, y0 + j * size_m
            feature = ogr.Feature(definition)
            ring = f"{x} {y},{x + size_m} {y},{x + size_m} {y + size_m},{x} {y + size_m},{x} {y}"
            feature.SetGeometryDirectly(ogr.CreateGeometryFromWkt(f"POLYGON(({ring}))"))
            feature.SetField(0, (i * 7 + j * 3) % 13 + 1)
            layer.CreateFeature(feature)
    layer.CommitTransaction()
    source = None
    return x0, y0


def squares_meeting(bounds: tuple, x0: float, y0: float, side: int, size_m: float = 10.0) -> int:
    """How many squares of the grid have a box that meets ``bounds`` (edges touching count)."""
    import math

    xmin, ymin, xmax, ymax = bounds
    first_i, last_i = max(0, math.ceil((xmin - x0) / size_m) - 1), min(side - 1, math.floor((xmax - x0) / size_m))
    first_j, last_j = max(0, math.ceil((ymin - y0) / size_m) - 1), min(side - 1, math.floor((ymax - y0) / size_m))
    return max(0, last_i - first_i + 1) * max(0, last_j - first_j + 1)


def million_squares_case(folder: Path) -> dict:
    """A prediction over the real FLAIR patch 000473 (its mask, 20 % perturbed, in EPSG:2154) and a
    million-square GeoPackage ``labels_1m.gpkg`` (layer ``labels``) centred a few metres off it,
    so that no square merely touches the patch."""
    import rasterio
    from eval_helpers import image_crs, perturb, read_mask, write_raster

    mask, profile = read_mask("000473")
    prediction = write_raster(folder / "pred.tif", perturb(mask, 3, 0.2, list(range(1, 14))), profile, crs=image_crs())
    with rasterio.open(prediction) as src:
        b = src.bounds
    center = ((b.left + b.right) / 2 + 3.3, (b.bottom + b.top) / 2 + 4.7)
    x0, y0 = square_grid_gpkg(folder / "labels_1m.gpkg", center, MILLION_SIDE)
    return {"folder": folder, "prediction": prediction, "x0": x0, "y0": y0, "bounds": tuple(b),
            "gpkg": folder / "labels_1m.gpkg"}  # fmt: skip
