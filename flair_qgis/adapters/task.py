"""A segmentation run from the dock: captured on the main thread, run in a QgsTask.

:func:`prepare_segment` (main thread) turns the dock's frozen :class:`RunRequest` into a
:class:`PreparedRun`: the model description, one pixel source per model input (a file path or a
cloned data provider, each on its input's grid from :func:`flair_qgis.core.segment.input_grids`),
the output grid from :func:`flair_qgis.core.grid.plan_grid` over the first input, the core
:class:`SegmentRequest` and, for "selected polygons", the polygons in the first layer's CRS.
:class:`SegmentTask` then calls :func:`flair_qgis.core.segment.segment` with its own cancel and
progress hooks, masks the maps outside the polygons, and only in :meth:`finished` (main thread
again) adds the styled layers: the class map, the confidence, and the maps of further per-pixel
heads (class maps, regression value maps).
"""

from __future__ import annotations

import os
import re
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsCoordinateTransform,
    QgsMapLayer,
    QgsProcessingUtils,
    QgsProject,
    QgsRasterLayer,
    QgsRectangle,
    QgsTask,
    QgsVectorLayer,
    QgsWkbTypes,
)

from ..core.cache_run import CacheRequest, whole_layer_grid
from ..core.errors import Canceled, FlairError, InputError
from ..core.grid import Grid, plan_grid
from ..core.model import TASK_SEGMENTATION, InputSpec, ModelInfo, OutputSpec
from ..core.multi import choose_bands
from ..core.nomenclature import ClassInfo
from ..core.segment import (
    CONFIDENCE_NODATA,
    HeadPlan,
    SegmentRequest,
    SegmentResult,
    check_supported,
    input_grids,
    plan_heads,
    segment,
)
from ..core.sources import PixelSource, validate_bands_for_model
from ..core.tile_cache import source_identity
from . import settings
from .layers import (
    add_above,
    add_class_map,
    add_confidence,
    add_value_map,
    channel_labels,
    layer_band_labels,
    remove_outputs,
    style_suspicious,
)
from .raster_input import capture_raster, make_source

EXTENT_CANVAS = "canvas"
EXTENT_LAYER = "layer"
EXTENT_POLYGONS = "polygons"
EXTENT_DRAWN = "drawn"
EXTENT_MODES = (EXTENT_CANVAS, EXTENT_LAYER, EXTENT_POLYGONS, EXTENT_DRAWN)

_MASK_ROWS = 1024


@dataclass(frozen=True)
class InputChoice:
    """The layer and bands chosen for one model input.

    Attributes:
        layer_id: id of the raster layer in the project.
        bands: layer band (1-based) per channel of the input; empty for the model's declared
            bands, else ``1..channels``; a 0 marks a channel left without a band.
    """

    layer_id: str
    bands: tuple[int, ...] = ()


@dataclass(frozen=True)
class RunRequest:
    """Everything the dock's widgets say, frozen when the user clicks Run.

    Attributes:
        model_path: the ONNX file.
        layer_id: id of the raster layer feeding the model's first (or only) input.
        bands: layer band (1-based) per channel of the first input; empty for the model's
            declared bands, else ``1..channels``.
        extent_mode: one of :data:`EXTENT_MODES`.
        extent: ``(xmin, ymin, xmax, ymax)`` for ``canvas`` and ``drawn``, in ``extent_crs``.
        extent_crs: authid or WKT of ``extent``'s CRS.
        mask_layer_id: polygon layer whose selected features bound the run (``polygons``).
        device: ``auto``, ``cuda`` or ``cpu``.
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
    """

    model_path: str
    layer_id: str
    bands: tuple[int, ...] = ()
    extent_mode: str = EXTENT_LAYER
    extent: tuple[float, float, float, float] | None = None
    extent_crs: str = ""
    mask_layer_id: str | None = None
    device: str = "auto"
    tile_size_px: int | None = None
    overlap_px: int | None = None
    batch_size: int = 4
    output_path: str = ""
    output_folder: str = ""
    confidence: bool = False
    opacity: float = 0.7
    more_inputs: tuple[InputChoice, ...] = ()
    cache_folder: str = ""

    def input_choices(self) -> tuple[InputChoice, ...]:
        """Layer and bands for every model input, in the model's input order."""
        return (InputChoice(self.layer_id, tuple(self.bands)), *self.more_inputs)


@dataclass(frozen=True)
class PreparedRun:
    """A run captured on the main thread; the worker needs nothing else.

    Attributes:
        model: the model description.
        head: the output written to the class map (or, for regression-only models, the value map).
        sources: pixels of each model input, bound to its grid and band mapping, in input order.
        grid: the output grid.
        request: the core request (outputs, tiling, device).
        layer_id: the first input layer (the results go above it in the layer tree).
        layer_name: its name, for messages and the result layers' names.
        mask_wkbs: polygons (WKB, in the grid's CRS) outside which the maps are nodata.
        opacity: opacity of the class-map layer.
        input_layer_ids: the layer of every model input (removing any of them stops the run).
        input_layer_names: their names.
    """

    model: ModelInfo
    head: OutputSpec
    sources: tuple[PixelSource, ...]
    grid: Grid
    request: SegmentRequest
    layer_id: str
    layer_name: str
    mask_wkbs: tuple[bytes, ...] = ()
    opacity: float = 0.7
    input_layer_ids: tuple[str, ...] = ()
    input_layer_names: tuple[str, ...] = ()

    @property
    def source(self) -> PixelSource:
        """Pixels of the first input."""
        return self.sources[0]

    @property
    def plan(self) -> HeadPlan:
        """Which output gives the class map, which give further maps, which give per-tile values."""
        return plan_heads(self.model)

    @property
    def classes(self) -> tuple[ClassInfo, ...]:
        """The classes written to the class map."""
        return self.head.classes

    @property
    def title(self) -> str:
        """Name of the class-map layer."""
        model = os.path.splitext(os.path.basename(self.model.path))[0]
        return f"{model} — {self.layer_name}"


@dataclass
class RunOutcome:
    """How a run ended, handed to the dock on the main thread.

    Attributes:
        status: ``ok``, ``canceled``, ``abandoned`` (input layer removed) or ``error``.
        result: the core result when ``ok``.
        error: the exception when ``error``.
        traceback: formatted traceback of an unexpected error, else ``""``.
        layers: layers added to the project: the class map (or value map) first, then the
            confidence, then the maps of further heads (their ``flair_qgis/kind`` tells which).
        prepared: the run.
    """

    status: str
    prepared: PreparedRun
    result: SegmentResult | None = None
    error: BaseException | None = None
    traceback: str = ""
    layers: list[QgsMapLayer] = field(default_factory=list)


def input_title(spec: InputSpec) -> str:
    """How a model input is named to the user: its modality (or ONNX name) and channel count."""
    channels = f"{spec.channels} band" + ("" if spec.channels == 1 else "s")
    return f"{spec.modality or spec.name} ({channels})"


def _mapping_reason(spec: InputSpec, bands: Sequence[int], band_count: int) -> str:
    """Why ``bands`` (0 = a channel without a band) cannot feed ``spec`` from a layer of ``band_count`` bands."""
    try:
        if not bands or 0 in bands:
            validate_bands_for_model((), spec.channels, band_count)
            if bands:
                names = channel_labels(spec)
                missing = [names[i] if i < len(names) else str(i + 1) for i, b in enumerate(bands) if b == 0]
                return f"Choose a layer band for model channel(s) {', '.join(missing)}."
        else:
            validate_bands_for_model(tuple(bands), spec.channels, band_count)
    except FlairError as err:
        return str(err)
    return ""


def ready_reason(model: ModelInfo | None, inputs: Sequence[tuple[QgsMapLayer | None, Sequence[int]]]) -> str:
    """Why a run cannot start with this model and these inputs; ``""`` when it can.

    Args:
        model: the model, or None.
        inputs: ``(layer, bands)`` per model input, in the model's input order; ``bands`` has a
            layer band per channel (0 = none chosen) or is empty for the default.

    Uses the core checks (:func:`check_supported`, :func:`validate_bands_for_model`).
    """
    if model is None:
        return "Choose an ONNX model."
    try:
        check_supported(model)
    except FlairError as err:
        return str(err)
    multi = len(model.inputs) > 1
    for index, spec in enumerate(model.inputs):
        layer, bands = inputs[index] if index < len(inputs) else (None, ())
        reason = _input_reason(spec, layer, bands)
        if reason and multi:
            if layer is None:
                return f"Choose a raster layer for input {index + 1}, {input_title(spec)}."
            return f"Input {index + 1}, {input_title(spec)}: {reason}"
        if reason:
            return reason
    return ""


def _input_reason(spec: InputSpec, layer: QgsMapLayer | None, bands: Sequence[int]) -> str:
    """Why ``layer`` and ``bands`` cannot feed the model input ``spec``; ``""`` when they can."""
    if layer is None or not isinstance(layer, QgsRasterLayer):
        return "Choose an input raster layer."
    if not layer.isValid():
        return f"Layer '{layer.name()}' cannot be read."
    return _mapping_reason(spec, tuple(bands), len(layer_band_labels(layer)))


def input_bands(spec: InputSpec, bands: Sequence[int], band_count: int) -> tuple[int, ...]:
    """The layer bands feeding a model input, as ``flair:segment`` chooses them.

    The user's bands win; without them, the bands the model declares (numbers, or names of a
    known modality, :func:`flair_qgis.core.multi.band_choice`); else ``1..channels``.

    Raises:
        InputError: a channel without a band, bands the layer does not have, too few bands.
    """
    if 0 in bands:
        raise InputError(_mapping_reason(spec, tuple(bands), band_count) or "Choose a band for every channel.")
    return choose_bands(spec, bands, band_count)[0]


def _crs(text: str) -> QgsCoordinateReferenceSystem:
    crs = QgsCoordinateReferenceSystem(text) if text else QgsCoordinateReferenceSystem()
    if text and not crs.isValid():
        crs = QgsCoordinateReferenceSystem.fromWkt(text)
    return crs


def _to_layer_crs(rect: QgsRectangle, source: QgsCoordinateReferenceSystem, layer: QgsRasterLayer) -> QgsRectangle:
    if not source.isValid() or not layer.crs().isValid() or source == layer.crs():
        return rect
    transform = QgsCoordinateTransform(source, layer.crs(), QgsProject.instance())
    return transform.transformBoundingBox(rect)


def _selected_polygons(
    mask_layer_id: str | None, layer: QgsRasterLayer, project: QgsProject
) -> tuple[QgsRectangle, list[bytes]]:
    mask_layer = project.mapLayer(mask_layer_id) if mask_layer_id else None
    if not isinstance(mask_layer, QgsVectorLayer) or mask_layer.geometryType() != QgsWkbTypes.PolygonGeometry:
        raise InputError("Choose a polygon layer whose selected polygons bound the run.")
    features = list(mask_layer.getSelectedFeatures())
    if not features:
        raise InputError(f"No polygon is selected in '{mask_layer.name()}': select the areas to segment first.")
    transform = None
    if mask_layer.crs().isValid() and layer.crs().isValid() and mask_layer.crs() != layer.crs():
        transform = QgsCoordinateTransform(mask_layer.crs(), layer.crs(), project)
    bbox = QgsRectangle()
    bbox.setMinimal()
    wkbs = []
    for feature in features:
        geometry = feature.geometry()
        if geometry is None or geometry.isEmpty():
            continue
        if transform is not None:
            geometry.transform(transform)
        bbox.combineExtentWith(geometry.boundingBox())
        wkbs.append(bytes(geometry.asWkb()))
    if not wkbs:
        raise InputError(f"The selected features of '{mask_layer.name()}' have no geometry.")
    return bbox, wkbs


def _auto_output_path(folder: str, layer_name: str, model_path: str) -> str:
    folder = folder or QgsProcessingUtils.tempFolder()
    os.makedirs(folder, exist_ok=True)
    slug = re.sub(r"[^A-Za-z0-9_-]+", "_", f"{os.path.splitext(os.path.basename(model_path))[0]}_{layer_name}")[:60]
    stamp = time.strftime("%Y%m%d_%H%M%S")
    path = os.path.join(folder, f"flair_{slug}_{stamp}.tif")
    index = 1
    while os.path.exists(path):
        index += 1
        path = os.path.join(folder, f"flair_{slug}_{stamp}_{index}.tif")
    return path


def prepare_segment(request: RunRequest, model: ModelInfo, project: QgsProject | None = None) -> PreparedRun:
    """Capture a run on the main thread.

    Args:
        request: what the dock's widgets say.
        model: the model, already read by the dock.
        project: the project holding the layers (default the current one).

    Returns:
        The prepared run.

    Raises:
        InputError: the layer is missing, the extent is empty or outside the layer, no polygon
            is selected, or the band mapping does not fit.
        NotSupportedError: the model cannot be run by the engine.
    """
    project = project or QgsProject.instance()
    choices = request.input_choices()
    multi = len(model.inputs) > 1
    if len(choices) < len(model.inputs):
        raise InputError(
            f"The model has {len(model.inputs)} inputs ("
            + ", ".join(input_title(spec) for spec in model.inputs)
            + "): choose a raster layer for each."
        )
    layers: list[QgsRasterLayer] = []
    for index, (choice, spec) in enumerate(zip(choices, model.inputs)):
        found = project.mapLayer(choice.layer_id) if choice.layer_id else None
        if not isinstance(found, QgsRasterLayer):
            if multi:
                raise InputError(
                    f"No raster layer for input {index + 1}, {input_title(spec)}, in the project: choose one."
                )
            raise InputError("The input raster layer is not in the project any more: choose another.")
        layers.append(found)
    head = check_supported(model)
    rasters = []
    bands_per_input = []
    for index, (found, spec, choice) in enumerate(zip(layers, model.inputs, choices)):
        own_resolution = spec.resolution_m if not found.crs().isGeographic() else None
        raster = capture_raster(found, own_resolution)
        try:
            bands_per_input.append(input_bands(spec, choice.bands, raster.band_count))
        except InputError as err:
            if multi:
                raise InputError(f"Input {index + 1}, {input_title(spec)}: {err}") from err
            raise
        rasters.append(raster)
    layer = layers[0]
    raster = rasters[0]
    resolution = model.resolution_m if not layer.crs().isGeographic() else None

    extent = None
    wkbs: list[bytes] = []
    if request.extent_mode in (EXTENT_CANVAS, EXTENT_DRAWN):
        if request.extent is None:
            what = (
                "Draw a rectangle on the map first."
                if request.extent_mode == EXTENT_DRAWN
                else "The map view has no extent."
            )
            raise InputError(what)
        rect = QgsRectangle(*request.extent)
        if rect.isEmpty():
            raise InputError("The extent is empty: draw or choose an area with a width and a height.")
        rect = _to_layer_crs(rect, _crs(request.extent_crs), layer)
        extent = (rect.xMinimum(), rect.yMinimum(), rect.xMaximum(), rect.yMaximum())
    elif request.extent_mode == EXTENT_POLYGONS:
        rect, wkbs = _selected_polygons(request.mask_layer_id, layer, project)
        extent = (rect.xMinimum(), rect.yMinimum(), rect.xMaximum(), rect.yMaximum())
        if not rect.width() > 0 or not rect.height() > 0:
            raise InputError("The selected polygons have no area.")
    elif request.extent_mode != EXTENT_LAYER:
        raise InputError(f"Unknown extent mode {request.extent_mode!r}.")
    grid = plan_grid(raster.transform, raster.width, raster.height, raster.crs_wkt, extent, resolution)
    cache = None
    source_grid = grid
    if request.cache_folder:
        source_grid = whole_layer_grid(raster.transform, raster.width, raster.height, raster.crs_wkt, resolution)
        cache = CacheRequest(
            request.cache_folder,
            tuple(source_identity(r.path) for r in rasters),
            tuple(tuple(b) for b in bands_per_input),
            source_grid,
            settings.cache_max_bytes(),
        )
    grids = input_grids(model, source_grid)
    sources = tuple(make_source(r, b, g) for r, b, g in zip(rasters, bands_per_input, grids))

    output = request.output_path or _auto_output_path(request.output_folder, layer.name(), model.path)
    if not output.lower().endswith((".tif", ".tiff")):
        output += ".tif"
    confidence = None
    if request.confidence:
        if head.task != TASK_SEGMENTATION:
            raise InputError(f"Output '{head.name}' is a value map, not class scores: it has no confidence; untick it.")
        if not head.dtype.startswith("float"):
            raise InputError("This model outputs class indices, not scores: it cannot give a confidence; untick it.")
        confidence = os.path.splitext(output)[0] + "_confidence.tif"
    core_request = SegmentRequest(
        output_path=output,
        confidence_path=confidence,
        tile_size_px=request.tile_size_px,
        overlap_px=request.overlap_px,
        batch_size=request.batch_size,
        device=request.device,
        cache=cache,
    )
    return PreparedRun(
        model, head, sources, grid, core_request, layer.id(), layer.name(), tuple(wkbs), request.opacity,
        tuple(lyr.id() for lyr in layers), tuple(lyr.name() for lyr in layers),
    )  # fmt: skip


def mask_outside(path: str, wkbs: Sequence[bytes], is_canceled: Callable[[], bool] = lambda: False) -> None:
    """Set a single-band GeoTIFF to its nodata value outside polygons, strip by strip.

    A pixel is inside when its centre is inside a polygon (``rasterio.features.geometry_mask``).

    Raises:
        Canceled: ``is_canceled`` answered True (the file is then partly masked: delete it).
    """
    import rasterio
    import shapely.wkb
    from rasterio.features import geometry_mask
    from rasterio.windows import Window
    from rasterio.windows import transform as window_transform

    shapes = [shapely.wkb.loads(w) for w in wkbs]
    with rasterio.open(path, "r+") as dst:
        nodata = dst.nodata if dst.nodata is not None else CONFIDENCE_NODATA
        for row in range(0, dst.height, _MASK_ROWS):
            if is_canceled():
                raise Canceled()
            window = Window(0, row, dst.width, min(_MASK_ROWS, dst.height - row))
            outside = geometry_mask(
                shapes, out_shape=(int(window.height), int(window.width)),
                transform=window_transform(window, dst.transform), all_touched=False,
            )  # fmt: skip
            if not outside.any():
                continue
            data = dst.read(1, window=window)
            data[outside] = np.asarray(nodata, dtype=data.dtype)
            dst.write(data, 1, window=window)


class SegmentTask(QgsTask):
    """Runs :func:`flair_qgis.core.segment.segment` in the background.

    Args:
        prepared: the run, captured on the main thread.
        done: called on the main thread with the :class:`RunOutcome`.
    """

    def __init__(self, prepared: PreparedRun, done: Callable[[RunOutcome], None]) -> None:
        super().__init__(f"FLAIR: segmenting {prepared.layer_name}", QgsTask.CanCancel)
        self.prepared = prepared
        self.done = done
        self.result: SegmentResult | None = None
        self.error: BaseException | None = None
        self.error_traceback = ""
        self.abandon_reason = ""
        self._share = 100.0 if not prepared.mask_wkbs else 90.0

    def abandon(self, reason: str) -> None:
        """Stop the run because its input went away; :meth:`finished` deletes any output."""
        self.abandon_reason = reason
        self.cancel()

    def _progress(self, percent: float) -> None:
        self.setProgress(percent * self._share / 100.0)

    def run(self) -> bool:
        prepared = self.prepared
        try:
            self.result = segment(
                prepared.model, list(prepared.sources), prepared.grid, prepared.request,
                is_canceled=self.isCanceled, on_progress=self._progress,
            )  # fmt: skip
            if prepared.mask_wkbs:
                for path in (self.result.output_path, self.result.confidence_path, *self.result.head_paths.values()):
                    if path:
                        mask_outside(path, prepared.mask_wkbs, self.isCanceled)
                self.setProgress(100.0)
        except Canceled:
            return False
        except FlairError as err:
            self.error = err
            return False
        except Exception as err:  # reported on the main thread as critical, with the traceback in the log
            self.error = err
            self.error_traceback = traceback.format_exc()
            return False
        return True

    def _discard_outputs(self) -> None:
        request = self.prepared.request
        remove_outputs(request.output_path, request.confidence_path)
        if self.result is not None:  # written completely by the core: the further heads too
            remove_outputs(*self.result.head_paths.values(), self.result.tile_values_path)

    def _add_layers(self, outcome: RunOutcome) -> None:
        """Add the run's maps above the first input layer: class map, confidence, further heads.

        Each goes just above the imagery, so the class map ends on top of the further heads.
        """
        prepared, result = self.prepared, self.result
        anchor = prepared.layer_id
        if prepared.head.task == TASK_SEGMENTATION:
            main = add_class_map(result.output_path, prepared.classes, prepared.title, anchor, opacity=prepared.opacity)
        else:
            main = add_value_map(result.output_path, _value_map_name(prepared.title, prepared.head), anchor)
        main.setCustomProperty("flair_qgis/head", prepared.head.name)
        outcome.layers.append(main)
        if result.confidence_path:
            outcome.layers.append(add_confidence(result.confidence_path, prepared.title + " — confidence", anchor))
        for head in prepared.plan.maps:
            path = result.head_paths.get(head.name)
            if not path:
                continue
            if head.task == TASK_SEGMENTATION:
                layer = add_class_map(
                    path, head.classes, f"{prepared.title} — {head.name}", anchor, opacity=prepared.opacity
                )
                layer.setCustomProperty("flair_qgis/kind", "head_class_map")
            else:
                layer = add_value_map(path, _value_map_name(prepared.title, head), anchor)
            layer.setCustomProperty("flair_qgis/head", head.name)
            outcome.layers.append(layer)

    def finished(self, result: bool) -> None:
        outcome = RunOutcome(status="ok", prepared=self.prepared, result=self.result)
        if self.abandon_reason or self.isCanceled():
            # A cancel that arrives after the last tile still leaves nothing behind.
            self._discard_outputs()
            outcome.status = "abandoned" if self.abandon_reason else "canceled"
            outcome.result = None
        elif not result or self.result is None:
            self._discard_outputs()
            outcome.status = "error" if self.error is not None else "canceled"
            outcome.error = self.error
            outcome.traceback = self.error_traceback
        else:
            try:
                self._add_layers(outcome)
            except OSError as err:
                outcome.status = "error"
                outcome.error = err
                outcome.traceback = traceback.format_exc()
        self.done(outcome)


def _value_map_name(title: str, head: OutputSpec) -> str:
    """Layer name of a regression head's map: the run's title, the head and its unit."""
    unit = f" ({head.unit})" if head.unit else ""
    return f"{title} — {head.name}{unit}"


@dataclass(frozen=True)
class PreparedEvaluation:
    """A "score this view" request captured on the main thread.

    Attributes:
        prediction_path: the class-map file.
        reference: the captured reference (raster file or polygons GeoDataFrame).
        field: class field of a polygon reference.
        protocol: the core scoring protocol.
        extent: ``(xmin, ymin, xmax, ymax)`` in the prediction's CRS, or None for all of it.
        error_map_path: error-map GeoTIFF to write, or None.
        ranked_path: GeoPackage of suspicious labels to write (polygon references), or None.
        confidence_path: confidence raster weighting the suspicion, or None.
        anchor_id: layer the overlays go above (the prediction).
    """

    prediction_path: str
    reference: object
    field: str
    protocol: object
    extent: tuple[float, float, float, float] | None
    error_map_path: str | None = None
    ranked_path: str | None = None
    confidence_path: str | None = None
    anchor_id: str | None = None


@dataclass
class EvaluationOutcome:
    """How a scoring run ended.

    Attributes:
        status: ``ok``, ``canceled`` or ``error``.
        report: the report dict (DESIGN.md format) when ``ok``.
        ranked: the ranked polygons (GeoDataFrame) when asked for.
        error: the exception when ``error``.
        traceback: traceback of an unexpected error.
        layers: overlay layers added (error map, suspicious labels).
    """

    status: str
    prepared: PreparedEvaluation
    report: dict | None = None
    ranked: object | None = None
    error: BaseException | None = None
    traceback: str = ""
    layers: list[QgsMapLayer] = field(default_factory=list)


def prepare_evaluation(
    prediction: QgsMapLayer | None,
    reference: QgsMapLayer | None,
    reference_field: str,
    protocol_name: str,
    view: QgsRectangle | None,
    view_crs: QgsCoordinateReferenceSystem,
    *,
    error_map: bool = False,
    suspicious: bool = False,
    confidence: QgsMapLayer | None = None,
    folder: str = "",
) -> PreparedEvaluation:
    """Capture a scoring of the map view on the main thread.

    Raises:
        InputError: missing or unusable layers (web layers must be saved as files first), bad field.
    """
    from ..core.protocols import get_protocol
    from .reference_input import capture_reference, raster_file

    prediction_path = raster_file(prediction, "class map")
    captured = capture_reference(reference, reference_field)
    protocol = get_protocol(protocol_name)
    extent = None
    if view is not None and not view.isEmpty():
        rect = QgsRectangle(view)
        if view_crs.isValid() and prediction.crs().isValid() and view_crs != prediction.crs():
            rect = QgsCoordinateTransform(view_crs, prediction.crs(), QgsProject.instance()).transformBoundingBox(rect)
        extent = (rect.xMinimum(), rect.yMinimum(), rect.xMaximum(), rect.yMaximum())
    folder = folder or QgsProcessingUtils.tempFolder()
    os.makedirs(folder, exist_ok=True)
    stamp = time.strftime("%Y%m%d_%H%M%S") + f"_{int(time.time() * 1000) % 1000:03d}"
    error_path = os.path.join(folder, f"flair_errors_{stamp}.tif") if error_map else None
    ranked_path = None
    if suspicious and captured.polygons is not None:
        ranked_path = os.path.join(folder, f"flair_suspicious_{stamp}.gpkg")
    confidence_path = None
    if ranked_path and isinstance(confidence, QgsRasterLayer):
        confidence_path = raster_file(confidence, "confidence raster")
    return PreparedEvaluation(
        prediction_path, captured, reference_field, protocol, extent, error_path, ranked_path, confidence_path,
        prediction.id(),
    )  # fmt: skip


class EvaluateTask(QgsTask):
    """Scores a class map against a reference with :mod:`flair_qgis.core.evaluate` in the background."""

    def __init__(self, prepared: PreparedEvaluation, done: Callable[[EvaluationOutcome], None]) -> None:
        super().__init__("FLAIR: scoring the view", QgsTask.CanCancel)
        self.prepared = prepared
        self.done = done
        self.report: dict | None = None
        self.ranked = None
        self.error: BaseException | None = None
        self.error_traceback = ""

    def run(self) -> bool:
        from ..core.evaluate import evaluate_rasters, evaluate_vector

        p = self.prepared
        share = 50.0 if p.ranked_path else 100.0
        try:
            if p.reference.raster_path is not None:
                self.report = evaluate_rasters(
                    p.prediction_path, p.reference.raster_path, p.protocol, extent=p.extent,
                    error_map_path=p.error_map_path, is_canceled=self.isCanceled,
                    on_progress=lambda v: self.setProgress(v * share / 100.0),
                )  # fmt: skip
            else:
                self.report = evaluate_vector(
                    p.prediction_path, p.reference.polygons, p.field, p.protocol, extent=p.extent,
                    error_map_path=p.error_map_path, is_canceled=self.isCanceled,
                    on_progress=lambda v: self.setProgress(v * share / 100.0),
                )  # fmt: skip
            if p.ranked_path:
                from ..core.labels import rank_labels

                self.ranked = rank_labels(
                    p.prediction_path, p.reference.polygons, p.field, p.ranked_path,
                    confidence_path=p.confidence_path, protocol=p.protocol, extent=p.extent,
                    is_canceled=self.isCanceled, on_progress=lambda v: self.setProgress(50.0 + v / 2.0),
                )  # fmt: skip
        except Canceled:
            return False
        except FlairError as err:
            self.error = err
            return False
        except Exception as err:  # reported on the main thread as critical, traceback in the log
            self.error = err
            self.error_traceback = traceback.format_exc()
            return False
        return True

    def finished(self, result: bool) -> None:
        p = self.prepared
        outcome = EvaluationOutcome(status="ok", prepared=p, report=self.report, ranked=self.ranked)
        if not result or self.isCanceled():
            for path in (p.error_map_path, p.ranked_path):
                if path:
                    remove_outputs(path)
            outcome.status = "error" if self.error is not None else "canceled"
            outcome.error = self.error
            outcome.traceback = self.error_traceback
            outcome.report = None
        else:
            if p.error_map_path and os.path.exists(p.error_map_path):
                layer = QgsRasterLayer(p.error_map_path, "FLAIR errors", "gdal")  # loads the .qml sidecar style
                layer.setCustomProperty("flair_qgis/kind", "error_map")
                outcome.layers.append(add_above(layer, p.anchor_id))
            if p.ranked_path and os.path.exists(p.ranked_path):
                layer = QgsVectorLayer(p.ranked_path, "FLAIR suspicious labels", "ogr")
                layer.setCustomProperty("flair_qgis/kind", "suspicious_labels")
                style_suspicious(layer)
                outcome.layers.append(add_above(layer, p.anchor_id))
        self.done(outcome)
