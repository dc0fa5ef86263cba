"""The polygon layer ``predictions``, written with OGR completely or not at all.

The file is written in a hidden folder next to the target and moved into place when complete
(every file of a multi-file format such as a shapefile); a failure or a cancel deletes the
hidden folder, so no half layer is ever left where a user would open it.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass

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
    """One polygon of the layer; ``geometry`` in map coordinates (shapely)."""

    geometry: object
    value: int
    name: str
    area_m2: float
    confidence: float | None


def driver_for(path: str) -> str:
    """The OGR driver that writes ``path``, chosen by its extension.

    Raises:
        InputError: an extension no supported driver writes.
    """
    ext = os.path.splitext(path)[1].lower()
    if ext not in DRIVERS:
        known = ", ".join(sorted(DRIVERS))
        raise InputError(f"Cannot write polygons to '{os.path.basename(path)}': give a file ending in {known}.")
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

    def write(self, feature: Feature) -> None:
        from osgeo import ogr

        out = ogr.Feature(self._definition)
        out.SetGeometryDirectly(ogr.CreateGeometryFromWkb(feature.geometry.wkb))  # type: ignore[attr-defined]
        out.SetField("class", int(feature.value))
        out.SetField("name", feature.name)
        out.SetField("area_m2", float(feature.area_m2))
        if feature.confidence is not None:
            out.SetField("confidence", float(feature.confidence))
        for field, text in self._constants.items():
            out.SetField(field, text)
        self._layer.CreateFeature(out)
        self.count += 1

    def commit(self) -> None:
        """Close the layer and move its file(s) into place."""
        self._layer.CommitTransaction()
        self._layer = None
        self._dataset = None  # closes and flushes the file
        folder = os.path.dirname(self.path)
        for produced in sorted(os.listdir(self._folder)):
            source = os.path.join(self._folder, produced)
            make_world_readable(source)
            os.replace(source, os.path.join(folder, produced))
        shutil.rmtree(self._folder, ignore_errors=True)

    def abort(self) -> None:
        """Drop everything written; the target is left as it was."""
        self._layer = None
        self._dataset = None
        shutil.rmtree(self._folder, ignore_errors=True)
