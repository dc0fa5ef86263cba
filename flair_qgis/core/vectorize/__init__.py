"""Class maps to polygons: one polygon per 4-connected region, streamed band by band.

``job.vectorize`` is the one entry point (Processing's ``flair:vectorize``, ``flair:segment``'s
``OUTPUT_VECTOR`` and the dock all call it); ``labels`` numbers regions, ``regions`` joins them
across band seams, ``clean`` merges small regions on the region graph, ``simplify`` simplifies
the coverage with its topology kept, ``writer`` publishes the layer ``predictions``.
``segment_output`` is the segment job's polygon step (:class:`PolygonOutput`).
Callers outside this package import the names below, never its inner modules.
"""

from . import messages  # noqa: F401 - registers the package's message templates before any of its errors
from .inputs import VectorizeRequest, check_request, parse_classes
from .job import VectorizeResult, vectorize
from .regions import Region, Stitcher
from .segment_output import POLYGONS_SUFFIX, PolygonOutput, run_polygons, vectorize_class_map
from .writer import LAYER_NAME, Feature, PolygonWriter, affine_wkb, driver_for, rings_wkb

__all__ = [
    "LAYER_NAME",
    "POLYGONS_SUFFIX",
    "Feature",
    "PolygonOutput",
    "PolygonWriter",
    "Region",
    "Stitcher",
    "VectorizeRequest",
    "VectorizeResult",
    "affine_wkb",
    "check_request",
    "driver_for",
    "parse_classes",
    "rings_wkb",
    "run_polygons",
    "vectorize",
    "vectorize_class_map",
]
