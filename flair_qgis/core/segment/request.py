"""The one request of a segmentation run: what the user asks, frozen once by the shell that asks.

The dock, ``flair:segment`` and ``scripts/flair segment`` each build one :class:`SegmentRequest`
and hand it on whole; nothing copies it field by field into another type (that is how an option
gets lost on the way). A run derived from it is derived with :func:`dataclasses.replace`: the plan
resolves its paths, bands and tiling, a distributed run gives each chunk its own output path.

It holds plain data only (paths, numbers, strings, tuples), so it crosses to Dask workers as JSON
(:meth:`SegmentRequest.to_json`), never as a pickle. What the run *reads* travels beside it, not in
it: the parsed model (:class:`~flair_qgis.core.engine.model.ModelInfo`), the captured rasters (a
cloned QGIS data provider is no plain data) and the polygon step (an object of the vectorize job,
above this one) are arguments of :func:`~flair_qgis.core.segment.job.plan_job`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..engine.plain_json import from_json, to_json
from .cache_run import DEFAULT_REMOTE_TTL_S
from .tile_cache import DEFAULT_MAX_BYTES


@dataclass(frozen=True)
class SegmentRequest:
    """What the user asks of a run: where, which bands, outputs, tiling, device and precision.

    Attributes:
        output_path: class-map GeoTIFF to write (for a model without a segmentation head: the
            map of its first per-pixel regression head).
        confidence_path: optional GeoTIFF of the winning class's probability (0..1).
        bands: the user's layer bands per model input (1-based, one per channel); a missing or
            empty entry lets :func:`~flair_qgis.core.engine.bands.choose_bands` choose. A planned
            run's request holds the bands chosen.
        extent: ``(xmin, ymin, xmax, ymax)`` in the first raster's CRS; None for all of it.
        mask_wkbs: polygons (WKB, first raster's CRS): the run covers their bounding box (within
            ``extent``) and the maps are nodata outside them.
        mask_path: the file the mask polygons come from (no output may overwrite it), or None.
        tile_size_px: model input edge; None for the model's default (a planned run's request
            holds the edge used).
        overlap_px: overlap between tiles; None for the model's default.
        batch_size: tiles per onnxruntime call.
        device: ``auto``, ``cuda`` or ``cpu``.
        threads: CPU threads for onnxruntime; None for all cores (a Dask worker: its threads).
        head_paths: rasters of the further per-pixel heads, by ONNX output name; heads not
            listed are written beside ``output_path`` as ``<stem>_<head>.tif``.
        tile_values_path: CSV of per-image heads' values per tile; None writes
            ``<stem>_tiles.csv`` beside ``output_path`` when the model has such heads.
        cache_folder: tile cache folder (:mod:`.tile_cache`); None or "" for none.
        cache_max_bytes: size limit of the tile cache folder.
        cache_remote: cache remote layers too (web services, ``/vsicurl/``, databases), keyed by
            their address; off by default, since their content can change on the server.
        cache_remote_ttl_s: how long a remote layer's cached tiles are used.
        readers: reader threads, each with its own dataset handles; None for the usable cores
            minus one (at least one).
        fuse_graph: normalise the pixels and reduce the class heads inside the model's graph
            (:mod:`~flair_qgis.core.engine.wrapped_graph`); False runs both on the host
            (comparisons, benchmarks).
        precision: ``fp32``, or ``fp16`` (CUDA only, checked against fp32:
            :mod:`~flair_qgis.core.engine.half_precision`).
    """

    output_path: str
    confidence_path: str | None = None
    bands: tuple[tuple[int, ...], ...] = ()
    extent: tuple[float, float, float, float] | None = None
    mask_wkbs: tuple[bytes, ...] = ()
    mask_path: str | None = None
    tile_size_px: int | None = None
    overlap_px: int | None = None
    batch_size: int = 4
    device: str = "auto"
    threads: int | None = None
    head_paths: Mapping[str, str] = field(default_factory=dict)
    tile_values_path: str | None = None
    cache_folder: str | None = None
    cache_max_bytes: int = DEFAULT_MAX_BYTES
    cache_remote: bool = False
    cache_remote_ttl_s: float = DEFAULT_REMOTE_TTL_S
    readers: int | None = None
    fuse_graph: bool = True
    precision: str = "fp32"

    def __post_init__(self) -> None:
        # Plain, hashable data whatever the caller passed (lists, a generator of band lists).
        object.__setattr__(self, "bands", tuple(tuple(int(b) for b in bands) for bands in self.bands))
        object.__setattr__(self, "mask_wkbs", tuple(bytes(wkb) for wkb in self.mask_wkbs))
        if self.extent is not None:
            object.__setattr__(self, "extent", tuple(float(v) for v in self.extent))
        object.__setattr__(self, "head_paths", dict(self.head_paths))

    def to_json(self) -> str:
        """The request as a JSON string (every field; :meth:`from_json` reads it back equal)."""
        return to_json(self)

    @classmethod
    def from_json(cls, text: str) -> SegmentRequest:
        """The request :meth:`to_json` wrote.

        Raises:
            TypeError: a field this version does not know.
        """
        return from_json(cls, text)

    def pixel_options(self) -> dict[str, Any]:
        """The fields that decide the pixels written, by name (:data:`PIXEL_OPTIONS`)."""
        return {name: getattr(self, name) for name in PIXEL_OPTIONS}


PIXEL_OPTIONS = ("bands", "tile_size_px", "overlap_px", "precision", "fuse_graph")
"""The request's fields that change the pixels of a given model on a given grid.

A distributed run's identity (``run.json``) records them, and a resume with another value is
refused. ``precision`` (fp16 weights and activations) and ``fuse_graph`` (normalisation and class
reduction inside the graph, in the graph's arithmetic, or on the host) change the arithmetic;
``bands`` the pixels read; tile size and overlap which tile decides a pixel.

``device`` is not one: on CUDA and on the CPU the same fp32 graph computes the same classes up to
float rounding, like two CPUs with different vector units do; and the chunks of one run already
come from whichever providers its workers have (``auto``), each chunk's provider recorded in
``run.json``. Refusing a resume on another device would refuse the run's own mix.
"""

RUN_FIELDS = (
    "output_path",
    "confidence_path",
    "extent",
    "mask_wkbs",
    "mask_path",
    "batch_size",
    "device",
    "threads",
    "head_paths",
    "tile_values_path",
    "cache_folder",
    "cache_max_bytes",
    "cache_remote",
    "cache_remote_ttl_s",
    "readers",
)
"""The request's other fields: where the run writes, which area (the grid records it), and how fast
it goes; none changes a pixel's value. A field added to the request goes in one of the two lists
(a test checks that every field is in exactly one)."""
