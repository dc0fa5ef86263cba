"""A review's sampling from QGIS layers: one capture for ``flair:sample`` and the Review tab's
"New review", and the task that runs the sampling job off the main thread.

:func:`capture_sample` (main thread) turns the layers into a :class:`CapturedSample`: the job's
:class:`~flair_qgis.core.review.SampleRequest` and, for a polygon reference, the layer's feature
source, read only in the worker (:meth:`CapturedSample.resolved`) and only over the sampled extent.
Both callers then run :func:`~flair_qgis.core.review.create_review`: Processing on its own
thread, the dock in a :class:`SampleTask`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from qgis.core import QgsDataSourceUri, QgsMapLayer

from ..core.errors import InputError
from ..core.review import DEFAULT_SAMPLES, SampleRequest, SampleResult, create_review
from ..core.score import Crosswalk
from ..i18n import tr
from ..i18n.removed import removed_files
from .polygon_stream import reference_identity
from .reference_input import CapturedReference, capture_reference, raster_file
from .task_work import JobTask


@dataclass(frozen=True)
class SampleDesign:
    """The sampling parameters that are not layers (see :class:`~flair_qgis.core.review.SampleRequest`)."""

    design: str = "stratified"
    samples: int = DEFAULT_SAMPLES
    min_per_class: int = 20
    seed: int = 0
    confidence_threshold: float = 0.7
    low_confidence_share: float = 0.5
    double_review: float = 0.0


@dataclass(frozen=True)
class CapturedSample:
    """A sampling captured on the main thread.

    Attributes:
        request: the job's request; its ``reference_polygons`` are still to read.
        reference: the captured reference (None without one).
    """

    request: SampleRequest
    reference: CapturedReference | None

    def resolved(self, is_canceled: Callable[[], bool] | None = None) -> SampleRequest:
        """The request with the reference polygons read over the sampled extent. Call in the worker.

        Raises:
            InputError: the prediction cannot be read, or the extent misses it.
            Canceled: ``is_canceled`` answered True.
        """
        request = self.request
        if self.reference is None or self.reference.polygons is None:
            return request
        reference = self.reference.resolve(request.prediction_path, request.extent, is_canceled=is_canceled)
        return dataclasses.replace(request, reference_polygons=reference.polygons)


def capture_sample(
    prediction: QgsMapLayer | None,
    reference: QgsMapLayer | None,
    field: str,
    confidence: QgsMapLayer | None,
    extent: tuple[float, float, float, float] | None,
    output: str,
    design: SampleDesign,
    crosswalk: Crosswalk | None = None,
) -> CapturedSample:
    """Capture a sampling on the main thread (reads no feature).

    Args:
        prediction: the class map under review.
        reference: the labels (raster mask or polygons), or None.
        field: the class field of polygon labels.
        confidence: the model's confidence raster, or None.
        extent: only this area, in the prediction's CRS; None for all of it.
        output: the review GeoPackage (``.gpkg`` is added when missing).
        design: the sampling parameters.
        crosswalk: which map class each label value counts as (``CROSSWALK``), or None.

    Raises:
        InputError: a layer that is not a file, no items asked for, bad labels or class field (an
            output onto an input is refused by the job itself, which knows the reference's source).
    """
    prediction_path = raster_file(prediction, "prediction")
    if design.samples <= 0:
        raise InputError.of("too_few_samples", samples=design.samples)
    captured = capture_reference(reference, field) if reference is not None else None
    confidence_path = raster_file(confidence, "confidence raster") if confidence is not None else None
    output = output if output.lower().endswith(".gpkg") else output + ".gpkg"
    request = SampleRequest(
        prediction_path=prediction_path,
        output_path=output,
        reference_raster=captured.raster_path if captured else None,
        reference_polygons=None,  # read in the worker, over the sampled extent only
        reference_field=field,
        reference_name=captured.name if captured else "",
        reference_identity=reference_identity(reference) if reference is not None else None,
        reference_source=source_without_password(reference),
        reference_provider=reference.providerType() if reference is not None else "",
        confidence_path=confidence_path,
        extent=extent,
        crosswalk=crosswalk,
        **dataclasses.asdict(design),
    )
    return CapturedSample(request, captured)


def source_without_password(layer: QgsMapLayer | None) -> str:
    """The layer's data source as recorded in the review (a database password is left out)."""
    if layer is None:
        return ""
    source = layer.source()
    if layer.providerType() in ("postgres", "spatialite", "oracle", "mssql"):
        uri = QgsDataSourceUri(source)
        uri.setPassword("")
        return uri.uri(False)
    return source


@dataclass(frozen=True)
class SampleOutcome:
    """How a sampling task ended.

    Attributes:
        status: ``ok``, ``canceled`` or ``error``.
        result: what was written, when ``ok``.
        error: the exception, when ``error``; traceback: its traceback when it is not a
            :class:`~flair_qgis.core.errors.FlairError` (a bug, not the user's input).
        removed: the files the job had written and removed (a cancel, a failure).
    """

    status: str
    result: SampleResult | None = None
    error: BaseException | None = None
    traceback: str = ""
    removed: tuple[str, ...] = ()


class SampleTask(JobTask):
    """Runs :func:`~flair_qgis.core.review.create_review` in the background; ``done`` gets the
    :class:`SampleOutcome` on the main thread."""

    def __init__(self, captured: CapturedSample, done: Callable[[SampleOutcome], None]) -> None:
        super().__init__(tr("Sample items for label review"), done)
        self.captured = captured
        self.result: SampleResult | None = None

    def _work(self) -> None:
        request = self.captured.resolved(self.isCanceled)
        self.result = create_review(request, is_canceled=self.isCanceled, on_progress=self.setProgress)

    def finished(self, result: bool) -> None:
        if result and not self.isCanceled():
            self.done(SampleOutcome("ok", self.result))
        elif self.error is not None:
            removed = removed_files(self.error)
            self.done(SampleOutcome("error", error=self.error, traceback=self.error_traceback, removed=removed))
        else:
            # A cancel once the job returned: the job's result removes what it wrote.
            removed = self.result.remove_outputs() if result and self.result is not None else ()
            self.done(SampleOutcome("canceled", removed=removed or removed_files(self.canceled)))
