"""CRS comparison shared by every job: equal in substance, and local CRSs that cannot be reprojected.

:func:`same_crs` treats CRSs equal in substance as equal: the FLAIR masks carry a ``LOCAL_CS``
named "RGF93 v1 / Lambert-93" without EPSG code while the images carry EPSG:2154.

:func:`recognise_local` reads such a ``LOCAL_CS`` (or WKT2 ``ENGCRS``) itself, from its name,
units and any projection parameters, and names the EPSG CRS it matches. It does not ask GDAL or
PROJ: how they guess at a local CRS changed between GDAL 3.6 and 3.13 (Debian 12 vs forky), and
the same mask must be scored the same way on both. A local CRS that matches nothing stays local
and cannot be reprojected. rasterio is imported only where a CRS is built: the plugin's start-up
(the dock's CRS offer) uses :func:`recognise_local` on QGIS installs without rasterio too.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rasterio.crs import CRS

_CRS_NAME = re.compile(r'^\s*(?:LOCAL_CS|PROJCS|GEOGCS|PROJCRS|GEOGCRS|ENGCRS|ENGINEERINGCRS)\s*\[\s*"([^"]*)"')

_METRE = re.compile(r'UNIT\s*\[\s*"(metre|meter|m)"', re.IGNORECASE)


def _crs(wkt: str | None) -> CRS | None:
    import rasterio.errors
    from rasterio.crs import CRS

    if not wkt:
        return None
    try:
        return CRS.from_user_input(wkt)
    except rasterio.errors.CRSError:
        return None


def _name(wkt: str) -> str | None:
    match = _CRS_NAME.match(wkt)
    return match.group(1).strip().lower() if match else None


@dataclass(frozen=True)
class KnownCrs:
    """A projected CRS a local CRS may stand for: its EPSG code, names and projection parameters."""

    epsg: int
    names: tuple[str, ...]
    parameters: dict[str, float]


# Names are compared lower-case with everything but letters and digits removed, so
# "RGF93 v1 / Lambert-93", "RGF93_Lambert_93" and "Lambert 93" all read as written here.
LAMBERT_93 = KnownCrs(
    epsg=2154,
    names=("rgf93v1lambert93", "rgf93lambert93", "lambert93", "rgf93lambert93conformalconic"),
    parameters={
        "latitude_of_origin": 46.5,
        "central_meridian": 3.0,
        "standard_parallel_1": 49.0,
        "standard_parallel_2": 44.0,
        "false_easting": 700000.0,
        "false_northing": 6600000.0,
    },
)
KNOWN_CRSS = (LAMBERT_93,)

_PARAMETER = re.compile(r'PARAMETER\s*\[\s*"([^"]+)"\s*,\s*([-+0-9.eE]+)', re.IGNORECASE)
_UNIT = re.compile(r'(?:LENGTHUNIT|UNIT)\s*\[\s*"([^"]+)"\s*,\s*([-+0-9.eE]+)', re.IGNORECASE)
_PARAMETER_ALIASES = {
    "latitude_of_false_origin": "latitude_of_origin",
    "longitude_of_false_origin": "central_meridian",
    "longitude_of_origin": "central_meridian",
    "latitude_of_1st_standard_parallel": "standard_parallel_1",
    "latitude_of_2nd_standard_parallel": "standard_parallel_2",
    "easting_at_false_origin": "false_easting",
    "northing_at_false_origin": "false_northing",
}


@dataclass(frozen=True)
class LocalMatch:
    """A local CRS recognised as an EPSG one, and why."""

    epsg: int
    name: str
    reason: str

    def describe(self, what: str) -> str:
        return f'The {what}\'s local CRS "{self.name}" is taken as EPSG:{self.epsg} ({self.reason}).'


def recognise_local(wkt: str | None) -> LocalMatch | None:
    """The EPSG CRS a ``LOCAL_CS``/``ENGCRS`` stands for, read from its WKT alone; None when none.

    It matches when its name is one of a known CRS's names, its linear unit is the metre (the
    default when the WKT names none), and every projection parameter it carries (rare in a
    ``LOCAL_CS``) has the known CRS's value.
    """
    if wkt is None or not is_local(wkt):
        return None
    found = _CRS_NAME.match(wkt)
    name = found.group(1).strip() if found else ""
    key = re.sub(r"[^a-z0-9]", "", name.lower())
    units = [(unit.lower(), float(factor)) for unit, factor in _UNIT.findall(wkt)]
    if any(unit not in ("metre", "meter", "m") or factor != 1.0 for unit, factor in units):
        return None
    parameters = {
        _PARAMETER_ALIASES.get(p.lower().replace(" ", "_"), p.lower().replace(" ", "_")): float(v)
        for p, v in _PARAMETER.findall(wkt)
    }
    for known in KNOWN_CRSS:
        if key not in known.names:
            continue
        if any(abs(known.parameters.get(p, v) - v) > 1e-9 for p, v in parameters.items()):
            return None
        checked = "name, metre units and projection parameters" if parameters else "name and metre units"
        return LocalMatch(known.epsg, name, f"{checked} match EPSG:{known.epsg}")
    return None


@lru_cache(maxsize=8)
def _epsg_wkt(epsg: int) -> str:
    from rasterio.crs import CRS

    return CRS.from_epsg(epsg).to_wkt()


def effective_wkt(wkt: str | None) -> str | None:
    """``wkt``, or the WKT of the EPSG CRS it stands for when it is a recognised local CRS."""
    match = recognise_local(wkt)
    return _epsg_wkt(match.epsg) if match is not None else wkt


def same_crs(a_wkt: str | None, b_wkt: str | None) -> bool:
    """True when two CRSs are the same in substance.

    Equal when either is missing (nothing to compare), when GDAL says so, when both resolve to
    the same EPSG code, when one is a local CRS recognised as the other's EPSG code (see
    :func:`recognise_local`), or when one is a ``LOCAL_CS`` (no datum, metres) bearing the name
    of the other.
    """
    if not a_wkt or not b_wkt or a_wkt == b_wkt:
        return True
    a, b = _crs(effective_wkt(a_wkt)), _crs(effective_wkt(b_wkt))
    if a is not None and b is not None:
        if a == b:
            return True
        import rasterio.errors

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
    """True for a local CRS (``LOCAL_CS`` / engineering CRS), reprojectable only once recognised."""
    return wkt is not None and wkt.lstrip().upper().startswith(("LOCAL_CS", "ENGCRS", "ENGINEERINGCRS"))


def cannot_reproject(wkt: str | None) -> bool:
    """True for a local CRS that :func:`recognise_local` does not recognise."""
    return is_local(wkt) and recognise_local(wkt) is None
