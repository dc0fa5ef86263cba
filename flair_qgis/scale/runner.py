"""The driver of a distributed run: submit the chunks not yet done, follow them, publish the mosaic.

Dask does the scheduling and the fault tolerance: a worker lost mid-chunk has its chunks re-run
elsewhere (each chunk file is written under a temporary name and renamed when complete, so a
half-written chunk never counts). A chunk that raises is recorded with its error in the
manifest and the others go on; the mosaic is written only when every chunk is done.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..core.engine import ModelInfo, plan_heads
from ..core.errors import Canceled
from .chunks import Chunk
from .cluster import ship_by_value
from .manifest import DONE, FAILED, MOSAIC, PENDING, Manifest
from .mosaic import build_mosaic
from .plan import CHUNKS_DIR, ScaleJob
from .remote import ChunkError, chunk_task
from .vector import ChunkPolygons, VectorOptions, VectorResult, publish_vectors, vector_done
from .worker import ChunkResult, task_payload

_POLL_S = 0.2
_FINAL = ("finished", "error", "cancelled")
_SAVE_EVERY_S = 2.0


@dataclass(frozen=True)
class Progress:
    """Where a run stands, for progress bars.

    Attributes:
        tiles_done: tiles finished, earlier runs' included.
        tiles_total: tiles of the whole grid.
        tiles_per_s: this run's throughput so far.
        eta_s: seconds left at that throughput, or None before the first chunk.
        chunks_failed: chunks that raised so far.
    """

    tiles_done: int
    tiles_total: int
    tiles_per_s: float
    eta_s: float | None
    chunks_failed: int

    @property
    def percent(self) -> float:
        return 100.0 * self.tiles_done / self.tiles_total if self.tiles_total else 100.0


@dataclass
class ScaleResult:
    """What a run did.

    Attributes:
        mosaic_path: ``classes.vrt``, or None when some chunks failed.
        chunks_total: chunks of the grid.
        chunks_skipped: chunks done by an earlier run and not recomputed.
        chunks_run: chunks computed by this run.
        failed: chunk name -> error text.
        tiles_run: tiles computed by this run.
        seconds: wall time of this run.
        providers: worker address -> execution provider that ran there.
        warnings: messages for the user (each once).
        vector: the polygon layer written (``--vector``), or None.
    """

    mosaic_path: str | None
    chunks_total: int
    chunks_skipped: int
    chunks_run: int
    failed: dict[str, str]
    tiles_run: int
    seconds: float
    providers: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    vector: VectorResult | None = None

    @property
    def tiles_per_s(self) -> float:
        return self.tiles_run / self.seconds if self.seconds > 0 else 0.0


def execute(
    job: ScaleJob,
    model: ModelInfo,
    manifest: Manifest,
    client: Any,
    *,
    on_progress: Callable[[Progress], None] | None = None,
    is_canceled: Callable[[], bool] | None = None,
    vector: VectorOptions | None = None,
) -> ScaleResult:
    """Run the chunks of ``job`` not yet done on ``client``'s workers, then write the mosaic.

    With ``vector``, the polygon layer too (see :mod:`.vector`): ``job.vector_chunks`` must be
    set when it does no cleaning; chunks done earlier without polygons are vectorised on the workers.

    Raises:
        Canceled: ``is_canceled`` answered True; finished chunks stay for a resume, no mosaic.
        OSError: the polygon layer could not be written.
    """
    canceled = is_canceled or (lambda: False)
    started = time.perf_counter()
    chunks = job.chunks()
    todo = [c for c in chunks if not manifest.is_done(c.name, job.chunk_path(c))]
    run_entry = _start(job, manifest, len(chunks), todo)
    result = ScaleResult(None, len(chunks), len(chunks) - len(todo), 0, {}, 0, 0.0)
    tiles_total = sum(len(c.tiles) for c in chunks)
    tiles_done = tiles_total - sum(len(c.tiles) for c in todo)

    def progress(tiles_finished: int) -> None:
        nonlocal tiles_done
        tiles_done += tiles_finished
        if on_progress:
            elapsed = time.perf_counter() - started
            rate = result.tiles_run / elapsed if elapsed > 0 else 0.0
            eta = (tiles_total - tiles_done) / rate if rate > 0 else None
            on_progress(Progress(tiles_done, tiles_total, rate, eta, len(result.failed)))

    _follow(_submit(job, client, todo, "chunk"), manifest, result, progress, canceled, client)
    if job.vector_chunks and not result.failed:
        missing = [c for c in chunks if not vector_done(job, c)]  # done by a run without --vector
        _follow(_submit(job, client, missing, "vector"), manifest, result, progress, canceled, client)
    result.seconds = time.perf_counter() - started
    if not result.failed:
        mosaic = os.path.join(job.output_dir, MOSAIC)
        classes = plan_heads(model).primary.classes
        result.mosaic_path = build_mosaic(mosaic, [job.chunk_path(c) for c in chunks], job.grid, classes)
        if vector is not None:
            result.vector = publish_vectors(job, mosaic, vector, canceled)
    run_entry.update(
        seconds=round(result.seconds, 3),
        chunks_run=result.chunks_run,
        chunks_failed=len(result.failed),
        tiles_per_s=round(result.tiles_per_s, 3),
    )
    manifest.save()
    return result


def _start(job: ScaleJob, manifest: Manifest, chunk_count: int, todo: list[Chunk]) -> dict[str, Any]:
    """Prepare the folder and the manifest for this invocation; its entry in ``runs``."""
    os.makedirs(os.path.join(job.output_dir, CHUNKS_DIR), exist_ok=True)
    mosaic = os.path.join(job.output_dir, MOSAIC)
    if todo and os.path.exists(mosaic):
        os.remove(mosaic)  # a mosaic is only ever there when complete
    for chunk in todo:
        manifest.record(chunk.name, state=PENDING, tiles=len(chunk.tiles), error=None)
    run_entry = {
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "chunks_skipped": chunk_count - len(todo),
    }
    manifest.data.setdefault("runs", []).append(run_entry)
    manifest.save()
    return run_entry


def _submit(job: ScaleJob, client: Any, todo: list[Chunk], kind: str) -> dict[Any, Chunk]:
    """One task per chunk running the worker's entry ``kind`` (``chunk`` or ``vector``); future -> chunk.

    Each task is a JSON string (:func:`~.worker.task_payload`), never a pickle of ours.
    """
    if not todo:
        return {}
    token = uuid.uuid4().hex[:8]
    ship_by_value()
    payloads = [task_payload(kind, job, chunk) for chunk in todo]
    keys = [f"flair-{kind}-{c.name}-{token}" for c in todo]
    resources = _resources(job, client) if kind == "chunk" else None  # vectorising needs no GPU
    futures = client.map(chunk_task(), payloads, pure=False, key=keys, resources=resources)
    return dict(zip(futures, todo))


def _follow(
    pending: dict[Any, Chunk],
    manifest: Manifest,
    result: ScaleResult,
    progress: Callable[[int], None],
    is_canceled: Callable[[], bool],
    client: Any,
) -> None:
    """Record each chunk as it ends, until none is left or the user cancels."""
    while pending:
        if is_canceled():
            client.cancel(list(pending))
            manifest.save()
            raise Canceled()
        # Not done(): a result held by a worker that died is "lost" and Dask computes it again.
        finished = [f for f in pending if f.status in _FINAL]
        if not finished:
            time.sleep(_POLL_S)
            continue
        tiles = 0
        for future in finished:
            status = future.status  # read once: a worker dying now turns "finished" into "lost"
            if status not in _FINAL:
                continue  # lost with its worker since the line above: Dask computes it again
            chunk = pending.pop(future)
            tiles += _record(manifest, result, chunk, future, status)
        manifest.save(every_s=_SAVE_EVERY_S)
        progress(tiles)


def _resources(job: ScaleJob, client: Any) -> dict[str, int] | None:
    """``{"GPU": 1}`` for CUDA runs on a cluster whose workers declare GPUs, else None.

    Workers started with ``--resources GPU=1`` (one per GPU) then run one chunk at a time each,
    and chunks never land on CPU-only workers of the same cluster.
    """
    if job.request.device != "cuda":
        return None
    workers = client.scheduler_info(n_workers=-1).get("workers", {})
    return {"GPU": 1} if any(w.get("resources", {}).get("GPU") for w in workers.values()) else None


def _record(manifest: Manifest, result: ScaleResult, chunk: Chunk, future: Any, status: str) -> int:
    """Put a finished future's outcome into the manifest and the result; the tiles it finished.

    A result lost with its worker after it finished is recomputed by Dask inside ``result()``.
    A chunk vectorised on its own (:class:`~.vector.ChunkPolygons`) only gains its count; if that
    fails the chunk stays done and the failure is reported (a resume vectorises it again).
    """
    name = chunk.name
    if status == "finished":
        done: ChunkResult | ChunkPolygons = future.result()
        manifest.record(name, **done.manifest_fields(), error=None)
        if not isinstance(done, ChunkResult):
            return 0  # a vectorisation of a chunk done earlier
        manifest.record_worker(done.worker, done.worker_fields())
        result.chunks_run += 1
        result.tiles_run += done.tiles
        result.providers[done.worker] = done.provider
        for warning in done.warnings:
            if warning not in result.warnings:
                result.warnings.append(warning)
        return len(chunk.tiles)
    error = future.exception() if status == "error" else None
    if error is None:
        text = f"chunk {status}"
    elif type(error).__name__ == ChunkError.__name__:  # by-value class: compare names, not identity
        text = str(error)
    else:  # a worker lost too often (KilledWorker), a cluster error
        text = f"{type(error).__name__}: {error}"
    if manifest.chunks.get(name, {}).get("state") == DONE:
        text = f"vectorising: {text}"
        manifest.record(name, error=text[:1000])
    else:
        manifest.record(name, state=FAILED, error=text[:1000])
    result.failed[name] = text
    return 0
