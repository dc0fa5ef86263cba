"""Where a review GeoPackage, and a dock run's unnamed outputs, live: never in a folder QGIS
deletes on exit.

A review holds hours of a photo-interpreter's verdicts. QGIS removes its Processing temporary
folder (``processing_XXXX``) when it quits, so a review written there is lost: the default is a
named file beside the project, or in the plugin's data folder while the project is unsaved, and
a path under the temporary folder is refused. A class map, its polygons, an error map or a
suspicious-labels list the user did not name go to :func:`default_run_folder` for the same reason.
"""

from __future__ import annotations

import os
import re

from qgis.core import QgsApplication, QgsProcessingUtils, QgsProject

from ..i18n import tr


def data_folder(kind: str = "reviews") -> str:
    """The plugin's folder in the QGIS profile for files of unsaved projects (created if needed).

    Args:
        kind: ``reviews`` or ``outputs``.
    """
    folder = os.path.join(QgsApplication.qgisSettingsDirPath(), "flair_qgis", kind)
    os.makedirs(folder, exist_ok=True)
    return folder


def saved_project_folder() -> str | None:
    """The folder of the saved project, or None while it is unsaved (or saved where QGIS deletes it)."""
    project_file = QgsProject.instance().absoluteFilePath()
    if project_file and not is_temporary(project_file):
        return os.path.dirname(project_file)
    return None


def default_run_folder() -> str:
    """Where a dock run writes the files the user named no folder for (created if needed):
    ``flair_outputs`` beside the saved project, else the plugin's ``outputs`` folder in the QGIS
    profile; never QGIS's temporary folder, which QGIS deletes when it quits."""
    project_folder = saved_project_folder()
    if project_folder is None:
        return data_folder("outputs")
    folder = os.path.join(project_folder, "flair_outputs")
    os.makedirs(folder, exist_ok=True)
    return folder


def temporary_folders() -> list[str]:
    """Folders QGIS deletes when it quits (its Processing temporary folder)."""
    return [os.path.realpath(QgsProcessingUtils.tempFolder())]


def is_temporary(path: str) -> bool:
    """Whether ``path`` lies in a folder QGIS deletes on exit."""
    real = os.path.realpath(path)
    return any(real == folder or real.startswith(folder + os.sep) for folder in temporary_folders())


def _stem(class_map_name: str) -> str:
    name = re.sub(r"\.(tiff?|vrt|jp2|img|gpkg)$", "", class_map_name.strip(), flags=re.IGNORECASE)
    cleaned = re.sub(r"[^\w.-]+", "_", name).strip("._")
    return cleaned or "flair"


def default_review_path(class_map_name: str) -> str:
    """A review file that does not exist yet: ``<project>_<class map>_review.gpkg`` beside the
    saved project, else in :func:`data_folder`; ``_2``, ``_3``… when the name is taken."""
    folder = saved_project_folder()
    if folder is not None:
        stem = f"{_stem(QgsProject.instance().baseName())}_{_stem(class_map_name)}_review"
    else:
        folder = data_folder()
        stem = f"{_stem(class_map_name)}_review"
    path = os.path.join(folder, stem + ".gpkg")
    number = 2
    while os.path.exists(path):
        path = os.path.join(folder, f"{stem}_{number}.gpkg")
        number += 1
    return path


def temporary_path_message(path: str) -> str:
    """Why a review path under QGIS's temporary folder is refused, and what to do."""
    return tr(
        "{path} is in QGIS's temporary folder, which QGIS deletes when it quits: the verdicts would be lost. "
        "Choose a review file in a folder of yours, or leave it empty to save beside the project."
    ).format(path=path)


def missing_review_message(path: str) -> str:
    """The last review cannot be found: say where it was."""
    return tr(
        "The last review cannot be found: it was {path}. It was moved or deleted (a review in QGIS's "
        "temporary folder is deleted when QGIS quits); open it where it is now, or create a new one."
    ).format(path=path)
