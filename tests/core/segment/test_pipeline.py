"""core.segment.pipeline: three overlapping stages, in order, stopped by a cancel or by the first error."""

from __future__ import annotations

import threading

import pytest

from flair_qgis.core.errors import Canceled
from flair_qgis.core.segment.pipeline import ignore_progress, never_canceled, run_stages


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
