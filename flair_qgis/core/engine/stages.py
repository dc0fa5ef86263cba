"""Three stages at once: a producer thread, the calling thread, a consumer thread.

The tile pipeline of :mod:`~flair_qgis.core.segment` and the sample pipeline of
:mod:`~flair_qgis.core.benchmark` share this shape: the producer reads and normalises (GDAL
releases the GIL), the calling thread runs onnxruntime (which releases it too), the consumer
post-processes and writes. Queues of a few items bound memory, whatever the number of items.
"""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

import numpy as np

from ..errors import Canceled

T = TypeVar("T")
R = TypeVar("R")

_END = object()
QUEUE_ITEMS = 2


# The cancel/progress convention of every core run: keyword-only ``is_canceled`` (polled between
# items; True stops the run, which raises Canceled and leaves nothing written) and ``on_progress``
# (receives 0..100), both plain callables defaulting to these two, never None.
def never_canceled() -> bool:
    """The default ``is_canceled``: the run is never canceled."""
    return False


def ignore_progress(_percent: float) -> None:
    """The default ``on_progress``: progress is not reported."""
    return None


def _until_end(q: queue.Queue) -> Iterator[Any]:
    while True:
        item = q.get()
        if item is _END:
            return
        yield item


def run_stages(
    produce: Callable[[threading.Event], Iterable[T]],
    process: Callable[[T], R],
    consume: Callable[[R], None],
    *,
    is_canceled: Callable[[], bool],
    consumer_context: Callable[[], contextlib.AbstractContextManager[Any]] | None = None,
    name: str = "flair",
) -> None:
    """Run ``consume(process(item))`` for every item ``produce`` yields, the three overlapping.

    Args:
        produce: runs in its own thread; yields items and should stop early once the event it
            receives is set (a cancel or an error elsewhere).
        process: runs in the calling thread (where the onnxruntime session lives).
        consume: runs in its own thread, inside ``consumer_context()`` when given (to open and
            close outputs in the thread that writes them).
        is_canceled: polled before each item is processed.
        name: prefix of the thread names.

    Raises:
        Canceled: ``is_canceled`` answered True; the consumer saw no further item.
        BaseException: the first error raised by any stage, after every thread has stopped.
    """
    stages = _Stages(produce, consume, consumer_context)
    threads = [
        threading.Thread(target=stages.producer, name=f"{name}-produce", daemon=True),
        threading.Thread(target=stages.consumer, name=f"{name}-consume", daemon=True),
    ]
    for thread in threads:
        thread.start()
    canceled = False
    try:
        for item in _until_end(stages.produced):
            if stages.stop.is_set():
                continue
            if is_canceled():
                canceled = True
                stages.stop.set()
                continue
            stages.processed.put(process(item))
    except BaseException:
        stages.stop.set()
        raise
    finally:
        stages.processed.put(_END)
        threads[1].join()
        stages.drain_producer(threads[0])
    if stages.errors:
        raise stages.errors[0]
    if canceled:
        raise Canceled()


class _Stages:
    """The queues, the stop flag and the two thread bodies of :func:`run_stages`."""

    def __init__(
        self,
        produce: Callable[[threading.Event], Iterable[Any]],
        consume: Callable[[Any], None],
        consumer_context: Callable[[], contextlib.AbstractContextManager[Any]] | None,
    ) -> None:
        self.produce = produce
        self.consume = consume
        self.consumer_context = consumer_context
        self.stop = threading.Event()
        self.errors: list[BaseException] = []
        self.produced: queue.Queue = queue.Queue(maxsize=QUEUE_ITEMS)
        self.processed: queue.Queue = queue.Queue(maxsize=QUEUE_ITEMS)

    def producer(self) -> None:
        try:
            for item in self.produce(self.stop):
                if self.stop.is_set():
                    return
                self.produced.put(item)
        except BaseException as err:  # handed to the calling thread, re-raised there
            self.errors.append(err)
            self.stop.set()
        finally:
            self.produced.put(_END)

    def consumer(self) -> None:
        context = self.consumer_context
        try:
            with context() if context is not None else contextlib.nullcontext():
                for result in _until_end(self.processed):
                    if not self.stop.is_set():
                        self.consume(result)
        except BaseException as err:
            self.errors.append(err)
            self.stop.set()
            while self.processed.get() is not _END:  # drain so the calling thread never blocks
                pass

    def drain_producer(self, thread: threading.Thread) -> None:
        """Unblock a producer waiting on a full queue, then wait for it."""
        while thread.is_alive():
            try:
                self.produced.get(timeout=0.05)
            except queue.Empty:
                pass
        thread.join()


def ordered_map(
    items: Iterable[T],
    open_worker: Callable[[], contextlib.AbstractContextManager[Any]],
    work: Callable[[Any, T], R],
    *,
    workers: int,
    stop: threading.Event,
    ahead: int | None = None,
    name: str = "flair-read",
) -> Iterator[R]:
    """``work(state, item)`` for every item on ``workers`` threads, results yielded in item order.

    Each thread enters its own ``open_worker()`` (GDAL handles are not shared across threads) and
    keeps it for all its items. Items are taken in order, so the oldest item not yet yielded is
    always being worked on; at most ``ahead`` items (default twice the workers) are taken and not
    yet yielded, which bounds memory whatever the number of items.

    Args:
        items: consumed under a lock, one at a time, by the worker threads.
        open_worker: the per-thread state's context manager, entered in that thread.
        work: runs in a worker thread.
        workers: threads; 1 runs everything in the calling thread.
        stop: set elsewhere to stop early (the generator then ends).
        ahead: bound on items taken and not yet yielded.
        name: prefix of the thread names.

    Raises:
        BaseException: the first error of a worker, once the others stopped.
    """
    if workers <= 1:
        with open_worker() as state:
            for item in items:
                if stop.is_set():
                    return
                yield work(state, item)
        return
    pool = _OrderedPool(items, open_worker, work, workers, ahead or 2 * workers, stop)
    threads = [threading.Thread(target=pool.worker, name=f"{name}-{i}", daemon=True) for i in range(workers)]
    for thread in threads:
        thread.start()
    try:
        yield from pool.results()
    finally:
        pool.closing.set()
        for thread in threads:
            thread.join()


class _OrderedPool:
    """The shared state of :func:`ordered_map`: the item iterator, the results by index, the slots."""

    def __init__(
        self,
        items: Iterable[Any],
        open_worker: Callable[[], contextlib.AbstractContextManager[Any]],
        work: Callable[[Any, Any], Any],
        workers: int,
        ahead: int,
        stop: threading.Event,
    ) -> None:
        self.items = iter(items)
        self.open_worker, self.work, self.workers, self.stop = open_worker, work, workers, stop
        self.take_lock = threading.Lock()
        self.changed = threading.Condition()
        self.slots = threading.Semaphore(ahead)
        self.closing = threading.Event()
        self.taken = 0
        self.exhausted = False
        self.done: dict[int, Any] = {}
        self.errors: list[BaseException] = []
        self.finished = 0

    def _take(self) -> tuple[int, Any] | None:
        with self.take_lock:
            if self.exhausted:
                return None
            try:
                item = next(self.items)
            except StopIteration:
                self.exhausted = True
                return None
            self.taken += 1
            return self.taken - 1, item

    def _halted(self) -> bool:
        return self.stop.is_set() or self.closing.is_set()

    def worker(self) -> None:
        try:
            with self.open_worker() as state:
                while not self._halted():
                    if not self.slots.acquire(timeout=0.05):
                        continue
                    taken = self._take()
                    if taken is None:
                        return
                    result = self.work(state, taken[1])
                    with self.changed:
                        self.done[taken[0]] = result
                        self.changed.notify_all()
        except BaseException as err:  # handed to the consuming generator, re-raised there
            with self.changed:
                self.errors.append(err)
            self.closing.set()
        finally:
            with self.changed:
                self.finished += 1
                self.changed.notify_all()

    def results(self) -> Iterator[Any]:
        index = 0
        while True:
            with self.changed:
                while index not in self.done and not self.errors and self.finished < self.workers:
                    if self.stop.is_set():
                        return
                    self.changed.wait(timeout=0.05)
                if self.errors:
                    raise self.errors[0]
                if index not in self.done:
                    return  # every worker ended: the items are exhausted
                result = self.done.pop(index)
            self.slots.release()
            index += 1
            yield result


def normalisation(mean: Sequence[float], std: Sequence[float]) -> tuple[np.ndarray, np.ndarray]:
    """Per-channel ``(scale, offset)`` so that ``(pixel - mean) / std == pixel * scale + offset``.

    Shared by the tile pipeline and the benchmark: the model's normalisation as one fused
    multiply-add in float32 (``np.multiply(data, scale, out=..., casting="unsafe"); out += offset``).

    Returns:
        Two float32 arrays of shape ``(channels, 1, 1)``.
    """
    std_f = np.asarray(std, dtype=np.float32)
    scale = (1.0 / std_f)[:, None, None]
    offset = (-np.asarray(mean, dtype=np.float32) / std_f)[:, None, None]
    return scale, offset
