"""A "score this view" run from the QA tab: captured on the main thread, run in a QgsTask.

:func:`prepare_evaluation` (main thread) captures the class map, the reference (a raster file or
a polygon layer's feature source, read in the task over the view only), the protocol and the
map view's extent (:mod:`.score_capture`) into the score job's frozen
:class:`~flair_qgis.core.score.job.ScoreRequest`. :class:`EvaluateTask` runs it with
:func:`flair_qgis.core.score.job.run_score` (score and, for polygon references, suspicious labels);
only :meth:`EvaluateTask.finished` (main thread) adds the error map and the ranked polygons to the
project. (The segmentation run is in :mod:`.segment_task`.)
"""

from __future__ import annotations

import datetime
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsMapLayer,
    QgsProject,
    QgsRasterLayer,
    QgsRectangle,
    QgsVectorLayer,
)

from ..core import vocabulary
from ..core.score import (
    Crosswalk,
    ScoreReport,
    ScoreRequest,
    ScoreResult,
    get_protocol,
    run_score,
    score_output_paths,
    without_own_crs,
)
from ..i18n import class_label, tr
from ..i18n.removed import removed_files
from . import settings
from .layer_tree import add_to_group, group_of, raise_group, reveal, run_group, set_legend_header
from .overlay_styles import error_words, localize_error_legend, style_suspicious
from .score_capture import confidence_file, prediction_file, reference_of, view_extent
from .task_work import JobTask


@dataclass(frozen=True)
class PreparedEvaluation:
    """A "score this view" request captured on the main thread.

    Attributes:
        request: the score job's request (class map, captured reference, protocol, extent, outputs).
        anchor_id: layer the overlays go above (the prediction).
        reference_id: the polygon reference layer's id (None for a raster reference): a refusal of
            its class field's values offers "Crosswalk…" for this layer and field.
        reference_field: the polygon reference's class field.
    """

    request: ScoreRequest
    anchor_id: str | None = None
    reference_id: str | None = None
    reference_field: str = ""


@dataclass
class EvaluationOutcome:
    """How a scoring run ended.

    Attributes:
        status: ``ok``, ``canceled`` or ``error``.
        report: the typed report when ``ok`` (``to_report()`` is the report JSON).
        ranked: the ranked polygons (GeoDataFrame) when asked for.
        error: the exception when ``error``.
        traceback: traceback of an unexpected error.
        layers: overlay layers added (error map, suspicious labels).
        removed: the files the job had written and removed (a cancel, a failure).
    """

    status: str
    prepared: PreparedEvaluation
    report: ScoreReport | None = None
    ranked: object | None = None
    error: BaseException | None = None
    traceback: str = ""
    layers: list[QgsMapLayer] = field(default_factory=list)
    removed: tuple[str, ...] = ()


def prepare_evaluation(
    prediction: QgsMapLayer | None,
    reference: QgsMapLayer | None,
    reference_field: str,
    protocol_name: str,
    view: QgsRectangle | None,
    view_crs: QgsCoordinateReferenceSystem,
    *,
    error_map: bool = False,
    suspicious: bool = False,
    confidence: QgsMapLayer | None = None,
    folder: str = "",
    crosswalk: Crosswalk | None = None,
) -> PreparedEvaluation:
    """Capture a scoring of the map view on the main thread.

    Raises:
        InputError: missing or unusable layers (web layers must be saved as files first), bad field.
    """
    prediction_path = prediction_file(prediction)
    captured = reference_of(reference, reference_field)
    protocol = get_protocol(protocol_name)
    extent = view_extent(view, view_crs, prediction.crs()) if view is not None else None
    folder = settings.run_folder(folder)
    stamp = time.strftime("%Y%m%d_%H%M%S") + f"_{int(time.time() * 1000) % 1000:03d}"
    error_path, ranked_path = score_output_paths(folder, stamp, error_map, suspicious and captured.polygons is not None)
    confidence_path = None
    if ranked_path and isinstance(confidence, QgsRasterLayer):
        confidence_path = confidence_file(confidence)
    request = ScoreRequest(
        prediction_path,
        captured,
        protocol,
        extent,
        error_map_path=error_path,
        ranked_path=ranked_path,
        confidence_path=confidence_path,
        reference_source=reference.source() if reference is not None else None,
        crosswalk=crosswalk,
    )
    if isinstance(reference, QgsVectorLayer):
        return PreparedEvaluation(request, prediction.id(), reference.id(), reference_field)
    return PreparedEvaluation(request, prediction.id())


class EvaluateTask(JobTask):
    """Runs the score job (:func:`flair_qgis.core.score.job.run_score`) of a prepared evaluation in the background."""

    def __init__(self, prepared: PreparedEvaluation, done: Callable[[EvaluationOutcome], None]) -> None:
        super().__init__(tr("FLAIR: scoring the view"), done)
        self.prepared = prepared
        self.report: ScoreReport | None = None
        self.ranked = None
        self.result: ScoreResult | None = None

    def _work(self) -> None:
        # The polygons of the scored extent are read in the job, here and not on the main thread.
        result = run_score(self.prepared.request, self.isCanceled, self.setProgress)
        self.result, self.report = result, result.report
        if result.ranked is not None:
            # Its pyproj CRS was made in this thread: the main thread gets the polygons without it.
            self.ranked = without_own_crs(result.ranked)

    def finished(self, result: bool) -> None:
        outcome = EvaluationOutcome(status="ok", prepared=self.prepared, report=self.report, ranked=self.ranked)
        if not result or self.isCanceled():
            # The job removed its files when it stopped; one that returned before the cancel came
            # removes them now (the job's own list).
            removed = self.result.remove_outputs() if result and self.result is not None else ()
            outcome.removed = removed or removed_files(self.canceled or self.error)
            outcome.status = "error" if self.error is not None else "canceled"
            outcome.error = self.error
            outcome.traceback = self.error_traceback
            outcome.report = None
        else:
            self._add_overlays(outcome)
        self.done(outcome)

    def _add_overlays(self, outcome: EvaluationOutcome) -> None:
        """Error map and suspicious labels on top of the class map, in its run group (raised to the top)."""
        p, anchor_id = self.prepared.request, self.prepared.anchor_id
        group = group_of(anchor_id)
        if group is not None:
            group = raise_group(group)
        else:
            prediction = QgsProject.instance().mapLayer(anchor_id) if anchor_id else None
            title = prediction.name() if prediction is not None else os.path.basename(p.prediction_path)
            now = f"{datetime.datetime.now():%H:%M:%S}"
            group = run_group(tr("{name} — scored {time}").format(name=title, time=now))
        if p.error_map_path and os.path.exists(p.error_map_path):
            layer = QgsRasterLayer(p.error_map_path, tr("Errors (reference class missed)"), "gdal")  # .qml sidecar
            layer.setCustomProperty(vocabulary.KIND_PROPERTY, vocabulary.KIND_ERROR_MAP)
            localize_error_legend(layer, error_words(), class_label)
            outcome.layers.append(add_to_group(layer, group))
            set_legend_header(layer, tr("Errors by reference class"))
        if p.ranked_path and os.path.exists(p.ranked_path):
            layer = QgsVectorLayer(p.ranked_path, tr("Suspicious labels"), "ogr")
            layer.setCustomProperty(vocabulary.KIND_PROPERTY, vocabulary.KIND_SUSPICIOUS_LABELS)
            style_suspicious(layer)
            outcome.layers.append(add_to_group(layer, group))
        reveal(group)
