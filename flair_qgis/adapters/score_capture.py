"""QGIS layers into the pieces of a score request (:class:`flair_qgis.core.score.ScoreRequest`).

The dock's "Score this view" (:mod:`.evaluate_task`), ``flair:evaluate`` and ``flair:rank_labels``
capture their inputs here, on the main thread, and hand the pieces to the score job: the class
map's file, the reference (a raster file, or a polygon layer to be read in the worker over the
scored extent only, see :mod:`.reference_input`), the confidence raster's file, and the extent in
the class map's CRS. No feature or pixel is read here.
"""

from __future__ import annotations

from qgis.core import QgsCoordinateReferenceSystem, QgsMapLayer, QgsRectangle, QgsVectorLayer

from .layers import extent_in_crs
from .reference_input import CapturedReference, PolygonLayerCapture, capture_reference, raster_file


def prediction_file(layer: QgsMapLayer | None, what: str = "class map") -> str:
    """The file behind the class-map layer.

    Args:
        layer: the class map.
        what: what messages call it (the dock says "class map", Processing "prediction").

    Raises:
        InputError: not a valid raster layer, or a web or database layer.
    """
    return raster_file(layer, what)


def reference_of(layer: QgsMapLayer | None, field: str) -> CapturedReference:
    """A reference layer, raster mask or polygons (with their class ``field``), captured unread.

    Raises:
        InputError: missing, invalid or unopened layer, neither raster nor polygons, bad field.
    """
    return capture_reference(layer, field)


def polygon_reference(layer: QgsVectorLayer, field: str) -> CapturedReference:
    """A polygon reference layer with its class ``field``, captured unread (suspicious labels only).

    Raises:
        InputError: not polygons, or no such field.
    """
    return CapturedReference(layer.name(), field, polygons=PolygonLayerCapture.of(layer, field))


def confidence_file(layer: QgsMapLayer | None) -> str | None:
    """The file behind a confidence raster layer; None without a layer.

    Raises:
        InputError: not a valid raster layer, or a web or database layer.
    """
    return raster_file(layer, "confidence raster") if layer is not None else None


def view_extent(
    view: QgsRectangle | None, view_crs: QgsCoordinateReferenceSystem, layer_crs: QgsCoordinateReferenceSystem
) -> tuple[float, float, float, float] | None:
    """The map view as ``(xmin, ymin, xmax, ymax)`` in the class map's CRS; None (all of it)
    without a view or for an empty one."""
    if view is None or view.isEmpty():
        return None
    return extent_in_crs(view, view_crs, layer_crs)
