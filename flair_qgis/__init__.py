"""flair_qgis: segment aerial imagery with ONNX models and score it, inside QGIS."""


def classFactory(iface):
    """The plugin object QGIS loads (imports nothing heavy until QGIS asks for it)."""
    from .plugin import FlairPlugin

    return FlairPlugin(iface)
