"""The dock's segmentation run in the QGIS task manager.

:class:`SegmentTask` runs a :class:`~flair_qgis.adapters.segment_request.PreparedRun`'s job with
:func:`flair_qgis.core.segment.run_job` in the background, with its own cancel and progress
hooks, and only in :meth:`SegmentTask.finished` (main thread again) adds the styled layers, in one
new group at the top of the layer tree: the class map, the maps of further per-pixel heads (class
maps, value maps) and the confidence, and the polygons when the run asked for them (written after the
class map by the job, as ``flair:segment``'s ``OUTPUT_VECTOR`` is).
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import cast

from qgis.core import QgsMapLayer

from ..core import vocabulary
from ..core.engine import TASK_SEGMENTATION, OutputSpec
from ..core.segment import (
    POLYGON_PROGRESS_START,
    SegmentJobResult,
    SegmentResult,
    WrittenPolygons,
    run_job,
    run_session,
)
from ..i18n import decimal, localized, tr
from ..i18n.removed import removed_files
from .layer_tree import model_name, reveal, run_group, run_group_name, set_legend_header
from .layers import add_class_map, add_confidence, add_value_map
from .polygon_layer import add_polygons
from .segment_request import PreparedRun
from .task_work import JobTask


@dataclass
class RunOutcome:
    """How a run ended, handed to the dock on the main thread.

    Attributes:
        status: ``ok``, ``canceled``, ``abandoned`` (input layer removed) or ``error``.
        prepared: the run.
        result: the core result when ``ok``.
        error: the exception when ``error``.
        traceback: formatted traceback of an unexpected error, else ``""``.
        layers: layers added to the project: the class map (or value map) first, then the
            confidence, then the maps of further heads, then the polygons (their
            ``flair_qgis/kind`` tells which).
        polygons: what the polygon step wrote, when the run asked for polygons.
        removed: the files the job had written and removed (a cancel, a failure, an abandon).
    """

    status: str
    prepared: PreparedRun
    result: SegmentResult | None = None
    error: BaseException | None = None
    traceback: str = ""
    layers: list[QgsMapLayer] = field(default_factory=list)
    polygons: WrittenPolygons | None = None
    removed: tuple[str, ...] = ()


def _value_map_name(title: str, head: OutputSpec) -> str:
    """Layer name of a regression head's map: the run's title, the head and its unit."""
    unit = f" ({head.unit})" if head.unit else ""
    return f"{title} — {head.name}{unit}"


class SegmentTask(JobTask):
    """Runs a prepared plan in the background.

    Args:
        prepared: the run, captured and planned on the main thread.
        done: called on the main thread with the :class:`RunOutcome`.
    """

    def __init__(self, prepared: PreparedRun, done: Callable[[RunOutcome], None]) -> None:
        super().__init__(tr("FLAIR: segmenting {name}").format(name=prepared.layer_names[0]), done)
        self.prepared = prepared
        self.result: SegmentResult | None = None
        self.job_result: SegmentJobResult | None = None
        self.polygons: WrittenPolygons | None = None
        self.abandon_reason = ""
        self.started = 0.0
        self.percent = 0.0
        self.provider = ""  # "CUDA" or "CPU" once the session is built ("" with a tile cache)

    def abandon(self, reason: str) -> None:
        """Stop the run because its input went away; the job removes what it wrote (as on a cancel)."""
        self.abandon_reason = reason
        self.cancel()

    def _work(self) -> None:
        self.started = time.monotonic()
        job = run_job(self.prepared.job, self.isCanceled, self._progress, session=self._session())
        self.job_result, self.result, self.polygons = job, job.segment, job.polygons

    def _session(self):
        """The run's onnxruntime session, built here so progress can name its provider.

        None with a tile cache: the run loads the model only when some tile is not cached.
        """
        plan = self.prepared.plan
        if plan.cache is not None:
            return None
        session, info, fusion = run_session(plan)  # the graph run_plan would build: wrapped, in its precision
        self.provider = info.label
        return session, info, fusion

    def _progress(self, percent: float) -> None:
        self.percent = percent
        self.setProgress(percent)

    def speed_text(self) -> str:
        """Tiles per second so far and the provider, e.g. ``12.3 tiles/s · CUDA``; ``""`` before a tile."""
        elapsed = time.monotonic() - self.started
        share = 100.0 if self.prepared.job.polygons is None else POLYGON_PROGRESS_START  # the polygons come last
        tiles = len(self.prepared.plan.tiles) * min(self.percent / share, 1.0)
        if not self.started or tiles <= 0 or elapsed <= 0:
            return ""
        text = tr("{rate} tiles/s").format(rate=decimal(tiles / elapsed))
        return f"{text} · {self.provider}" if self.provider else text

    def _add_layers(self, outcome: RunOutcome) -> None:
        """Add the run's maps in a new group at the top of the layer tree: class map, further heads, confidence."""
        prepared, result = self.prepared, cast(SegmentResult, self.result)  # called only after a run that returned
        title, opacity = prepared.title, prepared.opacity
        name = model_name(prepared.plan.model)
        xmin, ymin, xmax, ymax = prepared.plan.grid.bounds
        group = run_group(run_group_name(name, xmax - xmin, ymax - ymin))
        head = prepared.plan.heads.primary
        if head.task == TASK_SEGMENTATION:
            main = add_class_map(
                result.output_path, localized(head.classes), title, opacity=opacity, group=group, header=name
            )
        else:
            main = add_value_map(result.output_path, _value_map_name(title, head), group=group)
        main.setCustomProperty("flair_qgis/head", head.name)
        outcome.layers.append(main)
        if result.confidence_path:
            confidence_title = title + " — " + tr("confidence")
            confidence = add_confidence(result.confidence_path, confidence_title, group=group)
            set_legend_header(confidence, tr("Confidence (0–1)"))
            outcome.layers.append(confidence)
        for extra in prepared.plan.heads.maps:
            path = result.head_paths.get(extra.name)
            if not path:
                continue
            if extra.task == TASK_SEGMENTATION:
                layer = add_class_map(
                    path,
                    localized(extra.classes),
                    f"{title} — {extra.name}",
                    opacity=opacity,
                    group=group,
                    header=f"{name} — {extra.name}",
                )
                layer.setCustomProperty(vocabulary.KIND_PROPERTY, vocabulary.KIND_HEAD_CLASS_MAP)
            else:
                layer = add_value_map(path, _value_map_name(title, extra), group=group)
            layer.setCustomProperty("flair_qgis/head", extra.name)
            outcome.layers.append(layer)
        if self.polygons is not None:
            title = title + " — " + tr("polygons")
            outcome.layers.append(add_polygons(self.polygons.path, localized(head.classes), title, group))
            outcome.polygons = self.polygons
        reveal(group)

    def finished(self, result: bool) -> None:
        outcome = RunOutcome(status="ok", prepared=self.prepared, result=self.result)
        if self.abandon_reason or self.isCanceled():
            # The job removed its outputs when it stopped; one that finished before the cancel came
            # removes them now (the job's own list, never one of the dock's).
            removed = self.job_result.remove_outputs() if self.job_result is not None else ()
            outcome.status = "abandoned" if self.abandon_reason else "canceled"
            outcome.result = None
            outcome.removed = removed or removed_files(self.canceled or self.error)
        elif not result or self.result is None:
            outcome.status = "error" if self.error is not None else "canceled"
            outcome.error = self.error
            outcome.traceback = self.error_traceback
            outcome.removed = removed_files(self.canceled or self.error)
        else:
            try:
                self._add_layers(outcome)
            except OSError as err:
                outcome.status = "error"
                outcome.error = err
                outcome.traceback = traceback.format_exc()
        self.done(outcome)
