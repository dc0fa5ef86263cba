"""``flair:segment``: the one entry point of a segmentation job, whoever asks for it.

The dock, ``flair:segment`` and ``scripts/flair segment`` each build one
:class:`~.request.SegmentRequest` (bands, extent, mask polygons, outputs, tiling, device,
precision) and call this module with what the run reads beside it: the model and one captured
raster per model input (from their layers or files), and optionally the polygons to write:

1. :func:`plan_job` decides everything before a pixel is read (:func:`.plan.plan_segment`: bands,
   grids, tiling, heads, outputs checked writable and never an input) and checks the polygon step.
   It is quick: the dock calls it on the main thread, so that errors show before any task starts.
2. :func:`run_job` runs the plan (:func:`.run.run_plan`: every tile read, inferred and written),
   then, when asked, writes the class map's polygons. It is long: the dock calls it in a QgsTask.

:func:`segment_job` does both in one call::

    result = segment_job(SegmentRequest("out.tif"), model, rasters)
    result.segment.output_path, result.polygons

The polygons are written by the vectorize job, which sits above this one (it reads class maps):
the caller passes them as a :class:`PolygonStep`, which
:class:`flair_qgis.core.vectorize.PolygonOutput` is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..atomic import JobOutputs, job_outputs
from ..engine.model import ModelInfo
from ..engine.pixel_sources import CapturedRaster, SourceFactory, file_source
from ..engine.sessions import SessionInfo
from ..engine.stages import ignore_progress, never_canceled
from .plan import SegmentPlan, plan_segment
from .request import SegmentRequest
from .run import SegmentResult, run_plan

POLYGON_PROGRESS_START = 80.0
"""Where the progress stands when the class map is written and the polygons start (when asked)."""


class WrittenPolygons(Protocol):
    """What the polygon step wrote (:class:`flair_qgis.core.vectorize.VectorizeResult` is one)."""

    @property
    def path(self) -> str: ...

    @property
    def polygons(self) -> int: ...

    @property
    def files(self) -> tuple[str, ...]:
        """Every file written (a shapefile is several)."""
        ...


class PolygonStep(Protocol):
    """The polygons a job also writes once its class map is written.

    :class:`flair_qgis.core.vectorize.PolygonOutput` is one (the dock's "Also as polygons",
    ``flair:segment``'s ``OUTPUT_VECTOR``).
    """

    def for_plan(self, plan: SegmentPlan) -> PolygonStep:
        """This step checked against the plan (before any pixel is read), with its path set."""
        ...

    def write(
        self,
        class_map_path: str,
        confidence_path: str | None,
        is_canceled: Callable[[], bool],
        on_progress: Callable[[float], None],
    ) -> WrittenPolygons:
        """Write the polygons of the class map."""
        ...


@dataclass(frozen=True)
class SegmentJob:
    """A job fully decided; :func:`run_job` runs it.

    Attributes:
        request: the request it was planned from (``plan.request`` is the same with everything
            decided: paths, bands, tiling).
        plan: the segmentation plan (grid, sources, tiling, heads, outputs, mask, warnings).
        polygons: the polygon step, checked and with its path set, or None.
        rasters: the captured rasters it reads, one per model input.
    """

    request: SegmentRequest
    plan: SegmentPlan
    polygons: PolygonStep | None = None
    rasters: tuple[CapturedRaster, ...] = ()


@dataclass(frozen=True)
class SegmentJobResult:
    """What a job wrote.

    Attributes:
        segment: the maps written, which provider ran, tiles and time, warnings.
        polygons: what the polygon step wrote, or None when none was asked.
    """

    segment: SegmentResult
    polygons: WrittenPolygons | None = None

    @property
    def files(self) -> tuple[str, ...]:
        """Every file the job wrote: the maps, the tile values, the polygons."""
        return (*self.segment.files, *(self.polygons.files if self.polygons is not None else ()))

    def remove_outputs(self) -> tuple[str, ...]:
        """Delete every file the job wrote, with their sidecars (``.qml``, ``.aux.xml``).

        For a caller that cannot use a finished job after all (the dock's task canceled after the
        last tile, before its layers are added): it removes what the job wrote, never a list of
        its own.

        Returns:
            The files deleted (absolute paths), for the message that says so.
        """
        outputs = JobOutputs()
        outputs.add(*self.files)
        return outputs.remove()


def plan_job(
    request: SegmentRequest,
    model: ModelInfo,
    rasters: Sequence[CapturedRaster],
    *,
    polygons: PolygonStep | None = None,
    make_source: SourceFactory = file_source,
) -> SegmentJob:
    """Plan a job: the segmentation plan, and the polygon step checked against it. Nothing is written.

    Args:
        request: the run's request (no output may overwrite its rasters' files, the model or
            its ``mask_path``).
        model: the model.
        rasters: one captured raster per model input, in the model's input order
            (``flair_qgis.adapters.segment_capture`` captures QGIS layers;
            :func:`~flair_qgis.core.engine.pixel_sources.capture_file` files).
        polygons: the polygons to write once the class map is written, or None.
        make_source: makes each input's pixel source (the QGIS adapters read web layers).

    Raises:
        InputError: missing inputs, bands that do not fit, an empty extent, outputs that cannot
            be written or would overwrite an input, a confidence or polygons the model's primary
            output cannot give (keys ``no_confidence``, ``value_map_polygons``).
        ModelError, NotSupportedError: a model the engine cannot run.
    """
    plan = plan_segment(model, rasters, request, make_source=make_source)
    checked = polygons.for_plan(plan) if polygons is not None else None
    return SegmentJob(request, plan, checked, tuple(rasters))


def run_job(
    job: SegmentJob,
    is_canceled: Callable[[], bool] = never_canceled,
    on_progress: Callable[[float], None] = ignore_progress,
    on_segmented: Callable[[SegmentResult], None] = lambda result: None,
    session: tuple[Any, SessionInfo] | None = None,
) -> SegmentJobResult:
    """Run a planned job: segment, then write the polygons when asked.

    A failure or a cancel at any stage, polygons included, removes every file the job had
    written (a cancel that comes after the last tile too): the job leaves its outputs whole or
    not at all, and the error says what it removed (``removed``).

    Args:
        job: from :func:`plan_job`.
        is_canceled: polled between batches and bands; True stops the job (partial outputs deleted).
        on_progress: receives 0..100 (the polygons, when asked, take the last 20).
        on_segmented: called with the segmentation's result once its maps are written, before
            the polygons (Processing logs the run there).
        session: an onnxruntime session and its info already built by the caller (the dock builds
            it in its task to name the provider in its progress); None to build it here.

    Raises:
        Canceled: ``is_canceled`` answered True; ``removed`` lists the files deleted (its message
            names them, or says that nothing had been written).
        ModelError, InputError: the model fails on the tiles, or the polygons cannot be written.
    """
    share = 100.0 if job.polygons is None else POLYGON_PROGRESS_START
    with job_outputs(is_canceled) as written:
        segment = run_plan(
            job.plan, is_canceled=is_canceled, on_progress=lambda p: on_progress(p * share / 100.0), session=session
        )
        written.add(*segment.files)
        on_segmented(segment)
        if job.polygons is None:
            return SegmentJobResult(segment)
        polygons = job.polygons.write(
            segment.output_path,
            segment.confidence_path,
            is_canceled,
            lambda p: on_progress(share + p * (100.0 - share) / 100.0),
        )
        written.add(*polygons.files)
    return SegmentJobResult(segment, polygons)


def segment_job(
    request: SegmentRequest,
    model: ModelInfo,
    rasters: Sequence[CapturedRaster],
    *,
    polygons: PolygonStep | None = None,
    is_canceled: Callable[[], bool] = never_canceled,
    on_progress: Callable[[float], None] = ignore_progress,
) -> SegmentJobResult:
    """Plan and run a job in one call (:func:`plan_job`, then :func:`run_job`).

    Raises:
        See :func:`plan_job` and :func:`run_job`.
    """
    return run_job(plan_job(request, model, rasters, polygons=polygons), is_canceled, on_progress)
