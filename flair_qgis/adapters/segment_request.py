"""A segmentation run from the dock, captured on the main thread: the dock's choices -> planned job.

The dock's widgets freeze their choices into :class:`SegmentChoices` (layer ids, extent mode, output
folder, opacity: what only the dock knows); :func:`prepare_segment` finds the layers, the extent in
the first layer's CRS and, for "selected polygons", the polygons, builds the run's one
:class:`~flair_qgis.core.segment.SegmentRequest` from them, and
:func:`~flair_qgis.adapters.segment_capture.plan_layers` captures the layers and plans the job with
:func:`flair_qgis.core.segment.plan_job`, as ``flair:segment`` does.
:class:`~flair_qgis.adapters.segment_task.SegmentTask` runs the job.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from dataclasses import dataclass

from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsMapLayer,
    QgsProject,
    QgsRasterLayer,
    QgsRectangle,
    QgsVectorLayer,
)

from ..core.engine import InputSpec, ModelInfo, check_supported, choose_bands
from ..core.errors import FlairError, InputError
from ..core.segment import (
    SegmentJob,
    SegmentPlan,
    SegmentRequest,
    class_map_path,
    confidence_path_for,
    input_title,
    run_output_path,
)
from ..core.vectorize import PolygonOutput
from ..core.vocabulary import EXTENT_CANVAS, EXTENT_DRAWN, EXTENT_LAYER, EXTENT_MODES, EXTENT_POLYGONS
from ..i18n import tr
from ..i18n.errors import error_text
from . import settings
from .layers import extent_in_crs
from .mask_input import selected_polygons, vector_file
from .raster_input import layer_band_labels
from .segment_capture import plan_layers


@dataclass(frozen=True)
class InputChoice:
    """The layer and bands chosen for one model input.

    Attributes:
        layer_id: id of the raster layer in the project.
        bands: layer band (1-based) per channel of the input; empty to let
            :func:`flair_qgis.core.engine.bands.choose_bands` choose; a 0 marks a channel left without a band.
    """

    layer_id: str
    bands: tuple[int, ...] = ()


@dataclass(frozen=True)
class SegmentChoices:
    """Everything the dock's widgets say, frozen when the user clicks Run.

    Widget state (layer ids, the extent mode and the canvas's CRS, an output folder, the layer's
    opacity): :func:`prepare_segment` turns it into the run's
    :class:`~flair_qgis.core.segment.SegmentRequest` once the layers and polygons are found.

    Attributes:
        model_path: the ONNX file.
        layer_id: id of the raster layer feeding the model's first (or only) input.
        bands: layer band (1-based) per channel of the first input; empty to let the core choose.
        extent_mode: one of :data:`EXTENT_MODES`.
        extent: ``(xmin, ymin, xmax, ymax)`` for ``canvas`` and ``drawn``, in ``extent_crs``.
        extent_crs: authid or WKT of ``extent``'s CRS.
        mask_layer_id: polygon layer whose selected features bound the run (``polygons``).
        device: ``auto``, ``cuda`` or ``cpu``.
        precision: ``fp32`` or ``fp16`` (CUDA only, checked against fp32).
        tile_size_px: tile edge; None for the model's.
        overlap_px: overlap; None for the model's.
        batch_size: tiles per onnxruntime call.
        output_path: class-map file; empty for a new file in the output folder.
        output_folder: where unnamed outputs go; empty for QGIS's temporary folder.
        confidence: also write the winning class's probability.
        opacity: opacity of the class-map layer, 0..1.
        more_inputs: layer and bands of the model's further inputs (2nd, 3rd...), in the
            model's input order.
        cache_folder: tile cache folder; empty for none.
        cache_remote: cache web and database layers too (for a day), keyed by their address.
        polygons: also write the class map as polygons (path ``""``: beside the class map); None
            for none.
    """

    model_path: str
    layer_id: str
    bands: tuple[int, ...] = ()
    extent_mode: str = EXTENT_LAYER
    extent: tuple[float, float, float, float] | None = None
    extent_crs: str = ""
    mask_layer_id: str | None = None
    device: str = "auto"
    precision: str = "fp32"
    tile_size_px: int | None = None
    overlap_px: int | None = None
    batch_size: int = 4
    output_path: str = ""
    output_folder: str = ""
    confidence: bool = False
    opacity: float = 0.7
    more_inputs: tuple[InputChoice, ...] = ()
    cache_folder: str = ""
    cache_remote: bool = False
    polygons: PolygonOutput | None = None

    def input_choices(self) -> tuple[InputChoice, ...]:
        """Layer and bands for every model input, in the model's input order."""
        return (InputChoice(self.layer_id, tuple(self.bands)), *self.more_inputs)


@dataclass(frozen=True)
class PreparedRun:
    """A run captured on the main thread; the worker needs nothing else.

    Attributes:
        job: the planned job (:func:`flair_qgis.core.segment.plan_job`): its plan and polygons.
        layer_ids: the layer of every model input, the first one first (the results go above
            it; removing any of them stops the run).
        layer_names: their names.
        opacity: opacity of the class-map layer.
    """

    job: SegmentJob
    layer_ids: tuple[str, ...]
    layer_names: tuple[str, ...]
    opacity: float = 0.7

    @property
    def plan(self) -> SegmentPlan:
        """The core plan (grid, sources, tiling, heads, outputs, mask)."""
        return self.job.plan

    @property
    def polygons(self) -> PolygonOutput | None:
        """The polygons to write once the class map is written (path set), or None."""
        return self.job.polygons  # type: ignore[return-value]  # the dock asks for a PolygonOutput

    @property
    def title(self) -> str:
        """Name of the class-map layer: the model and the first input layer."""
        model = os.path.splitext(os.path.basename(self.plan.model.path))[0]
        return f"{model} — {self.layer_names[0]}"


def ready_reason(model: ModelInfo | None, inputs: Sequence[tuple[QgsMapLayer | None, Sequence[int]]]) -> str:
    """Why a run cannot start with this model and these inputs; ``""`` when it can.

    Args:
        model: the model, or None.
        inputs: ``(layer, bands)`` per model input, in the model's input order; ``bands`` has a
            layer band per channel (0 = none chosen) or is empty to let the core choose.
    """
    if model is None:
        return tr("Choose an ONNX model.")
    try:
        check_supported(model)
    except FlairError as err:
        return error_text(err)
    multi = len(model.inputs) > 1
    for index, spec in enumerate(model.inputs):
        layer, bands = inputs[index] if index < len(inputs) else (None, ())
        reason = _input_reason(spec, layer, bands)
        if reason and multi:
            if layer is None:
                return tr("Choose a raster layer for input {index}, {title}.").format(
                    index=index + 1, title=input_title(spec)
                )
            return tr("Input {index}, {title}: {reason}").format(
                index=index + 1, title=input_title(spec), reason=reason
            )
        if reason:
            return reason
    return ""


def _input_reason(spec: InputSpec, layer: QgsMapLayer | None, bands: Sequence[int]) -> str:
    """Why ``layer`` and ``bands`` cannot feed the model input ``spec``; ``""`` when they can."""
    if layer is None or not isinstance(layer, QgsRasterLayer):
        return tr("Choose an input raster layer.")
    if not layer.isValid():
        return tr("Layer '{name}' cannot be read.").format(name=layer.name())
    try:
        choose_bands(spec, tuple(bands), layer_band_labels(layer))
    except FlairError as err:
        return error_text(err)  # the dock's wording, in the user's language
    return ""


def _input_layers(choices: SegmentChoices, model: ModelInfo, project: QgsProject) -> list[QgsRasterLayer]:
    """The raster layer of every model input, in the model's input order."""
    choices = choices.input_choices()
    multi = len(model.inputs) > 1
    if len(choices) < len(model.inputs):
        titles = ", ".join(input_title(spec) for spec in model.inputs)
        raise InputError.of("layer_per_input", input_count=len(model.inputs), titles=titles)
    layers = []
    for index, (choice, spec) in enumerate(zip(choices, model.inputs)):
        found = project.mapLayer(choice.layer_id) if choice.layer_id else None
        if not isinstance(found, QgsRasterLayer):
            if multi:
                raise InputError(
                    tr("No raster layer for input {index}, {title}, in the project: choose one.").format(
                        index=index + 1, title=input_title(spec)
                    )
                )
            raise InputError(tr("The input raster layer is not in the project any more: choose another."))
        layers.append(found)
    return layers


def _crs(text: str) -> QgsCoordinateReferenceSystem:
    crs = QgsCoordinateReferenceSystem(text) if text else QgsCoordinateReferenceSystem()
    if text and not crs.isValid():
        crs = QgsCoordinateReferenceSystem.fromWkt(text)
    return crs


def _extent(choices: SegmentChoices, layer: QgsRasterLayer) -> tuple[float, float, float, float] | None:
    """The requested rectangle in the layer's CRS; None for the whole layer (or the polygons)."""
    if choices.extent_mode not in EXTENT_MODES:
        raise InputError(tr("Unknown extent mode {mode!r}.").format(mode=choices.extent_mode))
    if choices.extent_mode not in (EXTENT_CANVAS, EXTENT_DRAWN):
        return None
    if choices.extent is None:
        drawn = choices.extent_mode == EXTENT_DRAWN
        raise InputError(tr("Draw a rectangle on the map first.") if drawn else tr("The map view has no extent."))
    rect = QgsRectangle(*choices.extent)
    if rect.isEmpty():
        raise InputError.of("empty_extent")
    return extent_in_crs(rect, _crs(choices.extent_crs), layer.crs())


def _core_request(
    choices: SegmentChoices,
    model: ModelInfo,
    layer: QgsRasterLayer,
    extent: tuple[float, float, float, float] | None,
    mask_layer: QgsVectorLayer | None,
) -> SegmentRequest:
    """The run's request: output paths (a new file when none is given; the confidence beside
    it), bands, the extent or the selected polygons, tiling, device, precision, tile cache.

    Whether the model can give a confidence is checked by the core's plan (key ``no_confidence``).

    Raises:
        InputError: "selected polygons" without a polygon selected.
    """
    wkbs = selected_polygons(mask_layer, layer.crs()) if choices.extent_mode == EXTENT_POLYGONS else ()
    if choices.output_path:
        output = class_map_path(choices.output_path)
    else:
        folder = settings.run_folder(choices.output_folder)
        output = run_output_path(folder, layer.name(), model.path, time.strftime("%Y%m%d_%H%M%S"))
    confidence = confidence_path_for(output) if choices.confidence else None
    return SegmentRequest(
        output_path=output,
        confidence_path=confidence,
        bands=tuple(choice.bands for choice in choices.input_choices()),
        extent=extent,
        mask_wkbs=tuple(wkbs),
        mask_path=vector_file(mask_layer),
        tile_size_px=choices.tile_size_px,
        overlap_px=choices.overlap_px,
        batch_size=choices.batch_size,
        device=choices.device,
        precision=choices.precision,
        cache_folder=choices.cache_folder or None,
        cache_max_bytes=settings.cache_max_bytes(),
        cache_remote=choices.cache_remote,
    )


def prepare_segment(choices: SegmentChoices, model: ModelInfo, project: QgsProject | None = None) -> PreparedRun:
    """Capture a run on the main thread and plan it (:func:`flair_qgis.core.segment.plan_job`).

    Args:
        choices: what the dock's widgets say.
        model: the model, already read by the dock.
        project: the project holding the layers (default the current one).

    Raises:
        InputError: a missing layer, an empty extent or one outside the layer, no polygon
            selected, bands that do not fit, outputs that cannot be written or would overwrite
            an input.
        ModelError, NotSupportedError: the model cannot be run by the engine.
    """
    project = project or QgsProject.instance()
    layers = _input_layers(choices, model, project)
    check_supported(model)
    first = layers[0]
    mask_layer = None
    if choices.extent_mode == EXTENT_POLYGONS and choices.mask_layer_id:
        mask_layer = project.mapLayer(choices.mask_layer_id)
    request = _core_request(choices, model, first, _extent(choices, first), mask_layer)
    job = plan_layers(request, model, layers, polygons=choices.polygons)
    ids, names = tuple(lyr.id() for lyr in layers), tuple(lyr.name() for lyr in layers)
    return PreparedRun(job, ids, names, choices.opacity)
