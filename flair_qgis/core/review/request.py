"""What a review's sampling is asked for: :class:`SampleRequest`, captured on the main thread by
the Review tab and by ``flair:sample``, and :func:`check_request`, which refuses bad parameters
before anything is read."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import InputError
from ..vocabulary import DESIGNS, STRATIFIED_DESIGNS


@dataclass(frozen=True)
class SampleRequest:
    """What ``flair:sample`` needs, captured from layers on the main thread.

    Attributes:
        prediction_path: the class map under assessment.
        output_path: the review GeoPackage to write.
        design: one of :data:`~flair_qgis.core.sampling.DESIGNS`.
        samples: total number of items.
        min_per_class: stratified only: minimum items per stratum.
        seed: random seed.
        reference_raster: a reference mask file, or None.
        reference_polygons: reference polygons (GeoDataFrame or vector file), or None.
        reference_field: class field of the polygons.
        reference_name: the reference layer's name (recorded in the design table).
        reference_identity: which layer the reference is (:mod:`.identity`), recorded so that
            ``flair:apply_review`` refuses another one; None: the raster file's, else unknown.
        confidence_path: optional confidence raster (required by ``stratified_confidence``).
        extent: only this area (prediction CRS), or None.
        confidence_threshold: ``stratified_confidence``: band "high" is confidence >= this.
        low_confidence_share: ``stratified_confidence``: share of ``samples`` in the low band.
        double_review: share (0..1) of items marked ``double = 1`` for a second interpreter,
            spread over the strata (:func:`double_items`).
        reference_source: where the labels are read from (file path or data-source URI without
            password), recorded so that a resumed review reloads them.
        reference_provider: the QGIS provider of ``reference_source`` (``ogr``, ``postgres``…).
    """

    prediction_path: str
    output_path: str
    design: str = "stratified"
    samples: int = 100
    min_per_class: int = 5
    seed: int = 0
    reference_raster: str | None = None
    reference_polygons: object | None = None
    reference_field: str = ""
    reference_name: str = ""
    reference_identity: dict | None = None
    confidence_path: str | None = None
    extent: tuple[float, float, float, float] | None = None
    confidence_threshold: float = 0.7
    low_confidence_share: float = 0.5
    double_review: float = 0.0
    reference_source: str = ""
    reference_provider: str = ""


def check_request(request: SampleRequest) -> None:
    """Refuse a request whose parameters cannot make a review.

    Raises:
        InputError: unknown design, no items, ``MIN_PER_CLASS`` below 2 under a stratified design,
            a share out of range, or ``stratified_confidence``
            without its confidence raster or with a threshold out of range.
    """
    if request.design not in DESIGNS:
        raise InputError.of("unknown_design", design=request.design, choices=", ".join(DESIGNS))
    if request.samples <= 0:
        raise InputError.of("too_few_samples", samples=request.samples)
    if request.design in STRATIFIED_DESIGNS and request.min_per_class < 2:
        raise InputError.of("min_per_class_too_low", value=request.min_per_class)
    if not 0.0 <= request.double_review <= 1.0:
        raise InputError.of("bad_double_review", value=request.double_review)
    if request.design == "stratified_label" and not request.reference_raster and request.reference_polygons is None:
        raise InputError.of("label_design_needs_reference")
    if request.design == "stratified_confidence":
        if not request.confidence_path:
            raise InputError.of("confidence_design_needs_raster")
        if not 0.0 < request.confidence_threshold <= 1.0:
            raise InputError.of("bad_confidence_threshold", value=request.confidence_threshold)
        if not 0.0 <= request.low_confidence_share <= 1.0:
            raise InputError.of("bad_low_confidence_share", value=request.low_confidence_share)
