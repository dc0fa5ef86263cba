"""``flair:segment``: an ONNX segmentation model over a raster layer extent."""

from __future__ import annotations

from typing import Any

from qgis.core import (
    QgsProcessing,
    QgsProcessingContext,
    QgsProcessingException,
    QgsProcessingFeedback,
    QgsProcessingOutputNumber,
    QgsProcessingOutputString,
    QgsProcessingParameterBoolean,
    QgsProcessingParameterEnum,
    QgsProcessingParameterExtent,
    QgsProcessingParameterFeatureSource,
    QgsProcessingParameterFile,
    QgsProcessingParameterNumber,
    QgsProcessingParameterRasterDestination,
    QgsProcessingParameterRasterLayer,
    QgsProcessingParameterString,
    QgsProcessingParameterVectorDestination,
    QgsRasterLayer,
    QgsVectorLayer,
)

from ..adapters import settings
from ..adapters.mask_input import polygons_wkb, vector_file
from ..adapters.raster_input import layer_grid_extent
from ..adapters.segment_capture import plan_layers
from ..core.describe import guessed_note
from ..core.engine import (
    DEVICES,
    PRECISIONS,
    ModelInfo,
    check_supported,
    cuda_available,
    decide_device,
    parse_band_list,
    read_model_info,
)
from ..core.segment import SegmentRequest, SegmentResult, output_name, run_job
from ..core.vectorize import PolygonOutput
from ..i18n.errors import PROCESSING, note_text
from .base import FlairAlgorithm, tr
from .segment_scheduler import distributed_run, run_distributed
from .vector_params import add_cleaning_parameters, cleaning, style_on_load

MAX_INPUTS = 4


def _suffix(index: int) -> str:
    """Parameter suffix of model input ``index`` (0-based): ``""``, ``"_2"``, ``"_3"``..."""
    return "" if index == 0 else f"_{index + 1}"


class SegmentAlgorithm(FlairAlgorithm):
    """Run a segmentation model tile by tile and write a styled class map."""

    INPUT = "INPUT"
    MODEL = "MODEL"
    EXTENT = "EXTENT"
    BANDS = "BANDS"
    TILE_SIZE = "TILE_SIZE"
    OVERLAP = "OVERLAP"
    BATCH_SIZE = "BATCH_SIZE"
    DEVICE = "DEVICE"
    PRECISION = "PRECISION"
    OUTPUT = "OUTPUT"
    OUTPUT_CONFIDENCE = "OUTPUT_CONFIDENCE"
    SCHEDULER = "SCHEDULER"
    MASK = "MASK"
    CACHE = "CACHE"
    CACHE_REMOTE = "CACHE_REMOTE"
    OUTPUT_VECTOR = "OUTPUT_VECTOR"

    def name(self) -> str:
        return "segment"

    def displayName(self) -> str:
        return tr("Segment raster with ONNX model")

    def shortHelpString(self) -> str:
        return tr(
            "Runs an ONNX semantic-segmentation model over a raster layer (or part of it) in "
            "overlapping tiles and writes a class map styled with the model's classes and "
            "colours, optionally the probability of the winning class.\n\n"
            "BANDS maps layer bands to model channels (e.g. 1,2,3,4,5); without it the bands the "
            "model declares are taken, else the layer bands named like the model's (Red, rouge, NIR...). "
            "MASK (polygons) bounds the run: the maps are nodata outside the polygons. TILE_SIZE and OVERLAP "
            "default to the model's metadata. DEVICE is auto (CUDA when available), cuda or cpu; "
            "the log says which one ran.\n\n"
            "CACHE (a folder) stores each tile's result; later runs over the same ground read it "
            "instead of running the model (same pixels; the log says how many tiles came from it). "
            "Every source file of a VRT is checked: a tile whose source was rewritten is recomputed. "
            "Web and database layers are cached only with CACHE_REMOTE, by their address, for one day.\n\n"
            "SCHEDULER runs the same engine on Dask distributed: local:N (N worker processes) or the "
            "address of a running scheduler (tcp://host:8786). The run then goes into a folder named "
            "after OUTPUT without its extension (chunks/, run.json) and OUTPUT is its mosaic classes.vrt; "
            "running again with the same OUTPUT computes only the missing chunks. Needs dask and "
            "distributed installed (scripts/flair segment is the command-line equivalent).\n\n"
            "OUTPUT_VECTOR also writes the class map as polygons, cleaned by MIN_AREA_M2, FILL_HOLES_M2 "
            "and SIMPLIFY_M as flair:vectorize does."
        )

    def initAlgorithm(self, config: dict[str, Any] | None = None) -> None:
        self._add_inputs()
        self._add_run_options()
        self._add_outputs()

    def _add_inputs(self) -> None:
        """INPUT, MODEL, EXTENT, MASK, BANDS, and the further inputs of multi-input models."""
        self.addParameter(QgsProcessingParameterRasterLayer(self.INPUT, tr("Input raster")))
        self.addParameter(QgsProcessingParameterFile(self.MODEL, tr("ONNX model"), extension="onnx"))
        self.addParameter(QgsProcessingParameterExtent(self.EXTENT, tr("Extent"), optional=True))
        self.addParameter(
            QgsProcessingParameterFeatureSource(
                self.MASK,
                tr("Mask polygons (nodata outside)"),
                [QgsProcessing.SourceType.TypeVectorPolygon],
                optional=True,
            )
        )
        self.addParameter(
            QgsProcessingParameterString(
                self.BANDS, tr("Layer bands for the model's channels (e.g. 1,2,3)"), optional=True
            )
        )
        for index in range(1, MAX_INPUTS):
            self.addParameter(
                QgsProcessingParameterRasterLayer(
                    f"{self.INPUT}{_suffix(index)}", tr("Raster for model input {}").format(index + 1), optional=True
                )
            )
            self.addParameter(
                QgsProcessingParameterString(
                    f"{self.BANDS}{_suffix(index)}", tr("Bands for model input {}").format(index + 1), optional=True
                )
            )

    def _add_run_options(self) -> None:
        """TILE_SIZE, OVERLAP, BATCH_SIZE, DEVICE, CACHE, CACHE_REMOTE."""
        for key, label, default, minimum in (
            (self.TILE_SIZE, tr("Tile size (px, empty = model's)"), None, 32),
            (self.OVERLAP, tr("Overlap between tiles (px, empty = model's)"), None, 0),
            (self.BATCH_SIZE, tr("Tiles per batch"), 4, 1),
        ):
            param = QgsProcessingParameterNumber(
                key,
                label,
                QgsProcessingParameterNumber.Type.Integer,
                default,
                optional=default is None,
                minValue=minimum,
            )
            self.addParameter(param)
        self.addParameter(
            QgsProcessingParameterEnum(
                self.DEVICE, tr("Device"), options=list(DEVICES), defaultValue="auto", usesStaticStrings=True
            )
        )
        self.addParameter(
            QgsProcessingParameterEnum(
                self.PRECISION, tr("Precision"), options=list(PRECISIONS), defaultValue="fp32", usesStaticStrings=True
            )
        )
        self.addParameter(
            QgsProcessingParameterFile(
                self.CACHE, tr("Tile cache folder"), behavior=QgsProcessingParameterFile.Behavior.Folder, optional=True
            )
        )
        self.addParameter(
            QgsProcessingParameterBoolean(
                self.CACHE_REMOTE,
                tr("Cache web and database layers too (for one day, by their address)"),
                defaultValue=False,
                optional=True,
            )
        )

    def _add_outputs(self) -> None:
        """OUTPUT, OUTPUT_CONFIDENCE, SCHEDULER (it decides what OUTPUT becomes) and the numeric outputs."""
        self.addParameter(QgsProcessingParameterRasterDestination(self.OUTPUT, tr("Class map")))
        self.addParameter(
            QgsProcessingParameterRasterDestination(
                self.OUTPUT_CONFIDENCE,
                tr("Confidence (probability of the winning class)"),
                optional=True,
                createByDefault=False,
            )
        )
        self.addParameter(
            QgsProcessingParameterString(
                self.SCHEDULER,
                tr("Dask scheduler: empty (in-process), local:N or tcp://host:port (OUTPUT becomes a folder's VRT)"),
                optional=True,
            )
        )
        self.addParameter(
            QgsProcessingParameterVectorDestination(
                self.OUTPUT_VECTOR,
                tr("Polygons (the class map vectorized)"),
                QgsProcessing.SourceType.TypeVectorPolygon,
                optional=True,
                createByDefault=False,
            )
        )
        add_cleaning_parameters(self)
        self.addOutput(QgsProcessingOutputString("PROVIDER", tr("Execution provider that ran")))
        self.addOutput(QgsProcessingOutputNumber("TILES", tr("Tiles processed")))
        self.addOutput(QgsProcessingOutputNumber("CACHED_TILES", tr("Tiles read from the tile cache")))
        self.addOutput(QgsProcessingOutputNumber("SECONDS", tr("Run time (s)")))
        self.addOutput(QgsProcessingOutputString("OUTPUT_TILE_VALUES", tr("Per-tile values of per-image heads (CSV)")))

    def _optional_int(self, parameters: dict, key: str, context: QgsProcessingContext) -> int | None:
        if parameters.get(key) in (None, ""):
            return None
        return self.parameterAsInt(parameters, key, context)

    def capture(self, parameters: dict, context: QgsProcessingContext) -> None:
        # Runs on the main thread: capture the layers (cloned providers) and plan the job, so that
        # processAlgorithm never touches a layer from its worker thread.
        model = read_model_info(self.parameterAsFile(parameters, self.MODEL, context))
        check_supported(model)
        layers = self._input_layers(parameters, context, model)
        polygons = self._polygons(parameters, context)
        self.job = plan_layers(self._request(parameters, context, layers), model, layers, polygons=polygons)
        scheduler = self.parameterAsString(parameters, self.SCHEDULER, context)
        self.distributed = distributed_run(self.job.plan, self.job.rasters[0], scheduler)
        self.vector_styler = None
        if polygons is not None:  # the polygons are styled when Processing loads them
            classes = self.job.plan.heads.primary.classes
            self.vector_styler = style_on_load(context, polygons.path, tuple(classes))

    def _polygons(self, parameters: dict, context: QgsProcessingContext) -> PolygonOutput | None:
        """OUTPUT_VECTOR and its cleaning options, or None."""
        path = self.parameterAsOutputLayer(parameters, self.OUTPUT_VECTOR, context)
        return PolygonOutput(path, **cleaning(self, parameters, context)) if path else None

    def _vectorize_mosaic(self, feedback: QgsProcessingFeedback, outputs: dict) -> None:
        """A distributed run's polygons, from its mosaic."""
        polygons = self.job.polygons
        if polygons is None:
            return
        feedback.pushInfo(tr("Vectorizing the class map..."))
        result = self.run_core(
            feedback, lambda: polygons.write(outputs[self.OUTPUT], None, feedback.isCanceled, lambda percent: None)
        )
        feedback.pushInfo(tr("{n} polygon(s) written to {path}").format(n=result.polygons, path=result.path))
        outputs[self.OUTPUT_VECTOR] = result.path

    def _extent(self, parameters: dict, context: QgsProcessingContext, primary: QgsRasterLayer):
        """EXTENT in the first layer's CRS, or None for the whole layer."""
        if parameters.get(self.EXTENT) in (None, ""):
            return None
        extent = layer_grid_extent(primary, self.parameterAsExtent(parameters, self.EXTENT, context, primary.crs()))
        if extent is None:
            raise QgsProcessingException(tr("The extent is empty: choose an area with a width and a height."))
        return extent

    def _mask(
        self, parameters: dict, context: QgsProcessingContext, primary: QgsRasterLayer
    ) -> tuple[tuple[bytes, ...], QgsVectorLayer | None]:
        """MASK's polygons as WKB in the first layer's CRS, and its layer; ``((), None)`` without MASK."""
        if parameters.get(self.MASK) in (None, ""):
            return (), None
        source = self.parameterAsSource(parameters, self.MASK, context)
        if source is None:
            raise QgsProcessingException(tr("MASK cannot be read: choose a polygon layer."))
        wkbs = polygons_wkb(source.getFeatures(), source.sourceCrs(), primary.crs())
        return wkbs, self.parameterAsVectorLayer(parameters, self.MASK, context)

    def _request(self, parameters: dict, context: QgsProcessingContext, layers: list[QgsRasterLayer]) -> SegmentRequest:
        """The run's one request: BANDS, EXTENT and MASK (first layer's CRS), outputs, tiling, device, precision."""
        primary = layers[0]
        wkbs, mask_layer = self._mask(parameters, context, primary)
        decision = decide_device(
            self.parameterAsEnumString(parameters, self.DEVICE, context),
            self.parameterAsEnumString(parameters, self.PRECISION, context),
            cuda=cuda_available(),
        ).checked()
        return SegmentRequest(
            output_path=self.parameterAsOutputLayer(parameters, self.OUTPUT, context),
            confidence_path=self.parameterAsOutputLayer(parameters, self.OUTPUT_CONFIDENCE, context) or None,
            bands=tuple(
                parse_band_list(self.parameterAsString(parameters, f"{self.BANDS}{_suffix(i)}", context))
                for i in range(len(layers))
            ),
            extent=self._extent(parameters, context, primary),
            mask_wkbs=wkbs,
            mask_path=vector_file(mask_layer),
            tile_size_px=self._optional_int(parameters, self.TILE_SIZE, context),
            overlap_px=self._optional_int(parameters, self.OVERLAP, context),
            batch_size=self.parameterAsInt(parameters, self.BATCH_SIZE, context),
            device=decision.device,
            precision=decision.precision,
            cache_folder=self.parameterAsFile(parameters, self.CACHE, context) or None,
            cache_max_bytes=settings.cache_max_bytes(),
            cache_remote=self.parameterAsBoolean(parameters, self.CACHE_REMOTE, context),
        )

    def _input_layers(self, parameters: dict, context: QgsProcessingContext, model: ModelInfo) -> list[QgsRasterLayer]:
        """One raster layer per model input: INPUT, INPUT_2, INPUT_3..."""
        if len(model.inputs) > MAX_INPUTS:
            raise QgsProcessingException(
                tr("The model has {} inputs; flair:segment feeds at most {}.").format(len(model.inputs), MAX_INPUTS)
            )
        layers = []
        for index, _spec in enumerate(model.inputs):
            key = f"{self.INPUT}{_suffix(index)}"
            layer = self.parameterAsRasterLayer(parameters, key, context) if parameters.get(key) else None
            if layer is None:
                wanted = ", ".join(
                    f"{self.INPUT}{_suffix(i)} = {s.modality or s.name} ({s.channels} bands)"
                    for i, s in enumerate(model.inputs)
                )
                raise QgsProcessingException(
                    tr("The model has {n} inputs: give a raster layer for each ({wanted}); {key} is missing.").format(
                        n=len(model.inputs), wanted=wanted, key=key
                    )
                )
            layers.append(layer)
        return layers

    def processAlgorithm(
        self, parameters: dict, context: QgsProcessingContext, feedback: QgsProcessingFeedback
    ) -> dict:
        note = guessed_note(self.job.plan.model)
        if note is not None:  # a model described by nobody: say what this run guesses
            feedback.pushWarning(note_text(note, PROCESSING))
        if self.distributed is not None:
            outputs = self.run_core(feedback, lambda: run_distributed(self.distributed, feedback))
            self._vectorize_mosaic(feedback, outputs)  # type: ignore[arg-type]
            return outputs  # type: ignore[return-value]
        is_canceled, on_progress = self.hooks(feedback)
        job, grid = self.job, self.job.plan.grid
        feedback.pushInfo(
            tr("Segmenting {w} x {h} px ({km2:.3f} km²) at {res:g} m with {model}.").format(
                w=grid.width, h=grid.height, km2=grid.area_km2, res=grid.pixel_size_m, model=job.plan.model.path
            )
        )
        outputs: dict = {}
        result = self.run_core(
            feedback, lambda: run_job(job, is_canceled, on_progress, lambda run: self._report(feedback, run, outputs))
        )
        if result.polygons is not None:  # type: ignore[attr-defined]
            written = result.polygons  # type: ignore[attr-defined]
            feedback.pushInfo(tr("{n} polygon(s) written to {path}").format(n=written.polygons, path=written.path))
            outputs[self.OUTPUT_VECTOR] = written.path
        for line in result.segment.tile_value_lines(  # type: ignore[attr-defined]
            tr("Per-image output '{name}': {n} tiles, mean {mean:.4g}, min {lo:.4g}, max {hi:.4g} ({path}).")
        ):
            feedback.pushInfo(line)
        return outputs

    def _report(self, feedback: QgsProcessingFeedback, result: SegmentResult, outputs: dict) -> None:
        """Log the written maps and fill ``outputs``, before the polygons start."""
        for warning in result.warnings:
            feedback.pushWarning(note_text(warning, PROCESSING))
        if result.cache_summary:
            feedback.pushInfo(result.cache_summary)
        feedback.pushInfo(
            tr("{provider} ran {tiles} tile(s) in {s:.1f} s ({rate:.2f} km²/h).").format(
                provider=result.session.provider, tiles=result.tiles, s=result.seconds, rate=result.km2_per_hour
            )
        )
        outputs.update(
            {
                self.OUTPUT: result.output_path,
                self.OUTPUT_CONFIDENCE: result.confidence_path,
                "PROVIDER": result.session.provider,
                "TILES": result.tiles,
                "CACHED_TILES": result.cached_tiles,
                "SECONDS": result.seconds,
                "OUTPUT_TILE_VALUES": result.tile_values_path,
            }
        )
        for name, path in result.head_paths.items():
            feedback.pushInfo(tr("Output '{name}' written to {path}").format(name=name, path=path))
            outputs[output_name(name)] = path
        if self.job.polygons is not None:
            feedback.pushInfo(tr("Vectorizing the class map..."))
