"""QGIS layers into the pieces of a segmentation job, captured on the main thread.

The dock (:mod:`.segment_request`) and ``flair:segment`` (``processing/segment_algorithm.py``) each
turn their widgets or parameters into layers, an extent and mask polygons, then call
:func:`job_request`: it captures the rasters (a file rasterio reads, or a cloned data provider for
web and database layers), names the mask's file and checks that polygons can be written; the caller
plans the job with :func:`flair_qgis.core.segment.plan_job`, the function ``scripts/flair segment``
plans with too. The worker thread then runs the job and never touches a layer.
"""

from __future__ import annotations

from collections.abc import Sequence

from qgis.core import QgsRasterLayer, QgsVectorLayer

from ..core.engine import ModelInfo
from ..core.segment import SegmentJobRequest, SegmentRequest
from ..core.vectorize import PolygonOutput
from .deps import require_vectorize
from .mask_input import vector_file
from .raster_input import RasterInput, capture_raster, make_source


def capture_rasters(layers: Sequence[QgsRasterLayer], model: ModelInfo) -> tuple[RasterInput, ...]:
    """One captured raster per model input; a layer without a native grid is read at the input's resolution.

    Raises:
        InputError: an invalid layer, or a web layer in a geographic CRS or with no resolution to read it at.
    """
    return tuple(
        capture_raster(layer, spec.resolution_m if not layer.crs().isGeographic() else None)
        for layer, spec in zip(layers, model.inputs)
    )


def job_request(
    model: ModelInfo,
    layers: Sequence[QgsRasterLayer],
    options: SegmentRequest,
    *,
    bands: Sequence[Sequence[int]] = (),
    extent: tuple[float, float, float, float] | None = None,
    mask_wkbs: Sequence[bytes] = (),
    mask_layer: QgsVectorLayer | None = None,
    polygons: PolygonOutput | None = None,
) -> SegmentJobRequest:
    """The job's request: the layers captured, the mask's file named, polygons checked installable.

    Args:
        model: the model.
        layers: one raster layer per model input, in the model's input order.
        options: outputs, tiling, device, tile cache.
        bands: layer bands per input (empty entries let the core choose).
        extent: in the first layer's CRS; None for the whole layer (or the mask polygons).
        mask_wkbs: mask polygons as WKB in the first layer's CRS
            (:func:`~flair_qgis.adapters.mask_input.polygons_wkb`).
        mask_layer: the layer they come from: no output may overwrite its file.
        polygons: the polygons to write after the class map, or None.

    Raises:
        InputError: a layer cannot be captured.
        DependencyError: polygon merges asked for and scipy missing (said before any run).
    """
    if polygons is not None:
        require_vectorize(polygons.min_area_m2, polygons.fill_holes_m2)
    return SegmentJobRequest(
        model=model,
        rasters=capture_rasters(layers, model),
        options=options,
        bands=tuple(tuple(b) for b in bands),
        extent=extent,
        mask_wkbs=tuple(mask_wkbs),
        mask_path=vector_file(mask_layer),
        polygons=polygons,
        make_source=make_source,
    )
