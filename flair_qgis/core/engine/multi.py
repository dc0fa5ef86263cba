"""Multi-input and multi-head models: which modality feeds each input, what each head means.

Which band feeds which channel is decided in :mod:`.bands` (every band rule is there).

Heads. Metadata ``outputs`` gives each output a ``task``: ``segmentation`` (a class per pixel),
``regression`` (a value per pixel or per image, with a ``unit``) or ``classification`` (a class per
image; ``classes`` lists the value of each output index, e.g. growth weeks ``[1, ..., 11]``).
Deepness' convention (several outputs of one type, no ``outputs`` key) keeps working: the first
segmentation output gives the class map.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..errors import InputError, ModelError
from .model import TASK_CLASSIFICATION, TASK_REGRESSION, TASK_SEGMENTATION, ModelInfo, OutputSpec


def input_modalities(model: ModelInfo, layout_modalities: Sequence[str] | None) -> tuple[str, ...]:
    """The dataset modality feeding each model input, in the model's input order.

    Args:
        model: the model.
        layout_modalities: the modalities a FLAIR-HUB folder holds, or None for single-image
            layouts (FLAIR #1, WeedSense), whose one image is modality ``IMAGE``.

    Raises:
        InputError: the model's inputs do not match the modalities present.
    """
    specs = model.inputs
    if layout_modalities is None:
        if len(specs) != 1:
            names = ", ".join(f"{s.name}: {s.modality or '?'}" for s in specs)
            raise InputError.of("multi_input_single_image", input_count=len(specs), names=names)
        return ("IMAGE",)
    present = list(layout_modalities)
    chosen = []
    for spec in specs:
        modality = spec.modality.strip().upper()
        if not modality:
            if len(specs) > 1:
                raise ModelError.of("input_without_modality", name=spec.name)
            modality = "AERIAL_RGBI"
        if modality not in present:
            raise InputError.of(
                "dataset_lacks_input_modality", name=spec.name, modality=modality, present=", ".join(present) or "none"
            )
        chosen.append(modality)
    return tuple(chosen)


@dataclass(frozen=True)
class Heads:
    """A model's outputs by role.

    Attributes:
        segmentation: the head giving the class map, or None.
        regression: regression heads, per pixel or per image.
        classification: per-image classification heads.
        ignored: outputs not used (further heads of Deepness' several-outputs convention).
    """

    segmentation: OutputSpec | None
    regression: tuple[OutputSpec, ...]
    classification: tuple[OutputSpec, ...]
    ignored: tuple[OutputSpec, ...] = ()

    @property
    def used(self) -> tuple[OutputSpec, ...]:
        """Outputs to ask onnxruntime for."""
        return tuple(h for h in (self.segmentation, *self.regression, *self.classification) if h is not None)


def resolve_heads(model: ModelInfo) -> Heads:
    """Sort the model's outputs by role (see module docstring).

    Raises:
        ModelError: a classification head that is per pixel, or a head whose shape does not fit
            its task.
    """
    segmentation = None
    regression = []
    classification = []
    ignored = []
    for head in model.outputs:
        if head.task == TASK_SEGMENTATION and head.is_per_pixel:
            if segmentation is None:
                segmentation = head
            else:
                ignored.append(head)
        elif head.task in (TASK_SEGMENTATION, TASK_CLASSIFICATION):
            if head.rank in (3, 4):
                raise ModelError.of("head_not_segmentation", name=head.name, task=head.task)
            classification.append(head)
        elif head.task == TASK_REGRESSION:
            regression.append(head)
    return Heads(segmentation, tuple(regression), tuple(classification), tuple(ignored))


def _classes_declared(model: ModelInfo, head: OutputSpec) -> bool:
    meta = model.metadata
    if "classes" in meta or "class_names" in meta:
        return True
    return f'"name": "{head.name}"' in meta.get("outputs", "") and '"classes"' in meta.get("outputs", "")


def class_values(model: ModelInfo, head: OutputSpec, protocol: str = "") -> np.ndarray:
    """The class value written for each output index of a segmentation head.

    A 13-output model that declares no classes, scored with the ``flair1`` protocol, is a FLAIR #1
    model: output index ``i`` is FLAIR code ``i + 1``. Otherwise the head's declared classes decide.

    Returns:
        An int64 lookup table ``index -> class value``.
    """
    if protocol == "flair1" and head.channels == 13 and not _classes_declared(model, head):
        return np.arange(1, 14, dtype=np.int64)
    return np.array([c.value for c in head.classes], dtype=np.int64)


def per_image_value(head: OutputSpec, values: np.ndarray) -> np.ndarray:
    """Per-sample values of a per-image head from its batch output.

    Args:
        head: a regression or classification head.
        values: the onnxruntime output, ``(N,)``, ``(N, 1)`` or ``(N, K)``.

    Returns:
        ``(N,)`` float64 values: regression values times the head's ``scale``, or the class value
        of the best index (the value itself for integer outputs).

    Raises:
        ModelError: the output shape does not fit the head.
    """
    array = np.asarray(values)
    n = array.shape[0]
    if head.task == TASK_REGRESSION:
        flat = array.reshape(n, -1)
        if flat.shape[1] != 1:
            # A per-pixel regression map reported per image: its mean.
            return flat.astype(np.float64).mean(axis=1) * head.scale
        return flat[:, 0].astype(np.float64) * head.scale
    if array.ndim == 1 or (array.ndim == 2 and array.shape[1] == 1 and array.dtype.kind in "iu"):
        return array.reshape(n).astype(np.float64)
    if array.ndim != 2:
        raise ModelError.of("bad_class_head_shape", name=head.name, shape=array.shape)
    index = np.argmax(array, axis=1)
    lut = np.array([c.value for c in head.classes], dtype=np.float64)
    if array.shape[1] > len(lut):
        raise ModelError.of(
            "class_head_count_mismatch", name=head.name, score_count=array.shape[1], class_count=len(lut)
        )
    return lut[index]
