"""What a review's sampling is asked for: :class:`SampleRequest`, captured on the main thread by
the Review tab and by ``flair:sample``, and :func:`check_request`, which refuses bad parameters
before anything is read. :func:`design_refusal` is the rule of what a design needs; the Review
tab calls it to show why its Create button would be refused, so both say the same."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import InputError
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


def design_refusal(design: str, min_per_class: int, *, has_reference: bool, has_confidence: bool) -> InputError | None:
    """Why ``design`` cannot run with these layers and this minimum per class, else None (pure).

    Args:
        design: one of :data:`~flair_qgis.core.vocabulary.DESIGNS`.
        min_per_class: the minimum items per stratum asked for.
        has_reference: the labels under review are given.
        has_confidence: the model's confidence raster is given.

    Returns:
        The refusal, keyed for the shells' wording: ``design_needs_confidence``,
        ``design_needs_labels``, ``min_per_class`` (params ``min_per_class``, ``lowest``).
    """
    if design == "stratified_confidence" and not has_confidence:
        return InputError(
            "DESIGN=stratified_confidence splits each class by the model's confidence: give CONFIDENCE "
            "(the confidence raster flair:segment writes with OUTPUT_CONFIDENCE).",
            key="design_needs_confidence",
        )
    if design == "stratified_label" and not has_reference:
        return InputError(
            "DESIGN=stratified_label splits each class by the labels under review: give REFERENCE (the labels).",
            key="design_needs_labels",
        )
    if design in STRATIFIED_DESIGNS and min_per_class < MIN_PER_CLASS_LOWEST:
        return InputError(
            f"MIN_PER_CLASS must be at least {MIN_PER_CLASS_LOWEST} (got {min_per_class}): a stratum with no item "
            "leaves the review incomplete for ever, and one with a single item has no variance, so its figures get "
            "no interval.",
            key="min_per_class",
            params={"min_per_class": min_per_class, "lowest": MIN_PER_CLASS_LOWEST},
        )
    return None


def check_request(request: SampleRequest) -> None:
    """Refuse a request whose parameters cannot make a review.

    Raises:
        InputError: unknown design, no items, what :func:`design_refusal` refuses (a design's
            missing layer, ``MIN_PER_CLASS`` below 2 under a stratified design), a share out of
            range, or a confidence threshold out of range.
    """
    if request.design not in DESIGNS:
        raise InputError(f"Unknown DESIGN '{request.design}': use one of {', '.join(DESIGNS)}.")
    if request.samples <= 0:
        raise InputError(f"SAMPLES must be at least 1 (got {request.samples}): give the number of items to review.")
    has_reference = bool(request.reference_raster) or request.reference_polygons is not None
    refusal = design_refusal(
        request.design, request.min_per_class, has_reference=has_reference, has_confidence=bool(request.confidence_path)
    )
    if refusal is not None:
        raise refusal
    if not 0.0 <= request.double_review <= 1.0:
        raise InputError(f"DOUBLE_REVIEW is a share of the items from 0 to 1 (got {request.double_review}).")
    if request.design == "stratified_confidence":
        if not 0.0 < request.confidence_threshold <= 1.0:
            raise InputError(f"CONFIDENCE_THRESHOLD must be in (0, 1] (got {request.confidence_threshold}).")
        if not 0.0 <= request.low_confidence_share <= 1.0:
            raise InputError(f"LOW_CONFIDENCE_SHARE must be in [0, 1] (got {request.low_confidence_share}).")
