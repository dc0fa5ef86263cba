"""The typed report of a benchmark run: what :func:`.runner.run_benchmark` returns and publishes.

Callers read fields (``report.scores.miou``, ``report.run.samples_per_second``,
``report.targets.mae_cm``); :meth:`BenchmarkReport.to_report` gives the report JSON, key for key
and in the order ``flair:benchmark`` has always written it (DESIGN.md's scoring report, then
``mf1``, the ``benchmark`` block, WeedSense's per-image targets, ``class_alignment``, ``warnings``).

Public API: :class:`BenchmarkReport`, :class:`BenchmarkRun`, :class:`FailedSample`,
:class:`WorstSample`, :class:`TargetScores`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..score import ClassAlignment, Scores
from .task_metrics import WITHIN_CM

#: What the report says a sample's mIoU is.
PER_SAMPLE_MIOU = "mean IoU of the evaluated classes present in the sample (reference or prediction)"


@dataclass(frozen=True)
class FailedSample:
    """A sample that could not be read or scored: which file, and why."""

    sample_id: str
    path: str
    error: str

    def to_report(self) -> dict:
        return {"sample_id": self.sample_id, "path": self.path, "error": self.error}


@dataclass(frozen=True)
class WorstSample:
    """One of the lowest-mIoU samples: its figures and files (modality -> input file)."""

    sample_id: str
    miou: float
    oa: float | None
    reference: str
    inputs: Mapping[str, str]

    def to_report(self) -> dict:
        return {
            "sample_id": self.sample_id,
            "miou": self.miou,
            "oa": self.oa,
            "reference": self.reference,
            "inputs": dict(self.inputs),
        }


@dataclass(frozen=True)
class BenchmarkRun:
    """The report's ``benchmark`` block: what ran, on what, how fast, what failed, the worst samples.

    Attributes:
        inputs: how each model input was fed (modality, bands, normalisation), as the report lists it.
        class_values: the protocol code each output index counts as.
        failed: the failed samples listed (at most a thousand); ``samples_failed`` counts them all.
        unpaired: the unpaired files listed; ``unpaired_count`` counts them all.
        seconds: wall time, session creation and discovery included; ``pipeline_seconds`` reading,
            inference and scoring only, from which ``samples_per_second`` comes.
    """

    dataset: str
    layout: str
    label_modality: str | None
    model: str
    device: str
    provider: str
    inputs: tuple[Mapping[str, object], ...]
    segmentation_output: str
    class_values: tuple[int, ...]
    samples_found: int
    samples_scored: int
    samples_failed: int
    failed: tuple[FailedSample, ...]
    unpaired_count: int
    unpaired: tuple[str, ...]
    on_unpaired: str
    seconds: float
    pipeline_seconds: float
    samples_csv: str
    predictions_dir: str | None
    worst_samples: tuple[WorstSample, ...]

    @property
    def samples_per_second(self) -> float | None:
        """The pipeline's throughput (None when it took no time)."""
        return self.samples_scored / self.pipeline_seconds if self.pipeline_seconds > 0 else None

    def to_report(self) -> dict:
        return {
            "dataset": self.dataset,
            "layout": self.layout,
            "label_modality": self.label_modality,
            "model": self.model,
            "device": self.device,
            "provider": self.provider,
            "inputs": [dict(i) for i in self.inputs],
            "segmentation_output": self.segmentation_output,
            "class_values": list(self.class_values),
            "samples_found": self.samples_found,
            "samples_scored": self.samples_scored,
            "samples_failed": self.samples_failed,
            "failed": [f.to_report() for f in self.failed],
            "unpaired_count": self.unpaired_count,
            "unpaired": list(self.unpaired),
            "on_unpaired": self.on_unpaired,
            "seconds": self.seconds,
            "pipeline_seconds": self.pipeline_seconds,
            "samples_per_second": self.samples_per_second,
            "samples_csv": self.samples_csv,
            "predictions_dir": self.predictions_dir,
            "per_sample_miou": PER_SAMPLE_MIOU,
            "worst_samples": [w.to_report() for w in self.worst_samples],
        }


def _percent(value: object) -> float | None:
    return float(value) * 100.0 if isinstance(value, (int, float)) else None


@dataclass(frozen=True)
class TargetScores:
    """Per-image targets of a protocol that scores them (WeedSense's evaluation card).

    Attributes:
        miou, mf1: the class map's mIoU and mean F1 (0..1), which the card also gives in percent.
        height: the height figures (``count``, ``mae_cm``, ``rmse_cm``, ``r2``, ``max_error_cm``,
            ``within_{1,2,5}cm``), None when the model has no height output.
        growth_stage: the growth-stage figures (``count``, ``accuracy``, ``f1``, ``f1_per_class``,
            its confusion matrix), None when the model has no stage output.
    """

    miou: float | None
    mf1: float | None
    height: Mapping[str, object] | None
    growth_stage: Mapping[str, object] | None

    def _height(self, key: str) -> float | None:
        value = self.height.get(key) if self.height is not None else None
        return float(value) if isinstance(value, (int, float)) else None

    def _stage(self, key: str) -> float | None:
        value = self.growth_stage.get(key) if self.growth_stage is not None else None
        return float(value) if isinstance(value, (int, float)) else None

    @property
    def mae_cm(self) -> float | None:
        return self._height("mae_cm")

    @property
    def rmse_cm(self) -> float | None:
        return self._height("rmse_cm")

    @property
    def accuracy(self) -> float | None:
        return self._stage("accuracy")

    @property
    def f1(self) -> float | None:
        return self._stage("f1")

    def to_report(self) -> dict[str, object]:
        """``miou_percent``, ``mf1_percent``, ``height`` and its headline keys (and ``_percent``),
        ``growth_stage`` with ``accuracy``, ``f1`` (and ``_percent``); None where not scored."""
        height = dict(self.height) if self.height is not None else None
        out: dict[str, object] = {"miou_percent": _percent(self.miou), "mf1_percent": _percent(self.mf1)}
        out["height"] = height
        for key in ("mae_cm", "rmse_cm", "r2", "max_error_cm", *(f"within_{k:g}cm" for k in WITHIN_CM)):
            out[key] = height[key] if height is not None else None
        for k in WITHIN_CM:
            out[f"within_{k:g}cm_percent"] = _percent(out[f"within_{k:g}cm"])
        stage = dict(self.growth_stage) if self.growth_stage is not None else None
        out["growth_stage"] = stage
        out["accuracy"] = stage["accuracy"] if stage is not None else None
        out["f1"] = stage["f1"] if stage is not None else None
        out["accuracy_percent"] = _percent(out["accuracy"])
        out["f1_percent"] = _percent(out["f1"])
        return out


@dataclass(frozen=True)
class BenchmarkReport:
    """A model scored on a benchmark folder: the figures, the run, the per-image targets.

    Attributes:
        scores: the class map's figures under the protocol (the dataset's summed matrix).
        mf1: the mean F1 of the evaluated classes, None when none has one.
        run: what ran and how (the report's ``benchmark`` block).
        targets: the per-image targets, None when the protocol scores none.
        class_alignment: how the model's classes were aligned with the protocol's codes.
        warnings: what the user should read before the scores.
    """

    scores: Scores
    mf1: float | None
    run: BenchmarkRun
    targets: TargetScores | None
    class_alignment: ClassAlignment
    warnings: tuple[str, ...]

    def to_report(self) -> dict:
        """The report JSON, keys in the order ``flair:benchmark`` has always written them."""
        report = self.scores.to_report()
        report["mf1"] = self.mf1
        report["benchmark"] = self.run.to_report()
        if self.targets is not None:
            report.update(self.targets.to_report())
        report["class_alignment"] = self.class_alignment.to_dict()
        report["warnings"] = list(self.warnings)
        return report
