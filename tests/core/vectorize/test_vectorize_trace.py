"""core.vectorize's own labelling and ring tracing against independent references: scipy's
per-class labelling, GDAL's polygonizer, rasterio's rasterizer and shapely's affine transform."""

from __future__ import annotations

import numpy as np
import pytest
import rasterio
import shapely.wkb
from affine import Affine
from conftest import FLAIR_DATA
from rasterio.features import rasterize
from shapely.affinity import affine_transform
from shapely.geometry import MultiPolygon, Polygon

from flair_qgis.core.vectorize.labels import components, label_band
from flair_qgis.core.vectorize.trace import trace_polygons
from flair_qgis.core.vectorize.writer import affine_wkb, rings_wkb


def _scipy_labels(values, valid):
    """Per class, ``scipy.ndimage.label`` (4-connected); numbered class by class, then raster order."""
    from scipy import ndimage

    labels = np.zeros(values.shape, dtype=np.int32)
    classes, count = [], 0
    for value in np.unique(values[valid]).tolist():
        component, found = ndimage.label((values == value) & valid, structure=ndimage.generate_binary_structure(2, 1))
        labels[component > 0] = component[component > 0] + count
        classes += [value] * found
        count += found
    return labels, np.array(classes, dtype=np.int64)


def _gdal_polygons(labels, row0):
    from osgeo import gdal, ogr

    gdal.UseExceptions()
    raster = gdal.GetDriverByName("MEM").Create("", labels.shape[1], labels.shape[0], 1, gdal.GDT_Int32)
    raster.SetGeoTransform((0.0, 1.0, 0.0, float(row0), 0.0, 1.0))
    band = raster.GetRasterBand(1)
    band.WriteArray(labels)
    store = ogr.GetDriverByName("Memory").CreateDataSource("")  # kept: the layer dies with it
    layer = store.CreateLayer("regions")
    layer.CreateField(ogr.FieldDefn("label", ogr.OFTInteger))
    gdal.Polygonize(band, band, layer, 0, [])
    return {f.GetField(0): shapely.wkb.loads(bytes(f.GetGeometryRef().ExportToWkb())) for f in layer}


MAPS = ["real mask", "real mask, holes", "noise", "one row", "one column", "all nodata"]


def _map(name):
    """``(values, valid)``: a real FLAIR mask (also with scattered nodata) or noise (diagonal
    touches everywhere), a single row or column of it, nothing valid."""
    rng = np.random.default_rng(7)
    if name.startswith("real"):
        with rasterio.open(FLAIR_DATA / "MSK_024577.tif") as src:
            values = src.read(1)
        return values, (rng.random(values.shape) > 0.05) if "holes" in name else values > 0
    values = rng.integers(0, 4, (60, 70)).astype(np.uint8)
    values = {"one row": values[:1], "one column": values[:, :1]}.get(name, values)
    return values, (values > 0) & (name != "all nodata")


@pytest.mark.parametrize("name", MAPS)
def test_labels_equal_scipy_per_class(name):
    values, valid = _map(name)
    labels, classes = label_band(values, valid)
    expected, expected_classes = _scipy_labels(values, valid)
    assert np.array_equal(labels, expected)
    assert np.array_equal(classes, expected_classes)


@pytest.mark.parametrize("name", MAPS)
def test_traced_polygons_equal_gdal_and_rasterise_back(name):
    values, valid = _map(name)
    labels, _ = label_band(values, valid)
    traced = trace_polygons(labels, row0=3)
    gdal = _gdal_polygons(labels, 3)
    assert [label for label, _ in traced] == sorted(gdal)
    for label, polygon in traced:
        assert polygon.is_valid
        assert polygon.symmetric_difference(gdal[label]).area == 0
    back = rasterize(
        [(polygon, label) for label, polygon in traced] or [(Polygon([(0, 0), (0, 0), (0, 0)]), 0)],
        out_shape=labels.shape,
        transform=Affine(1, 0, 0, 0, 1, 3),
        dtype="int32",
    )
    assert np.array_equal(back, labels)


def test_pocket_touching_outside_at_a_corner_is_a_hole_touching_the_shell():
    """A ring of class 1 whose inside (class 2) meets the outside (class 2) at one corner only."""
    values = np.full((6, 6), 2, dtype=np.uint8)
    values[1:5, 1:5] = 1
    values[2:4, 2:4] = 2  # the pocket
    values[1, 1] = 2  # outside reaches the corner shared with the pocket's pixel (2, 2)
    labels, classes = label_band(values, values > 0)
    polygons = dict(trace_polygons(labels))
    ring = polygons[int(np.flatnonzero(classes == 1)[0]) + 1]
    assert ring.is_valid and len(ring.interiors) == 1
    assert ring.area == 15 - 4
    assert sorted(classes.tolist()) == [1, 2, 2]  # the pocket is a region of its own


def test_components_equal_scipy():
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    rng = np.random.default_rng(3)
    n = 5000
    a, b = rng.integers(0, n, 3000), rng.integers(0, n, 3000)
    root = components(n, a, b)
    _, expected = connected_components(coo_matrix((np.ones(len(a)), (a, b)), shape=(n, n)), directed=False)
    assert np.array_equal(np.unique(expected, return_inverse=True)[1], np.unique(root, return_inverse=True)[1])
    assert (root <= np.arange(n)).all() and (root[root] == root).all()  # the smallest node of each


@pytest.mark.parametrize("transform", [(0.2, 0.0, 800000.0, 0.0, -0.2, 6500000.0), (0.3, 0.1, 5.0, 0.05, -0.2, 7.0)])
def test_wkb_in_map_coordinates_equals_shapely(transform):
    a, b, c, d, e, f = transform
    polygon = Polygon([(0, 0), (3, 0), (3, 3), (0, 3)], [[(1, 1), (2, 1), (2, 2), (1, 1)]])
    for shape in (polygon, MultiPolygon([polygon])):
        moved = shapely.wkb.loads(affine_wkb(shape, transform))
        assert moved.equals_exact(affine_transform(shape, [a, b, d, e, c, f]), 1e-9)
    rings = [np.array(polygon.exterior.coords), np.array(polygon.interiors[0].coords)]
    built = shapely.wkb.loads(rings_wkb(rings, transform))
    assert built.equals_exact(affine_transform(polygon, [a, b, d, e, c, f]), 1e-9)
