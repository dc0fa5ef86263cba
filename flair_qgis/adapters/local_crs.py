"""IGN masks whose CRS is an engineering "Lambert-93" without an EPSG code, and the project-only fix.

Seven of the nine FLAIR #1 masks carry ``LOCAL_CS["RGF93 v1 / Lambert-93", ...]``: QGIS cannot
transform it to anything. The rule that recognises it is the one scoring uses
(:func:`flair_qgis.core.crs.recognise_local`); the fix sets the layer's CRS in the project only.
"""

from __future__ import annotations

from qgis.core import QgsCoordinateReferenceSystem, QgsMapLayer

from ..core.crs import LAMBERT_93, recognise_local

LAMBERT93 = f"EPSG:{LAMBERT_93.epsg}"


def is_local_lambert93(crs: QgsCoordinateReferenceSystem) -> bool:
    """Whether a CRS is a local (LOCAL_CS) one without authority code that stands for Lambert-93,
    by the same rule as scoring uses (:func:`flair_qgis.core.crs.recognise_local`)."""
    if not crs.isValid() or crs.authid():
        return False
    match = recognise_local(crs.toWkt())
    return match is not None and match.epsg == LAMBERT_93.epsg


def treat_as_lambert93(layer: QgsMapLayer) -> None:
    """Give a layer EPSG:2154 in the project (its file is not modified) and redraw it."""
    layer.setCrs(QgsCoordinateReferenceSystem(LAMBERT93))
    layer.triggerRepaint()
