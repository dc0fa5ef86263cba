"""Score a model on every sample of a benchmark folder with a published protocol, streaming.

One function, :func:`run_benchmark`, behind ``flair:benchmark``. It runs the three stages of
:func:`flair_qgis.core.engine.stages.run_stages`, like the tile pipeline: a producer thread reads each
sample's files (GDAL releases the GIL), selects and normalises the model's bands and stacks
samples of equal shape into batches (:mod:`.samples`); the calling thread runs
onnxruntime on the session ``flair:segment`` would build (:func:`run_session`: the wrapped graph,
the provider decided by the engine); a consumer thread turns scores into class maps, adds each sample's confusion counts
to the dataset's, updates the per-image metrics, writes the per-sample CSV row and, when asked,
the prediction file (:mod:`.scorer`). Queues of two batches bound memory to a few
batches whatever the number of samples; the only things kept for the whole run are the
confusion counts, a few sums and the ten worst samples. What is run is decided beforehand by
:func:`~.plan.plan_benchmark`.

Outputs are complete or absent: the per-sample CSV is written through
:func:`flair_qgis.core.atomic.write_atomic` and the prediction files in a hidden folder, both
moved into place only when the run ends, then the report is published by
:func:`flair_qgis.core.score.report.publish_report`; a cancel or an error deletes them. A sample that
fails to read is reported with its path and the run goes on.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..atomic import check_output_path, write_atomic
from ..engine.heads import HeadPlan
from ..engine.sessions import SessionInfo, run_batch
from ..engine.stages import ignore_progress, never_canceled, run_stages
from ..engine.wrapped_graph import Fusion, create_run_session
from ..errors import InputError, ModelError
from ..score import build_scores, publish_report
from .plan import BenchmarkPlan, BenchmarkRequest, default_samples_csv, plan_benchmark
from .report import BenchmarkReport, BenchmarkRun, FailedSample, TargetScores, WorstSample
from .samples import Batch, Failed, SampleReader
from .scorer import LISTED_MAX, SampleScorer

__all__ = [
    "BenchmarkRequest",
    "BenchmarkResult",
    "default_samples_csv",
    "plan_benchmark",
    "run_benchmark",
    "run_session",
]


@dataclass(frozen=True)
class BenchmarkResult:
    """What a run produced.

    Attributes:
        report: the report written (DESIGN.md format plus the protocol's own metrics).
        report_path: the report JSON.
        samples_csv_path: the per-sample CSV.
        predictions_dir: the folder of prediction rasters, or None.
        session: the execution provider that ran.
        graph: what ran in the model's graph (:attr:`~flair_qgis.core.engine.Fusion.note`), as
            ``flair:segment`` says it.
        samples: samples scored.
        failed: samples that could not be read or scored.
        seconds: wall time, session creation included.
        warnings: messages the user should see.
    """

    report: BenchmarkReport
    report_path: str
    samples_csv_path: str
    predictions_dir: str | None
    session: SessionInfo
    samples: int
    failed: int
    seconds: float
    warnings: list[str] = field(default_factory=list)
    graph: str = ""


def _predictions_folder(request: BenchmarkRequest) -> str | None:
    """The predictions folder, created when its parent exists."""
    if not request.predictions_dir:
        return None
    folder = os.path.abspath(request.predictions_dir)
    if not os.path.isdir(folder):
        parent = os.path.dirname(folder)
        if not os.path.isdir(parent):
            raise InputError.of("predictions_folder_missing", parent=parent)
        os.makedirs(folder)
    return folder


def _log_plan(plan: BenchmarkPlan, on_info: Callable[[str], None]) -> None:
    dataset = plan.dataset
    on_info(f"{dataset.layout} dataset: {len(dataset.samples)} sample(s) in {dataset.root}.")
    for line in dataset.unpaired[:50]:
        on_info(f"Skipped, {line}")
    if len(dataset.unpaired) > 50:
        on_info(f"... and {len(dataset.unpaired) - 50} more unpaired file(s), listed in the report.")
    for p in plan.inputs:
        on_info(f"Model input '{p.spec.name}' <- {p.modality} bands {list(p.choice.bands)} ({p.choice.how}).")


def _infer(session, fusion: Fusion, batch: Batch, fixed_batch: int | None) -> dict:
    """The batch's outputs by head: scores, or :class:`~flair_qgis.core.engine.postprocess.GraphScores`
    for a head the wrapped graph reduces."""
    names = fusion.output_names
    try:
        return fusion.unpack(dict(zip(names, run_batch(session, names, batch.feeds, fixed_batch))))
    except Exception as err:  # onnxruntime raises untyped errors (shape mismatch...)
        shapes = ", ".join(f"{k} {tuple(v.shape)}" for k, v in batch.feeds.items())
        ids = f"{batch.loaded[0].sample.sample_id}..{batch.loaded[-1].sample.sample_id}"
        raise ModelError.of(
            "onnxruntime_failed_samples", ids=ids, shapes=shapes, error=str(err).splitlines()[0][:300]
        ) from err


def _run_samples(
    plan: BenchmarkPlan,
    session: tuple[object, Fusion],
    scorer: SampleScorer,
    batch_size: int,
    is_canceled: Callable[[], bool],
    on_progress: Callable[[float], None],
) -> None:
    """Reader thread -> onnxruntime in the calling thread -> scorer thread, over every sample."""
    reader = SampleReader(plan, batch_size)
    fixed_batch = plan.model.inputs[0].fixed_batch
    total, done = len(plan.dataset.samples), 0

    def process(item: Batch | Failed) -> Failed | tuple[Batch, dict[str, np.ndarray]]:
        # A sample that failed to read goes straight to the scorer.
        return item if isinstance(item, Failed) else (item, _infer(*session, item, fixed_batch))

    def consume(item: Failed | tuple[Batch, dict[str, np.ndarray]]) -> None:
        nonlocal done
        if isinstance(item, Failed):
            scorer.fail(item)
            done += 1
        else:
            scorer.score(*item)
            done += len(item[0].loaded)
        on_progress(99.0 * done / total)

    run_stages(
        lambda stop: reader.items(plan.dataset.samples, stop),
        process,
        consume,
        is_canceled=is_canceled,
        name="flair-bench",
    )


def _score_all(
    plan: BenchmarkPlan,
    session: tuple[object, Fusion],
    csv_path: str,
    predictions_tmp: str | None,
    batch_size: int,
    is_canceled: Callable[[], bool],
    on_progress: Callable[[float], None],
) -> tuple[SampleScorer, float]:
    """Score every sample, the per-sample CSV into ``csv_path``; returns the scorer and the pipeline's seconds.

    Raises:
        InputError: no sample could be scored.
    """
    with open(csv_path, "w", newline="", encoding="utf-8") as handle:
        scorer = SampleScorer(plan, handle, predictions_tmp)
        pipeline_started = time.perf_counter()
        _run_samples(plan, session, scorer, batch_size, is_canceled, on_progress)
        pipeline_seconds = time.perf_counter() - pipeline_started
    if scorer.scored == 0:
        first = "; ".join(f"{f['path']}: {f['error']}" for f in scorer.failed[:3])
        raise InputError.of("no_sample_scored", root=plan.dataset.root, failed=scorer.failed_count, first=first)
    return scorer, pipeline_seconds


def _move_all(folder: str | None, target: str | None) -> None:
    """Move every file of ``folder`` (the hidden partial predictions) into ``target``."""
    if folder is not None and target is not None:
        for name in sorted(os.listdir(folder)):
            os.replace(os.path.join(folder, name), os.path.join(target, name))


@dataclass(frozen=True)
class _Scored:
    """What scoring every sample gave: the scorer's totals, the wall time so far and the report."""

    scorer: SampleScorer
    seconds: float
    report: BenchmarkReport


def _write_complete_or_absent(
    csv_path: str,
    report_path: str,
    predictions_dir: str | None,
    score_into: Callable[[str, str | None], _Scored],
) -> _Scored:
    """Write the run's outputs all together or none of them.

    The per-sample CSV goes through :func:`~flair_qgis.core.atomic.write_atomic` and the prediction
    files into a hidden folder inside ``predictions_dir``; the files are moved into place and the
    report published only once every sample is scored. The hidden folder goes whatever happens.

    Args:
        csv_path: the per-sample CSV.
        report_path: the report JSON, published last.
        predictions_dir: the folder of prediction rasters, or None to write none.
        score_into: scores every sample into the hidden CSV path it is given, with the hidden
            predictions folder (None without predictions).

    Returns:
        What ``score_into`` returned.

    Raises:
        Canceled, InputError, ModelError: as ``score_into``, once its hidden CSV and predictions
            are deleted.
    """
    predictions_tmp = tempfile.mkdtemp(prefix=".flair-partial-", dir=predictions_dir) if predictions_dir else None
    scored: list[_Scored] = []  # write_atomic's writer returns nothing: what it scored is kept here
    try:
        write_atomic(
            csv_path, lambda csv_tmp: scored.append(score_into(csv_tmp, predictions_tmp)), suffix=".partial.csv"
        )
        _move_all(predictions_tmp, predictions_dir)
        publish_report(scored[0].report.to_report(), report_path)
    finally:
        if predictions_tmp is not None and os.path.isdir(predictions_tmp):
            shutil.rmtree(predictions_tmp)
    return scored[0]


def run_benchmark(
    request: BenchmarkRequest,
    *,
    is_canceled: Callable[[], bool] = never_canceled,
    on_progress: Callable[[float], None] = ignore_progress,
    on_info: Callable[[str], None] = lambda _line: None,
    plan: BenchmarkPlan | None = None,
) -> BenchmarkResult:
    """Run ``request``: score every sample, write the report, the per-sample CSV and predictions.

    Args:
        request: what to run.
        is_canceled: polled between batches; True stops the run and deletes partial outputs.
        on_progress: receives 0..100.
        on_info: receives log lines (dataset found, unpaired files, which inputs feed the model).
        plan: a plan from :func:`plan_benchmark` for this request (made here when None).

    Returns:
        What was written.

    Raises:
        Canceled: nothing was written.
        InputError, ModelError: the request cannot be run, or no sample could be scored.
    """
    started = time.perf_counter()
    plan = plan or plan_benchmark(request)
    report_path = check_output_path(request.report_path, "report")
    csv_path = check_output_path(request.samples_csv_path or default_samples_csv(report_path), "per-sample CSV")
    predictions_dir = _predictions_folder(request)
    _log_plan(plan, on_info)
    notes = list(plan.warnings)
    session, info, fusion = run_session(plan, request)
    notes.extend(_session_warnings(info, fusion))
    batch_size = plan.model.inputs[0].fixed_batch or max(1, int(request.batch_size))

    def score_into(csv_tmp: str, predictions_tmp: str | None) -> _Scored:
        scorer, pipeline_seconds = _score_all(
            plan, (session, fusion), csv_tmp, predictions_tmp, batch_size, is_canceled, on_progress
        )
        seconds = time.perf_counter() - started
        facts = _RunFacts(info, request.on_unpaired, csv_path, predictions_dir, seconds, pipeline_seconds)
        return _Scored(scorer, seconds, _report(plan, scorer, facts, notes))

    run = _write_complete_or_absent(csv_path, report_path, predictions_dir, score_into)
    on_progress(100.0)
    return BenchmarkResult(
        report=run.report,
        report_path=report_path,
        samples_csv_path=csv_path,
        predictions_dir=predictions_dir,
        session=info,
        samples=run.scorer.scored,
        failed=run.scorer.failed_count,
        seconds=run.seconds,
        warnings=notes,
        graph=fusion.note,
    )


def run_session(plan: BenchmarkPlan, request: BenchmarkRequest) -> tuple[object, SessionInfo, Fusion]:
    """The benchmark's session, built as ``flair:segment`` builds its own
    (:func:`~flair_qgis.core.engine.wrapped_graph.create_run_session`): the segmentation head's
    argmax in the graph where the model can be wrapped, the per-image heads fetched as they are.

    The samples are normalised on the host (their resampled reads are the published protocol's
    inputs), so the wrapped graph takes them as the model does; its argmax breaks ties to the
    lowest index, as the host's: the figures are the same.

    Raises:
        InputError, ModelError: as :func:`~flair_qgis.core.engine.sessions.create_session`.
    """
    heads = HeadPlan(plan.segmentation, (), tuple(h for h in plan.heads.used if h is not plan.segmentation))
    host_normalised = [None] * len(plan.model.inputs)
    return create_run_session(plan.model, heads, host_normalised, False, request.device, request.threads)


def _session_warnings(info: SessionInfo, fusion: Fusion) -> list[str]:
    """What the user should know about the session, worded as ``flair:segment`` words it."""
    warnings = [info.warning] if info.warning else []
    warnings.extend(fusion.notices)
    return warnings


@dataclass(frozen=True)
class _RunFacts:
    """What the report says about the run itself.

    ``seconds`` includes session creation and discovery; ``pipeline_seconds`` is reading,
    inference and scoring only (samples per second is the pipeline's throughput).
    """

    session: SessionInfo
    on_unpaired: str
    csv_path: str
    predictions_dir: str | None
    seconds: float
    pipeline_seconds: float


def _report(plan: BenchmarkPlan, scorer: SampleScorer, facts: _RunFacts, notes: list[str]) -> BenchmarkReport:
    """The DESIGN.md report plus the benchmark block and the protocol's per-image targets."""
    scores = build_scores(scorer.total, plan.protocol, strict=False)
    if scores.undeclared_values is not None:
        notes.append(
            "Values outside the protocol's classes were left out of the scores: "
            + json.dumps(scores.undeclared_values)
            + ". Check that the protocol matches the dataset and the model's classes (or give CLASS_MAP)."
        )
    evaluated_f1 = [c.f1 for c in scores.classes if c.f1 is not None]
    mf1 = float(np.mean(evaluated_f1)) if evaluated_f1 else None
    targets = None
    if plan.image_targets:
        heights = scorer.targets.heights.result("cm") if plan.height_head is not None else None
        stages = scorer.targets.stages.result() if plan.stage_head is not None else None
        targets = TargetScores(scores.miou, mf1, heights, stages)
    run = _benchmark_run(plan, scorer, facts)
    return BenchmarkReport(scores, mf1, run, targets, plan.alignment, tuple(notes))


def _benchmark_run(plan: BenchmarkPlan, scorer: SampleScorer, facts: _RunFacts) -> BenchmarkRun:
    """The report's ``benchmark`` block: what ran, on what, how fast, what failed, the worst samples."""
    dataset = plan.dataset
    return BenchmarkRun(
        dataset=dataset.root,
        layout=dataset.layout,
        label_modality=dataset.label_modality or None,
        model=plan.model.path,
        device=facts.session.device,
        provider=facts.session.provider,
        inputs=tuple(p.to_dict() for p in plan.inputs),
        segmentation_output=plan.segmentation.name,
        class_values=tuple(int(v) for v in plan.class_lut),
        samples_found=len(dataset.samples),
        samples_scored=scorer.scored,
        samples_failed=scorer.failed_count,
        failed=tuple(FailedSample(f["sample_id"], f["path"], f["error"]) for f in scorer.failed),
        unpaired_count=len(dataset.unpaired),
        unpaired=tuple(dataset.unpaired[:LISTED_MAX]),
        on_unpaired=facts.on_unpaired,
        seconds=facts.seconds,
        pipeline_seconds=facts.pipeline_seconds,
        samples_csv=facts.csv_path,
        predictions_dir=facts.predictions_dir,
        worst_samples=tuple(
            WorstSample(w["sample_id"], w["miou"], w["oa"], w["reference"], w["inputs"]) for w in scorer.worst_samples()
        ),
    )
