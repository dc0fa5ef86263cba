"""The fp16 check of a run: its first tiles through the fp16 and the fp32 sessions, compared.

:func:`fp16_agreement` reads the run's first
:data:`~flair_qgis.core.engine.half_precision.VALIDATION_TILES` tiles with the run's own readers,
runs both sessions and compares the primary head's classes
(:func:`~flair_qgis.core.engine.half_precision.check_agreement`), before any output is written.
"""

from __future__ import annotations

import threading
from functools import partial
from typing import Any, cast

import numpy as np

from ..engine.half_precision import VALIDATION_TILES, check_agreement, primary_classes
from ..engine.heads import scale_factors
from ..engine.model import TASK_SEGMENTATION
from ..engine.postprocess import Postprocess
from ..engine.stages import never_canceled
from ..engine.wrapped_graph import Fusion
from .plan import SegmentPlan
from .tile_pipeline import TilePipeline


def _indices(post: Postprocess, scores: np.ndarray) -> np.ndarray:
    """A tile's class indices by the host post-processing, over the whole output."""
    return post(scores, np.s_[:, :])[0]


def fp16_agreement(plan: SegmentPlan, fp16: tuple[Any, Fusion], fp32: tuple[Any, Fusion]) -> str:
    """Compare the fp16 session with fp32 on the run's first tiles; refuse below the threshold.

    Returns:
        What the log says: the agreement, or why it was not measured (a value-map primary head).

    Raises:
        InputError: agreement below :data:`~flair_qgis.core.engine.half_precision.MIN_AGREEMENT`
            (key ``fp16_agreement``).
    """
    head = plan.heads.primary
    if head.task != TASK_SEGMENTATION:
        return "not checked: the primary output is a value map"
    tiles = list(plan.tiles[:VALIDATION_TILES])
    post = Postprocess(head, plan.model.seg_threshold, want_confidence=False)
    classes = []
    for session, fusion in (fp16, fp32):
        pipeline = TilePipeline(
            session,
            plan.model.inputs,
            plan.sources,
            scale_factors(plan.model),
            [],
            tiles,
            plan.tile_px,
            len(tiles),
            never_canceled,
            fusion=fusion,
            readers=1,
        )
        read = next(iter(pipeline.reads(threading.Event())))
        _batch, feeds, valid = cast(Any, read)  # no tile cache given (the [] above): never a CachedTile
        outputs = pipeline.infer(feeds)
        classes.append(primary_classes(outputs, head.name, partial(_indices, post)))
    if valid.shape[1:] != classes[0].shape[1:]:  # an output smaller than its input: its centre
        dr, dc = ((a - b) // 2 for a, b in zip(valid.shape[1:], classes[0].shape[1:]))
        valid = valid[:, dr : dr + classes[0].shape[1], dc : dc + classes[0].shape[2]]
    return f"agreement with fp32 {check_agreement(classes[0], classes[1], valid):.2%}"
