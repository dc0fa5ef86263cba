"""``flair:segment`` with ``SCHEDULER``: the planned run handed to the distributed engine of the CLI.

With a scheduler (``local:N`` or ``tcp://host:port``), the run goes into a folder named after
OUTPUT without its extension (``/data/classes.tif`` -> ``/data/classes/``): ``chunks/``,
``run.json`` and the mosaic ``classes.vrt``, which becomes the OUTPUT. Running the algorithm
again with the same OUTPUT resumes. Dask is imported only when a scheduler is asked for.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Any

from qgis.core import QgsProcessingFeedback

from ..core.engine import CapturedRaster
from ..core.errors import InputError, NotSupportedError
from ..core.segment import SegmentPlan
from ..i18n.errors import PROCESSING, note_text
from ..scale.cluster import check_workers, dashboard_link, open_client, parse_scheduler, require_dask
from ..scale.manifest import open_output_dir
from ..scale.plan import ScaleJob, job_from_plan
from ..scale.runner import Progress, execute
from .base import tr

CHUNK_TILES = 8


@dataclass(frozen=True)
class DistributedRun:
    """A planned distributed run: where it runs and what it computes."""

    scheduler: str | None
    workers: int | None
    job: ScaleJob
    plan: SegmentPlan


def distributed_run(plan: SegmentPlan, raster: CapturedRaster, scheduler_text: str) -> DistributedRun | None:
    """The distributed run SCHEDULER asks for, or None for an in-process run.

    Raises:
        InputError: a malformed SCHEDULER.
        NotSupportedError: Dask is not installed (the message says what to install), a web
            layer, or outputs a distributed run does not write.
    """
    kind, where = parse_scheduler(scheduler_text)
    if not kind:
        return None
    require_dask()
    if raster.path is None:
        raise NotSupportedError(
            tr(
                "Layer '{name}' is not a file: SCHEDULER needs a raster every worker can open "
                "(GeoTIFF, VRT, /vsicurl/ COG). Save the layer to a file, or leave SCHEDULER empty."
            ).format(name=raster.name)
        )
    if plan.request.confidence_path:
        raise NotSupportedError(
            tr("OUTPUT_CONFIDENCE is not written by distributed runs: leave it or SCHEDULER empty.")
        )
    output_dir = os.path.splitext(plan.request.output_path)[0]
    job = job_from_plan(plan, raster.path, output_dir, CHUNK_TILES)
    if kind == "local":
        return DistributedRun(None, where if isinstance(where, int) else None, job, plan)
    return DistributedRun(str(where), None, job, plan)


def run_distributed(run: DistributedRun, feedback: QgsProcessingFeedback) -> dict[str, Any]:
    """Run it on Dask with QGIS progress and cancel; the Processing outputs.

    Raises:
        Canceled: the user canceled (finished chunks stay; the same OUTPUT resumes).
        InputError: chunks failed (listed), the folder holds something else, no workers.
    """
    job = run.job
    manifest = open_output_dir(job, force=False)
    feedback.pushInfo(
        tr("Distributed run in {folder}: {n} chunk(s).").format(folder=job.output_dir, n=len(job.chunks()))
    )
    with open_client(run.scheduler, run.workers) as client:
        reports = check_workers(client)
        feedback.pushInfo(tr("{n} Dask worker(s) ready.").format(n=len(reports)))
        link = dashboard_link(client)
        if link:
            feedback.pushInfo(tr("Dask dashboard: {link}").format(link=link))
        result = execute(
            job, run.plan.model, manifest, client, on_progress=_progress(feedback), is_canceled=feedback.isCanceled
        )
    for warning in result.warnings:
        feedback.pushWarning(note_text(warning, PROCESSING))
    if result.failed:
        listed = "; ".join(f"{name}: {error.splitlines()[0][:200]}" for name, error in sorted(result.failed.items()))
        raise InputError(
            tr(
                "{count} chunk(s) failed ({listed}); see {path}. Fix the cause and run again "
                "with the same OUTPUT to compute only them."
            ).format(count=len(result.failed), listed=listed, path=manifest.path)
        )
    feedback.pushInfo(
        tr("{run} chunk(s) computed, {skipped} already done; {tiles} tiles in {s:.1f} s.").format(
            run=result.chunks_run, skipped=result.chunks_skipped, tiles=result.tiles_run, s=result.seconds
        )
    )
    return {
        "OUTPUT": result.mosaic_path,
        "PROVIDER": ", ".join(sorted(set(result.providers.values()))),
        "TILES": result.tiles_run,
        "SECONDS": result.seconds,
    }


def _progress(feedback: QgsProcessingFeedback):
    def report(progress: Progress) -> None:
        feedback.setProgress(progress.percent)
        eta = "--" if progress.eta_s is None else time.strftime("%H:%M:%S", time.gmtime(progress.eta_s))
        feedback.setProgressText(
            tr("{done}/{total} tiles, {rate:.2f} tiles/s, ETA {eta}").format(
                done=progress.tiles_done, total=progress.tiles_total, rate=progress.tiles_per_s, eta=eta
            )
        )

    return report
