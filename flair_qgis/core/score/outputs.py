"""What a score job writes: its default file names, and outputs refused before anything is read.

:func:`score_output_paths` names the dock's overlays (a new error map and a new GeoPackage of
suspicious labels per scoring, in the run folder); :func:`check_score_outputs` refuses a request
whose outputs would overwrite one of its inputs or each other. :func:`.job.run_score` calls it
first, so every shell (the dock, ``flair:evaluate``, ``flair:rank_labels``) gets the same refusal,
named with the Processing parameters.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..paths import check_outputs_not_inputs, check_sidecars_not_input
from .report import SIDECAR_SUFFIXES

if TYPE_CHECKING:
    from .job import ScoreRequest

ERROR_MAP_PREFIX = "flair_errors_"
SUSPICIOUS_PREFIX = "flair_suspicious_"


def score_output_paths(folder: str, stamp: str, error_map: bool, suspicious: bool) -> tuple[str | None, str | None]:
    """The files of one scoring of the dock: ``(error map, suspicious labels)``, None when not asked.

    Args:
        folder: where run outputs go.
        stamp: what makes the names new (the dock's time stamp, to the millisecond).
        error_map: write an error map.
        suspicious: rank the suspicious labels (polygon references only).
    """
    error_path = os.path.join(folder, f"{ERROR_MAP_PREFIX}{stamp}.tif") if error_map else None
    ranked_path = os.path.join(folder, f"{SUSPICIOUS_PREFIX}{stamp}.gpkg") if suspicious else None
    return error_path, ranked_path


def score_inputs(request: ScoreRequest) -> dict[str, str | None]:
    """The files a score job reads, by parameter name: no output may be one of them."""
    reference = request.reference_source or getattr(request.reference, "raster_path", None)
    return {"PREDICTION": request.prediction_path, "REFERENCE": reference, "CONFIDENCE": request.confidence_path}


def check_score_outputs(request: ScoreRequest) -> None:
    """Refuse outputs that would overwrite an input of the job, or one another.

    The report's CSV and picture, written beside it, are checked too.

    Raises:
        InputError: the first clash, naming both parameters (``OUTPUT_REPORT``,
            ``OUTPUT_ERROR_MAP``, ``OUTPUT`` for the ranked labels; ``PREDICTION``, ``REFERENCE``,
            ``CONFIDENCE``).
    """
    inputs = score_inputs(request)
    outputs: Mapping[str, str | None] = {
        "OUTPUT_REPORT": request.report_path,
        "OUTPUT_ERROR_MAP": request.error_map_path,
        "OUTPUT": request.ranked_path,
    }
    check_outputs_not_inputs(outputs, inputs)
    check_sidecars_not_input("OUTPUT_REPORT", request.report_path, SIDECAR_SUFFIXES, inputs)
