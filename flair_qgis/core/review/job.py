"""The review's sampling job: one request, one function, one result.

:func:`create_review` draws the sample of a :class:`~.request.SampleRequest` (the designs:
:mod:`.sampling`; what each item holds: :mod:`.create`), marks the items of a second
interpreter, and writes the review GeoPackage (:mod:`.schema`). ``flair:sample`` and the Review
tab's "New review" both build a request and call it, each with its own cancel and progress hooks.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..atomic import JobOutputs, check_output_path, job_outputs
from ..errors import InputError
from ..paths import check_outputs_not_inputs
from .create import design_table, double_items, label_cells, labels_of, pixel_items, strata_columns, suspicious_items
from .request import SampleRequest, check_request
from .sampling import ConfidenceSplit, Split, class_pixel_areas_m2, sample_pixels
from .schema import create_review_file

__all__ = ["SampleRequest", "SampleResult", "create_review"]


@dataclass(frozen=True)
class SampleResult:
    """What a sampling run wrote.

    Attributes:
        path: the review GeoPackage.
        items: items written.
        strata: pixels (``N_h``) of each stratum inside the extent.
        design: the sampling design.
    """

    path: str
    items: int
    strata: dict[int, int]
    design: str

    def remove_outputs(self) -> tuple[str, ...]:
        """Delete the review GeoPackage the job wrote; returns the files deleted.

        For a caller that cannot use a finished job after all (the Review tab's task canceled
        once the job returned).
        """
        outputs = JobOutputs()
        outputs.add(self.path)
        return outputs.remove()


def create_review(
    request: SampleRequest,
    *,
    is_canceled: Callable[[], bool] | None = None,
    on_progress: Callable[[float], None] | None = None,
) -> SampleResult:
    """Draw the sample of ``request`` and write the review GeoPackage.

    Args:
        request: what to sample (see :class:`SampleRequest`).
        is_canceled: polled between windows; True stops the run.
        on_progress: percent done.

    Returns:
        What was written.

    Raises:
        InputError: bad parameters or inputs (the message says what to do); nothing is written.
        Canceled: on cancel, even one once the GeoPackage is in place: ``removed`` lists the
            files deleted (none unless it was in place).
    """
    check_request(request)
    output_path = _output_path(request)
    split = _strata_split(request)
    if request.design == "suspicious":
        grid, strata, items = suspicious_items(request, is_canceled, on_progress)
    else:
        grid, strata, pixels = sample_pixels(
            request.prediction_path,
            request.design,
            request.samples,
            min_per_class=request.min_per_class,
            seed=request.seed,
            extent=request.extent,
            is_canceled=is_canceled,
            on_progress=on_progress,
            split=split,
        )
        if len(pixels) == 0:
            raise InputError.of("empty_sample")
        items = pixel_items(request, grid, pixels)
    # Its own stream (seed + 1): the sample of a seed stays the same with or without a second interpreter.
    items["double"] = double_items(
        items["stratum"].to_numpy(), request.double_review, np.random.default_rng(request.seed + 1)
    )
    pixel_area_m2 = class_pixel_areas_m2(request.prediction_path, grid, strata, is_canceled=is_canceled, split=split)
    design = design_table(request, grid, strata, items, pixel_area_m2)
    cells = label_cells(request, grid, strata, split, is_canceled) if request.design != "suspicious" else None
    with job_outputs(is_canceled) as written:
        create_review_file(
            output_path, items, strata, pixel_area_m2, design, strata_columns(request.design, strata), cells
        )
        written.add(output_path)
        if on_progress is not None:
            on_progress(100.0)
    return SampleResult(output_path, len(items), dict(strata), request.design)


def _output_path(request: SampleRequest) -> str:
    """The review GeoPackage's path, once it is known to be writable and none of the request's inputs.

    Args:
        request: the sampling request.

    Returns:
        The output path, as :func:`~flair_qgis.core.atomic.check_output_path` gives it.

    Raises:
        InputError: the output cannot be written, or it is the class map, the labels or the confidence.
    """
    output_path = check_output_path(request.output_path, "review GeoPackage")
    # A polygon layer read in the worker is known here by its source only.
    reference = request.reference_raster or _path_or_none(request.reference_polygons) or request.reference_source
    inputs = {"PREDICTION": request.prediction_path, "REFERENCE": reference, "CONFIDENCE": request.confidence_path}
    check_outputs_not_inputs({"OUTPUT": output_path}, inputs)
    return output_path


def _strata_split(request: SampleRequest) -> Split:
    """How the design splits each map class further: by confidence under ``stratified_confidence``
    (with a confidence raster), by the label classes under ``stratified_label``, else not at all.

    Args:
        request: the sampling request (its design, confidence raster and labels).

    Returns:
        A :class:`~.sampling.ConfidenceSplit`, the labels' :class:`~.sampling.LabelSplit`, or None.
    """
    if request.design == "stratified_confidence" and request.confidence_path:
        return ConfidenceSplit(request.confidence_path, request.confidence_threshold, request.low_confidence_share)
    if request.design == "stratified_label":
        return labels_of(request)
    return None


def _path_or_none(reference: object) -> str | None:
    return os.fspath(reference) if isinstance(reference, (str, os.PathLike)) else None
