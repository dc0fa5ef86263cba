"""GeoTIFF outputs written window by window, completely or not at all.

Every output is written under a hidden temporary name in its target folder and renamed into
place only when the run succeeds; a failure or a cancel deletes it. The class-map writer embeds
the class colours (GDAL colour table), the class names (GDAL category names and band metadata)
and a QGIS style sidecar (``.qml``), so the file opens styled anywhere.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np
import rasterio
import rasterio.env
import rasterio.shutil
from rasterio.windows import Window

from ..atomic import check_output_path, make_world_readable, remove_outputs, write_text_atomic
from ..nomenclature import ClassInfo
from .grid import Grid

#: GDAL's block cache in a process of our own (``scripts/flair``, a Dask worker): blocks are
#: written whole and never re-read, and windows are read once or twice, so a large cache would
#: only grow memory with the extent.
PROCESS_CACHE_BYTES = 64 * 1024**2


#: Bytes an output writes before its blocks are written out (the uncompressed dataset is closed and
#: reopened): inside QGIS, whose GDAL cache is 5 % of RAM, closing writes only this much at once.
FLUSH_BYTES = 16 * 1024**2


@dataclass
class CacheOwner:
    """Whether this process's GDAL cache is ours (:func:`cap_gdal_cache` bounded it).

    When it is, blocks leave the small cache, compressed, while they are written (GIL released),
    so outputs are written compressed directly; otherwise (QGIS) they are written uncompressed
    and compressed at commit.
    """

    ours: bool = False


GDAL_CACHE = CacheOwner()


def cap_gdal_cache(size_bytes: int = PROCESS_CACHE_BYTES) -> None:
    """Bound GDAL's block cache for the whole process: only where the process is ours.

    The cache is process-wide: inside QGIS it is QGIS's (its rendering shares it), so the plugin
    never changes it there. ``rasterio.Env(GDAL_CACHEMAX=...)`` sets it process-wide too, and in
    bytes: a ``with rasterio.Env(GDAL_CACHEMAX=64)`` around a run once set QGIS's cache to 64 bytes
    while the run lasted, and two runs restoring each other's value raced GDAL's cache flushes
    with QGIS's render threads (an abort in ``close()``, and class maps written all nodata).
    """
    rasterio.env.set_gdal_config("GDAL_CACHEMAX", int(size_bytes))
    GDAL_CACHE.ours = True


def write_threads() -> int:
    """Threads GDAL compresses each output's blocks on (creation option ``NUM_THREADS``).

    The writer is its own stage (:func:`.stages.run_stages`); compressing a whole block row on
    several threads keeps it from limiting a run whose readers and model are fast. Four are
    plenty for ZSTD on class maps; more would only take cores from the readers. Before GDAL 3.8,
    one: GDAL 3.6-3.7's multi-threaded GTiff code can deadlock (GDAL#8561, fixed in 3.8), and a
    run of the test suite on GDAL 3.6.2 hung once in a chunk whose input tile was damaged, where
    the writer is aborted mid-run; the same rule as :func:`.tile_reads.decode_threads`.
    """
    from .sessions import default_threads

    major, minor = (int(part) for part in rasterio.__gdal_version__.split(".")[:2])
    if (major, minor) < (3, 8):
        return 1
    return max(1, min(4, default_threads()))


def nodata_for(values: Sequence[int]) -> tuple[str, int]:
    """The smallest integer dtype holding every class value plus a nodata value not used by any."""
    top = max(values, default=0)
    if min(values, default=0) >= 0 and top < 255:
        return "uint8", 255
    if min(values, default=0) >= 0 and top < 65535:
        return "uint16", 65535
    return "int32", -(2**31)


def qml_style(classes: Sequence[ClassInfo], opacity: float = 1.0, alpha: Mapping[int, int] | None = None) -> str:
    """A QGIS paletted-renderer style (``.qml``) for a class map.

    Args:
        classes: the palette entries, in legend order.
        opacity: layer opacity, 0..1.
        alpha: per class value, an entry alpha 0..255 (default opaque).
    """
    alpha = alpha or {}
    entries = "\n".join(
        f"        <paletteEntry value={_xml_attr(str(c.value))} color={_xml_attr(c.color)} "
        f'alpha="{alpha.get(c.value, 255)}" label={_xml_attr(c.name)}/>'
        for c in classes
    )
    return (
        "<!DOCTYPE qgis PUBLIC 'http://mrcc.com/qgis.dtd' 'SYSTEM'>\n"
        '<qgis version="3.22" styleCategories="Symbology">\n'
        "  <pipe>\n"
        f'    <rasterrenderer type="paletted" band="1" opacity="{opacity:g}" alphaBand="-1" nodataColor="">\n'
        "      <rasterTransparency/>\n"
        "      <colorPalette>\n"
        f"{entries}\n"
        "      </colorPalette>\n"
        "    </rasterrenderer>\n"
        "  </pipe>\n"
        "</qgis>\n"
    )


def _category_names_pam(classes: Sequence[ClassInfo]) -> str:
    names = {c.value: c.name for c in classes}
    top = max(names, default=-1)
    categories = "".join(f"<Category>{_xml_text(names.get(v, ''))}</Category>" for v in range(top + 1))
    return (
        '<PAMDataset>\n  <PAMRasterBand band="1">\n'
        f"    <CategoryNames>{categories}</CategoryNames>\n"
        "  </PAMRasterBand>\n</PAMDataset>\n"
    )


def _xml_text(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _xml_attr(text: str) -> str:
    """``text`` as a double-quoted XML attribute value (line breaks and tabs kept as references)."""
    escaped = _xml_text(text).replace('"', "&quot;")
    return '"' + escaped.replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;") + '"'


class AtomicGeoTiff:
    """A single-band tiled GeoTIFF written by windows, published on :meth:`commit`.

    Open it in the thread that writes. Sidecars (``.qml``, ``.aux.xml``) are published with it.

    Args:
        path: final path of the file.
        grid: the raster grid.
        dtype: numpy dtype name of the band.
        nodata: nodata value, or None for none.
        block_px: GeoTIFF tile edge (a multiple of 16); writes aligned to it are written once.
        classes: for class maps: colour table, category names and style.
        description: band description.
        tags: extra dataset metadata.
    """

    def __init__(
        self,
        path: str,
        grid: Grid,
        dtype: str,
        nodata: float | None,
        block_px: int,
        classes: Sequence[ClassInfo] = (),
        description: str = "",
        tags: dict[str, str] | None = None,
    ) -> None:
        self.path = check_output_path(path)
        self.grid = grid
        self.dtype = dtype
        self.nodata = nodata
        self.block_px = block_px
        self.classes = tuple(classes)
        self.description = description
        self.tags = dict(tags or {})
        self._tmp_path: str | None = None
        self._packed_path: str | None = None
        self._compression: dict[str, object] = {}
        self._unflushed = 0
        self._direct = False
        self._dataset: rasterio.io.DatasetWriter | None = None

    def open(self) -> None:
        """Create the temporary file: compressed where this process's GDAL cache is ours
        (:func:`cap_gdal_cache`), else uncompressed (:meth:`commit` compresses it)."""
        folder, name = os.path.split(self.path)
        fd, self._tmp_path = tempfile.mkstemp(prefix=f".{name}.", suffix=".partial.tif", dir=folder)
        os.close(fd)
        is_float = np.dtype(self.dtype).kind == "f"
        layout = {"tiled": True, "blockxsize": self.block_px, "blockysize": self.block_px, "bigtiff": "if_safer"}
        self._compression = {
            **layout,
            # ZSTD: as small as DEFLATE on class maps at a fraction of the CPU (GDAL >= 2.3).
            "compress": "zstd",
            "zstd_level": 1 if is_float else 3,
            "predictor": 3 if is_float else 1,
            "num_threads": str(write_threads()),
        }
        self._direct = GDAL_CACHE.ours
        profile = {
            "driver": "GTiff",
            "width": self.grid.width,
            "height": self.grid.height,
            "count": 1,
            "dtype": self.dtype,
            "nodata": self.nodata,
            "transform": self.grid.transform,
            **(self._compression if self._direct else layout),
        }
        if self.grid.crs_wkt:
            profile["crs"] = rasterio.crs.CRS.from_wkt(self.grid.crs_wkt)
        dataset = rasterio.open(self._tmp_path, "w", **profile)
        if self.classes:
            dataset.write_colormap(1, {c.value: (*c.rgb(), 255) for c in self.classes if 0 <= c.value < 65536})
            dataset.update_tags(
                1, CLASSES=json.dumps([{"value": c.value, "name": c.name, "color": c.color} for c in self.classes])
            )
        if self.description:
            dataset.set_band_description(1, self.description)
        if self.tags:
            dataset.update_tags(**self.tags)
        self._dataset = dataset

    def write(self, array: np.ndarray, row: int, col: int) -> None:
        """Write a ``(rows, cols)`` array at ``(row, col)`` of the grid."""
        rows, cols = array.shape
        dataset = cast(rasterio.io.DatasetWriter, self._dataset)  # open() first
        dataset.write(array, 1, window=Window(col, row, cols, rows))
        self._unflushed += array.nbytes
        if not self._direct and self._unflushed >= FLUSH_BYTES:
            # Writes the cached blocks as they are (a copy, no compression): a short GIL hold.
            dataset.close()
            self._dataset = rasterio.open(self._tmp_path, "r+")
            self._unflushed = 0

    def close(self) -> None:
        """Close the temporary file (in the thread that opened it); it stays unpublished."""
        try:
            if self._dataset is not None:
                self._dataset.close()
        finally:
            self._dataset = None

    def commit(self) -> None:
        """Compress the closed file into place, with its sidecars.

        Where the file was written compressed (a process of our own), it is renamed. Elsewhere
        ``rasterio.shutil.copy`` (GDAL's CreateCopy) compresses the uncompressed temporary file into
        a second one, renamed into place; it releases Python's GIL throughout. Compressing in
        ``close()`` would hold it: rasterio 1.3 does not release it there, and GDAL compresses
        every block still in its cache then (365 ms for 64 MB of real confidences here; seconds
        at the end of a large run in QGIS, whose cache is 5 % of RAM), while QGIS's main thread
        cannot run a line of Python. The cost: the uncompressed file beside the output
        (``width × height ×`` the pixel size) and one more pass over it, mostly in the page cache.
        """
        self.close()
        tmp_path = cast(str, self._tmp_path)  # set by open()
        if self._direct:
            self._packed_path = tmp_path
        else:
            raw, self._packed_path = tmp_path, tmp_path[: -len(".tif")] + ".zst.tif"
            rasterio.shutil.copy(raw, self._packed_path, driver="GTiff", **self._compression)
            remove_outputs(raw)
        self._tmp_path = None
        base = os.path.splitext(self.path)[0]
        if self.classes:
            write_text_atomic(base + ".qml", qml_style(self.classes))
            write_text_atomic(self.path + ".aux.xml", _category_names_pam(self.classes))
        else:
            for stale in (base + ".qml", self.path + ".aux.xml"):
                if os.path.exists(stale):
                    os.remove(stale)
        make_world_readable(self._packed_path)
        os.replace(self._packed_path, self.path)
        self._packed_path = None

    def abort(self) -> None:
        """Close and delete the temporary files; the target path is left as it was."""
        try:
            self.close()
        finally:
            remove_outputs(self._tmp_path, self._packed_path)
            self._tmp_path = self._packed_path = None
