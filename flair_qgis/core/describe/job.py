"""One description, start to end: read the model's graph, check the description against it, write a
copy of the model with the metadata, read the copy back with the engine.

Both shells (``flair:describe_model`` and the dock's "Describe this model…") build a
:class:`DescribeRequest` and call :func:`describe`::

    result = describe(DescribeRequest("plain.onnx", "plain_described.onnx", description("flair1")))
    result.guessed  # frozenset(): nothing left to guess

The original file is only read: the copy is written under a temporary name beside ``output_path``
and renamed into place once the engine has read it back (streamed with its new metadata,
:mod:`.wire`, the tensors never re-encoded); a failure or a cancel
(``describe(request, is_canceled, on_progress)``) leaves no copy. Tensors a model keeps in external data
files are copied into the one output file.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from ..atomic import JobOutputs, check_output_path, job_outputs, write_atomic
from ..engine import ModelInfo
from ..errors import Canceled, InputError, ModelError
from ..paths import same_path
from .model_file import CopyWriter, check_readable, file_sha256, load_model, serialise
from .values import Description

DESCRIBED_KEY = "described"
"""Metadata key recording where a described copy comes from (source file, its SHA-256, preset)."""

_SPELLINGS = {
    "classes": ("classes", "class_names"),
    "mean": ("mean", "std", "standardization_mean", "standardization_std"),
    "bands": ("bands",),
    "resolution_cm": ("resolution", "resolution_cm"),
    "tile_size": ("tile_size", "tiles_size"),
}
"""Each key a description writes, and every key of the original that says the same thing another way."""


@dataclass(frozen=True)
class DescribeRequest:
    """What the user asks: describe ``model_path`` as ``description`` into ``output_path``.

    Attributes:
        model_path: the ONNX model (only read).
        output_path: the described copy to write (never ``model_path``).
        description: what the copy declares (:func:`.values.description`).
    """

    model_path: str
    output_path: str
    description: Description


@dataclass(frozen=True)
class DescribeResult:
    """What was written.

    Attributes:
        output_path: the described copy.
        sha256: its SHA-256.
        source_sha256: the SHA-256 of the original (unchanged) model.
        metadata: the keys written or replaced, as JSON strings.
        model: the copy as the engine reads it.
        guessed: what the engine still guesses for the copy (empty when fully described).
    """

    output_path: str
    sha256: str
    source_sha256: str
    metadata: dict[str, str] = field(default_factory=dict)
    model: ModelInfo | None = None
    guessed: frozenset[str] = frozenset()

    def remove_outputs(self) -> tuple[str, ...]:
        """Delete the copy (a cancel that came after the job returned); returns the paths deleted."""
        outputs = JobOutputs()
        outputs.add(self.output_path)
        return outputs.remove()


@dataclass(frozen=True)
class GraphShape:
    """What the graph itself says: the input name, its band count and tile edge, the first output's
    channel count (None where a dimension is symbolic or unknown)."""

    input_name: str
    channels: int | None
    tile_px: int | None
    output_channels: int | None


def check_output(model_path: str, output_path: str) -> str:
    """Refuse an output that is missing, is the model, or cannot be written; return its absolute path.

    Raises:
        InputError: no OUTPUT, OUTPUT is MODEL, or its folder cannot be written.
    """
    if not output_path:
        raise InputError.of("describe_no_output")
    if same_path(model_path, output_path):
        raise InputError.of("describe_output_is_model")
    return check_output_path(output_path, "described model")


def describe(
    request: DescribeRequest,
    is_canceled: Callable[[], bool] = lambda: False,
    on_progress: Callable[[float], None] = lambda percent: None,
) -> DescribeResult:
    """Write a copy of ``request.model_path`` that declares ``request.description``.

    Args:
        request: the model, the copy to write and what it declares.
        is_canceled: polled between the steps and the pieces of the hash and the copy, once more at the end.
        on_progress: percent done, 0 to 100.

    Raises:
        InputError: OUTPUT missing, the model itself or not writable; a description that does not
            fit the graph (band, class or tile counts, each named).
        ModelError: the model is not a readable ONNX file (or its external data is missing), has
            several inputs, is too large for one file, or the engine refuses the copy's metadata.
        Canceled: ``is_canceled`` answered True; the copy, if it was written, is removed (``removed``).
    """
    output = check_output(request.model_path, request.output_path)
    with job_outputs(is_canceled) as outputs:
        check_readable(request.model_path)
        _step(is_canceled, on_progress, 5.0)
        model, external = load_model(request.model_path)
        _step(is_canceled, on_progress, 40.0)
        file = os.path.basename(request.model_path)
        written = metadata_entries(request.description, graph_shape(model, file), _metadata(model), file)
        source_sha256 = file_sha256(request.model_path, is_canceled)
        _step(is_canceled, on_progress, 55.0)
        written[DESCRIBED_KEY] = json.dumps(
            {"source": file, "source_sha256": source_sha256, "preset": request.description.preset or None}
        )
        entries = _entries(model, written)
        # Tensors kept in external files are embedded: only then is the whole model re-encoded.
        payload = serialise(model, entries, file) if external else None
        del model  # from here on the copy streams from the file: a large model is not held twice
        _step(is_canceled, on_progress, 70.0)
        copy = CopyWriter(request.model_path, entries, payload, is_canceled)
        write_atomic(output, copy.write_and_read, suffix=".onnx")
        outputs.add(output)
        on_progress(100.0)
    info = replace(copy.info, path=output)  # read under its temporary name
    return DescribeResult(
        output_path=output,
        sha256=copy.sha256,
        source_sha256=source_sha256,
        metadata=written,
        model=info,
        guessed=info.guessed,
    )


def _step(is_canceled: Callable[[], bool], on_progress: Callable[[float], None], percent: float) -> None:
    """A step done: stop here on a cancel, else say how far the job is."""
    if is_canceled():
        raise Canceled()
    on_progress(percent)


def _entries(model: Any, written: dict[str, str]) -> list[tuple[str, str]]:
    """The copy's metadata: the original's other keys kept (those that would contradict ``written``
    dropped), then ``written``."""
    dropped = _dropped(written)
    kept = [(p.key, p.value) for p in model.metadata_props if p.key not in written and p.key not in dropped]
    return [*kept, *sorted(written.items())]


def _metadata(model: Any) -> dict[str, str]:
    return {p.key: p.value for p in model.metadata_props}


def _dimension(dim: Any) -> int | None:
    return dim.dim_value if dim.HasField("dim_value") and dim.dim_value > 0 else None


def graph_shape(model: Any, file: str) -> GraphShape:
    """The input's and first output's sizes the graph declares (an initializer is not an input).

    Raises:
        ModelError: several inputs.
    """
    weights = {t.name for t in model.graph.initializer}
    inputs = [i for i in model.graph.input if i.name not in weights]
    if len(inputs) != 1:
        raise ModelError.of("describe_multi_input", file=file, count=len(inputs))
    dims = list(inputs[0].type.tensor_type.shape.dim)
    out = list(model.graph.output[0].type.tensor_type.shape.dim) if model.graph.output else []
    return GraphShape(
        input_name=inputs[0].name,
        channels=_dimension(dims[1]) if len(dims) == 4 else None,
        tile_px=_dimension(dims[2]) if len(dims) == 4 else None,
        output_channels=_dimension(out[1]) if len(out) == 4 else None,
    )


def _fit(values: tuple, count: int | None, what: str, file: str) -> list:
    """``values`` for ``count`` bands: one value repeated, or exactly ``count`` of them."""
    if count is not None and len(values) == 1 and count > 1:
        return list(values) * count
    if count is not None and len(values) != count:
        raise InputError.of("describe_band_mismatch", file=file, channels=count, what=what, count=len(values))
    return list(values)


def metadata_entries(described: Description, shape: GraphShape, existing: dict[str, str], file: str) -> dict[str, str]:
    """The metadata keys (JSON strings) that declare ``described`` for a graph of ``shape``.

    Raises:
        InputError: band, mean or std counts that are not the input's band count; a class count
            that is not the output's channel count; a tile size the fixed input refuses.
    """
    channels = shape.channels or (len(described.bands) if described.bands else None)
    if channels is None and described.mean:
        channels = max(len(described.mean), len(described.std))
    entry: dict[str, Any] = {}
    if described.bands:
        entry["bands"] = _fit(described.bands, shape.channels, "BANDS", file)
    if described.mean:
        entry["mean"] = _fit(described.mean, channels, "MEAN", file)
        entry["std"] = _fit(described.std, channels, "STD", file)
    if described.resolution_cm:
        entry["resolution_cm"] = described.resolution_cm
    written = _input_entries(entry, described.modality, shape.input_name, existing)
    if described.classes:
        written.update(_class_entries(described, shape, existing, file))
    if described.tile_size_px:
        if shape.tile_px and described.tile_size_px != shape.tile_px:
            raise InputError.of("describe_tile_mismatch", file=file, fixed=shape.tile_px, tile=described.tile_size_px)
        written["tile_size"] = json.dumps(described.tile_size_px)
    if described.description and "description" not in existing:
        written["description"] = json.dumps(described.description)
    return written


def _input_entries(entry: dict[str, Any], modality: str, name: str, existing: dict[str, str]) -> dict[str, str]:
    """The input's keys: top-level (``bands``, ``mean``...), or one ``inputs`` entry for a modality or a
    model that already declares its inputs that way (its other fields kept)."""
    if not entry:
        return {}
    declared = _json_list(existing.get("inputs"))
    if not modality and not declared:
        return {key: json.dumps(value) for key, value in entry.items()}
    old = next((d for d in declared if isinstance(d, dict) and d.get("name") == name), None)
    old = old if old is not None else (declared[0] if len(declared) == 1 and isinstance(declared[0], dict) else {})
    merged = {**old, "name": name, **entry, **({"modality": modality} if modality else {})}
    return {"inputs": json.dumps([merged])}


def _class_entries(described: Description, shape: GraphShape, existing: dict[str, str], file: str) -> dict[str, str]:
    """``classes`` (and ``outputs`` without the first head's own classes, which would win over them)."""
    count, channels = len(described.classes), shape.output_channels
    fits = channels is None or count == channels or (channels == 1 and count in (1, 2))
    if not fits:
        raise InputError.of("describe_class_mismatch", file=file, channels=channels, count=count)
    written = {"classes": json.dumps([{"value": c.value, "name": c.name, "color": c.color} for c in described.classes])}
    outputs = _json_list(existing.get("outputs"))
    if outputs and isinstance(outputs[0], dict) and "classes" in outputs[0]:
        written["outputs"] = json.dumps([{k: v for k, v in outputs[0].items() if k != "classes"}, *outputs[1:]])
    return written


def _dropped(written: dict[str, str]) -> set[str]:
    """Keys of the original that would contradict what is written (Deepness spellings, the old ones)."""
    declared = set(written) | set(json.loads(written["inputs"])[0] if "inputs" in written else ())
    return {key for what, spellings in _SPELLINGS.items() if what in declared for key in spellings}


def _json_list(raw: str | None) -> list:
    try:
        value = json.loads(raw) if raw else []
    except ValueError:
        return []
    return value if isinstance(value, list) else []
