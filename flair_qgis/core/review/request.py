"""What a review's sampling is asked for: :class:`SampleRequest`, captured on the main thread by
the Review tab and by ``flair:sample``, and :func:`check_request`, which refuses bad parameters
before anything is read. :func:`check_design` is its rule on the design alone, which the Review tab
asks while the person is still choosing (the refusals carry the same keys, worded for the dock)."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import InputError
from ..score import Crosswalk
from ..vocabulary import DESIGNS, STRATIFIED_DESIGNS

DEFAULT_SAMPLES = 200
"""Items of a review when the user does not say: the default of ``flair:sample`` and of the Review tab."""
MIN_PER_CLASS_LOWEST = 2
"""The least ``MIN_PER_CLASS`` of a stratified design (a stratum of one item has no variance)."""


@dataclass(frozen=True)
class SampleRequest:
    """What ``flair:sample`` needs, captured from layers on the main thread.

    Attributes:
        prediction_path: the class map under assessment.
        output_path: the review GeoPackage to write.
        design: one of :data:`~flair_qgis.core.vocabulary.DESIGNS`.
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
        crosswalk: which map class each reference value counts as (``CROSSWALK``: text codes,
            several codes to one class); items then also keep the reference's own code.
    """

    prediction_path: str
    output_path: str
    design: str = "stratified"
    samples: int = DEFAULT_SAMPLES
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
    crosswalk: Crosswalk | None = None


def check_request(request: SampleRequest) -> None:
    """Refuse a request whose parameters cannot make a review (:func:`check_design` on its fields).

    Raises:
        InputError: see :func:`check_design`.
    """
    check_design(
        request.design,
        samples=request.samples,
        min_per_class=request.min_per_class,
        double_review=request.double_review,
        confidence_threshold=request.confidence_threshold,
        low_confidence_share=request.low_confidence_share,
        has_reference=bool(request.reference_raster) or request.reference_polygons is not None,
        has_confidence=bool(request.confidence_path),
    )


def check_design(
    design: str,
    *,
    samples: int,
    min_per_class: int,
    double_review: float = 0.0,
    confidence_threshold: float = 0.7,
    low_confidence_share: float = 0.5,
    has_reference: bool,
    has_confidence: bool,
) -> None:
    """Refuse a sampling design that cannot make a review, whatever the layers hold.

    Raises:
        InputError: unknown design, no items, ``MIN_PER_CLASS`` below 2 under a stratified design,
            a share out of range, ``stratified_label`` without labels, or ``stratified_confidence``
            without its confidence raster or with a threshold out of range.
    """
    if design not in DESIGNS:
        raise InputError.of("unknown_design", design=design, choices=", ".join(DESIGNS))
    if samples <= 0:
        raise InputError.of("too_few_samples", samples=samples)
    if design in STRATIFIED_DESIGNS and min_per_class < MIN_PER_CLASS_LOWEST:
        raise InputError.of("min_per_class_too_low", value=min_per_class)
    if not 0.0 <= double_review <= 1.0:
        raise InputError.of("bad_double_review", value=double_review)
    if design == "stratified_label" and not has_reference:
        raise InputError.of("label_design_needs_reference")
    if design == "stratified_confidence":
        if not has_confidence:
            raise InputError.of("confidence_design_needs_raster")
        if not 0.0 < confidence_threshold <= 1.0:
            raise InputError.of("bad_confidence_threshold", value=confidence_threshold)
        if not 0.0 <= low_confidence_share <= 1.0:
            raise InputError.of("bad_low_confidence_share", value=low_confidence_share)
