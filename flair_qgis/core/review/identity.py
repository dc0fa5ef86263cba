"""Which reference layer a review was drawn from, so that a review is applied to that layer only.

``flair:sample`` records the reference's identity in the review's design table (key
``reference_identity``, JSON); ``flair:apply_review`` computes the identity of the layer it is
given and refuses another layer (:func:`check_reference_identity`). An identity is a dict:

* ``provider``: the QGIS data provider (``gdal``, ``ogr``, ``postgres``, ...);
* ``source``: the absolute file path, or the database and table (never a password);
* ``layer``: the layer inside the source (GeoPackage layer name, table), "" for a plain file;
* ``features``: the feature count (polygons), None for a raster;
* ``size`` and ``modified``: file size in bytes and modification time (ISO, UTC), None for a database.

Another provider, source, layer or feature count is another layer: refused. The same layer with
another modification time was edited (or only rewritten) since sampling: a warning, because
opening a GeoPackage in QGIS can touch its modification time without changing a feature.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from datetime import datetime, timezone

from ..errors import InputError
from ..paths import same_path

_WHAT = {"provider": "provider", "source": "source", "layer": "layer", "features": "feature count"}


def file_identity(path: str, provider: str, layer: str = "", features: int | None = None) -> dict[str, object]:
    """The identity of a layer read from a file (see the module docstring)."""
    path = os.path.abspath(path)
    stat = os.stat(path)
    modified = datetime.fromtimestamp(stat.st_mtime, tz=timezone.utc).isoformat(timespec="seconds")
    return {
        "provider": provider,
        "source": path,
        "layer": layer,
        "features": features,
        "size": stat.st_size,
        "modified": modified,
    }


def _same(key: str, recorded: object, current: object) -> bool:
    if key == "source" and isinstance(recorded, str) and isinstance(current, str) and os.path.isabs(recorded):
        return same_path(recorded, current)
    return recorded == current


def _shown(identity: Mapping[str, object]) -> str:
    layer = f" (layer {identity.get('layer')})" if identity.get("layer") else ""
    count = f", {identity.get('features')} features" if identity.get("features") is not None else ""
    return f"{identity.get('source')}{layer}{count}"


def check_reference_identity(recorded: Mapping[str, object] | None, current: Mapping[str, object] | None) -> list[str]:
    """Refuse a reference other than the one the review was drawn from.

    Args:
        recorded: the identity stored at sampling time (None for reviews made before it was recorded).
        current: the identity of the layer given now (None when unknown).

    Returns:
        Warnings for the log (no recorded identity, or the same layer modified since sampling).

    Raises:
        InputError: another provider, source, layer or feature count; the message names both layers.
    """
    if not recorded:
        return [
            "The review does not record which reference layer it was drawn from (made by an older version): "
            "make sure REFERENCE is that layer, or its items may land on other polygons."
        ]
    if not current:
        return []
    differ = [what for key, what in _WHAT.items() if not _same(key, recorded.get(key), current.get(key))]
    if differ:
        raise InputError.of(
            "review_of_another_reference",
            recorded=_shown(recorded),
            current=_shown(current),
            differ=" and ".join(differ),
        )
    if recorded.get("modified") and current.get("modified") and recorded["modified"] != current["modified"]:
        return [
            f"The reference {_shown(current)} was last modified on {current['modified']}; when the review was "
            f"drawn it was {recorded['modified']}. Its feature count still matches, so the review is applied: "
            "check that no polygon was redrawn since."
        ]
    return []
