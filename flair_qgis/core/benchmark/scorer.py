"""Benchmark scoring (the consumer stage): scores -> class map -> counts, CSV row, prediction file.

The class map of each sample comes from the segmentation head through the tile pipeline's
:class:`~flair_qgis.core.engine.postprocess.Postprocess` and the plan's output-index -> code table; its
pair counts are added to the dataset's :class:`~flair_qgis.core.score.metrics.ConfusionMatrix`. Per-image
targets (WeedSense height and growth stage) are scored by :mod:`.task_metrics`.
Only a few sums and the ten worst samples are kept, whatever the number of samples.
"""

from __future__ import annotations

import csv
import heapq
import os
from dataclasses import replace
from typing import cast

import numpy as np
import rasterio

from ..engine.multi import per_image_value
from ..engine.postprocess import Postprocess
from ..errors import ModelError
from ..score import ConfusionMatrix, build_scores
from .datasets import Sample
from .plan import UNIT_TO_CM, BenchmarkPlan, Quiet
from .samples import Batch, Failed, Loaded, resize_nearest
from .task_metrics import ClassificationMetrics, RegressionMetrics

WORST_KEPT = 10
LISTED_MAX = 1000
GROWTH_WEEKS = tuple(range(1, 12))
_TARGET_COLUMNS = ("height_cm", "height_pred_cm", "height_abs_error_cm", "growth_week", "growth_week_pred")


def _fmt(value: float | None) -> str:
    return "" if value is None else f"{value:.6f}"


class ImageTargets:
    """Per-image targets of a sample (WeedSense height and growth week): read, checked, scored."""

    def __init__(self, plan: BenchmarkPlan) -> None:
        self.height_head, self.stage_head = plan.height_head, plan.stage_head
        self.heights = RegressionMetrics()
        labels = GROWTH_WEEKS
        if self.stage_head is not None:
            labels = tuple(sorted(set(GROWTH_WEEKS) | {c.value for c in self.stage_head.classes}))
        self.stages = ClassificationMetrics(labels)
        self.height_scale = UNIT_TO_CM.get(self.height_head.unit.lower(), 1.0) if self.height_head else 1.0

    def predict(self, sample: Sample, per_image: dict[str, float], row: dict) -> tuple[float | None, int | None]:
        """The predicted height (cm) and growth week of a sample; its reference values go in ``row``.

        Raises:
            ValueError: a growth week (reference or predicted) is not a known class.
        """
        height = stage = None
        if sample.height_cm is not None:
            row["height_cm"] = sample.height_cm
            if self.height_head is not None:
                height = float(per_image[self.height_head.name]) * self.height_scale
        if sample.growth_week is not None:
            row["growth_week"] = sample.growth_week
            if self.stage_head is not None:
                stage = round(float(per_image[self.stage_head.name]))
                bad = [w for w in (sample.growth_week, stage) if w not in self.stages.labels]
                if bad:
                    raise ValueError(f"growth week {bad[0]} is not one of 1..11")
        return height, stage

    def record(self, sample: Sample, height: float | None, stage: int | None, row: dict) -> None:
        """Add a scored sample's targets to the metrics and to its CSV row."""
        if height is not None and sample.height_cm is not None:
            error = self.heights.update(sample.height_cm, height)
            row.update(height_pred_cm=_fmt(height), height_abs_error_cm=_fmt(error))
        if stage is not None and sample.growth_week is not None:
            self.stages.update(sample.growth_week, stage)
            row["growth_week_pred"] = stage


class SampleScorer:
    """Turns model outputs into scores, CSV rows and prediction files (runs in the consumer thread).

    Args:
        plan: the benchmark plan.
        csv_handle: the open per-sample CSV (a temporary file).
        predictions_tmp: folder for ``PRED_<id>.tif`` files, or None.
    """

    def __init__(self, plan: BenchmarkPlan, csv_handle, predictions_tmp: str | None) -> None:
        self.plan = plan
        self.sample_protocol = replace(plan.protocol, absent="skip")
        self.total = ConfusionMatrix()
        self.targets = ImageTargets(plan)
        self.predictions_tmp = predictions_tmp
        self.scored = 0
        self.failed: list[dict] = []
        self.failed_count = 0
        self.worst: list[tuple[float, int, dict]] = []
        self.head = plan.segmentation
        self.postprocess = Postprocess(self.head, plan.model.seg_threshold, want_confidence=False)
        lut = plan.class_lut
        self.lut = lut.astype(np.uint8) if lut.size and lut.min() >= 0 and lut.max() <= 255 else lut.astype(np.int64)
        # PRED_<id>.tif values: the protocol's submission format (FLAIR #1: class index = code - 1).
        offset = plan.protocol.submission_offset
        self.submission_lut = (
            np.array([plan.protocol.class_value(int(v)) + offset for v in lut], dtype=np.int64)
            if offset
            else lut.astype(np.int64)
        )
        self.csv = csv.DictWriter(csv_handle, fieldnames=self._columns(), extrasaction="ignore")
        self.csv.writeheader()

    def _columns(self) -> list[str]:
        columns = ["sample_id", "status", "miou", "oa", "pixels_evaluated"]
        if self.plan.image_targets:
            columns += list(_TARGET_COLUMNS)
        columns += ["reference"] + [f"input_{m}" for m in dict.fromkeys(p.modality for p in self.plan.inputs)]
        return [*columns, "prediction", "error"]

    @staticmethod
    def _base_row(sample: Sample) -> dict:
        row = {"sample_id": sample.sample_id, "reference": sample.reference}
        for modality, path in sample.inputs.items():
            row[f"input_{modality}"] = path
        return row

    def fail(self, item: Failed) -> None:
        """Count and list a sample that could not be read or scored."""
        self.failed_count += 1
        if len(self.failed) < LISTED_MAX:
            self.failed.append({"sample_id": item.sample.sample_id, "path": item.path, "error": item.message})
        row = self._base_row(item.sample)
        row.update(status="failed", error=f"{item.path}: {item.message}")
        self.csv.writerow(row)

    def score(self, batch: Batch, outputs: dict[str, np.ndarray]) -> None:
        """Score every sample of a batch from the model's outputs."""
        scores = outputs[self.head.name]
        per_image = {}
        for head in (self.plan.height_head, self.plan.stage_head):
            if head is not None:
                per_image[head.name] = per_image_value(head, outputs[head.name][: len(batch.loaded)])
        for i, loaded in enumerate(batch.loaded):
            self._score_one(loaded, scores[i], {k: v[i] for k, v in per_image.items()})

    def _class_index(self, loaded: Loaded, scores: np.ndarray) -> np.ndarray:
        index = self.postprocess(scores, np.s_[:, :])[0]
        if index.max(initial=0) >= len(self.lut):
            raise ModelError.of(
                "class_index_out_of_range", name=self.head.name, index=int(index.max()), class_count=len(self.lut)
            )
        if index.shape != loaded.reference.shape:
            index = resize_nearest(index, (loaded.reference.shape[0], loaded.reference.shape[1]))
        return index

    def _score_one(self, loaded: Loaded, scores: np.ndarray, per_image: dict[str, float]) -> None:
        sample = loaded.sample
        index = self._class_index(loaded, scores)
        row = self._base_row(sample)
        try:
            height, stage = self.targets.predict(sample, per_image, row)
        except ValueError as err:
            self.fail(Failed(sample, sample.reference, str(err)))
            return
        matrix = ConfusionMatrix()
        matrix.update(loaded.reference, self.lut[index], loaded.valid)
        self.total.merge(matrix)
        sample_scores = build_scores(matrix, self.sample_protocol, strict=False)
        row.update(
            status="ok",
            miou=_fmt(sample_scores.miou),
            oa=_fmt(sample_scores.oa),
            pixels_evaluated=sample_scores.pixels_evaluated,
        )
        self.targets.record(sample, height, stage, row)
        if self.predictions_tmp is not None:
            row["prediction"] = self._write_prediction(loaded, index)
        self.csv.writerow(row)
        self.scored += 1
        if sample_scores.miou is not None:
            self._keep_if_worst(sample, sample_scores.miou, sample_scores.oa)

    def _keep_if_worst(self, sample: Sample, miou: float, oa: float | None) -> None:
        entry = {
            "sample_id": sample.sample_id,
            "miou": miou,
            "oa": oa,
            "reference": sample.reference,
            "inputs": dict(sample.inputs),
        }
        # Min-heap on (-mIoU) keeps the lowest mIoU; the counter keeps ties deterministic.
        item = (-miou, -self.scored, entry)
        if len(self.worst) < WORST_KEPT:
            heapq.heappush(self.worst, item)
        elif item[:2] > self.worst[0][:2]:
            heapq.heapreplace(self.worst, item)

    def _write_prediction(self, loaded: Loaded, index: np.ndarray) -> str:
        values = self.submission_lut[index]
        dtype = "uint8" if values.min(initial=0) >= 0 and values.max(initial=0) <= 255 else "int32"
        name = f"PRED_{loaded.sample.sample_id}.tif"
        profile = {
            "driver": "GTiff",
            "width": values.shape[1],
            "height": values.shape[0],
            "count": 1,
            "dtype": dtype,
            "compress": "deflate",
        }
        if loaded.profile["georeferenced"]:
            profile["transform"] = loaded.profile["transform"]
            if loaded.profile["crs"] is not None:
                profile["crs"] = loaded.profile["crs"]
        folder = cast(str, self.predictions_tmp)  # set before the first prediction is written
        with Quiet(), rasterio.open(os.path.join(folder, name), "w", **profile) as dst:
            dst.write(values.astype(dtype), 1)
        return name

    def worst_samples(self) -> list[dict]:
        """The lowest-mIoU samples, worst first."""
        return [entry for _, _, entry in sorted(self.worst, key=lambda t: (-t[0], -t[1]))]
