"""``flair:segment``: an ONNX segmentation model over a raster layer extent."""

from __future__ import annotations

from typing import Any

from qgis.core import (
    QgsProcessingContext,
    QgsProcessingException,
    QgsProcessingFeedback,
    QgsProcessingOutputNumber,
    QgsProcessingOutputString,
    QgsProcessingParameterExtent,
    QgsProcessingParameterFile,
    QgsProcessingParameterNumber,
    QgsProcessingParameterRasterDestination,
    QgsProcessingParameterRasterLayer,
    QgsProcessingParameterString,
)

from ..adapters.raster_input import capture_raster, layer_grid_extent, make_source
from ..core.engine import DEVICES
from ..core.errors import FlairError
from ..core.grid import plan_grid
from ..core.model import read_model_info
from ..core.segment import SegmentRequest, check_supported, segment
from ..core.sources import parse_band_list, validate_bands_for_model
from .base import FlairAlgorithm, tr


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
    OUTPUT = "OUTPUT"
    OUTPUT_CONFIDENCE = "OUTPUT_CONFIDENCE"

    def name(self) -> str:
        return "segment"

    def displayName(self) -> str:  # noqa: N802
        return tr("Segment raster with ONNX model")

    def shortHelpString(self) -> str:  # noqa: N802
        return tr(
            "Runs an ONNX semantic-segmentation model over a raster layer (or part of it) in "
            "overlapping tiles and writes a class map styled with the model's classes and "
            "colours, optionally the probability of the winning class.\n\n"
            "BANDS maps layer bands to model channels (e.g. 1,2,3,4,5). TILE_SIZE and OVERLAP "
            "default to the model's metadata. DEVICE is auto (CUDA when available), cuda or cpu; "
            "the log says which one ran."
        )

    def initAlgorithm(self, config: dict[str, Any] | None = None) -> None:  # noqa: N802
        self.addParameter(QgsProcessingParameterRasterLayer(self.INPUT, tr("Input raster")))
        self.addParameter(
            QgsProcessingParameterFile(self.MODEL, tr("ONNX model"), extension="onnx")
        )
        self.addParameter(QgsProcessingParameterExtent(self.EXTENT, tr("Extent"), optional=True))
        self.addParameter(
            QgsProcessingParameterString(
                self.BANDS, tr("Layer bands for the model's channels (e.g. 1,2,3)"), optional=True
            )
        )
        for key, label, default, minimum in (
            (self.TILE_SIZE, tr("Tile size (px, empty = model's)"), None, 32),
            (self.OVERLAP, tr("Overlap between tiles (px, empty = model's)"), None, 0),
            (self.BATCH_SIZE, tr("Tiles per batch"), 4, 1),
        ):
            param = QgsProcessingParameterNumber(
                key, label, QgsProcessingParameterNumber.Integer, default, optional=default is None, minValue=minimum
            )
            self.addParameter(param)
        self.addParameter(
            QgsProcessingParameterString(self.DEVICE, tr("Device: auto, cuda or cpu"), defaultValue="auto")
        )
        self.addParameter(QgsProcessingParameterRasterDestination(self.OUTPUT, tr("Class map")))
        self.addParameter(
            QgsProcessingParameterRasterDestination(
                self.OUTPUT_CONFIDENCE, tr("Confidence (probability of the winning class)"),
                optional=True, createByDefault=False,
            )  # fmt: skip
        )
        self.addOutput(QgsProcessingOutputString("PROVIDER", tr("Execution provider that ran")))
        self.addOutput(QgsProcessingOutputNumber("TILES", tr("Tiles processed")))
        self.addOutput(QgsProcessingOutputNumber("SECONDS", tr("Run time (s)")))

    def _optional_int(self, parameters: dict, key: str, context: QgsProcessingContext) -> int | None:
        if parameters.get(key) in (None, ""):
            return None
        return self.parameterAsInt(parameters, key, context)

    def prepareAlgorithm(self, parameters: dict, context: QgsProcessingContext, feedback: QgsProcessingFeedback) -> bool:  # noqa: N802
        # Runs on the main thread: capture the layer (cloned provider) and check the request,
        # so that processAlgorithm never touches a layer from its worker thread.
        layer = self.parameterAsRasterLayer(parameters, self.INPUT, context)
        if layer is None:
            raise QgsProcessingException(tr("INPUT is not a raster layer QGIS can open."))
        model_path = self.parameterAsFile(parameters, self.MODEL, context)
        try:
            self.model = read_model_info(model_path)
            check_supported(self.model)
            resolution = self.model.resolution_m if not layer.crs().isGeographic() else None
            self.raster = capture_raster(layer, resolution)
            bands = validate_bands_for_model(
                parse_band_list(self.parameterAsString(parameters, self.BANDS, context)),
                self.model.input.channels,
                self.raster.band_count,
            )
            extent = None
            if parameters.get(self.EXTENT) not in (None, ""):
                extent = layer_grid_extent(layer, self.parameterAsExtent(parameters, self.EXTENT, context, layer.crs()))
                if extent is None:
                    raise QgsProcessingException(tr("The extent is empty: choose an area with a width and a height."))
            self.grid = plan_grid(
                self.raster.transform, self.raster.width, self.raster.height, self.raster.crs_wkt, extent, resolution
            )
            self.source = make_source(self.raster, bands, self.grid)
            device = self.parameterAsString(parameters, self.DEVICE, context).strip().lower() or "auto"
            if device not in DEVICES:
                raise QgsProcessingException(tr("DEVICE must be auto, cuda or cpu, got '{}'.").format(device))
            confidence = self.parameterAsOutputLayer(parameters, self.OUTPUT_CONFIDENCE, context) or None
            self.request = SegmentRequest(
                output_path=self.parameterAsOutputLayer(parameters, self.OUTPUT, context),
                confidence_path=confidence,
                tile_size_px=self._optional_int(parameters, self.TILE_SIZE, context),
                overlap_px=self._optional_int(parameters, self.OVERLAP, context),
                batch_size=self.parameterAsInt(parameters, self.BATCH_SIZE, context),
                device=device,
            )
        except FlairError as err:
            raise QgsProcessingException(str(err)) from err
        if self.raster.crs_wkt is None:
            feedback.pushWarning(tr("The layer has no CRS: the class map will have none either."))
        return True

    def processAlgorithm(self, parameters: dict, context: QgsProcessingContext, feedback: QgsProcessingFeedback) -> dict:  # noqa: N802
        is_canceled, on_progress = self.hooks(feedback)
        grid = self.grid
        feedback.pushInfo(
            tr("Segmenting {w} x {h} px ({km2:.3f} km²) at {res:g} m with {model}.").format(
                w=grid.width, h=grid.height, km2=grid.area_km2, res=grid.pixel_size_m, model=self.model.path
            )
        )
        result = self.run_core(
            feedback,
            lambda: segment(self.model, self.source, grid, self.request, is_canceled=is_canceled, on_progress=on_progress),
        )
        for warning in result.warnings:
            feedback.pushWarning(warning)
        feedback.pushInfo(
            tr("{provider} ran {tiles} tiles in {s:.1f} s ({rate:.2f} km²/h).").format(
                provider=result.session.provider, tiles=result.tiles, s=result.seconds, rate=result.km2_per_hour
            )
        )
        return {
            self.OUTPUT: result.output_path,
            self.OUTPUT_CONFIDENCE: result.confidence_path,
            "PROVIDER": result.session.provider,
            "TILES": result.tiles,
            "SECONDS": result.seconds,
        }
