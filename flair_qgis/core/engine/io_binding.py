"""onnxruntime IO binding with output buffers reused batch after batch.

:class:`BoundSession` answers ``run(names, feeds)`` like an ``InferenceSession``, so
:func:`.sessions.run_batch` and the tile pipeline use it unchanged. The first batch of each input
shape lets onnxruntime allocate its outputs (their shapes are then known); later batches of that
shape are written straight into a ring of preallocated host arrays, so no output is allocated per
batch and, on CUDA, outputs are copied from the device into memory that is already mapped.

The ring is long enough for every batch still in the pipeline's queues: a returned array is
never overwritten before the writer is done with it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .stages import QUEUE_ITEMS

#: Batches whose outputs may be alive at once: the processed queue, the one the writer holds, the
#: one waiting to be queued, and the one being computed.
RING = QUEUE_ITEMS + 3


class BoundSession:
    """``session.run`` through IO binding, with reused output buffers.

    Args:
        session: an onnxruntime ``InferenceSession``.
        ring: buffer sets per input shape (see :data:`RING`).
    """

    def __init__(self, session: Any, ring: int = RING) -> None:
        self.session = session
        self.binding = session.io_binding()
        self.ring = ring
        self.buffers: dict[tuple, list[list[np.ndarray]]] = {}
        self.shapes: dict[tuple, list[tuple[tuple[int, ...], np.dtype]]] = {}
        self.turn: dict[tuple, int] = {}

    def get_providers(self) -> list[str]:
        return self.session.get_providers()

    def _buffers(self, key: tuple) -> list[np.ndarray] | None:
        """The next buffer set of this shape in the ring (made on first use), or None on its first batch."""
        sets = self.buffers.get(key)
        if sets is None:
            return None
        turn = self.turn[key]
        self.turn[key] = (turn + 1) % self.ring
        if turn == len(sets):
            sets.append([np.empty(shape, dtype) for shape, dtype in self.shapes[key]])
        return sets[turn]

    def run(self, names: Sequence[str], feeds: Mapping[str, np.ndarray]) -> list[np.ndarray]:
        """Run the model on ``feeds`` (host arrays); returns the outputs ``names``, in order."""
        io = self.binding
        io.clear_binding_inputs()
        io.clear_binding_outputs()
        arrays = {name: np.ascontiguousarray(value) for name, value in feeds.items()}
        for name, value in arrays.items():
            io.bind_cpu_input(name, value)
        key = (tuple(names), *((name, value.shape, value.dtype.str) for name, value in arrays.items()))
        buffers = self._buffers(key)
        if buffers is None:
            for name in names:
                io.bind_output(name, "cpu")
            self.session.run_with_iobinding(io)
            outputs = io.copy_outputs_to_cpu()
            self.shapes[key] = [(o.shape, o.dtype) for o in outputs]
            self.buffers[key], self.turn[key] = [], 0
            return list(outputs)
        for name, buffer in zip(names, buffers):
            io.bind_output(name, "cpu", 0, buffer.dtype.type, list(buffer.shape), buffer.ctypes.data)
        self.session.run_with_iobinding(io)
        return buffers
