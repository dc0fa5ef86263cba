"""The classes a class-map raster declares, read from its tags: shared by every job that reads a class map.

``flair:segment`` writes them as the band tag ``CLASSES`` (JSON ``[{value, name, color}]``); other
class maps may carry GDAL category names in their ``.aux.xml``. Scoring aligns them with a
protocol, vectorising names its polygons with them, a review names its strata.

Public API: :func:`raster_classes`.
"""

from __future__ import annotations

import json
import os

from .nomenclature import ClassInfo
from .safe_xml import XmlRefused, parse_file


def raster_classes(path: str) -> tuple[ClassInfo, ...]:
    """The classes a class-map raster declares: ``flair:segment``'s band tag ``CLASSES``, else
    GDAL category names (``.aux.xml``); empty when it declares none."""
    import rasterio

    with rasterio.open(path) as src:
        text = src.tags(1).get("CLASSES")
    if text:
        try:
            return tuple(ClassInfo(int(c["value"]), str(c["name"]), str(c.get("color", ""))) for c in json.loads(text))
        except (ValueError, KeyError, TypeError, AttributeError):
            return ()
    return _pam_categories(path + ".aux.xml")


def _pam_categories(aux_path: str) -> tuple[ClassInfo, ...]:
    """Category names of band 1 in a GDAL PAM sidecar (value = position), empty names skipped."""
    if not os.path.exists(aux_path):
        return ()
    try:
        root = parse_file(aux_path)
    except (OSError, XmlRefused):
        return ()
    for band in root.iter("PAMRasterBand"):
        if band.get("band", "1") != "1":
            continue
        categories = band.find("CategoryNames")
        if categories is None:
            return ()
        return tuple(
            ClassInfo(i, (c.text or "").strip(), "") for i, c in enumerate(categories) if (c.text or "").strip()
        )
    return ()
