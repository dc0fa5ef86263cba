"""Class rasters and polygon layers read as windows of a prediction grid.

Every reader answers ``read(row, col, rows, cols) -> (values, valid)`` in pixels of the
prediction :class:`~flair_qgis.core.grid.Grid`: ``values`` a ``(rows, cols)`` integer array and
``valid`` a boolean mask (False outside the layer, on nodata, on masked pixels).

* :class:`ClassRasterSource`: a single-band raster. Read directly when it shares the grid's
  pixels (resolutions equal up to float noise, integer offset), else warped onto the grid with
  nearest-neighbour resampling (class values are never interpolated) and an alpha band marking
  what the raster covers.
* :class:`PolygonSource`: polygons with a class field rasterised on the grid, a pixel belonging
  to the polygon that contains its centre (later features win where polygons overlap). It also
  yields the 1-based index of the polygon of each pixel (:meth:`PolygonReader.read_index`).

:func:`same_crs` treats CRSs equal in substance as equal: the FLAIR masks carry a ``LOCAL_CS``
named "RGF93 v1 / Lambert-93" without EPSG code while the images carry EPSG:2154.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import rasterio
import rasterio.errors
import rasterio.windows
from rasterio.crs import CRS
from rasterio.enums import MaskFlags, Resampling
from rasterio.vrt import WarpedVRT
from rasterio.windows import Window

from .errors import InputError
from .grid import Grid, pixel_offset

_CRS_NAME = re.compile(r'^\s*(?:LOCAL_CS|PROJCS|GEOGCS|PROJCRS|GEOGCRS|ENGCRS|ENGINEERINGCRS)\s*\[\s*"([^"]*)"')
_METRE = re.compile(r'UNIT\s*\[\s*"(metre|meter|m)"', re.IGNORECASE)


def _crs(wkt: str | None) -> CRS | None:
    if not wkt:
        return None
    try:
        return CRS.from_user_input(wkt)
    except rasterio.errors.CRSError:
        return None


def _name(wkt: str) -> str | None:
    match = _CRS_NAME.match(wkt)
    return match.group(1).strip().lower() if match else None


def same_crs(a_wkt: str | None, b_wkt: str | None) -> bool:
    """True when two CRSs are the same in substance.

    Equal when either is missing (nothing to compare), when GDAL says so, when both resolve to
    the same EPSG code, or when one is a ``LOCAL_CS`` (no datum, metres) bearing the name of the
    other (e.g. FLAIR's ``LOCAL_CS["RGF93 v1 / Lambert-93"]`` and EPSG:2154).
    """
    if not a_wkt or not b_wkt or a_wkt == b_wkt:
        return True
    a, b = _crs(a_wkt), _crs(b_wkt)
    if a is not None and b is not None:
        if a == b:
            return True
        with contextlib.suppress(rasterio.errors.CRSError):
            epsg_a, epsg_b = a.to_epsg(), b.to_epsg()
            if epsg_a is not None and epsg_a == epsg_b:
                return True
    a_local = a_wkt.lstrip().upper().startswith(("LOCAL_CS", "ENGCRS", "ENGINEERINGCRS"))
    b_local = b_wkt.lstrip().upper().startswith(("LOCAL_CS", "ENGCRS", "ENGINEERINGCRS"))
    if a_local or b_local:
        name_a, name_b = _name(a_wkt), _name(b_wkt)
        units_ok = bool(_METRE.search(a_wkt)) == bool(_METRE.search(b_wkt))
        return name_a is not None and name_a == name_b and units_ok
    return False


def is_local(wkt: str | None) -> bool:
    """True for a CRS that cannot be reprojected (``LOCAL_CS`` / engineering CRS)."""
    return wkt is not None and wkt.lstrip().upper().startswith(("LOCAL_CS", "ENGCRS", "ENGINEERINGCRS"))


def grid_bounds_in(grid: Grid, bounds: tuple[float, float, float, float], bounds_wkt: str | None) -> tuple:
    """``bounds`` (in ``bounds_wkt``) expressed in the grid's CRS."""
    if same_crs(grid.crs_wkt, bounds_wkt):
        return bounds
    if is_local(grid.crs_wkt) or is_local(bounds_wkt):
        raise InputError(
            "The prediction and the reference are in different CRSs and one of them is a local CRS "
            "that cannot be reprojected: assign the right CRS to the layer (e.g. EPSG:2154)."
        )
    from rasterio.warp import transform_bounds

    return transform_bounds(CRS.from_user_input(bounds_wkt), CRS.from_user_input(grid.crs_wkt), *bounds)


def bounds_overlap(a: tuple, b: tuple) -> bool:
    """True when two ``(xmin, ymin, xmax, ymax)`` boxes share an area."""
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


@dataclass(frozen=True)
class RasterInfo:
    """What is needed of a class raster before reading it."""

    path: str
    transform: rasterio.Affine
    width: int
    height: int
    crs_wkt: str | None
    dtype: str
    nodata: float | None
    count: int

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        t = self.transform
        x0, y0 = t * (0, 0)
        x1, y1 = t * (self.width, self.height)
        return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def raster_info(path: str | os.PathLike[str], what: str = "raster") -> RasterInfo:
    """Describe a raster file.

    Raises:
        InputError: the file is missing or not a raster GDAL can read.
    """
    path = os.fspath(path)
    if not os.path.exists(path):
        raise InputError(f"The {what} file does not exist: {path}.")
    try:
        with rasterio.open(path) as src:
            return RasterInfo(
                path, src.transform, src.width, src.height, src.crs.to_wkt() if src.crs else None,
                src.dtypes[0], src.nodata, src.count,
            )  # fmt: skip
    except rasterio.errors.RasterioIOError as err:
        raise InputError(f"The {what} {path} is not a raster GDAL can read ({err}).") from err


class ClassRasterSource:
    """Band ``band`` of a raster, read on ``grid`` (aligned, or warped with nearest neighbour).

    Args:
        path: the raster file.
        grid: the prediction grid.
        band: 1-based band.
        assume_grid_crs: read the raster as if it were in the grid's CRS (the CRSs are the same
            in substance but written differently).
    """

    def __init__(self, path: str, grid: Grid, band: int = 1, assume_grid_crs: bool = True) -> None:
        self.info = raster_info(path)
        self.grid = grid
        self.band = band
        self.assume_grid_crs = assume_grid_crs

    @property
    def aligned(self) -> bool:
        """True when the raster shares the grid's pixels (no resampling)."""
        return self.assume_grid_crs and pixel_offset(self.info.transform, self.grid) is not None

    @contextlib.contextmanager
    def open(self) -> Iterator[_AlignedClassReader | _WarpedClassReader]:
        """Open in the calling thread."""
        with rasterio.open(self.info.path) as src:
            offset = pixel_offset(src.transform, self.grid) if self.assume_grid_crs else None
            if offset is not None:
                yield _AlignedClassReader(src, self.band, offset)
                return
            grid_crs = CRS.from_user_input(self.grid.crs_wkt) if self.grid.crs_wkt else None
            src_crs = grid_crs if (self.assume_grid_crs or src.crs is None) else src.crs
            options = {"src_crs": src_crs} if src_crs is not None else {}
            with WarpedVRT(
                src,
                crs=grid_crs or src_crs,
                transform=self.grid.transform,
                width=self.grid.width,
                height=self.grid.height,
                resampling=Resampling.nearest,
                add_alpha=True,
                **options,
            ) as vrt:
                yield _WarpedClassReader(vrt, self.band)


def _valid_from(src: rasterio.DatasetReader, band: int, data: np.ndarray, window: Window) -> np.ndarray:
    flags = src.mask_flag_enums[band - 1]
    if MaskFlags.all_valid in flags:
        valid = np.ones(data.shape, dtype=bool)
    elif MaskFlags.nodata in flags and src.nodata is not None:
        valid = data != src.nodata if not np.isnan(src.nodata) else ~np.isnan(data)
    else:
        valid = src.read_masks(band, window=window) != 0
    if data.dtype.kind == "f":
        valid &= np.isfinite(data)
    return valid


class _AlignedClassReader:
    def __init__(self, src: rasterio.DatasetReader, band: int, offset: tuple[int, int]) -> None:
        self.src = src
        self.band = band
        self.row_offset, self.col_offset = offset

    def read(self, row: int, col: int, rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
        src = self.src
        r0, c0 = row + self.row_offset, col + self.col_offset
        rr0, cc0 = max(r0, 0), max(c0, 0)
        rr1, cc1 = min(r0 + rows, src.height), min(c0 + cols, src.width)
        if (rr0, cc0, rr1, cc1) == (r0, c0, r0 + rows, c0 + cols):
            window = Window(c0, r0, cols, rows)
            data = src.read(self.band, window=window)
            return data, _valid_from(src, self.band, data, window)
        data = np.zeros((rows, cols), dtype=src.dtypes[self.band - 1])
        valid = np.zeros((rows, cols), dtype=bool)
        if rr1 <= rr0 or cc1 <= cc0:
            return data, valid
        window = Window(cc0, rr0, cc1 - cc0, rr1 - rr0)
        dr, dc = rr0 - r0, cc0 - c0
        part = src.read(self.band, window=window)
        data[dr : dr + part.shape[0], dc : dc + part.shape[1]] = part
        valid[dr : dr + part.shape[0], dc : dc + part.shape[1]] = _valid_from(src, self.band, part, window)
        return data, valid


class _WarpedClassReader:
    def __init__(self, vrt: WarpedVRT, band: int) -> None:
        self.vrt = vrt
        self.band = band
        self.alpha = vrt.count

    def read(self, row: int, col: int, rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
        window = Window(col, row, cols, rows)
        data = self.vrt.read(self.band, window=window)
        valid = self.vrt.read(self.alpha, window=window) != 0
        if data.dtype.kind == "f":
            valid &= np.isfinite(data)
        return data, valid


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
        shown = ", ".join(repr(v) for v in bad[:5])
        raise InputError(
            f"Field '{field}' holds values that are not class values ({shown}{', ...' if len(bad) > 5 else ''}): "
            "choose the field that holds the integer class codes."
        )
    return values


class PolygonSource:
    """Polygons with a class field, rasterised on a grid (pixel centres).

    Args:
        reference: a GeoDataFrame or a path GeoPandas can read (GeoPackage, Shapefile, ...).
        field: the class field.
        grid: the prediction grid.
        layer: layer name inside a multi-layer file (None = first).

    Raises:
        InputError: unreadable file, missing field, non-class values, non-polygon geometries.
    """

    def __init__(self, reference, field: str, grid: Grid, layer: str | None = None) -> None:
        import geopandas as gpd

        if isinstance(reference, (str, os.PathLike)):
            path = os.fspath(reference)
            if not os.path.exists(path):
                raise InputError(f"The reference file does not exist: {path}.")
            try:
                gdf = gpd.read_file(path, layer=layer) if layer else gpd.read_file(path)
            except Exception as err:
                raise InputError(f"Cannot read {path} as a vector layer ({err}).") from err
        else:
            gdf = reference
        if not isinstance(gdf, gpd.GeoDataFrame):
            raise InputError("The reference is neither a raster nor a polygon layer.")
        if not field:
            raise InputError("A polygon reference needs REFERENCE_FIELD: the field holding the class values.")
        if field not in gdf.columns:
            fields = ", ".join(c for c in gdf.columns if c != gdf.geometry.name)
            raise InputError(f"The reference layer has no field '{field}'. Its fields are: {fields or 'none'}.")
        gdf = gdf[gdf.geometry.notna() & ~gdf.geometry.is_empty]
        kinds = set(gdf.geometry.geom_type.unique())
        if not kinds <= {"Polygon", "MultiPolygon"}:
            raise InputError(
                f"The reference layer holds {', '.join(sorted(kinds - {'Polygon', 'MultiPolygon'}))} geometries: "
                "give a polygon layer (or a raster mask) as reference."
            )
        vector_wkt = gdf.crs.to_wkt() if gdf.crs is not None else None
        if not same_crs(grid.crs_wkt, vector_wkt):
            if is_local(grid.crs_wkt) or is_local(vector_wkt):
                raise InputError(
                    "The reference polygons and the prediction are in different CRSs and one is a local CRS "
                    "that cannot be reprojected: assign the right CRS to the layer."
                )
            gdf = gdf.to_crs(grid.crs_wkt)
        self.source_index = np.asarray(gdf.index)
        self.values = _class_values(gdf[field], field)
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
        top = int(source.values.max(initial=0))
        low = int(source.values.min(initial=0))
        self.dtype = np.uint8 if 0 <= low and top <= 255 else np.int64

    def read_index(self, row: int, col: int, rows: int, cols: int) -> np.ndarray:
        """``(rows, cols)`` int32: 1 + index of the polygon holding each pixel centre, 0 for none."""
        from rasterio.features import rasterize

        t = self.source.grid.transform
        x0, y0 = t * (col, row)
        x1, y1 = t * (col + cols, row + rows)
        box = (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
        hits = self.boxes.query(box)
        if len(hits) == 0:
            return np.zeros((rows, cols), dtype=np.int32)
        window_transform = rasterio.windows.transform(Window(col, row, cols, rows), t)
        shapes = ((self.source.geometries.iloc[i], int(i) + 1) for i in hits.tolist())
        return rasterize(
            shapes, out_shape=(rows, cols), transform=window_transform, fill=0, all_touched=False, dtype="int32"
        )

    def read(self, row: int, col: int, rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
        index = self.read_index(row, col, rows, cols)
        values = self.lut[index].astype(self.dtype)
        valid = index > 0
        # A polygon without a class value (null field) is not counted.
        valid &= self.lut[index] >= 0
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
