"""The polygon layer ``predictions``, written with OGR completely or not at all.

The file is written in a hidden folder next to the target and moved into place when complete
(every file of a multi-file format such as a shapefile); a failure or a cancel deletes the
hidden folder, so no half layer is ever left where a user would open it.
"""

from __future__ import annotations

import os
import shutil
import struct
import tempfile
from dataclasses import dataclass

import numpy as np
from shapely.affinity import affine_transform
from shapely.geometry.base import BaseGeometry

from ..atomic import make_world_readable
from ..errors import InputError

LAYER_NAME = "predictions"

DRIVERS = {
    ".gpkg": "GPKG",
    ".shp": "ESRI Shapefile",
    ".geojson": "GeoJSON",
    ".json": "GeoJSON",
    ".fgb": "FlatGeobuf",
    ".sqlite": "SQLite",
    ".gml": "GML",
    ".kml": "KML",
    ".tab": "MapInfo File",
    ".csv": "CSV",
}


@dataclass(frozen=True)
class Feature:
    """One polygon of the layer; ``wkb``: its geometry in map coordinates."""

    wkb: bytes
    value: int
    name: str
    area_m2: float
    confidence: float | None


def affine_wkb(shape: BaseGeometry, transform: tuple[float, float, float, float, float, float]) -> bytes:
    """The WKB of a polygon moved by ``(a, b, c, d, e, f)``: ``(x, y) -> (a x + b y + c, d x + e y + f)``.

    The coordinates are changed in the WKB itself, with numpy: shapely 1.8's ``affine_transform``
    and its coordinate arrays loop over vertices in Python.
    """
    data = bytearray(shape.wkb)
    order = "<" if data[0] == 1 else ">"
    kind, rings = struct.unpack_from(order + "II", data, 1)
    if kind != 3:  # not a 2D polygon
        a, b, c, d, e, f = transform
        return affine_transform(shape, [a, b, d, e, c, f]).wkb
    a, b, c, d, e, f = transform
    matrix, scale, shift = np.array([[a, d], [b, e]]), np.array([a, e]), np.array([c, f])
    offset = 9
    for _ in range(rings):
        (count,) = struct.unpack_from(order + "I", data, offset)
        xy = np.frombuffer(data, dtype=order + "f8", count=2 * count, offset=offset + 4).reshape(count, 2)
        if b == 0 and d == 0:  # north-up: scale and shift in place
            xy *= scale
            xy += shift
        else:
            xy[:] = xy @ matrix + shift
        offset += 4 + 16 * count
    return bytes(data)


def rings_wkb(rings: list[np.ndarray], transform: tuple[float, float, float, float, float, float]) -> bytes:
    """The WKB of the polygon of ``rings`` (``(n, 2)`` closed, shell first) moved by ``(a, b, c,
    d, e, f)``, built with numpy without a shapely geometry."""
    a, b, c, d, e, f = transform
    parts = [struct.pack("<BII", 1, 3, len(rings))]
    for ring in rings:
        x, y = ring[:, 0], ring[:, 1]
        moved = np.empty(ring.shape, dtype="<f8")
        moved[:, 0] = a * x + b * y + c
        moved[:, 1] = d * x + e * y + f
        parts += [struct.pack("<I", len(ring)), moved.tobytes()]
    return b"".join(parts)


def driver_for(path: str) -> str:
    """The OGR driver that writes ``path``, chosen by its extension.

    Raises:
        InputError: an extension no supported driver writes.
    """
    ext = os.path.splitext(path)[1].lower()
    if ext not in DRIVERS:
        known = ", ".join(sorted(DRIVERS))
        raise InputError.of("bad_vector_extension", file=os.path.basename(path), extensions=known)
    return DRIVERS[ext]


class PolygonWriter:
    """Writes features to a hidden copy of the output; :meth:`commit` publishes it, :meth:`abort` drops it.

    Args:
        path: the output file (absolute).
        crs_wkt: the polygons' CRS, or None.
        model: the ``model`` field of every feature.
        source: the ``source`` field of every feature.
        created: the ``created`` field of every feature (ISO time).
    """

    def __init__(self, path: str, crs_wkt: str | None, model: str, source: str, created: str) -> None:
        from osgeo import ogr, osr

        ogr.UseExceptions()
        osr.UseExceptions()
        self.path = path
        self.driver = driver_for(path)
        folder, name = os.path.split(path)
        self._folder = tempfile.mkdtemp(prefix=f".{name}.", suffix=".partial", dir=folder)
        self._tmp = os.path.join(self._folder, name)
        self._constants = {"model": model, "source": source, "created": created}
        srs = None
        if crs_wkt:
            srs = osr.SpatialReference()
            srs.ImportFromWkt(crs_wkt)
            srs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
        self._dataset = ogr.GetDriverByName(self.driver).CreateDataSource(self._tmp)
        self._layer = self._dataset.CreateLayer(LAYER_NAME, srs, ogr.wkbPolygon)
        for field, kind in (
            ("class", ogr.OFTInteger),
            ("name", ogr.OFTString),
            ("area_m2", ogr.OFTReal),
            ("confidence", ogr.OFTReal),
            ("model", ogr.OFTString),
            ("source", ogr.OFTString),
            ("created", ogr.OFTString),
        ):
            self._layer.CreateField(ogr.FieldDefn(field, kind))
        self._definition = self._layer.GetLayerDefn()
        self._layer.StartTransaction()
        self.count = 0
        self.published: list[str] = []  # the files moved into place by commit(): several for a shapefile

    def write(self, feature: Feature) -> None:
        from osgeo import ogr

        out = ogr.Feature(self._definition)
        out.SetGeometryDirectly(ogr.CreateGeometryFromWkb(feature.wkb))
        # By index: a field looked up by name costs more than writing it.
        out.SetField(0, int(feature.value))
        out.SetField(1, feature.name)
        out.SetField(2, float(feature.area_m2))
        if feature.confidence is not None:
            out.SetField(3, float(feature.confidence))
        for index, text in enumerate(self._constants.values(), start=4):
            out.SetField(index, text)
        self._layer.CreateFeature(out)
        self.count += 1

    def commit(self) -> None:
        """Close the layer and move its file(s) into place (listed in :attr:`published`)."""
        self._layer.CommitTransaction()
        self._layer = None
        self._dataset = None  # closes and flushes the file
        folder = os.path.dirname(self.path)
        for produced in sorted(os.listdir(self._folder)):
            source = os.path.join(self._folder, produced)
            make_world_readable(source)
            os.replace(source, os.path.join(folder, produced))
            self.published.append(os.path.join(folder, produced))
        shutil.rmtree(self._folder, ignore_errors=True)

    def abort(self) -> None:
        """Drop everything written; the target is left as it was."""
        self._layer = None
        self._dataset = None
        shutil.rmtree(self._folder, ignore_errors=True)
