"""Polygons with a class field, rasterised window by window on a prediction grid.

:class:`PolygonSource` answers ``read(row, col, rows, cols) -> (values, valid)`` like the class
rasters of :mod:`.reference`: a pixel belongs to the polygon that contains its
centre (later features win where polygons overlap); a polygon with a null class is not counted.
:meth:`PolygonReader.read_index` yields the 1-based index of the polygon of each pixel (the
suspicious-label ranking counts per polygon with it). Only the polygons whose bounding boxes meet
a window are rasterised for it (:class:`BoxIndex`, shapely's R-tree).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

import numpy as np
import rasterio.windows
from rasterio.windows import Window

from ..crs import cannot_reproject, effective_wkt, same_crs
from ..engine.grid import Grid, window_bounds
from ..errors import InputError
from .crosswalk import CrosswalkCodes, UnlistedTally

# A GeoDataFrame captured on QGIS's main thread carries its CRS as WKT under this key of
# ``gdf.attrs`` and has no CRS of its own: a pyproj CRS holds PROJ objects that must not be used
# from another thread (QGIS 3.40 and PROJ 9.6 crash), so the worker builds its own from the WKT.
CRS_WKT_ATTR = "flair_crs_wkt"


def polygons_crs_wkt(gdf) -> str | None:
    """The CRS of polygons as WKT: the GeoDataFrame's own CRS, else the WKT carried beside it.

    Args:
        gdf: a GeoDataFrame, with a CRS or with the WKT under ``gdf.attrs[CRS_WKT_ATTR]``.

    Returns:
        WKT, or None when the polygons have no CRS.
    """
    if gdf.crs is not None:
        return gdf.crs.to_wkt()
    return gdf.attrs.get(CRS_WKT_ATTR) or None


def without_own_crs(gdf):
    """A copy of ``gdf`` with no pyproj CRS, its CRS carried as WKT beside it: what a worker hands
    back to QGIS's main thread.

    Args:
        gdf: a GeoDataFrame made in the calling thread.

    Returns:
        The same rows and columns (geometry last) with ``crs`` None and the WKT in its attrs.
    """
    import geopandas as gpd

    name = gdf.geometry.name
    # Geometries as a plain list: a GeometryArray would bring its pyproj CRS along.
    out = gpd.GeoDataFrame(gdf.drop(columns=name), geometry=list(gdf.geometry))
    out.attrs[CRS_WKT_ATTR] = polygons_crs_wkt(gdf)
    return out


def _class_values(series, field: str) -> np.ndarray:
    """Integer class values of a field; nulls become -1 (polygon not counted).

    Raises:
        InputError: a value is text (or a number) that is not a whole class value.
    """
    values = np.full(len(series), -1, dtype=np.int64)
    bad = []
    for i, value in enumerate(series.tolist()):
        if value is None or (isinstance(value, float) and np.isnan(value)):
            continue
        try:
            number = float(str(value).strip()) if isinstance(value, str) else float(value)
            if not number.is_integer():
                raise ValueError
            values[i] = int(number)
        except (TypeError, ValueError):
            bad.append(value)
    if bad:
        bad = list(dict.fromkeys(bad))  # each value once, in the order met
        shown = ", ".join(repr(v) for v in bad[:5])
        raise InputError.of("field_not_classes", field=field, values=shown, more=", ..." if len(bad) > 5 else "")
    return values


class PolygonSource:
    """Polygons with a class field, rasterised on a grid (pixel centres).

    Args:
        reference: a GeoDataFrame or a path GeoPandas can read (GeoPackage, Shapefile, ...).
        field: the class field.
        grid: the prediction grid.
        layer: layer name inside a multi-layer file (None = first).
        crosswalk: which class each value of the field counts as (text or numbers); without it the
            field must hold integer class values. Values it does not list are not counted, and
            the pixels of each are tallied by the reader (:attr:`PolygonReader.tally`).

    Raises:
        InputError: unreadable file, missing field, non-class values, non-polygon geometries.
    """

    def __init__(
        self, reference, field: str, grid: Grid, layer: str | None = None, crosswalk: CrosswalkCodes | None = None
    ) -> None:
        import geopandas as gpd

        if isinstance(reference, (str, os.PathLike)):
            path = os.fspath(reference)
            if not os.path.exists(path):
                raise InputError.of("reference_file_missing", path=path)
            try:
                gdf = gpd.read_file(path, layer=layer) if layer else gpd.read_file(path)
            except Exception as err:
                raise InputError.of("unreadable_vector", path=path, error=str(err)) from err
        else:
            gdf = reference
        if not isinstance(gdf, gpd.GeoDataFrame):
            raise InputError.of("reference_not_layer")
        vector_wkt = polygons_crs_wkt(gdf)
        if not field:
            raise InputError.of("no_class_field")
        if field not in gdf.columns:
            raise InputError.of("unknown_field", field=field, fields=[c for c in gdf.columns if c != gdf.geometry.name])
        gdf = gdf[gdf.geometry.notna() & ~gdf.geometry.is_empty]
        kinds = set(gdf.geometry.geom_type.unique())
        if not kinds <= {"Polygon", "MultiPolygon"}:
            raise InputError.of("reference_not_polygons", kinds=", ".join(sorted(kinds - {"Polygon", "MultiPolygon"})))
        self.layer_crs_wkt = vector_wkt
        if not same_crs(grid.crs_wkt, vector_wkt):
            if cannot_reproject(grid.crs_wkt) or cannot_reproject(vector_wkt):
                raise InputError.of("local_crs_polygons")
            gdf = gdf.set_crs(effective_wkt(vector_wkt), allow_override=True).to_crs(effective_wkt(grid.crs_wkt))
            vector_wkt = grid.crs_wkt
        self.crs_wkt = vector_wkt
        self.source_index = np.asarray(gdf.index)
        self.crosswalk = crosswalk
        if crosswalk is None:
            self.values = _class_values(gdf[field], field)
            self.unlisted: np.ndarray = np.zeros(len(gdf), dtype=np.int32)
            self.unlisted_names: tuple[str, ...] = ()
        else:
            self.values, self.unlisted, self.unlisted_names = crosswalk.recode(gdf[field].tolist())
        self.geometries = gdf.geometry.reset_index(drop=True)
        self.gdf = gdf
        self.field = field
        self.grid = grid
        self.bounds = tuple(gdf.total_bounds) if len(gdf) else (0.0, 0.0, 0.0, 0.0)

    @contextlib.contextmanager
    def open(self) -> Iterator[PolygonReader]:
        """Open in the calling thread."""
        yield PolygonReader(self)


class PolygonReader:
    """Rasterises the polygons intersecting each window."""

    def __init__(self, source: PolygonSource) -> None:
        self.source = source
        self.boxes = BoxIndex(list(source.geometries))
        # Index 0 is "no polygon"; polygon i (0-based) is i + 1.
        self.lut = np.concatenate([[0], source.values])
        counted = source.values[source.values >= 0]
        top = int(counted.max(initial=0))
        low = int(counted.min(initial=0))
        self.dtype = np.uint8 if 0 <= low and top <= 255 else np.int64
        # Polygons not counted read as 0 (their pixels are not valid): the values keep a small type.
        self.value_lut = np.where(self.lut >= 0, self.lut, 0).astype(self.dtype)
        self.unlisted_lut = np.concatenate([[0], source.unlisted]) if source.unlisted_names else None
        self.tally = UnlistedTally()

    def read_index(self, row: int, col: int, rows: int, cols: int) -> np.ndarray:
        """``(rows, cols)`` int32: 1 + index of the polygon holding each pixel centre, 0 for none."""
        from rasterio.features import rasterize

        t = self.source.grid.transform
        hits = self.boxes.query(window_bounds(t, col, row, cols, rows))
        if len(hits) == 0:
            return np.zeros((rows, cols), dtype=np.int32)
        window_transform = rasterio.windows.transform(Window(col, row, cols, rows), t)
        shapes = ((self.source.geometries.iloc[i], int(i) + 1) for i in hits.tolist())
        return rasterize(
            shapes, out_shape=(rows, cols), transform=window_transform, fill=0, all_touched=False, dtype="int32"
        )

    def read(self, row: int, col: int, rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
        index = self.read_index(row, col, rows, cols)
        values = self.value_lut[index]
        valid = index > 0
        # A polygon without a class value (null field, or a value the crosswalk leaves out) is not counted.
        valid &= self.lut[index] >= 0
        if self.unlisted_lut is not None:
            counts = np.bincount(self.unlisted_lut[index].ravel(), minlength=len(self.source.unlisted_names) + 1)
            self.tally.add_counts(self.source.unlisted_names, counts)
        return values, valid


class BoxIndex:
    """Which geometries' bounding boxes meet a box: shapely's ``STRtree``, 1.8 or 2.x.

    GeoPandas' ``.sindex`` is not used: geopandas 0.12 (Debian 12) needs rtree or pygeos for it,
    which QGIS installs often lack. Shapely's own R-tree needs nothing more. Its query answers
    geometries in shapely 1.8 (indices through ``query_items``) and indices in 2.x.

    Args:
        geometries: non-empty shapely geometries; their positions are the indices answered.
    """

    def __init__(self, geometries: list) -> None:
        import warnings

        from shapely.strtree import STRtree

        with warnings.catch_warnings():
            # shapely 1.8 warns that STRtree changes in 2.0; the query below handles both.
            warnings.simplefilter("ignore")
            self._tree = STRtree(geometries) if geometries else None

    def query(self, bounds: tuple[float, float, float, float]) -> np.ndarray:
        """Sorted int64 indices of the geometries whose bounding box meets ``bounds`` (xmin, ymin, xmax, ymax)."""
        if self._tree is None:
            return np.zeros(0, dtype=np.int64)
        from shapely.geometry import box

        query_items = getattr(self._tree, "query_items", None)  # shapely 1.8
        hits = query_items(box(*bounds)) if query_items is not None else self._tree.query(box(*bounds))
        return np.sort(np.asarray(hits, dtype=np.int64))
