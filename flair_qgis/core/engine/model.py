"""ONNX model description: what a model eats and what it returns, from its metadata.

Metadata lives in the ONNX ``metadata_props`` as JSON strings; it is parsed with
:func:`json.loads`, never evaluated. Two conventions are read:

* Deepness (PUTvision/qgis-plugin-deepness): ``model_type``, ``class_names``, ``resolution``
  (cm/px), ``tiles_size``/``tile_size``, ``tiles_overlap`` (percent), ``standardization_mean``/
  ``standardization_std`` (applied after dividing pixels by 255), ``seg_thresh``.
* flair_qgis (see README, "Model metadata"): ``classes``, ``bands``, ``mean``/``std`` in pixel
  units, ``resolution_cm``, ``inputs`` and ``outputs`` lists for multi-input and multi-head
  models, ``output_activation``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import ModelError
from ..nomenclature import ClassInfo
from .metadata import binary_classes, float_list, guessed_fields, meta_json, parse_classes, static_dim
from .shape_probe import probed_outputs

TASK_SEGMENTATION = "segmentation"
TASK_REGRESSION = "regression"
TASK_CLASSIFICATION = "classification"
_TASKS = (TASK_SEGMENTATION, TASK_REGRESSION, TASK_CLASSIFICATION)
_ACTIVATIONS = ("auto", "softmax", "sigmoid", "logits", "none")

DEFAULT_TILE_SIZE_PX = 512
_ORT_TO_NUMPY = {
    "tensor(float)": "float32",
    "tensor(float16)": "float16",
    "tensor(double)": "float64",
    "tensor(uint8)": "uint8",
    "tensor(int8)": "int8",
    "tensor(int32)": "int32",
    "tensor(int64)": "int64",
}


@dataclass(frozen=True)
class InputSpec:
    """One model input.

    Normalisation is ``(pixel - mean) / std`` per channel, with ``mean`` and ``std`` in the pixel
    units of the source raster (0..255 for 8-bit imagery).

    Attributes:
        name: ONNX input name.
        channels: number of channels the model expects.
        band_names: a name per channel (``("R", "G", "B", "NIR", "ELEV")``), for band mapping.
        mean: per-channel mean, pixel units.
        std: per-channel standard deviation, pixel units.
        resolution_m: ground sampling distance the model was trained at, or None.
        tile_size_px: tile edge fixed by a static input shape, or None when dynamic.
        fixed_batch: batch size fixed by a static input shape, or None when dynamic.
        dtype: numpy dtype name of the ONNX input tensor.
        modality: free-form modality name (``AERIAL_RGBI``, ``DEM_ELEV``...).
    """

    name: str
    channels: int
    band_names: tuple[str, ...]
    mean: tuple[float, ...]
    std: tuple[float, ...]
    resolution_m: float | None = None
    tile_size_px: int | None = None
    fixed_batch: int | None = None
    dtype: str = "float32"
    modality: str = ""


@dataclass(frozen=True)
class OutputSpec:
    """One model output (head).

    Attributes:
        name: ONNX output name.
        task: ``segmentation`` (a class per pixel), ``regression`` (a value per pixel or per
            image) or ``classification`` (a class per image).
        classes: for segmentation and classification, the class written for each output index.
        rank: rank of the ONNX output tensor (4: ``(N, C, H, W)``, 3: ``(N, H, W)``,
            2: ``(N, K)``), or 0 when unknown.
        channels: size of the channel axis when static, else None.
        activation: ``softmax`` (probabilities), ``sigmoid``, ``logits`` or ``auto`` (detected).
        unit: unit of a regression output (``cm``...).
        scale: factor applied to regression values (Deepness ``reg_output_scaling``).
        dtype: numpy dtype name of the ONNX output tensor.
    """

    name: str
    task: str
    classes: tuple[ClassInfo, ...] = ()
    rank: int = 0
    channels: int | None = None
    activation: str = "auto"
    unit: str = ""
    scale: float = 1.0
    dtype: str = "float32"

    @property
    def is_per_pixel(self) -> bool:
        """True when the head predicts a map (rank 3 or 4), False for per-image heads."""
        return self.rank in (0, 3, 4)


@dataclass(frozen=True)
class ModelInfo:
    """Everything the engine and the GUI need to know about a model.

    Attributes:
        path: the ONNX file.
        model_type: Deepness-style type (``Segmentor``, ``Regressor``...) or ``Segmentor``.
        inputs: the model inputs, in ONNX order.
        outputs: the model outputs, in ONNX order.
        tile_size_px: tile edge to use by default.
        overlap_px: overlap between tiles to use by default.
        seg_threshold: probability above which a single-channel output marks its class.
        description: free text from the metadata, shown on the model card.
        metadata: the raw ``metadata_props`` strings.
        guessed: what the metadata does not declare and the engine guesses
            (:func:`.metadata.guessed_fields`: ``normalisation``, ``classes``); empty when described.
    """

    path: str
    model_type: str
    inputs: tuple[InputSpec, ...]
    outputs: tuple[OutputSpec, ...]
    tile_size_px: int
    overlap_px: int
    seg_threshold: float = 0.5
    description: str = ""
    metadata: Mapping[str, str] = field(default_factory=dict)
    guessed: frozenset[str] = frozenset()

    @property
    def input(self) -> InputSpec:
        """The first (for single-input models, the only) input."""
        return self.inputs[0]

    @property
    def display_name(self) -> str:
        """The model as a person names it: its metadata ``name``, else its file name without ``.onnx``."""
        try:
            name = meta_json(self.metadata, "name", "")
        except ModelError:
            name = ""
        if isinstance(name, str) and name.strip():
            return name.strip()
        return os.path.splitext(os.path.basename(self.path))[0]

    @property
    def resolution_m(self) -> float | None:
        """Native resolution of the first input, metres per pixel."""
        return self.inputs[0].resolution_m

    def segmentation_outputs(self) -> tuple[OutputSpec, ...]:
        """The heads that produce class maps."""
        return tuple(o for o in self.outputs if o.task == TASK_SEGMENTATION and o.is_per_pixel)


def read_model_info(path: str | os.PathLike[str]) -> ModelInfo:
    """Read an ONNX file's inputs, outputs and metadata into a :class:`ModelInfo`.

    Args:
        path: the ``.onnx`` file.

    Returns:
        The model description.

    Raises:
        ModelError: the file is missing, is not an ONNX model, or its metadata is inconsistent.
    """
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise ModelError.of("model_not_found", path=path)
    with open(path, "rb") as handle:
        head = handle.read(64)
    if head[:1] == b"\x80" or head[:2] == b"PK":
        raise ModelError.of("model_is_pickle", file=os.path.basename(path))
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    options.log_severity_level = 3
    try:
        session = ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
    except Exception as err:  # onnxruntime raises its own untyped errors for bad files
        raise ModelError.of(
            "model_not_onnx",
            file=os.path.basename(path),
            error_type=err.__class__.__name__,
            error=str(err).splitlines()[0][:200],
        ) from err
    metadata = dict(session.get_modelmeta().custom_metadata_map)
    graph_inputs = [(i.name, list(i.shape), _ORT_TO_NUMPY.get(i.type, "float32")) for i in session.get_inputs()]
    graph_outputs = [(o.name, list(o.shape), _ORT_TO_NUMPY.get(o.type, "float32")) for o in session.get_outputs()]
    graph_outputs = probed_outputs(session, graph_inputs, graph_outputs)  # shapes no inference finds
    return describe_model(path, metadata, graph_inputs, graph_outputs)


def describe_model(
    path: str,
    metadata: Mapping[str, str],
    graph_inputs: Sequence[tuple[str, list[Any], str]],
    graph_outputs: Sequence[tuple[str, list[Any], str]],
) -> ModelInfo:
    """Build a :class:`ModelInfo` from metadata strings and graph shapes (no I/O).

    Args:
        path: the model file, recorded in the result.
        metadata: ``metadata_props`` as strings.
        graph_inputs: ``(name, shape, dtype)`` per ONNX input; shape dims are ints or symbols.
        graph_outputs: ``(name, shape, dtype)`` per ONNX output.

    Returns:
        The model description.

    Raises:
        ModelError: inconsistent metadata.
    """
    model_type = str(meta_json(metadata, "model_type", "Segmentor"))
    declared = meta_json(metadata, "inputs")
    if declared is not None and not isinstance(declared, list):
        raise ModelError.of("bad_inputs_metadata")
    by_name = {d.get("name"): d for d in declared or [] if isinstance(d, Mapping)}
    inputs = []
    for index, (name, shape, dtype) in enumerate(graph_inputs):
        decl = by_name.get(name)
        if decl is None and declared and index < len(declared):
            decl = declared[index]
        inputs.append(_describe_input(metadata, name, shape, dtype, decl or {}))
    if not inputs:
        raise ModelError.of("model_without_input")
    outputs = _describe_outputs(metadata, graph_outputs, model_type)
    meta_tile = meta_json(metadata, "tile_size", meta_json(metadata, "tiles_size"))
    tile_size_px = inputs[0].tile_size_px or (int(meta_tile) if meta_tile else DEFAULT_TILE_SIZE_PX)
    overlap_percent = meta_json(metadata, "tiles_overlap", None)
    overlap_px = meta_json(metadata, "overlap_px", None)
    if overlap_px is None:
        overlap_px = round(tile_size_px * float(overlap_percent) / 100.0) if overlap_percent else tile_size_px // 8
    return ModelInfo(
        path=path,
        model_type=model_type,
        inputs=tuple(inputs),
        outputs=outputs,
        tile_size_px=int(tile_size_px),
        overlap_px=int(overlap_px),
        seg_threshold=float(meta_json(metadata, "seg_thresh", 0.5)),
        description=str(meta_json(metadata, "description", "") or ""),
        metadata=dict(metadata),
        guessed=guessed_fields(metadata, any(o.classes for o in outputs)),
    )


def _normalisation(
    metadata: Mapping[str, str], decl: Mapping[str, Any], channels: int
) -> tuple[tuple[float, ...], ...]:
    """``(mean, std)`` in pixel units: the input's own, the top-level ones, or Deepness' 0..1 ones times 255."""
    if "mean" in decl or "std" in decl:
        return float_list(decl.get("mean", 0.0), "inputs.mean", channels), float_list(
            decl.get("std", 1.0), "inputs.std", channels
        )
    if "mean" in metadata or "std" in metadata:
        return float_list(meta_json(metadata, "mean", 0.0), "mean", channels), float_list(
            meta_json(metadata, "std", 1.0), "std", channels
        )
    # Deepness: pixels / 255, then standardised with statistics in 0..1 units.
    mean01 = float_list(meta_json(metadata, "standardization_mean", 0.0), "standardization_mean", channels)
    std01 = float_list(meta_json(metadata, "standardization_std", 1.0), "standardization_std", channels)
    return tuple(m * 255.0 for m in mean01), tuple(s * 255.0 for s in std01)


def _describe_input(
    metadata: Mapping[str, str], name: str, shape: list[Any], dtype: str, decl: Mapping[str, Any]
) -> InputSpec:
    """One :class:`InputSpec` from its graph shape, its ``inputs`` entry and the top-level metadata."""
    if len(shape) != 4:
        raise ModelError.of("bad_input_shape", name=name, shape=shape)
    top_bands = meta_json(metadata, "bands", None) or []
    channels = static_dim(shape[1]) or len(decl.get("bands", [])) or len(top_bands)
    if not channels:
        raise ModelError.of("input_without_channels", name=name)
    band_names = tuple(str(b) for b in (decl.get("bands") or top_bands)) or tuple(
        f"band {i + 1}" for i in range(channels)
    )
    if len(band_names) != channels:
        raise ModelError.of("input_band_names_mismatch", name=name, channels=channels, band_count=len(band_names))
    mean, std = _normalisation(metadata, decl, channels)
    if any(s <= 0 for s in std):
        raise ModelError.of("bad_input_std", name=name, std=std)
    resolution_cm = decl.get("resolution_cm") or meta_json(metadata, "resolution_cm", meta_json(metadata, "resolution"))
    rows, cols = static_dim(shape[2]), static_dim(shape[3])
    if rows is not None and cols is not None and rows != cols:
        raise ModelError.of("input_not_square", name=name, rows=rows, cols=cols)
    return InputSpec(
        name=name,
        channels=channels,
        band_names=band_names,
        mean=mean,
        std=std,
        resolution_m=float(resolution_cm) / 100.0 if resolution_cm else None,
        tile_size_px=rows,
        fixed_batch=static_dim(shape[0]),
        dtype=dtype,
        modality=str(decl.get("modality", "")),
    )


def _describe_outputs(
    metadata: Mapping[str, str],
    graph_outputs: Sequence[tuple[str, list[Any], str]],
    model_type: str,
) -> tuple[OutputSpec, ...]:
    declared = meta_json(metadata, "outputs")
    if declared is not None and not isinstance(declared, list):
        raise ModelError.of("bad_outputs_metadata")
    by_name = {d.get("name"): d for d in declared or [] if isinstance(d, Mapping)}
    class_names = meta_json(metadata, "class_names")
    top_classes = meta_json(metadata, "classes")
    activation_default = str(meta_json(metadata, "output_activation", "auto"))
    default_task = TASK_REGRESSION if model_type.lower().startswith("regress") else TASK_SEGMENTATION
    scaling = float(meta_json(metadata, "reg_output_scaling", 1.0) or 1.0)

    context = (class_names, top_classes, activation_default, default_task, scaling)
    outputs = []
    for index, (name, shape, dtype) in enumerate(graph_outputs):
        decl = by_name.get(name)
        if decl is None and declared and index < len(declared):
            decl = declared[index]
        outputs.append(_describe_output(index, name, shape, dtype, decl or {}, context))
    if not outputs:
        raise ModelError.of("model_without_output")
    return tuple(outputs)


def _describe_output(
    index: int, name: str, shape: list[Any], dtype: str, decl: Mapping[str, Any], context: tuple
) -> OutputSpec:
    """One :class:`OutputSpec` from its graph shape, its ``outputs`` entry and the top-level defaults."""
    class_names, top_classes, activation_default, default_task, scaling = context
    task = str(decl.get("task", default_task))
    if task not in _TASKS:
        raise ModelError.of("bad_output_task", name=name, task=task, choices=", ".join(_TASKS))
    activation = str(decl.get("activation", activation_default))
    if activation not in _ACTIVATIONS:
        raise ModelError.of("bad_output_activation", name=name, activation=activation, choices=_ACTIVATIONS)
    rank = len(shape)
    channels = static_dim(shape[1]) if rank in (2, 4) else (1 if rank == 3 else None)
    raw_classes = decl.get("classes")
    if raw_classes is None:
        if isinstance(class_names, list):
            raw_classes = class_names[index] if index < len(class_names) else None
        elif index == 0:
            raw_classes = top_classes if top_classes is not None else class_names
    classes: tuple[ClassInfo, ...] = ()
    # Class indices (an argmax in the graph), (N, H, W) or (N, 1, H, W): their one channel is no class count.
    index_map = rank in (3, 4) and channels == 1 and not dtype.startswith("float")
    if task == TASK_SEGMENTATION and rank in (3, 4) and channels == 1 and dtype.startswith("float"):
        classes = binary_classes(raw_classes)
    elif task in (TASK_SEGMENTATION, TASK_CLASSIFICATION):
        classes = parse_classes(raw_classes, channels, f"classes of output '{name}'")
        if channels is not None and len(classes) > channels and rank in (2, 4) and not index_map:
            raise ModelError.of("output_class_count_mismatch", name=name, channels=channels, class_count=len(classes))
    return OutputSpec(
        name=name,
        task=task,
        classes=classes,
        rank=rank,
        channels=channels,
        activation=activation,
        unit=str(decl.get("unit", "")),
        scale=float(decl.get("scale", scaling)),
        dtype=dtype,
    )
