"""Where the files shipped with the plugin (icons, styles, demo model) lie.

A leaf module (it imports nothing of the plugin), so that the package's ``__init__``, the plugin
shell, the dock and the Processing provider can all use it without an import loop.
"""

from __future__ import annotations

import os

_HERE = os.path.dirname(os.path.abspath(__file__))
# An installed plugin carries its resources inside the package (make package copies them);
# in the source tree they sit at the repository's top level.
_RESOURCES = next(
    (
        d
        for d in (os.path.join(_HERE, "resources"), os.path.join(os.path.dirname(_HERE), "resources"))
        if os.path.isdir(d)
    ),
    os.path.join(_HERE, "resources"),
)


def resources_path(*parts: str) -> str:
    """Absolute path of a file shipped with the plugin (icons, styles, demo model)."""
    return os.path.join(_RESOURCES, *parts)
