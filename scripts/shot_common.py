"""What the desktop screenshot scripts share, run inside QGIS (``qgis --code``): the paths that
scripts/review-screenshot passes, the real patch segmented by the demo model, layers added as a
user would, the failure file and the shot itself. scripts/review-screenshot puts this folder on
``PYTHONPATH``."""

import os

import desktop_steps
from qgis.core import QgsApplication, QgsProject, QgsRasterLayer
from qgis.utils import iface

WORK = os.environ["FLAIR_SHOT_WORK"]
MODEL = os.environ["FLAIR_SHOT_MODEL"]
OUTPUT = os.environ["FLAIR_SHOT_OUTPUT"]
IMAGE = os.path.join(WORK, "IMG_024577.tif")
MASK = os.path.join(WORK, "MSK_024577.tif")


def fail() -> None:
    """Write the traceback beside the screenshot path and quit QGIS with an error."""
    desktop_steps.fail(OUTPUT)


def add(path: str, name: str, visible: bool = True, crs=None) -> QgsRasterLayer:
    """Add a raster to the project (optionally with a CRS given by hand, as for the LOCAL_CS masks)."""
    layer = QgsRasterLayer(path, name)
    if crs is not None:
        layer.setCrs(crs)
    QgsProject.instance().addMapLayer(layer)
    QgsProject.instance().layerTreeRoot().findLayer(layer.id()).setItemVisibilityChecked(visible)
    return layer


def segment_patch() -> dict:
    """``flair:segment`` of the real patch with the demo model: the class map and its confidence."""
    import processing

    return processing.run(
        "flair:segment",
        {"INPUT": IMAGE, "MODEL": MODEL, "OUTPUT": os.path.join(WORK, "classes_024577.tif"),
         "OUTPUT_CONFIDENCE": os.path.join(WORK, "confidence_024577.tif"), "DEVICE": "cpu"},
    )  # fmt: skip


def shoot() -> None:
    """Save the main window as the user sees it and quit QGIS."""
    iface.mainWindow().grab().save(OUTPUT)
    QgsApplication.exit(0)
