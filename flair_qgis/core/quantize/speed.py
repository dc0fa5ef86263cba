"""INT8 against FP32 in time, on this CPU, with the threads ``flair:segment`` uses.

A speed-up measured on another machine, or with another thread count, says little: INT8's gain
depends on the CPU's instructions (VNNI, AMX) and shrinks as threads grow (onnxruntime's
maintainers: 3-4x on one thread, 1.5-2x on many). So ``flair:quantize`` times both models here,
on the held-out tiles, through sessions built exactly as ``flair:segment`` builds them
(:func:`flair_qgis.core.engine.sessions.create_session`: all cores unless told otherwise, no
spinning, sequential execution).

Timing: after a warm-up pass of each model, ``rounds`` rounds each time one pass of FP32 and one
of INT8 over the same tiles, the order swapped every round so that a load change on a shared
machine weighs on both alike. The speed-up is the median of the per-round ratios
``FP32 seconds / INT8 seconds``; the seconds reported are the medians per model.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..engine.sessions import run_batch
from ..errors import Canceled

WORTH_IT = 1.1
"""Below this INT8 / FP32 speed ratio, the INT8 model is not worth its accuracy cost: the user is told."""
TIMING_ROUNDS = 5
TIMING_BATCH = 4
"""Tiles per model call while timing: ``flair:segment``'s default BATCH_SIZE."""
SLOWER_MESSAGE = "INT8 is slower than FP32 on this CPU with {threads}: keep the FP32 model"
SLOWER_DETAIL = "INT8 ran at {speedup:.2f}x FP32 on {tiles} tile(s), less than the {worth:g}x that makes it worth it"


@dataclass(frozen=True)
class SpeedUp:
    """FP32 against INT8 timed on this CPU.

    Attributes:
        speedup: median over rounds of FP32 seconds / INT8 seconds (above 1: INT8 is faster).
        fp32_s: median seconds of one FP32 pass over the tiles.
        int8_s: median seconds of one INT8 pass.
        threads: intra-op threads of both sessions.
        tiles: tiles in one pass.
        rounds: timed rounds.
    """

    speedup: float
    fp32_s: float
    int8_s: float
    threads: int
    tiles: int
    rounds: int

    @property
    def worth_it(self) -> bool:
        """True when INT8 is at least :data:`WORTH_IT` times as fast as FP32."""
        return self.speedup >= WORTH_IT

    @property
    def warning(self) -> str:
        """The English warning when INT8 is not worth it here, else ``""``."""
        if self.worth_it:
            return ""
        threads = f"{self.threads} thread" + ("" if self.threads == 1 else "s")
        detail = SLOWER_DETAIL.format(speedup=self.speedup, tiles=self.tiles, worth=WORTH_IT)
        return f"{SLOWER_MESSAGE.format(threads=threads)} ({detail})."

    def record(self) -> dict[str, float | int]:
        """The figures written into the model's ``quantization`` metadata."""
        return {
            "speedup": round(self.speedup, 3),
            "threads": self.threads,
            "fp32_s_per_tile": round(self.fp32_s / self.tiles, 4),
            "int8_s_per_tile": round(self.int8_s / self.tiles, 4),
            "timing_tiles": self.tiles,
            "timing_rounds": self.rounds,
        }


def model_pass(session, inputs: np.ndarray, fixed_batch: int | None = None) -> Callable[[], None]:
    """One pass of a session over ``(tiles, channels, rows, cols)`` inputs, :data:`TIMING_BATCH` tiles a call."""
    input_name = session.get_inputs()[0].name
    names = [output.name for output in session.get_outputs()]

    def run() -> None:
        for start in range(0, len(inputs), TIMING_BATCH):
            run_batch(session, names, {input_name: inputs[start : start + TIMING_BATCH]}, fixed_batch)

    return run


def measure_speedup(
    run_fp32: Callable[[], None],
    run_int8: Callable[[], None],
    *,
    threads: int,
    tiles: int,
    rounds: int = TIMING_ROUNDS,
    warm_up: bool = True,
    is_canceled: Callable[[], bool] = lambda: False,
) -> SpeedUp:
    """Time FP32 against INT8, alternated (see the module docstring).

    Args:
        run_fp32: one pass of the FP32 model over the tiles.
        run_int8: one pass of the INT8 model over the same tiles.
        threads: the sessions' intra-op threads (recorded).
        tiles: tiles in one pass (recorded).
        rounds: timed rounds (at least 1).
        warm_up: run each model once untimed first (False when the caller already ran them).

    Raises:
        Canceled: the user canceled.
    """
    if warm_up:
        run_fp32()
        run_int8()
    seconds: dict[str, list[float]] = {"fp32": [], "int8": []}
    ratios = []
    for round_ in range(max(1, rounds)):
        order = [("fp32", run_fp32), ("int8", run_int8)]
        for name, run in order if round_ % 2 == 0 else order[::-1]:
            if is_canceled():
                raise Canceled()
            start = time.perf_counter()
            run()
            seconds[name].append(time.perf_counter() - start)
        ratios.append(seconds["fp32"][-1] / seconds["int8"][-1])
    return SpeedUp(
        speedup=statistics.median(ratios),
        fp32_s=statistics.median(seconds["fp32"]),
        int8_s=statistics.median(seconds["int8"]),
        threads=threads,
        tiles=tiles,
        rounds=max(1, rounds),
    )
