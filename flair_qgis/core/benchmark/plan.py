"""What a benchmark run will do, decided and checked before any inference.

:func:`plan_benchmark` reads the model, finds the samples (:func:`flair_qgis.core.benchmark.datasets.discover`),
refuses outputs that would overwrite an input, chooses the file bands of every model input,
the heads scored, and what each output index counts as under the protocol (the model's classes
aligned by value, name or ``CLASS_MAP``: :func:`flair_qgis.core.score.alignment.align_classes`).
Everything the protocol implies (its folder layout, FLAIR-HUB label modality, per-image targets)
is data of the :class:`~flair_qgis.core.score.protocols.Protocol`.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from typing import cast

import numpy as np
import rasterio
import rasterio.errors

from ..engine.bands import BandChoice, band_choice
from ..engine.model import InputSpec, ModelInfo, OutputSpec, read_model_info
from ..engine.multi import Heads, class_values, input_modalities, resolve_heads
from ..errors import InputError, ModelError
from ..nomenclature import ClassInfo
from ..paths import check_folder_not_input, check_outputs_not_inputs, resolved
from ..score import ClassAlignment, Protocol, align_classes, get_protocol
from .datasets import LAYOUT_FLAIR1, LAYOUT_FLAIRHUB, Dataset, detect_layout, discover

UNIT_TO_CM = {"cm": 1.0, "m": 100.0, "mm": 0.1, "": 1.0}
"""Height output units accepted, as factors to centimetres."""


@dataclass(frozen=True)
class BenchmarkRequest:
    """A frozen description of one benchmark run.

    Attributes:
        dataset: the dataset folder.
        model_path: the ONNX model.
        protocol: ``flair1``, ``flairhub-landcover``, ``flairhub-croptype``, ``weedsense`` or ``custom``.
        report_path: the report JSON to write.
        samples_csv_path: the per-sample CSV; None for ``<report>_samples.csv``.
        predictions_dir: folder for one prediction raster per sample (``PRED_<id>.tif``), or None.
        layout: ``auto``, ``flair1``, ``flairhub`` or ``weedsense``.
        on_unpaired: ``skip`` or ``fail`` for images without masks and masks without images.
        batch_size: samples per onnxruntime call.
        device: ``auto``, ``cuda`` or ``cpu``.
        threads: CPU threads for onnxruntime; None for all cores.
        absent: score of a class absent from both sides (``skip``, ``one``, ``zero``); None for
            the protocol's own.
        class_map: explicit ``model value -> protocol code`` (``CLASS_MAP``); None to align the
            model's classes by value or name (:func:`flair_qgis.core.score.alignment.align_classes`).
    """

    dataset: str
    model_path: str
    protocol: str
    report_path: str
    samples_csv_path: str | None = None
    predictions_dir: str | None = None
    layout: str = "auto"
    on_unpaired: str = "skip"
    batch_size: int = 4
    device: str = "auto"
    threads: int | None = None
    absent: str | None = None
    class_map: Mapping[int, int] | None = None


def default_samples_csv(report_path: str) -> str:
    """``report.json`` -> ``report_samples.csv`` in the same folder."""
    stem = os.path.splitext(report_path)[0]
    return stem + "_samples.csv"


@dataclass(frozen=True)
class InputPlan:
    """How one model input is fed: its modality and the file bands selected."""

    spec: InputSpec
    modality: str
    choice: BandChoice

    def to_dict(self) -> dict:
        return {
            "name": self.spec.name,
            "modality": self.modality,
            "bands": list(self.choice.bands),
            "band_choice": self.choice.how,
            "mean": list(self.spec.mean),
            "std": list(self.spec.std),
            "resolution_m": self.spec.resolution_m,
        }


@dataclass(frozen=True)
class BenchmarkPlan:
    """Everything decided before the run: dataset, model, protocol, inputs, heads.

    Attributes:
        class_lut: output index -> protocol code (after alignment).
        image_targets: per-image targets scored (the protocol's, else the layout's).
        warnings: what the user should read before the scores.
    """

    dataset: Dataset
    model: ModelInfo
    protocol: Protocol
    inputs: tuple[InputPlan, ...]
    heads: Heads
    class_lut: np.ndarray
    alignment: ClassAlignment
    height_head: OutputSpec | None
    stage_head: OutputSpec | None
    image_targets: tuple[str, ...]
    warnings: tuple[str, ...]

    @property
    def segmentation(self) -> OutputSpec:
        """The head whose class map is scored."""
        return cast(OutputSpec, self.heads.segmentation)  # plan_benchmark refuses models without one


class Quiet(warnings.catch_warnings):
    """Silence rasterio's NotGeoreferencedWarning for plain PNG/JPG images (WeedSense)."""

    def __enter__(self):
        result = super().__enter__()
        warnings.simplefilter("ignore", rasterio.errors.NotGeoreferencedWarning)
        return result


def check_outputs(request: BenchmarkRequest, dataset: Dataset) -> None:
    """Refuse outputs that would overwrite an input: the model, the dataset folder or one of its files.

    Raises:
        InputError: the message names both parameters.
    """
    report = request.report_path
    samples_csv = request.samples_csv_path or (default_samples_csv(report) if report else None)
    outputs = {"OUTPUT_REPORT": report, "OUTPUT_SAMPLES": samples_csv}
    check_outputs_not_inputs(outputs, {"MODEL": request.model_path, "DATASET": request.dataset})
    check_folder_not_input("OUTPUT_PREDICTIONS", request.predictions_dir, "DATASET", request.dataset)
    check_folder_not_input("OUTPUT_PREDICTIONS", request.predictions_dir, "MODEL", request.model_path)
    files = {resolved(path) for s in dataset.samples for path in (s.reference, *s.inputs.values())}
    for name, path in outputs.items():
        if path and resolved(path) in files:
            raise InputError.of("overwrites_dataset", name=name, path=path)


def _discover(request: BenchmarkRequest, model: ModelInfo, protocol: Protocol) -> Dataset:
    layout = request.layout if request.layout not in ("", None) else "auto"
    root = os.path.abspath(request.dataset)
    if layout == "auto" and os.path.isdir(root):
        layout = detect_layout(root) or "auto"
    required: tuple[str, ...] = ()
    if layout == LAYOUT_FLAIRHUB:
        required = tuple((s.modality.strip().upper() or "AERIAL_RGBI") for s in model.inputs)
    return discover(
        root,
        layout,
        label_modality=protocol.label_modality,
        required_modalities=required,
        on_unpaired=request.on_unpaired,
    )


def _input_plans(model: ModelInfo, dataset: Dataset, notes: list[str]) -> tuple[InputPlan, ...]:
    """The file bands of every model input, chosen on the first sample's files."""
    hub = dataset.layout == LAYOUT_FLAIRHUB
    modalities = input_modalities(model, dataset.modalities if hub else None)
    first = dataset.samples[0]
    plans = []
    for spec, modality in zip(model.inputs, modalities):
        key = modality if hub else ("FLAIR1_IMG" if dataset.layout == LAYOUT_FLAIR1 else "RGB")
        path = first.inputs[modality if hub else "IMAGE"]
        try:
            with Quiet(), rasterio.open(path) as src:
                band_count = src.count
        except rasterio.errors.RasterioIOError as err:
            raise InputError.of("cannot_open", path=path, error=str(err)) from err
        choice = band_choice(spec, key, band_count)
        if choice.warning:
            notes.append(choice.warning)
        plans.append(InputPlan(spec, modality, choice))
    return tuple(plans)


def _class_lut(
    model: ModelInfo, head: OutputSpec, protocol: Protocol, class_map: Mapping[int, int] | None, notes: list[str]
) -> tuple[np.ndarray, ClassAlignment]:
    """Output index -> protocol code: the model's class values, aligned with the protocol's codes."""
    lut = class_values(model, head, protocol.name)
    declared = tuple(ClassInfo(int(v), c.name, c.color) for v, c in zip(lut, head.classes))
    alignment = align_classes(declared, protocol, class_map, what="model")
    lut = alignment.apply(lut)
    if alignment.changes:
        notes.append(alignment.describe())
    if head.channels not in (None, 1) and len(lut) < head.channels:
        raise ModelError.of("output_classes_mismatch", name=head.name, channels=head.channels, class_count=len(lut))
    return lut, alignment


def _segmentation_head(model: ModelInfo, heads: Heads, notes: list[str]) -> OutputSpec:
    if heads.segmentation is None:
        listed = ", ".join(f"{o.name}: {o.task}" for o in model.outputs)
        raise ModelError.of("no_segmentation_output", outputs=listed)
    for head in heads.ignored:
        notes.append(
            f"Output '{head.name}' is a further segmentation output: only '{heads.segmentation.name}' is scored."
        )
    return heads.segmentation


def _target_heads(heads: Heads, dataset: Dataset, targets: tuple[str, ...], notes: list[str]) -> tuple:
    """The height (regression) and growth-stage (classification) heads of per-image targets."""
    height_head = heads.regression[0] if heads.regression else None
    stage_head = heads.classification[0] if heads.classification else None
    if not targets:
        return height_head, stage_head
    if not dataset.has_labels_csv:
        notes.append("No labels.csv in the dataset: height and growth-stage metrics are not computed.")
    if height_head is None:
        notes.append("The model has no regression output: plant height is not scored.")
    if stage_head is None:
        notes.append("The model has no classification output: growth stage is not scored.")
    if height_head is not None and height_head.unit.lower() not in UNIT_TO_CM:
        raise ModelError.of("bad_height_unit", name=height_head.name, unit=height_head.unit)
    return height_head, stage_head


def plan_benchmark(request: BenchmarkRequest) -> BenchmarkPlan:
    """Check a request and decide how every input and head is used (no inference).

    Raises:
        InputError, ModelError: dataset, model and protocol do not fit together, an output would
            overwrite an input, or the model's classes cannot be aligned; the message says what
            to change.
    """
    model = read_model_info(request.model_path)
    protocol = get_protocol(request.protocol, absent=request.absent)
    notes: list[str] = []
    dataset = _discover(request, model, protocol)
    check_outputs(request, dataset)
    if protocol.layout and protocol.layout != dataset.layout:
        notes.append(
            f"Protocol {protocol.name} is scored on a {dataset.layout} folder (its own layout is {protocol.layout})."
        )
    inputs = _input_plans(model, dataset, notes)
    heads = resolve_heads(model)
    head = _segmentation_head(model, heads, notes)
    lut, alignment = _class_lut(model, head, protocol, request.class_map, notes)
    targets = protocol.image_targets or dataset.image_targets
    height_head, stage_head = _target_heads(heads, dataset, targets, notes)
    return BenchmarkPlan(
        dataset, model, protocol, inputs, heads, lut, alignment, height_head, stage_head, targets, tuple(notes)
    )
