"""Every file a raster's pixels come from, stamped once per run: what the tile cache and resume key on.

A VRT is one small file naming hundreds of GeoTIFFs: identifying it by its own path, size and
time misses a source tile rewritten in place. :func:`describe_source_files` opens the raster
once, lists ``dataset.files`` (GDAL's list: the VRT, its sources, sidecars but the ``.aux.xml``
statistics that reading the raster rewrites) and stamps each
(:func:`file_stamp`: path, size and ``mtime_ns``, plus a content hash for files up to
:data:`HASHED_FILE_MAX_BYTES`, so that a rewrite that keeps the size and the time is still seen
on small files; big files cost one ``stat``).

For a VRT each source's footprint (its ``DstRect``) is read from the VRT's XML, so a tile depends
only on the sources its read window meets (:meth:`SourceFiles.tile_stamps`): rewriting one
source tile makes exactly the tiles that read it stale. Files without a footprint (the VRT
itself, a single GeoTIFF, sidecars, the sources of a nested or warped VRT) concern every tile
(:attr:`SourceFiles.identity`); a VRT itself is stamped by its XML without the statistics GDAL
writes into it when QGIS draws it.

Remote sources (``/vsicurl/``, cloud buckets, HTTP, and layers only QGIS reads: XYZ, WMS, WMTS,
database rasters) have no file to stamp: :func:`is_remote` tells them apart, and the tile cache
keeps them only on request, for a time-to-live.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass

import rasterio
import rasterio.errors
from rasterio.warp import transform_bounds

from ..errors import InputError
from ..safe_xml import XmlRefused, canonical_text, parse_file
from .grid import Grid, affine_xy, pixel_offset

#: Files up to this size are stamped with their content too (a VRT, a FLAIR patch); larger ones
#: by size and modification time only, so a mosaic of hundreds of big tiles costs stat calls.
HASHED_FILE_MAX_BYTES = 4 * 2**20

_REMOTE_MARKERS = (
    "/vsicurl",
    "/vsis3",
    "/vsigs",
    "/vsiaz",
    "/vsiadls",
    "/vsioss",
    "/vsiswift",
    "/vsihdfs",
    "/vsiwebhdfs",
    "http://",
    "https://",
    "ftp://",
)
# Pixels of the tile grid added around a source footprint when the raster is resampled onto the
# grid: bilinear and cubic kernels reach that far past a source's edge.
_RESAMPLING_MARGIN_PX = 2
_EDGE_EPS = 1e-6
_PAM_SUFFIX = ".aux.xml"
_VRT_REWRITTEN = ("Metadata", "Histograms", "SourceProperties")


def is_remote(path: str | None, uri: str = "") -> bool:
    """True when a source is read over a network or from a database, not from local files.

    Args:
        path: the file rasterio reads, or None for a layer only QGIS reads.
        uri: the provider URI of such a layer (``wms:type=xyz&url=...``, ``postgresraster:...``).
    """
    if path:
        lowered = path.lower()
        return any(marker in lowered for marker in _REMOTE_MARKERS)
    return bool(uri)


def file_stamp(path: str, hash_max_bytes: int = HASHED_FILE_MAX_BYTES) -> str:
    """``path:size:mtime_ns`` of a file, with ``:b2=<content digest>`` when it is small.

    A file that cannot be stat'ed (deleted, a remote name inside a VRT) is stamped ``missing``:
    its tiles then fail to read like any uncached run's would.
    """
    path = _absolute(path)
    try:
        stat = os.stat(path)
    except OSError:
        return f"{path}:missing"
    stamp = f"{path}:{stat.st_size}:{stat.st_mtime_ns}"
    if stat.st_size <= hash_max_bytes:
        stamp += f":b2={file_digest(path)}"
    return stamp


@dataclass(frozen=True)
class FilePart:
    """A source file of a mosaic and the pixels of the tile grid it can reach.

    Attributes:
        path: the file.
        stamp: its :func:`file_stamp`.
        window: ``(row0, col0, row1, col1)`` in the tile grid's pixels (fractional), margin included.
    """

    path: str
    stamp: str
    window: tuple[float, float, float, float]

    def meets(self, row: int, col: int, rows: int, cols: int) -> bool:
        """True when the pixel window ``(row, col, rows, cols)`` overlaps this part."""
        r0, c0, r1, c1 = self.window
        rows_meet = row < r1 - _EDGE_EPS and row + rows > r0 + _EDGE_EPS
        return rows_meet and col < c1 - _EDGE_EPS and col + cols > c0 + _EDGE_EPS


@dataclass(frozen=True)
class SourceFiles:
    """What a raster file's pixels depend on, for one tile grid.

    Attributes:
        path: the raster file.
        grid_crs: digest of the tile grid's CRS.
        whole: ``(path, stamp)`` of the files every tile depends on (the raster itself among them).
        parts: the sources with a footprint (VRT sources), each concerning the tiles it meets.
    """

    path: str
    grid_crs: str
    whole: tuple[tuple[str, str], ...]
    parts: tuple[FilePart, ...] = ()

    @property
    def identity(self) -> str:
        """The raster's path, the grid CRS and the stamps of the files every tile depends on (run key)."""
        return "|".join([f"file:{self.path}", f"grid-crs:{self.grid_crs}", *(stamp for _, stamp in self.whole)])

    def tile_stamps(self, row: int, col: int, rows: int, cols: int) -> list[str]:
        """Stamps of the parts a tile's read window ``(row, col, rows, cols)`` (tile-grid pixels) meets."""
        return [part.stamp for part in self.parts if part.meets(row, col, rows, cols)]

    @property
    def remote(self) -> bool:
        """True when some file is read over a network (a VRT of ``/vsicurl/`` sources)."""
        return any(is_remote(path) for path in self.stamps())

    def stamps(self) -> dict[str, str]:
        """Every stamped file, parts included: path -> stamp."""
        return {**dict(self.whole), **{part.path: part.stamp for part in self.parts}}


def describe_source_files(path: str, grid: Grid, hash_max_bytes: int = HASHED_FILE_MAX_BYTES) -> SourceFiles:
    """Stamp every file behind a raster and place each VRT source on ``grid``.

    Args:
        path: the raster file (GeoTIFF, VRT...).
        grid: the tile grid (the whole layer at the model's resolution); its CRS is part of the
            identity.
        hash_max_bytes: files up to this size are stamped with their content.

    Returns:
        The raster's files: one identity for what every tile reads, one part per VRT source.

    Raises:
        InputError: the raster cannot be opened.
    """
    try:
        with rasterio.open(path) as src:
            # GDAL's .aux.xml sidecar holds statistics that QGIS and GDAL (re)write when they merely
            # read or draw the raster: stamping it would void the cache after every first display.
            files = [_absolute(f) for f in src.files if not f.lower().endswith(_PAM_SUFFIX)]
            transform, crs_wkt = src.transform, (src.crs.to_wkt() if src.crs else None)
            footprints = _vrt_footprints(path) if src.driver == "VRT" else {}
    except rasterio.errors.RasterioIOError as err:
        raise InputError.of("cannot_open_raster", path=path, error=str(err)) from err
    main = _absolute(path)
    everywhere = sorted({main, *(f for f in files if f not in footprints)})
    whole = tuple((f, _vrt_stamp(f) if f == main and footprints else file_stamp(f, hash_max_bytes)) for f in everywhere)
    parts = []
    margin = 0.0 if _aligned(transform, crs_wkt, grid) else float(_RESAMPLING_MARGIN_PX)
    for source in sorted(footprints):
        window = _grid_window(footprints[source], transform, crs_wkt, grid, margin)
        parts.append(FilePart(source, file_stamp(source, hash_max_bytes), window))
    return SourceFiles(main, _crs_digest(grid.crs_wkt), whole, tuple(parts))


def _absolute(path: str) -> str:
    """An absolute local path; GDAL virtual paths (``/vsicurl/https://...``) as they are."""
    return path if path.startswith("/vsi") else os.path.abspath(path)


def _crs_digest(crs_wkt: str | None) -> str:
    return hashlib.blake2b((crs_wkt or "").encode("utf-8"), digest_size=8).hexdigest()


def _aligned(transform, crs_wkt: str | None, grid: Grid) -> bool:
    """True when the raster is read pixel for pixel onto the grid (no resampling reaches past a source)."""
    from ..crs import same_crs

    return same_crs(crs_wkt, grid.crs_wkt) and pixel_offset(transform, grid) is not None


def _vrt_stamp(path: str) -> str:
    """A VRT's path and the digest of its XML without what GDAL rewrites on its own.

    GDAL keeps a VRT's statistics and histograms (``Metadata``, ``Histograms``) inside the VRT and
    rewrites the file when QGIS computes them to draw it, dropping some ``SourceProperties`` (a
    copy of each source's size and type) on the way: neither those elements nor the file's time
    say anything of its pixels.
    """
    try:
        root = parse_file(path)
    except (OSError, XmlRefused):
        return file_stamp(path)
    for element in root.iter():
        element.children = [child for child in element.children if child.tag not in _VRT_REWRITTEN]
    text = canonical_text(root)
    return f"{path}:vrt={hashlib.blake2b(text.encode('utf-8'), digest_size=32).hexdigest()}"


def _vrt_footprints(path: str) -> dict[str, tuple[float, float, float, float]]:
    """Source file -> ``(col0, row0, col1, row1)`` in the VRT's pixels (union over bands).

    Only sources with a ``DstRect`` are placed; a nested VRT's own sources are not (they count
    for every tile).
    """
    try:
        root = parse_file(path)
    except (OSError, XmlRefused):
        return {}  # an in-memory or unreadable VRT: every file counts for every tile
    folder = os.path.dirname(os.path.abspath(path))
    found: dict[str, tuple[float, float, float, float]] = {}
    for element in root.iter():
        name, rect = element.find("SourceFilename"), element.find("DstRect")
        source = (name.text or "").strip() if name is not None else ""
        if name is None or rect is None or not source:
            continue
        if name.get("relativeToVRT") == "1":
            source = os.path.join(folder, source)
        source = _absolute(source)
        try:
            place = rect.attrib
            x0, y0 = float(place.get("xOff", "0")), float(place.get("yOff", "0"))
            box = (x0, y0, x0 + float(place.get("xSize", "0")), y0 + float(place.get("ySize", "0")))
        except ValueError:
            continue
        if source in found:
            old = found[source]
            box = (min(old[0], box[0]), min(old[1], box[1]), max(old[2], box[2]), max(old[3], box[3]))
        found[source] = box
    return found


def _grid_window(
    box: tuple[float, float, float, float], transform, crs_wkt: str | None, grid: Grid, margin_px: float
) -> tuple[float, float, float, float]:
    """A footprint in the VRT's pixels as ``(row0, col0, row1, col1)`` in ``grid``'s pixels, widened by a margin."""
    from ..crs import same_crs

    col0, row0, col1, row1 = box
    xs = [affine_xy(transform, c, r)[0] for c, r in ((col0, row0), (col1, row1))]
    ys = [affine_xy(transform, c, r)[1] for c, r in ((col0, row0), (col1, row1))]
    bounds = (min(xs), min(ys), max(xs), max(ys))
    if crs_wkt and grid.crs_wkt and not same_crs(crs_wkt, grid.crs_wkt):
        bounds = transform_bounds(rasterio.crs.CRS.from_wkt(crs_wkt), rasterio.crs.CRS.from_wkt(grid.crs_wkt), *bounds)
    inverse = ~grid.transform
    corners = [affine_xy(inverse, x, y) for x in (bounds[0], bounds[2]) for y in (bounds[1], bounds[3])]
    cols, rows = [c for c, _ in corners], [r for _, r in corners]
    return (min(rows) - margin_px, min(cols) - margin_px, max(rows) + margin_px, max(cols) + margin_px)


__all__: Sequence[str] = ("FilePart", "SourceFiles", "describe_source_files", "file_stamp", "is_remote")


_DIGEST_BYTES = 32
_HASH_CHUNK_BYTES = 1 << 20
_digests: dict[tuple[str, int, int, int, int], str] = {}
_digests_lock = threading.Lock()


def file_digest(path: str) -> str:
    """BLAKE2b of a file's content, computed once per (path, size, mtime, ctime, inode) in this process.

    The change time is in the memo key because a rewrite can keep the size and set the
    modification time back (``touch -r``, ``rsync -t``); it cannot set the change time.

    Args:
        path: the file (a model, typically).

    Returns:
        The hex digest.

    Raises:
        OSError: the file cannot be read.
    """
    path = os.path.abspath(path)
    stat = os.stat(path)
    memo = (path, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino)
    with _digests_lock:
        if memo in _digests:
            return _digests[memo]
    digest = hashlib.blake2b(digest_size=_DIGEST_BYTES)
    with open(path, "rb") as handle:
        while chunk := handle.read(_HASH_CHUNK_BYTES):
            digest.update(chunk)
    with _digests_lock:
        _digests[memo] = digest.hexdigest()
    return _digests[memo]
