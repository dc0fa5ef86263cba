"""core.engine.stages: three overlapping stages, in order, stopped by a cancel or by the first error."""

from __future__ import annotations

import threading

import pytest

from flair_qgis.core.engine.stages import ignore_progress, never_canceled, ordered_map, run_stages
from flair_qgis.core.errors import Canceled


def _numbers(count: int):
    def produce(stop: threading.Event):
        for i in range(count):
            if stop.is_set():
                return
            yield i

    return produce


def test_every_item_goes_through_the_three_stages_in_order():
    seen: list[int] = []
    threads: set[str] = set()

    def consume(value: int) -> None:
        threads.add(threading.current_thread().name)
        seen.append(value)

    run_stages(_numbers(50), lambda i: i * i, consume, is_canceled=never_canceled, name="t")
    assert seen == [i * i for i in range(50)]
    assert threads == {"t-consume"}


def test_consumer_context_is_entered_and_left_in_the_consumer_thread():
    events: list[tuple[str, str]] = []

    class Context:
        def __enter__(self):
            events.append(("enter", threading.current_thread().name))

        def __exit__(self, *exc):
            events.append(("exit", threading.current_thread().name))

    run_stages(_numbers(3), str, lambda _: None, is_canceled=never_canceled, consumer_context=Context, name="c")
    assert events == [("enter", "c-consume"), ("exit", "c-consume")]


def test_cancel_stops_before_the_next_item():
    processed: list[int] = []

    def process(i: int) -> int:
        processed.append(i)
        return i

    with pytest.raises(Canceled):
        run_stages(_numbers(1000), process, lambda _: None, is_canceled=lambda: len(processed) >= 5)
    assert len(processed) == 5


@pytest.mark.parametrize("stage", ["produce", "process", "consume"])
def test_the_first_error_of_any_stage_is_raised_after_every_thread_stopped(stage):
    def produce(stop):
        for i in range(100):
            if stage == "produce" and i == 7:
                raise ValueError("produce failed")
            yield i

    def process(i):
        if stage == "process" and i == 7:
            raise ValueError("process failed")
        return i

    def consume(i):
        if stage == "consume" and i == 7:
            raise ValueError("consume failed")

    before = threading.active_count()
    with pytest.raises(ValueError, match=f"{stage} failed"):
        run_stages(produce, process, consume, is_canceled=never_canceled)
    assert threading.active_count() == before


def test_default_hooks():
    assert never_canceled() is False
    assert ignore_progress(50.0) is None


def _opened_per_thread(log: list[str]):
    import contextlib

    @contextlib.contextmanager
    def open_worker():
        name = threading.current_thread().name
        log.append(f"open {name}")
        yield name
        log.append(f"close {name}")

    return open_worker


@pytest.mark.parametrize("workers", [1, 3])
def test_ordered_map_yields_in_item_order_with_a_state_per_thread(workers):
    import random

    log: list[str] = []
    taken = threading.Semaphore(0)

    def work(state: str, item: int) -> tuple[int, str]:
        # Later items often finish first; the order must still be the items'.
        threading.Event().wait(random.Random(item).random() / 500)
        taken.release()
        return item, state

    results = list(ordered_map(range(40), _opened_per_thread(log), work, workers=workers, stop=threading.Event()))
    assert [item for item, _ in results] == list(range(40))
    states = {state for _, state in results}
    assert len(states) <= workers and all(f"open {s}" in log and f"close {s}" in log for s in states)
    assert len([line for line in log if line.startswith("open")]) == workers


def test_ordered_map_takes_at_most_ahead_items_not_yet_yielded():
    taken: list[int] = []
    gate = threading.Lock()

    def items():
        for i in range(20):
            with gate:
                taken.append(i)
            yield i

    stream = ordered_map(items(), _opened_per_thread([]), lambda s, i: i, workers=3, stop=threading.Event(), ahead=4)
    assert next(stream) == 0
    threading.Event().wait(0.2)  # the workers fill every slot, then wait
    with gate:
        assert len(taken) <= 1 + 4
    assert list(stream) == list(range(1, 20))


def test_ordered_map_raises_the_first_worker_error():
    def work(state: str, item: int) -> int:
        if item == 7:
            raise ValueError("bad tile")
        return item

    with pytest.raises(ValueError, match="bad tile"):
        list(ordered_map(range(30), _opened_per_thread([]), work, workers=2, stop=threading.Event()))


def test_ordered_map_stops_when_asked():
    stop = threading.Event()
    seen = []
    for item in ordered_map(range(1000), _opened_per_thread([]), lambda s, i: i, workers=2, stop=stop):
        seen.append(item)
        if item == 5:
            stop.set()
    assert seen[:6] == list(range(6)) and len(seen) < 1000
