"""CRS comparison shared by every job: equal in substance, and local CRSs that cannot be reprojected.

:func:`same_crs` treats CRSs equal in substance as equal: the FLAIR masks carry a ``LOCAL_CS``
named "RGF93 v1 / Lambert-93" without EPSG code while the images carry EPSG:2154.
"""

from __future__ import annotations

import contextlib
import re

import rasterio.errors
from rasterio.crs import CRS

_CRS_NAME = re.compile(r'^\s*(?:LOCAL_CS|PROJCS|GEOGCS|PROJCRS|GEOGCRS|ENGCRS|ENGINEERINGCRS)\s*\[\s*"([^"]*)"')

_METRE = re.compile(r'UNIT\s*\[\s*"(metre|meter|m)"', re.IGNORECASE)


def _crs(wkt: str | None) -> CRS | None:
    if not wkt:
        return None
    try:
        return CRS.from_user_input(wkt)
    except rasterio.errors.CRSError:
        return None


def _name(wkt: str) -> str | None:
    match = _CRS_NAME.match(wkt)
    return match.group(1).strip().lower() if match else None


def same_crs(a_wkt: str | None, b_wkt: str | None) -> bool:
    """True when two CRSs are the same in substance.

    Equal when either is missing (nothing to compare), when GDAL says so, when both resolve to
    the same EPSG code, or when one is a ``LOCAL_CS`` (no datum, metres) bearing the name of the
    other (e.g. FLAIR's ``LOCAL_CS["RGF93 v1 / Lambert-93"]`` and EPSG:2154).
    """
    if not a_wkt or not b_wkt or a_wkt == b_wkt:
        return True
    a, b = _crs(a_wkt), _crs(b_wkt)
    if a is not None and b is not None:
        if a == b:
            return True
        with contextlib.suppress(rasterio.errors.CRSError):
            epsg_a, epsg_b = a.to_epsg(), b.to_epsg()
            if epsg_a is not None and epsg_a == epsg_b:
                return True
    a_local = a_wkt.lstrip().upper().startswith(("LOCAL_CS", "ENGCRS", "ENGINEERINGCRS"))
    b_local = b_wkt.lstrip().upper().startswith(("LOCAL_CS", "ENGCRS", "ENGINEERINGCRS"))
    if a_local or b_local:
        name_a, name_b = _name(a_wkt), _name(b_wkt)
        units_ok = bool(_METRE.search(a_wkt)) == bool(_METRE.search(b_wkt))
        return name_a is not None and name_a == name_b and units_ok
    return False


def is_local(wkt: str | None) -> bool:
    """True for a CRS that cannot be reprojected (``LOCAL_CS`` / engineering CRS)."""
    return wkt is not None and wkt.lstrip().upper().startswith(("LOCAL_CS", "ENGCRS", "ENGINEERINGCRS"))
