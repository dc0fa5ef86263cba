"""``flair:vectorize``: a class map (ours or anyone's) to one polygon per connected region."""

from __future__ import annotations

import os
from typing import Any

from qgis.core import (
    QgsProcessing,
    QgsProcessingContext,
    QgsProcessingException,
    QgsProcessingFeedback,
    QgsProcessingOutputNumber,
    QgsProcessingParameterExtent,
    QgsProcessingParameterRasterLayer,
    QgsProcessingParameterString,
    QgsProcessingParameterVectorDestination,
)

from ..adapters.deps import require_vectorize
from ..adapters.raster_input import layer_grid_extent
from ..core.errors import InputError
from ..core.vectorize import VectorizeRequest, check_request, parse_classes, vectorize
from .base import FlairAlgorithm, tr
from .vector_params import add_cleaning_parameters, cleaning, style_on_load


class VectorizeAlgorithm(FlairAlgorithm):
    """Polygons of a class map, with area, class name, mean confidence and provenance."""

    PREDICTION = "PREDICTION"
    CONFIDENCE = "CONFIDENCE"
    EXTENT = "EXTENT"
    CLASSES = "CLASSES"
    OUTPUT = "OUTPUT"

    def name(self) -> str:
        return "vectorize"

    def displayName(self) -> str:
        return tr("Vectorize class map to polygons")

    def shortHelpString(self) -> str:
        return tr(
            "Turns a class map into one polygon per connected region (pixels touching by an edge; two "
            "regions touching only at a corner stay two), in layer 'predictions' with fields class, name, "
            "area_m2 (true square metres for any CRS), confidence (mean of CONFIDENCE over the region), "
            "model, source and created. Without cleaning the polygons give back the class map pixel for "
            "pixel; nodata stays out.\n\n"
            "MIN_AREA_M2 merges each smaller region into the neighbour sharing its longest boundary (the "
            "total area is kept). FILL_HOLES_M2 absorbs smaller regions enclosed by one region. SIMPLIFY_M "
            "simplifies each shared boundary once for both neighbours: no gap, no overlap. CLASSES keeps "
            "only the listed values (e.g. 1,3).\n\n"
            "The raster is read band by band, so memory does not grow with its size."
        )

    def initAlgorithm(self, config: dict[str, Any] | None = None) -> None:
        self.addParameter(QgsProcessingParameterRasterLayer(self.PREDICTION, tr("Class map")))
        self.addParameter(
            QgsProcessingParameterRasterLayer(self.CONFIDENCE, tr("Confidence raster (optional)"), optional=True)
        )
        self.addParameter(QgsProcessingParameterExtent(self.EXTENT, tr("Extent"), optional=True))
        add_cleaning_parameters(self)
        self.addParameter(
            QgsProcessingParameterString(
                self.CLASSES, tr("Class values to keep (e.g. 1,3; empty = all)"), optional=True
            )
        )
        self.addParameter(
            QgsProcessingParameterVectorDestination(
                self.OUTPUT, tr("Polygons"), QgsProcessing.SourceType.TypeVectorPolygon
            )
        )
        self.addOutput(QgsProcessingOutputNumber("POLYGONS", tr("Polygons written")))

    def capture(self, parameters: dict[str, Any], context: QgsProcessingContext) -> None:
        layer = self.parameterAsRasterLayer(parameters, self.PREDICTION, context)
        if layer is None:
            raise InputError(tr("PREDICTION is missing: choose a class-map raster."))
        confidence = self.parameterAsRasterLayer(parameters, self.CONFIDENCE, context)
        extent = None
        if parameters.get(self.EXTENT) not in (None, ""):
            extent = layer_grid_extent(layer, self.parameterAsExtent(parameters, self.EXTENT, context, layer.crs()))
            if extent is None:
                raise InputError(tr("The extent is empty: choose an area with a width and a height."))
        self.request = VectorizeRequest(
            prediction_path=_file_of(layer, "PREDICTION"),
            output_path=self.parameterAsOutputLayer(parameters, self.OUTPUT, context),
            confidence_path=_file_of(confidence, "CONFIDENCE") if confidence is not None else None,
            extent=extent,
            classes=parse_classes(self.parameterAsString(parameters, self.CLASSES, context)),
            **cleaning(self, parameters, context),
        )
        require_vectorize(self.request.min_area_m2, self.request.fill_holes_m2)
        source = check_request(self.request)
        self.styler = style_on_load(context, self.request.output_path, source.classes)

    def processAlgorithm(
        self, parameters: dict[str, Any], context: QgsProcessingContext, feedback: QgsProcessingFeedback
    ) -> dict[str, Any]:
        is_canceled, on_progress = self.hooks(feedback)
        result = self.run_core(feedback, lambda: vectorize(self.request, is_canceled, on_progress))
        if self.styler is not None:
            self.styler.classes = result.classes  # type: ignore[attr-defined]
        feedback.pushInfo(tr("{n} polygon(s) written to {path}").format(n=result.polygons, path=result.path))
        return {self.OUTPUT: result.path, "POLYGONS": result.polygons}


def _file_of(layer, what: str) -> str:
    """The local file behind a raster layer."""
    path = layer.source().split("|")[0]
    if layer.providerType() != "gdal" or not os.path.isfile(path):
        raise QgsProcessingException(
            tr("{what} must be a raster file (GeoTIFF, VRT...); {name} is not one. Save it as a GeoTIFF first.").format(
                what=what, name=layer.name()
            )
        )
    return path
