"""Run in a fresh headless QGIS: the dock's scoring path ("Score this view": capture on the main
thread with ``prepare_evaluation``, read and score in an ``EvaluateTask``) against a polygon layer,
``runs`` times, under a 10 ms main-thread heartbeat. Prints one JSON list, a dict per run:
``click_ms`` (the capture), ``longest_ms`` (the longest event-loop gap), ``total_s`` (click to scores).

The plugin's warm-up task runs first (as it does a few seconds after the plugin loads), so the
first run measures a user's first click, not the libraries' first import.

Usage: python main_thread_probe.py REPO PREDICTION LAYER_URI OUT_FOLDER [RUNS]

A process of its own, as a desktop session is: in a test process that has run hundreds of tests
before, gaps come from the leftovers of those tests, not from the code measured.
"""

from __future__ import annotations

import json
import sys
import time


def main(repo: str, prediction_path: str, layer_uri: str, folder: str, runs: int = 3) -> list[dict]:
    sys.path[:0] = [repo, repo + "/scripts"]
    from headless import start_qgis

    start_qgis()
    from qgis.core import QgsApplication, QgsProject, QgsRasterLayer, QgsVectorLayer
    from qgis.PyQt.QtCore import QEventLoop, QTimer

    from flair_qgis.adapters.evaluate_task import EvaluateTask, prepare_evaluation

    prediction = QgsRasterLayer(prediction_path, "prediction")
    labels = QgsVectorLayer(layer_uri, "labels", "ogr")
    assert prediction.isValid() and labels.isValid()
    QgsProject.instance().addMapLayers([prediction, labels])
    # A session where the plugin has been loaded for a few seconds: its warm-up task has imported
    # pandas and friends (flair_qgis.adapters.warm_up), as the plugin queues it after loading.
    from flair_qgis.adapters.warm_up import WarmUpTask

    warm, warmed = WarmUpTask(), QEventLoop()
    warm.taskCompleted.connect(warmed.quit)
    QgsApplication.taskManager().addTask(warm)
    warmed.exec()
    ticks: list[float] = []
    loop = QEventLoop()
    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    results: list[dict] = []
    outcomes: list = []
    for _ in range(runs):
        ticks.clear()
        timer.start()
        ticks.append(time.perf_counter())
        started = time.perf_counter()
        prepared = prepare_evaluation(
            prediction, labels, "code", "flair1", prediction.extent(), prediction.crs(), suspicious=True, folder=folder
        )
        click = time.perf_counter() - started
        outcomes.clear()
        task = EvaluateTask(prepared, lambda outcome: (outcomes.append(outcome), loop.quit()))
        QgsApplication.taskManager().addTask(task)
        loop.exec()
        ticks.append(time.perf_counter())
        timer.stop()
        gaps = [b - a for a, b in zip(ticks, ticks[1:])]
        results.append({
            "click_ms": 1000 * click, "longest_ms": 1000 * max(gaps), "ticks": len(ticks),
            "total_s": ticks[-1] - started, "status": outcomes[0].status,
            "pixels_evaluated": outcomes[0].report.scores.pixels_evaluated if outcomes[0].report else None,
        })  # fmt: skip
    return results


if __name__ == "__main__":
    args = sys.argv[1:]
    print(json.dumps(main(*args[:4], *(int(a) for a in args[4:]))))
