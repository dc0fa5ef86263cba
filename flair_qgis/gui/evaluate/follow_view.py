""" "Follow the view": each settled map view is segmented through the tile cache and re-scored.

A toggle on the Segment tab. While it is on, every pan or zoom restarts a short timer; when the
view has settled, the visible part of the input layer is segmented at the model's resolution in
a background task that reads the tile cache (so a revisit costs no model time) and the one live
class-map layer is pointed at the new pixels (same layer, same id, same style). A task still
running when the view moves again is cancelled. With a reference layer on the Evaluate tab the
view is re-scored, so its table, heat map and error overlay follow the view. Views larger than
the pixel budget (a setting) are not segmented: the toggle says "zoom in to segment" instead.
Web and database layers go through the cache only when "Cache web layers" is ticked (their
tiles are then reused for a day, keyed by the layer's address).
Turning the toggle off leaves the live layer as an ordinary layer.
"""

from __future__ import annotations

import dataclasses
import os
import time

from qgis.core import (
    QgsApplication,
    QgsCoordinateTransform,
    QgsProject,
    QgsRasterLayer,
    QgsRectangle,
)
from qgis.PyQt.QtCore import QObject, Qt, QTimer
from qgis.PyQt.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from ...adapters import settings
from ...adapters.live_view import release_live_layer, show_live_layer
from ...adapters.segment_request import prepare_segment
from ...adapters.segment_task import RunOutcome, SegmentTask
from ...core.engine import TASK_SEGMENTATION, check_supported
from ...core.errors import FlairError
from ...core.segment import live_output_path
from ...core.vocabulary import EXTENT_CANVAS
from ...i18n import decimal, integer, tiles
from ...i18n.errors import error_text
from ..widgets import tr

DEBOUNCE_MS = 300


def _model_reason(model) -> str:
    """Why a model cannot follow the view ("" when it can): none chosen, or no class map to show."""
    if model is None:
        return tr("Choose a model to follow the view.")
    try:
        if check_supported(model).task != TASK_SEGMENTATION:
            return tr("Follow the view shows class maps: this model has no segmentation output.")
    except FlairError as err:
        return error_text(err)
    return ""


class LiveSegmentTask(SegmentTask):
    """A dock run whose class map is not added as a new layer: the follow view updates its own."""

    def _add_layers(self, outcome: RunOutcome) -> None:
        return None


class FollowView(QObject):
    """The "Follow the view" toggle and what it drives.

    Args:
        dock: the FLAIR dock (its Segment tab describes the run, its Evaluate tab the scoring).

    Attributes:
        widget: the toggle and its status line, for the Segment tab.
        task: the live run in flight, or None.
        live_layer_id: the live class-map layer, once a view has been segmented.
        runs_started: runs started since the toggle was turned on (one per settled view).
        last_seconds: time from the view settling to the live layer shown (scores follow in their own task).
    """

    def __init__(self, dock) -> None:
        super().__init__(dock)
        self.dock = dock
        self.canvas = dock.canvas
        self.task: LiveSegmentTask | None = None
        self.live_layer_id: str | None = None
        self.runs_started = 0
        self.last_seconds: float | None = None
        self._settled_at = 0.0
        self._score_pending = False
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(DEBOUNCE_MS)
        self.timer.timeout.connect(self.run_view)
        dock.qa.scoring_ended.connect(self._score_again)
        self.widget = QWidget()
        self.widget.setObjectName("follow_view")
        self.toggle = QCheckBox(tr("Follow the view"))
        self.toggle.setToolTip(
            tr("Segment and score each map view once it settles, through the tile cache, into one live layer.")
        )
        self.toggle.toggled.connect(self.set_enabled)
        # Web layers can change on the server: their tiles are reused only when asked, for a day.
        self.cache_remote = QCheckBox(tr("Cache web layers"))
        self.cache_remote.setToolTip(
            tr(
                "Also keep the tiles of web and database layers (XYZ, WMS, WMTS, PostGIS) in the tile cache, "
                "by their address, for one day. Off: they are segmented again at each view."
            )
        )
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setVisible(False)
        self.status.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        # The status line beside the toggle: what the view is doing is read where it is switched on.
        toggles = QVBoxLayout()
        toggles.addWidget(self.toggle)
        toggles.addWidget(self.cache_remote)
        toggles.addStretch(1)
        layout = QHBoxLayout(self.widget)
        layout.setContentsMargins(9, 4, 9, 4)
        layout.addLayout(toggles)
        layout.addWidget(self.status, 1)

    # ------------------------------------------------------------------ toggle
    def set_enabled(self, on: bool) -> None:
        """Start following the view (and segment the current one), or stop and keep the live layer."""
        if on:
            self.canvas.extentsChanged.connect(self.view_changed)
            self.runs_started = 0
            self.view_changed()
            return
        try:
            self.canvas.extentsChanged.disconnect(self.view_changed)
        except TypeError:
            pass  # never connected
        self.timer.stop()
        if self.task is not None:
            self.task.cancel()
        self._release_live_layer()
        self._say("")

    def view_changed(self) -> None:
        """The view moved: cancel the run in flight and wait for the view to settle."""
        if self.task is not None:
            self.task.cancel()
        self.timer.start()

    # --------------------------------------------------------------------- run
    def run_view(self) -> LiveSegmentTask | None:
        """Segment the current view in the background; None when nothing is started (and why is shown)."""
        self._settled_at = time.perf_counter()
        reason = self.why_not()
        if reason:
            self._say(reason)
            return None
        try:
            prepared = prepare_segment(self._request(), self.dock.model)
        except FlairError as err:
            self._say(error_text(err))
            return None
        except Exception as err:
            self.dock.report_unexpected(err)
            return None
        self.task = LiveSegmentTask(prepared, self._on_finished)
        self.runs_started += 1
        self._say(tr("Segmenting the view…"))
        QgsApplication.taskManager().addTask(self.task)
        return self.task

    def why_not(self) -> str:
        """Why the current view cannot be segmented ("" when it can): no model, no layer, too large."""
        model = self.dock.model
        reason = _model_reason(model)
        if reason:
            return reason
        layer = self.dock.input_layer(0)
        if not isinstance(layer, QgsRasterLayer):
            return tr("Choose an input layer to follow the view.")
        pixels = self._view_pixels(layer, model.resolution_m)
        budget = settings.follow_view_budget_px()
        if pixels > budget:
            limit = budget / 1e6
            return tr(
                "Zoom in to segment: this view is {mpx} Mpx at the model's resolution (limit {limit} Mpx)."
            ).format(mpx=decimal(pixels / 1e6), limit=decimal(limit, 0 if limit.is_integer() else 1))
        if pixels == 0:
            return tr("The view does not cover the input layer.")
        return ""

    def _request(self):
        """The dock's request for the current view, written to a fresh live file through the cache."""
        rect = self.canvas.extent()
        crs = self.canvas.mapSettings().destinationCrs()
        folder = os.path.join(settings.output_folder() or QgsApplication.qgisSettingsDirPath(), "flair_live")
        os.makedirs(folder, exist_ok=True)
        stamp = f"{time.strftime('%Y%m%d_%H%M%S')}_{int(time.time() * 1000) % 1000:03d}_{self.runs_started}"
        return dataclasses.replace(
            self.dock.build_request(),
            extent_mode=EXTENT_CANVAS,
            extent=(rect.xMinimum(), rect.yMinimum(), rect.xMaximum(), rect.yMaximum()),
            extent_crs=crs.authid() or crs.toWkt(),
            mask_layer_id=None,
            output_path=live_output_path(folder, stamp),
            confidence=False,
            polygons=None,  # a live view is a class map only
            cache_folder=settings.cache_folder(),
            cache_remote=self.cache_remote.isChecked(),
        )

    def _view_pixels(self, layer: QgsRasterLayer, resolution_m: float | None) -> int:
        """Pixels of the view over the layer at the model's resolution (the layer's own without one)."""
        rect = QgsRectangle(self.canvas.extent())
        view_crs = self.canvas.mapSettings().destinationCrs()
        if view_crs.isValid() and layer.crs().isValid() and view_crs != layer.crs():
            rect = QgsCoordinateTransform(view_crs, layer.crs(), QgsProject.instance()).transformBoundingBox(rect)
        rect = rect.intersect(layer.extent())
        if rect.isEmpty():
            return 0
        res = resolution_m if resolution_m and not layer.crs().isGeographic() else None
        res_x = res or layer.rasterUnitsPerPixelX() or 1.0
        res_y = res or layer.rasterUnitsPerPixelY() or 1.0
        return int(round(rect.width() / res_x) * round(rect.height() / res_y))

    def _on_finished(self, outcome: RunOutcome) -> None:
        if outcome.prepared is (self.task.prepared if self.task else None):
            self.task = None
        if outcome.status != "ok" or outcome.result is None:
            if outcome.status == "error":
                self._say(error_text(outcome.error) if isinstance(outcome.error, FlairError) else tr("The run failed."))
                if not isinstance(outcome.error, FlairError):
                    self.dock.report_unexpected(outcome.error, outcome.traceback)
            return  # a cancelled view: the next one is on its way
        result = outcome.result
        layer = show_live_layer(self.live_layer(), result.output_path, outcome.prepared)
        self.live_layer_id = layer.id()
        self._say(
            tr("{cached} of {tiles} from the cache, {s} s.").format(
                cached=integer(result.cached_tiles), tiles=tiles(result.tiles), s=decimal(result.seconds, 2)
            )
        )
        self.last_seconds = time.perf_counter() - self._settled_at
        self._score(layer)

    # ------------------------------------------------------------- live layer
    def live_layer(self) -> QgsRasterLayer | None:
        """The live class-map layer, if it is still in the project."""
        layer = QgsProject.instance().mapLayer(self.live_layer_id) if self.live_layer_id else None
        return layer if isinstance(layer, QgsRasterLayer) else None

    def _release_live_layer(self) -> None:
        release_live_layer(self.live_layer())
        self.live_layer_id = None

    # ----------------------------------------------------------------- scoring
    def _score(self, layer: QgsRasterLayer) -> None:
        """Re-score the view with the score request the Evaluate tab builds for it (none without a
        reference layer there)."""
        qa = self.dock.qa
        if qa.task is not None:  # a score in flight: score again once it ends (qa.scoring_ended)
            qa.cancel_score()
            self._score_pending = True
            return
        request = qa.view_request(layer)
        if request is not None:
            qa.run(request)

    def _score_again(self) -> None:
        if not self._score_pending:
            return
        self._score_pending = False
        layer = self.live_layer()
        if layer is not None and self.toggle.isChecked():
            QTimer.singleShot(0, lambda: self._score(layer))

    def _say(self, text: str) -> None:
        self.status.setText(text)
        self.status.setVisible(bool(text))

    def shutdown(self) -> None:
        """Stop following (the plugin is unloading)."""
        self.toggle.setChecked(False)
