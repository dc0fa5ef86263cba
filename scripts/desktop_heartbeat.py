"""Run inside the QGIS desktop (``qgis --code``): how long the main thread is blocked by each step
of the Evaluate tab, as a user meets it. See scripts/desktop-heartbeat.

The dock keeps the width QGIS gives it, on its Evaluate tab with the suspicious-labels table in
sight. The real FLAIR patch is segmented by the demo model (with its confidence), then a square
grid of labels over it (121 squares, or a million with ``FLAIR_BEAT_REFERENCE=million``) is the
reference. A 10 ms ``QTimer`` on the main thread is the heartbeat; each step records the longest
gap between two ticks from its action to its result on screen (the report shown, then half a
second for the posted row fit and the paint):

- ``first score``: "Score this view";
- ``rescore``: the same click again;
- ``follow on``: "Follow the view" switched on (the view segmented, then scored);
- ``pan 1..4``: the view moved a quarter of its width or height, segmented and scored again.

A block longer than 100 ms (``FLAIR_BEAT_STALL_MS``) makes faulthandler write every thread's Python stack to
``FLAIR_BEAT_OUTPUT.stalls.txt`` (the step named above it): the main thread's stack names the code.
Writes one JSON object to ``FLAIR_BEAT_OUTPUT`` (``run-N.json``) and the window at the end (``run-N.png``).
"""

import faulthandler
import json
import os
import time
from pathlib import Path

import desktop_steps
from qgis.core import QgsApplication, QgsProject, QgsRectangle, QgsVectorLayer
from qgis.PyQt.QtCore import QTimer
from qgis.utils import iface

IMAGE = os.environ["FLAIR_BEAT_IMAGE"]
MODEL = os.environ["FLAIR_BEAT_MODEL"]
OUTPUT = os.environ["FLAIR_BEAT_OUTPUT"]
WORK = os.environ["FLAIR_BEAT_WORK"]
REFERENCE = os.environ.get("FLAIR_BEAT_REFERENCE", "squares")
MILLION_GPKG = os.environ.get("FLAIR_BEAT_MILLION", "")
STALL_S = float(os.environ.get("FLAIR_BEAT_STALL_MS", "100")) / 1000.0
SETTLE_S = 0.5
PANS = ((0.25, 0.0), (0.0, 0.25), (-0.25, 0.0), (0.0, -0.25))
state: dict = {"steps": []}


def fail() -> None:
    desktop_steps.fail(OUTPUT)


def later(seconds: float, step) -> None:
    """Run ``step`` after a delay, reporting any error and quitting."""
    desktop_steps.later(seconds, step, OUTPUT)


class Heartbeat:
    """A 10 ms tick on the main thread; each tick re-arms faulthandler's stall dump (a C thread)."""

    def __init__(self) -> None:
        self.ticks: list[float] = []
        self.stalls = open(OUTPUT + ".stalls.txt", "w")  # open for the whole session
        faulthandler.enable(self.stalls, all_threads=True)  # a crash writes its stacks there too
        self.timer = QTimer()
        self.timer.setInterval(10)
        self.timer.timeout.connect(self.tick)
        self.timer.start()

    def tick(self) -> None:
        self.ticks.append(time.perf_counter())
        faulthandler.dump_traceback_later(STALL_S, file=self.stalls)

    def mark(self, name: str) -> None:
        self.stalls.write(f"\n===== step: {name} =====\n")
        self.stalls.flush()

    def longest_ms(self, start: float, end: float) -> float:
        """The longest gap between two ticks that overlaps [start, end]."""
        gaps = [b - a for a, b in zip(self.ticks, self.ticks[1:]) if b > start and a < end]
        return 1000.0 * max(gaps, default=0.0)

    def stop(self) -> None:
        self.timer.stop()
        faulthandler.cancel_dump_traceback_later()
        self.stalls.close()


def time_handlers() -> None:
    """Time the main-thread handlers of each step (their Python and the C++ they call), per step:
    wall time and the main thread's CPU time (a handler whose CPU time is far below its wall time
    waited: for a CPU the other processes held, or for the GIL a worker thread held)."""
    from flair_qgis.adapters.evaluate_task import EvaluateTask
    from flair_qgis.gui.evaluate import follow_view, qa_panel, qa_scores, qa_suspicious

    handlers = [
        (EvaluateTask, "finished"), (EvaluateTask, "_add_overlays"), (qa_panel.QaPanel, "_prepare"),
        (qa_panel.QaPanel, "_remove_overlays"), (qa_panel.QaPanel, "_on_scored"),
        (qa_scores.ScoresSection, "show_report"), (qa_suspicious.SuspiciousTable, "show_ranked"),
        (follow_view.FollowView, "run_view"), (follow_view.FollowView, "_on_finished"),
        (follow_view, "show_live_layer"),
    ]  # fmt: skip
    for owner, name in handlers:
        setattr(owner, name, timed(f"{getattr(owner, '__name__', '')}.{name}", getattr(owner, name)))


def timed(label: str, function):
    def wrapper(*args, **kwargs):
        started, cpu_started = time.perf_counter(), time.thread_time()
        try:
            return function(*args, **kwargs)
        finally:
            ms = 1000.0 * (time.perf_counter() - started)
            cpu_ms = 1000.0 * (time.thread_time() - cpu_started)  # far below ms: the thread was waiting
            state.setdefault("calls", []).append((label, round(ms, 1), round(cpu_ms, 1)))

    return wrapper


def reference_layer() -> QgsVectorLayer:
    """121 squares of 10 m over the patch, or the million-square GeoPackage centred on it."""
    from bigref_helpers import square_grid_gpkg  # tests/ is on PYTHONPATH (scripts/desktop-heartbeat)

    image = state["image"].extent()
    center = (image.center().x() + 3.3, image.center().y() + 4.7)
    if REFERENCE == "million":
        path = MILLION_GPKG
        if not os.path.exists(path):
            square_grid_gpkg(Path(path), center, 1000)
    else:
        path = os.path.join(WORK, "squares.gpkg")
        square_grid_gpkg(Path(path), center, 11)
    layer = QgsVectorLayer(f"{path}|layername=labels", f"labels ({REFERENCE})", "ogr")
    if not layer.isValid():
        raise RuntimeError(f"cannot open {path}")
    state["reference_features"] = layer.featureCount()
    return layer


def start() -> None:
    plugin, layer = desktop_steps.open_dock(IMAGE, MODEL, "IMG_024577")
    time_handlers()
    state.update(dock=plugin.dock, image=layer)
    later(3, segment)


def segment() -> None:
    state["dock"].segment.run()
    later(0.5, wait_segment)


def wait_segment() -> None:
    if state["dock"].segment.task is not None:
        later(0.5, wait_segment)
        return
    labels = reference_layer()
    QgsProject.instance().addMapLayer(labels)
    dock = state["dock"]
    qa = dock.qa
    dock.tabs.setCurrentIndex(1)
    qa.reference_combo.setLayer(labels)
    qa.field_combo.setField("code")
    qa.protocol_combo.setCurrentIndex(qa.protocol_combo.findData("flair1"))
    qa.error_check.setChecked(True)
    qa.suspicious_check.setChecked(True)
    iface.mapCanvas().setExtent(state["image"].extent())
    state["beat"] = Heartbeat()
    later(3, lambda: act("first score", qa.score_view))


def act(name: str, action) -> None:
    """Start a step: note the time and the report shown, run the action, wait for a new report."""
    qa = state["dock"].qa
    state["beat"].mark(name)
    state["step"] = {"name": name, "start": time.perf_counter(), "report": qa.scored, "scored": False}
    state["calls"] = []
    action()
    later(0.05, wait_result)


def wait_result() -> None:
    dock, step = state["dock"], state["step"]
    qa, follow = dock.qa, dock.follow
    busy = qa.task is not None or follow.task is not None or follow.timer.isActive()
    step["scored"] = step["scored"] or qa.task is not None
    if busy or not step["scored"]:  # a failed score ends the step too (its status says so)
        if time.perf_counter() - step["start"] > 180:
            raise RuntimeError(f"{step['name']}: no new report after 180 s: {qa.summary_label.text()}")
        later(0.02, wait_result)
        return
    step["shown"] = time.perf_counter()
    if step["name"] == "first score":  # the table in sight, as a user scrolls to it (once laid out)
        later(0.2, lambda: dock.scroll_areas[1].ensureWidgetVisible(qa.suspicious_table, 0, 0))
    later(SETTLE_S, finish_step)


def finish_step() -> None:
    step, beat = state["step"], state["beat"]
    qa = state["dock"].qa
    end = time.perf_counter()
    state["steps"].append({
        "step": step["name"], "longest_ms": round(beat.longest_ms(step["start"], end), 1),
        "result_s": round(step["shown"] - step["start"], 2), "rows": qa.suspicious_table.model().rowCount(),
        "status": "ok" if qa.scored is not step["report"] else qa.summary_label.text(),
        "main_thread_calls_ms": state.get("calls", []),
    })  # fmt: skip
    if state["steps"][-1]["status"] != "ok":
        state["steps"][-1]["diagnosis"] = diagnosis()
    later(1.0, next_step)


def diagnosis() -> dict:
    """What a failed step had: the view, the live class map's extent and valid pixels, the follow
    view's note (cached tiles), the prediction the Evaluate tab scored."""
    import numpy as np
    import rasterio

    dock = state["dock"]
    found: dict = {"view": iface.mapCanvas().extent().toString(3), "follow": dock.follow.status.text()}
    layer = dock.follow.live_layer()
    if layer is not None:
        found["live"] = {"source": layer.source(), "extent": layer.extent().toString(3)}
        try:
            with rasterio.open(layer.source()) as src:
                data = src.read(1)
                found["live"]["valid_fraction"] = float(np.mean(data != src.nodata)) if src.nodata is not None else 1.0
        except Exception as err:  # a diagnosis: whatever happened is the finding
            found["live"]["read_error"] = str(err)
    prediction = dock.qa.prediction_combo.currentLayer()
    found["scored_prediction"] = prediction.source() if prediction is not None else None
    found["cache"] = cache_entries()
    return found


def cache_entries() -> list:
    """Every tile-cache entry: its run key, tile, time written and, per array, shape and share of 255."""
    import glob

    import numpy as np

    from flair_qgis.adapters import settings
    from flair_qgis.core.segment.tile_entry import decode_entry, entry_header

    entries = []
    for path in sorted(glob.glob(os.path.join(settings.cache_folder(), "flair-tile-cache-v*", "*", "*.tile"))):
        data = Path(path).read_bytes()
        header = entry_header(data)
        arrays = decode_entry(data, header["key"], header["row"], header["col"])
        entries.append({
            "key": header["key"][:8], "tile": [header["row"], header["col"]], "written": header["written"],
            "arrays": {n: [list(a.shape), round(float(np.mean(a == 255)), 3)] for n, a in arrays.items()},
        })  # fmt: skip
    return entries


def pan(dx: float, dy: float) -> None:
    canvas = iface.mapCanvas()
    e = canvas.extent()
    canvas.setExtent(QgsRectangle(e.xMinimum() + dx * e.width(), e.yMinimum() + dy * e.height(),
                                  e.xMaximum() + dx * e.width(), e.yMaximum() + dy * e.height()))  # fmt: skip
    canvas.refresh()


def next_step() -> None:
    done = len(state["steps"])
    qa, follow = state["dock"].qa, state["dock"].follow
    if done == 1:
        act("rescore", qa.score_view)
    elif done == 2:
        act("follow on", lambda: follow.toggle.setChecked(True))
    elif done < 3 + len(PANS):
        dx, dy = PANS[done - 3]
        act(f"pan {done - 2}", lambda: pan(dx, dy))
    else:
        finish()


def finish() -> None:
    state["beat"].stop()
    iface.mainWindow().grab().save(OUTPUT[: -len(".json")] + ".png")  # what the steps had on screen
    state["dock"].follow.toggle.setChecked(False)
    dock = state["dock"]
    result = {
        "reference": REFERENCE, "reference_features": state["reference_features"],
        "load_average": list(os.getloadavg()), "steps": state["steps"],
        "dock_width_px": dock.width(), "table_height_px": dock.qa.suspicious_table.height(),
    }  # fmt: skip
    with open(OUTPUT, "w") as handle:
        json.dump(result, handle, indent=1)
    QgsApplication.exit(0)


later(1, start)
