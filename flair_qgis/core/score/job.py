"""The score job: resolve the reference, score, rank suspicious labels, publish the report.

One entry point, :func:`run_score`, behind the dock's "Score this view"
(:mod:`flair_qgis.adapters.evaluate_task`), ``flair:evaluate`` and ``flair:rank_labels``. Each caller
only translates its inputs into a :class:`ScoreRequest` (QGIS layers through
:mod:`flair_qgis.adapters.score_capture`) and shows or publishes the :class:`ScoreResult`.

Steps, each only when the request asks for it:

1. the reference is resolved in the worker (a captured polygon layer reads only the polygons of
   the scored extent);
2. :func:`.evaluate.score`: the figures and, optionally, the error map;
3. :func:`.labels.rank_labels`: the reference polygons, most suspicious first, to a GeoPackage;
4. :func:`.report.publish_report`: the report JSON, its CSV and its confusion picture.

Outputs that would overwrite an input are refused first (:func:`.outputs.check_score_outputs`).
A failure or a cancel at any step, even once the last file is written, deletes every file the
job wrote (with its sidecars), and the error says which: a run leaves its outputs whole or not
at all.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol as Structural
from typing import cast

from ..atomic import JobOutputs, job_outputs
from ..errors import InputError
from .crosswalk import Crosswalk
from .evaluate import Reference, score
from .labels import rank_labels
from .outputs import check_score_outputs
from .protocols import Protocol
from .report import Published, publish_report
from .result import ScoreReport


class ReferenceInput(Structural):
    """A reference still to read: a core :class:`~.evaluate.Reference` (already read) or a QGIS
    layer captured on the main thread (:class:`flair_qgis.adapters.reference_input.CapturedReference`)."""

    def resolve(
        self,
        prediction_path: str,
        extent: tuple | None = None,
        *,
        is_canceled: Callable[[], bool] | None = None,
    ) -> Reference: ...


@dataclass(frozen=True)
class ScoreRequest:
    """What to score, against what, and what to write.

    Attributes:
        prediction_path: the class map (band 1); its grid is the grid scored.
        reference: the reference, resolved in the worker over the scored extent.
        protocol: the scoring protocol (regrouping and ignored values also apply to the ranking).
        extent: ``(xmin, ymin, xmax, ymax)`` in the prediction's CRS; None = the whole prediction.
        class_map: explicit ``value -> code`` alignment of the class map (``CLASS_MAP``).
        crosswalk: which class each reference value counts as (``CROSSWALK``), or None.
        metrics: compute the figures; False only ranks the labels (``flair:rank_labels``).
        error_map_path: error-map GeoTIFF to write, or None.
        ranked_path: GeoPackage of suspicious labels to write (polygon references), or None.
        confidence_path: confidence raster weighting the suspicion, or None.
        report_path: report JSON to publish, or None (the dock exports later, on demand).
        csv_path: per-class CSV beside the report, or None.
        chart_path: confusion picture beside the report, or None (needs ``chart``).
        chart: ``chart(document, path)`` draws the picture (Qt lives in ``adapters/``).
        reference_source: the reference's file or QGIS layer source, which no output may
            overwrite (a raster reference's file is known without it).
    """

    prediction_path: str
    reference: ReferenceInput
    protocol: Protocol
    extent: tuple[float, float, float, float] | None = None
    class_map: Mapping[int, int] | None = None
    crosswalk: Crosswalk | None = None
    metrics: bool = True
    error_map_path: str | None = None
    ranked_path: str | None = None
    confidence_path: str | None = None
    report_path: str | None = None
    csv_path: str | None = None
    chart_path: str | None = None
    chart: Callable[[dict, str], None] | None = None
    reference_source: str | None = None


@dataclass(frozen=True)
class ScoreResult:
    """What a score job produced.

    Attributes:
        report: the figures and their provenance (None when only ranking).
        ranked: the ranked polygons (a GeoDataFrame, most suspicious first), or None.
        published: the report files written, or None.
        alignment_message: how the class map's classes were aligned with the protocol's ("" when unchanged).
        files: every file the job wrote (error map, ranked labels, report and its CSV and picture).
    """

    report: ScoreReport | None
    ranked: object | None = None
    published: Published | None = None
    alignment_message: str = ""
    files: tuple[str, ...] = ()

    def remove_outputs(self) -> tuple[str, ...]:
        """Delete every file the job wrote, with their sidecars; returns the files deleted.

        For a caller that cannot use a finished job after all (the dock's task canceled once the
        job returned, before its overlays are added).
        """
        outputs = JobOutputs()
        outputs.add(*self.files)
        return outputs.remove()

    @property
    def notes(self) -> tuple[str, ...]:
        """What to tell the user beside the figures: the class alignment, then the local CRSs recognised."""
        crs_notes = self.report.crs_recognised if self.report is not None else ()
        return tuple(note for note in (self.alignment_message, *crs_notes) if note)


def run_score(
    request: ScoreRequest,
    is_canceled: Callable[[], bool] = lambda: False,
    on_progress: Callable[[float], None] = lambda percent: None,
) -> ScoreResult:
    """Run a score job: reference, figures, ranking and report, each as the request asks.

    Progress: the figures and the ranking share 0..100 equally when both run.

    Raises:
        InputError: unreadable layers, no overlap, empty extent, classes that cannot be aligned,
            undeclared values, a ranking asked for a raster reference, bad output paths, outputs
            that would overwrite an input (:func:`.outputs.check_score_outputs`, before any read).
        Canceled: ``is_canceled`` answered True; ``removed`` lists the files deleted.
    """
    check_score_outputs(request)
    share = 50.0 if request.metrics and request.ranked_path else 100.0
    report = ranked = published = None
    with job_outputs(is_canceled) as written:
        reference = request.reference.resolve(request.prediction_path, request.extent, is_canceled=is_canceled)
        if request.metrics:
            report = score(
                request.prediction_path,
                reference,
                request.protocol,
                extent=request.extent,
                error_map_path=request.error_map_path,
                class_map=request.class_map,
                crosswalk=request.crosswalk,
                is_canceled=is_canceled,
                on_progress=lambda v: on_progress(v * share / 100.0),
            )
            written.add(report.error_map)
        if request.ranked_path:
            ranked = _rank(request, reference, is_canceled, lambda v: on_progress(100.0 - share + v * share / 100.0))
            written.add(request.ranked_path)
        published = _publish(request, report)
        if published is not None:
            written.add(published.json_path, published.csv_path, published.chart_path)
    if report is not None:
        message = report.class_alignment.describe()
    else:
        message = ranked.attrs["class_alignment"]["message"] if ranked is not None else ""
    return ScoreResult(report, ranked, published, message, tuple(written.files))


def _rank(request: ScoreRequest, reference: Reference, is_canceled, on_progress):
    """The reference polygons ranked by disagreement, written to ``request.ranked_path``."""
    ranked_path = cast(str, request.ranked_path)  # _rank runs only when RANKED_OUTPUT is given
    if reference.polygons is None:
        raise InputError.of("suspicious_needs_polygon_layer")
    return rank_labels(
        request.prediction_path,
        reference.polygons,
        reference.field,
        ranked_path,
        confidence_path=request.confidence_path,
        protocol=request.protocol,
        extent=request.extent,
        class_map=request.class_map,
        crosswalk=request.crosswalk,
        is_canceled=is_canceled,
        on_progress=on_progress,
    )


def _publish(request: ScoreRequest, report: ScoreReport | None) -> Published | None:
    if not request.report_path or report is None:
        return None
    return publish_report(
        report, request.report_path, csv_path=request.csv_path, chart_path=request.chart_path, chart=request.chart
    )
