"""Benchmark: score a model on a dataset folder (FLAIR #1, FLAIR-HUB, WeedSense) with its published protocol.

Entry points: :func:`plan.plan_benchmark` checks the run before inference; :func:`runner.run_benchmark` runs it.

The names below are the package's public surface: callers outside ``core`` import them from here.
"""

from . import messages  # noqa: F401 - registers the package's message templates before any of its errors
from .datasets import LAYOUTS, ON_UNPAIRED
from .plan import BenchmarkRequest, default_samples_csv, plan_benchmark
from .report import BenchmarkReport, BenchmarkRun, FailedSample, TargetScores, WorstSample
from .runner import BenchmarkResult, run_benchmark

__all__ = [
    "LAYOUTS",
    "ON_UNPAIRED",
    "BenchmarkReport",
    "BenchmarkRequest",
    "BenchmarkResult",
    "BenchmarkRun",
    "FailedSample",
    "TargetScores",
    "WorstSample",
    "default_samples_csv",
    "plan_benchmark",
    "run_benchmark",
]
