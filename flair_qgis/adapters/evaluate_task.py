"""A "score this view" run from the QA tab: captured on the main thread, run in a QgsTask.

:func:`prepare_evaluation` (main thread) captures the class map, the reference (a raster file or
a polygon layer's feature source, read in the task over the view only), the protocol and the
map view's extent into a frozen :class:`PreparedEvaluation`. :class:`EvaluateTask` scores it with
:func:`flair_qgis.core.score.evaluate.score` and, for polygon references, ranks suspicious labels with
:func:`flair_qgis.core.score.labels.rank_labels`; only :meth:`EvaluateTask.finished` (main thread) adds
the error map and the ranked polygons to the project. (The segmentation run is in
:mod:`.segment_task`.)
"""

from __future__ import annotations

import datetime
import os
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field

from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsMapLayer,
    QgsProject,
    QgsRasterLayer,
    QgsRectangle,
    QgsTask,
    QgsVectorLayer,
)

from ..core import vocabulary
from ..core.atomic import remove_outputs
from ..core.errors import Canceled, FlairError
from ..core.score.evaluate import score
from ..core.score.protocols import Protocol, get_protocol
from ..i18n import class_label, tr
from . import settings
from .layer_tree import add_to_group, group_of, raise_group, reveal, run_group, set_legend_header
from .layers import extent_in_crs
from .overlay_styles import error_words, localize_error_legend, style_suspicious
from .proj_threads import keep_proj_context
from .reference_input import CapturedReference, capture_reference, raster_file


@dataclass(frozen=True)
class PreparedEvaluation:
    """A "score this view" request captured on the main thread.

    Attributes:
        prediction_path: the class-map file.
        reference: the captured reference (a raster file, or a polygon layer read in the task).
        field: class field of a polygon reference.
        protocol: the core scoring protocol.
        extent: ``(xmin, ymin, xmax, ymax)`` in the prediction's CRS, or None for all of it.
        error_map_path: error-map GeoTIFF to write, or None.
        ranked_path: GeoPackage of suspicious labels to write (polygon references), or None.
        confidence_path: confidence raster weighting the suspicion, or None.
        anchor_id: layer the overlays go above (the prediction).
    """

    prediction_path: str
    reference: CapturedReference
    field: str
    protocol: Protocol
    extent: tuple[float, float, float, float] | None
    error_map_path: str | None = None
    ranked_path: str | None = None
    confidence_path: str | None = None
    anchor_id: str | None = None


@dataclass
class EvaluationOutcome:
    """How a scoring run ended.

    Attributes:
        status: ``ok``, ``canceled`` or ``error``.
        report: the report dict (DESIGN.md format) when ``ok``.
        ranked: the ranked polygons (GeoDataFrame) when asked for.
        error: the exception when ``error``.
        traceback: traceback of an unexpected error.
        layers: overlay layers added (error map, suspicious labels).
    """

    status: str
    prepared: PreparedEvaluation
    report: dict | None = None
    ranked: object | None = None
    error: BaseException | None = None
    traceback: str = ""
    layers: list[QgsMapLayer] = field(default_factory=list)


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
) -> PreparedEvaluation:
    """Capture a scoring of the map view on the main thread.

    Raises:
        InputError: missing or unusable layers (web layers must be saved as files first), bad field.
    """
    prediction_path = raster_file(prediction, "class map")
    captured = capture_reference(reference, reference_field)
    protocol = get_protocol(protocol_name)
    extent = None
    if view is not None and not view.isEmpty():
        extent = extent_in_crs(view, view_crs, prediction.crs())
    folder = settings.run_folder(folder)
    stamp = time.strftime("%Y%m%d_%H%M%S") + f"_{int(time.time() * 1000) % 1000:03d}"
    error_path = os.path.join(folder, f"flair_errors_{stamp}.tif") if error_map else None
    ranked_path = None
    if suspicious and captured.polygons is not None:
        ranked_path = os.path.join(folder, f"flair_suspicious_{stamp}.gpkg")
    confidence_path = None
    if ranked_path and isinstance(confidence, QgsRasterLayer):
        confidence_path = raster_file(confidence, "confidence raster")
    return PreparedEvaluation(
        prediction_path, captured, reference_field, protocol, extent, error_path, ranked_path, confidence_path,
        prediction.id(),
    )  # fmt: skip


class EvaluateTask(QgsTask):
    """Scores a class map against a reference with :mod:`flair_qgis.core.score.evaluate` in the background."""

    def __init__(self, prepared: PreparedEvaluation, done: Callable[[EvaluationOutcome], None]) -> None:
        super().__init__(tr("FLAIR: scoring the view"), QgsTask.Flag.CanCancel)
        self.prepared = prepared
        self.done = done
        self.report: dict | None = None
        self.ranked = None
        self.error: BaseException | None = None
        self.error_traceback = ""

    def run(self) -> bool:
        keep_proj_context()  # before any pyproj use on this pooled thread
        p = self.prepared
        share = 50.0 if p.ranked_path else 100.0
        try:
            # Only the polygons of the scored extent are read, here and not on the main thread.
            reference = p.reference.resolve(p.prediction_path, p.extent, is_canceled=self.isCanceled)
            self.report = score(
                p.prediction_path, reference, p.protocol, extent=p.extent, error_map_path=p.error_map_path,
                is_canceled=self.isCanceled, on_progress=lambda v: self.setProgress(v * share / 100.0),
            )  # fmt: skip
            if p.ranked_path:
                from ..core.score.labels import rank_labels
                from ..core.score.polygons import without_own_crs

                ranked = rank_labels(
                    p.prediction_path, reference.polygons, p.field, p.ranked_path,
                    confidence_path=p.confidence_path, protocol=p.protocol, extent=p.extent,
                    is_canceled=self.isCanceled, on_progress=lambda v: self.setProgress(50.0 + v / 2.0),
                )  # fmt: skip
                # Its pyproj CRS was made in this thread: the main thread gets the polygons without it.
                self.ranked = without_own_crs(ranked)
        except Canceled:
            return False
        except FlairError as err:
            self.error = err
            return False
        except Exception as err:  # reported on the main thread as critical, traceback in the log
            self.error = err
            self.error_traceback = traceback.format_exc()
            return False
        return True

    def finished(self, result: bool) -> None:
        p = self.prepared
        outcome = EvaluationOutcome(status="ok", prepared=p, report=self.report, ranked=self.ranked)
        if not result or self.isCanceled():
            for path in (p.error_map_path, p.ranked_path):
                if path:
                    remove_outputs(path)
            outcome.status = "error" if self.error is not None else "canceled"
            outcome.error = self.error
            outcome.traceback = self.error_traceback
            outcome.report = None
        else:
            self._add_overlays(outcome)
        self.done(outcome)

    def _add_overlays(self, outcome: EvaluationOutcome) -> None:
        """Error map and suspicious labels on top of the class map, in its run group (raised to the top)."""
        p = self.prepared
        group = group_of(p.anchor_id)
        if group is not None:
            group = raise_group(group)
        else:
            prediction = QgsProject.instance().mapLayer(p.anchor_id) if p.anchor_id else None
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
