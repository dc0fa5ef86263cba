"""core.engine.io_binding: IO binding with reused output buffers answers as session.run does."""

from __future__ import annotations

import numpy as np
from toy_models import conv_model

from flair_qgis.core.engine.io_binding import RING, BoundSession
from flair_qgis.core.engine.sessions import create_session


def test_bound_runs_equal_plain_runs_and_outputs_stay_valid_for_a_ring(tmp_path):
    weights = np.random.default_rng(0).normal(size=(4, 3, 3, 3)).astype(np.float32)
    session, _ = create_session(str(conv_model(tmp_path / "c.onnx", weights)), "cpu", 1)
    bound = BoundSession(session)
    kept = []
    for i in range(3 * RING):
        shape = (2, 3, 16, 16) if i % 3 else (1, 3, 24, 24)  # two shapes interleaved
        x = np.random.default_rng(i).random(shape, dtype=np.float32)
        (out,) = bound.run(["scores"], {"x": x})
        np.testing.assert_array_equal(out, session.run(["scores"], {"x": x})[0])
        kept.append((x, out))
    # The last RING - 1 outputs of each shape are still intact: none was overwritten while alive.
    for x, out in kept[-(RING - 1) :]:
        np.testing.assert_array_equal(out, session.run(["scores"], {"x": x})[0])
    assert len(bound.buffers) == 2 and all(len(sets) <= RING for sets in bound.buffers.values())
