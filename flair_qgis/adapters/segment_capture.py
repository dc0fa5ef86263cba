"""QGIS layers into a planned segmentation job, captured on the main thread.

The dock (:mod:`.segment_request`) and ``flair:segment`` (``processing/segment_algorithm.py``) each
turn their widgets or parameters into one :class:`~flair_qgis.core.segment.SegmentRequest` (bands,
extent, mask polygons and the mask's file, outputs, tiling, device, precision) and the layers, then
call :func:`plan_layers`: it captures the rasters (a file rasterio reads, or a cloned data provider
for web and database layers), checks that polygons can be written and plans the job with
:func:`flair_qgis.core.segment.plan_job`, the function ``scripts/flair segment`` plans with too.
The worker thread then runs the job and never touches a layer.
"""

from __future__ import annotations

from collections.abc import Sequence

from qgis.core import QgsRasterLayer

from ..core.engine import ModelInfo
from ..core.segment import SegmentJob, SegmentRequest, plan_job
from ..core.vectorize import PolygonOutput
from .deps import require_vectorize
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


def plan_layers(
    request: SegmentRequest,
    model: ModelInfo,
    layers: Sequence[QgsRasterLayer],
    *,
    polygons: PolygonOutput | None = None,
) -> SegmentJob:
    """The job planned over QGIS layers: the layers captured, polygons checked installable.

    Args:
        request: the run's request (its mask polygons as WKB in the first layer's CRS:
            :func:`~flair_qgis.adapters.mask_input.polygons_wkb`; its ``mask_path`` from
            :func:`~flair_qgis.adapters.mask_input.vector_file`).
        model: the model.
        layers: one raster layer per model input, in the model's input order.
        polygons: the polygons to write after the class map, or None.

    Raises:
        InputError: a layer cannot be captured, or the job cannot be planned.
        DependencyError: polygon merges asked for and scipy missing (said before any run).
        ModelError, NotSupportedError: a model the engine cannot run.
    """
    if polygons is not None:
        require_vectorize(polygons.min_area_m2, polygons.fill_holes_m2)
    return plan_job(request, model, capture_rasters(layers, model), polygons=polygons, make_source=make_source)
