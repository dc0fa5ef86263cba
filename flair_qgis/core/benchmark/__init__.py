"""Benchmark: score a model on a dataset folder (FLAIR #1, FLAIR-HUB, WeedSense) with its published protocol.

Entry points: :func:`plan.plan_benchmark` checks the run before inference; :func:`runner.run_benchmark` runs it.
"""
