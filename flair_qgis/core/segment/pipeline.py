"""Three stages at once: a producer thread, the calling thread, a consumer thread.

The tile pipeline of :mod:`.segment` and the sample pipeline of :mod:`.benchmark` share this
shape: the producer reads and normalises (GDAL releases the GIL), the calling thread runs
onnxruntime (which releases it too), the consumer post-processes and writes. Queues of a few
items bound memory, whatever the number of items.
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
