"""Output shapes that no shape inference finds, read from one probe tile.

onnxruntime infers the shapes of a model's outputs when it loads it (what
:func:`.model.read_model_info` reads), whatever the file declares. Some graphs hide them from
any inference: a channel count computed at run time (a ``Reshape`` or ``Slice`` fed by the data),
an output whose rank nothing states. For those, the model is run once on a small tile of zeros
and the shapes it returns fill the unknown ranks and channel counts; the other dims stay as
inferred. A model that cannot run the probe keeps its unknown dims (the run then post-processes
that head on the host, :mod:`.wrapped_graph`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

#: Edge of the probe tile where an input's size is not fixed: small, and a multiple of 32 as
#: encoders with five poolings need.
PROBE_TILE_PX = 64

Shape = list[Any]


def _known(dim: Any) -> bool:
    return isinstance(dim, int) and dim > 0


def needs_probe(graph_outputs: Sequence[tuple[str, Shape, str]]) -> bool:
    """True when some output has no rank, or a rank 2 or 4 whose channel axis is unknown."""
    return any(len(shape) == 0 or (len(shape) in (2, 4) and not _known(shape[1])) for _n, shape, _d in graph_outputs)


def _probe_feeds(graph_inputs: Sequence[tuple[str, Shape, str]]) -> dict[str, np.ndarray] | None:
    """A tile of zeros per input, of its fixed dims where it has them; None when an input's
    rank or channel count is unknown (no tile can be made for it)."""
    feeds = {}
    for name, shape, dtype in graph_inputs:
        if len(shape) != 4 or not _known(shape[1]):
            return None
        dims = [shape[0] if _known(shape[0]) else 1, shape[1]]
        dims += [d if _known(d) else PROBE_TILE_PX for d in shape[2:]]
        feeds[name] = np.zeros(dims, dtype=dtype)
    return feeds


def probed_outputs(
    session: Any, graph_inputs: Sequence[tuple[str, Shape, str]], graph_outputs: Sequence[tuple[str, Shape, str]]
) -> list[tuple[str, Shape, str]]:
    """``graph_outputs`` with the ranks and channel counts a probe tile shows filled in.

    Args:
        session: the model's onnxruntime session.
        graph_inputs, graph_outputs: ``(name, shape, dtype)`` as onnxruntime infers them.

    Returns:
        The outputs: as given when no probe is needed or the probe fails; else each unknown rank
        and channel count replaced by the probe's (other dims stay symbolic).
    """
    feeds = _probe_feeds(graph_inputs) if needs_probe(graph_outputs) else None
    if feeds is None:
        return list(graph_outputs)
    try:
        results = session.run([name for name, _s, _d in graph_outputs], feeds)
    except Exception:  # a model that refuses the probe keeps its unknown shapes
        return list(graph_outputs)
    probed = []
    for (name, inferred, dtype), value in zip(graph_outputs, results):
        shape = list(inferred) or ["N", *(f"{name}_dim{i}" for i in range(1, np.ndim(value)))]
        if len(shape) in (2, 4) and len(shape) == np.ndim(value) and not _known(shape[1]):
            shape[1] = int(np.shape(value)[1])
        probed.append((name, shape, dtype))
    return probed
