"""QGIS-facing adapters: layers to core inputs, core outputs to styled layers (qgis.core only)."""
