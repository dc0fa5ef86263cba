"""A headless QGIS for scripts (demo, benchmarks): Processing initialised, flair provider loaded."""

from __future__ import annotations

import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
_KEEP: list = []


def start_qgis():
    """Start QGIS without a display and register the flair Processing provider."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    if str(REPO) not in sys.path:
        sys.path.insert(0, str(REPO))
    from qgis.core import QgsApplication

    app = QgsApplication([], False)
    app.initQgis()
    plugins = os.path.join(QgsApplication.pkgDataPath(), "python", "plugins")
    if plugins not in sys.path:
        sys.path.append(plugins)
    from processing.core.Processing import Processing

    Processing.initialize()
    from flair_qgis.processing.provider import FlairProvider

    provider = FlairProvider()
    if not QgsApplication.processingRegistry().addProvider(provider):
        raise RuntimeError("the flair Processing provider could not be registered")
    _KEEP.extend([app, provider])  # PyQGIS objects must outlive the registry's use of them
    return app
