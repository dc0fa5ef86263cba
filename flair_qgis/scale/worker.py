"""What runs on a Dask worker: one chunk through the core engine, with one session per process.

Each task arrives as a JSON string (:func:`task_payload`: the entry's name, the
:class:`~.plan.ScaleJob` with its request whole, the chunk) and :func:`run_task` runs it; the
task function (:func:`.remote.chunk_task`) imports this module on the worker only. A worker
process keeps its onnxruntime session (keyed by model hash, device, threads, precision and graph
fusion) and its parsed model across chunks: building a session costs seconds for a large model, a
chunk's tiles only milliseconds each.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..core.engine import (
    Fusion,
    ModelInfo,
    PixelSource,
    RasterioSource,
    SessionInfo,
    WindowReader,
    cap_gdal_cache,
    from_plain,
    read_model_info,
    to_plain,
)
from ..core.errors import ModelError
from ..core.segment import SegmentPlan, plan_run, run_plan, run_session
from .chunks import Chunk
from .manifest import DONE
from .plan import ScaleJob, file_sha256

_LOCK = threading.Lock()
_SESSIONS: dict[tuple[Any, ...], tuple[Any, SessionInfo, Fusion]] = {}
_MODELS: dict[str, ModelInfo] = {}


class _OffsetSource:
    """A source bound to the whole run's grid, read in the pixels of one chunk.

    Reads outside the chunk come from the raster exactly as in a whole-grid run (context around
    the tile cores), which keeps chunk borders invisible, resampled inputs included.
    """

    def __init__(self, source: PixelSource, row0: int, col0: int) -> None:
        self.source = source
        self.band_count = source.band_count
        self.row0, self.col0 = row0, col0

    @contextlib.contextmanager
    def open(self) -> Iterator[WindowReader]:
        with self.source.open() as reader:
            yield _OffsetReader(reader, self.row0, self.col0)


class _OffsetReader:
    def __init__(self, reader: WindowReader, row0: int, col0: int) -> None:
        self.reader, self.row0, self.col0 = reader, row0, col0

    def read(self, row: int, col: int, rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
        return self.reader.read(row + self.row0, col + self.col0, rows, cols)


def _worker_identity() -> tuple[str, int]:
    """``(address, Dask threads)`` of the worker running this task; ``("local", cores)`` outside one."""
    try:
        from distributed import get_worker

        worker = get_worker()
    except (ImportError, ValueError):
        return "local", os.cpu_count() or 1
    state = getattr(worker, "state", worker)
    return worker.address, int(getattr(state, "nthreads", 1))


def _model(job: ScaleJob) -> ModelInfo:
    """This process's parsed model for ``job``, read on first use (after checking its file)."""
    with _LOCK:
        if job.model_sha256 not in _MODELS:
            seen = file_sha256(job.model_path)
            if seen != job.model_sha256:
                raise ModelError.of("worker_model_differs", host=socket.gethostname(), path=job.model_path)
            _MODELS[job.model_sha256] = read_model_info(job.model_path)
        return _MODELS[job.model_sha256]


def _session(job: ScaleJob, plan: SegmentPlan) -> tuple[Any, SessionInfo, Fusion]:
    """This process's session for ``job``, built on first use as the in-process engine builds it
    (:func:`flair_qgis.core.segment.run_session`: the graph wrapped with its pre- and post-processing)."""
    request = plan.request
    key = (job.model_sha256, request.device, request.threads, request.precision, request.fuse_graph)
    with _LOCK:
        if key not in _SESSIONS:
            _SESSIONS[key] = run_session(plan)
        return _SESSIONS[key]


@dataclass(frozen=True)
class ChunkResult:
    """What a chunk task did on its worker (its entry in ``run.json``).

    Attributes:
        tiles: tiles of the chunk.
        seconds: wall time of the task.
        worker: the Dask worker's address (``local`` outside one).
        host: its host name.
        pid: its process id.
        provider: the execution provider that ran.
        threads: onnxruntime threads.
        sessions_built: sessions this process has built so far.
        warnings: messages for the user.
        polygons: polygons of the chunk when the run vectorises chunks, else None.
    """

    tiles: int
    seconds: float
    worker: str
    host: str
    pid: int
    provider: str
    threads: int
    sessions_built: int
    warnings: tuple[str, ...] = ()
    polygons: int | None = None

    def manifest_fields(self) -> dict[str, Any]:
        """The chunk's fields in ``run.json`` (the order of the format)."""
        fields: dict[str, Any] = {} if self.polygons is None else {"polygons": self.polygons}
        fields.update(
            state=DONE,
            tiles=self.tiles,
            seconds=self.seconds,
            worker=self.worker,
            host=self.host,
            pid=self.pid,
            provider=self.provider,
            threads=self.threads,
            sessions_built=self.sessions_built,
            warnings=list(self.warnings),
        )
        return fields

    def worker_fields(self) -> dict[str, Any]:
        """What ``run.json`` says of the worker process under ``workers``."""
        return {
            "host": self.host,
            "pid": self.pid,
            "provider": self.provider,
            "threads": self.threads,
            "sessions_built": self.sessions_built,
        }


def run_chunk(chunk: Chunk, job: ScaleJob) -> ChunkResult:
    """Segment one chunk into its own GeoTIFF (written under a temporary name, then renamed).

    The chunk runs the job's request whole (:meth:`~.plan.ScaleJob.for_chunk`), its threads
    set to the worker's Dask threads when the run leaves them open.

    Returns:
        What the task did, for the manifest.

    Raises:
        FlairError, RasterioIOError...: the chunk failed; the driver records the error.
    """
    started = time.perf_counter()
    cap_gdal_cache()  # a Dask worker process: its GDAL cache is ours to bound
    address, dask_threads = _worker_identity()
    threads = job.request.threads or dask_threads
    request = replace(job.for_chunk(chunk), threads=threads)
    model = _model(job)
    source = _OffsetSource(RasterioSource(job.input_path, job.bands, job.grid), chunk.row0, chunk.col0)
    # The chunk's own plan (outputs, heads), run on the whole grid's tiles that fall in it.
    plan = replace(plan_run(model, [source], chunk.sub_grid(job.grid), request), tiles=chunk.tiles)
    result = run_plan(plan, session=_session(job, plan))
    polygons = _chunk_polygons(chunk, job)
    return ChunkResult(
        tiles=len(chunk.tiles),
        seconds=round(time.perf_counter() - started, 3),
        worker=address,
        host=socket.gethostname(),
        pid=os.getpid(),
        provider=result.session.provider,
        threads=threads,
        sessions_built=len(_SESSIONS),  # never evicted: every session this process built
        warnings=tuple(result.warnings),
        polygons=polygons,
    )


def _chunk_polygons(chunk: Chunk, job: ScaleJob) -> int | None:
    """Vectorise the chunk just written when the run asks for polygons (their count); else drop stale ones."""
    from .vector import chunk_vector_path, vectorize_chunk

    if job.vector_chunks:
        return vectorize_chunk(chunk, job).polygons
    stale = chunk_vector_path(job, chunk)
    if os.path.exists(stale):
        os.remove(stale)  # polygons of an older class map of this chunk must never be stitched
    return None


def _vectorize_chunk(chunk: Chunk, job: ScaleJob) -> Any:
    from .vector import vectorize_chunk

    return vectorize_chunk(chunk, job)


ENTRIES = {"chunk": run_chunk, "vector": _vectorize_chunk}
"""What a task may ask a worker to run, by name: segment a chunk, or vectorise a finished one."""


def task_payload(entry: str, job: ScaleJob, chunk: Chunk) -> str:
    """One task as a JSON string: the entry's name, the job (its request whole) and the chunk.

    Raises:
        KeyError: an entry not in :data:`ENTRIES`.
    """
    if entry not in ENTRIES:  # said here, on the driver, not once per chunk on the workers
        raise KeyError(f"no worker entry {entry!r}: one of {', '.join(ENTRIES)}")
    return json.dumps({"entry": entry, "job": to_plain(job), "chunk": to_plain(chunk)})


def run_task(payload: str) -> Any:
    """Run a task :func:`task_payload` wrote; what its entry returns.

    Raises:
        KeyError, TypeError: a payload of another version of this module.
        FlairError...: what the entry raises.
    """
    task = json.loads(payload)
    job, chunk = from_plain(ScaleJob, task["job"]), from_plain(Chunk, task["chunk"])
    return ENTRIES[task["entry"]](chunk, job)
