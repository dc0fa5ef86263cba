"""The polygons a segmentation run also writes: ``flair:segment``'s ``OUTPUT_VECTOR`` and the dock's
"Also as polygons" both describe them with a :class:`PolygonOutput`, the polygon step of
:mod:`flair_qgis.core.segment.job`, which writes them with :func:`vectorize_class_map` once the
class map is written.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

from ..engine.model import TASK_SEGMENTATION
from ..errors import InputError
from ..segment import SegmentPlan
from .inputs import VectorizeRequest
from .job import VectorizeResult, vectorize
from .writer import driver_for

POLYGONS_SUFFIX = "_polygons.gpkg"


@dataclass(frozen=True)
class PolygonOutput:
    """Where a run's polygons go and how they are cleaned.

    Attributes:
        path: the polygon file; ``""`` for ``<class map>_polygons.gpkg`` beside the class map.
        min_area_m2, simplify_m, fill_holes_m2: the cleaning, as in
            :class:`~flair_qgis.core.vectorize.inputs.VectorizeRequest` (0: none).
    """

    path: str = ""
    min_area_m2: float = 0.0
    simplify_m: float = 0.0
    fill_holes_m2: float = 0.0

    def beside(self, class_map_path: str) -> PolygonOutput:
        """This output with its path set: the one given, else beside the class map.

        Raises:
            InputError: a file extension no OGR driver here writes (checked before any run).
        """
        path = self.path or os.path.splitext(class_map_path)[0] + POLYGONS_SUFFIX
        driver_for(path)
        return PolygonOutput(path, self.min_area_m2, self.simplify_m, self.fill_holes_m2)

    def for_plan(self, plan: SegmentPlan) -> PolygonOutput:
        """The segment job's polygon step: :func:`run_polygons`."""
        return run_polygons(self, plan)

    def write(
        self,
        class_map_path: str,
        confidence_path: str | None,
        is_canceled: Callable[[], bool],
        on_progress: Callable[[float], None],
    ) -> VectorizeResult:
        """The segment job's polygon step: :func:`vectorize_class_map`."""
        return vectorize_class_map(self, class_map_path, confidence_path, is_canceled, on_progress)


def run_polygons(output: PolygonOutput, plan: SegmentPlan) -> PolygonOutput:
    """The polygons a run is asked for, checked before the model runs, with their path set.

    The dock's "Also as polygons" and ``flair:segment``'s ``OUTPUT_VECTOR`` both call it.

    Raises:
        InputError: the run's primary output is a value map (key ``value_map_polygons``: the dock and
            Processing name their own option), or the polygon file's format is unknown.
    """
    head = plan.heads.primary
    if head.task != TASK_SEGMENTATION:
        raise InputError.of("value_map_polygons", name=head.name)
    return output.beside(plan.request.output_path)


def vectorize_class_map(
    output: PolygonOutput,
    class_map_path: str,
    confidence_path: str | None = None,
    is_canceled: Callable[[], bool] = lambda: False,
    on_progress: Callable[[float], None] = lambda percent: None,
) -> VectorizeResult:
    """Write the polygons of a class map a run has just written (and their mean confidence).

    Raises:
        InputError: see :func:`~flair_qgis.core.vectorize.job.vectorize`.
        Canceled: ``is_canceled`` answered True; no polygon file was written.
    """
    output = output.beside(class_map_path)
    request = VectorizeRequest(
        class_map_path,
        output.path,
        confidence_path,
        min_area_m2=output.min_area_m2,
        simplify_m=output.simplify_m,
        fill_holes_m2=output.fill_holes_m2,
    )
    return vectorize(request, is_canceled, on_progress)
