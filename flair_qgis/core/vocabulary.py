"""The plugin's words, named once: layer kinds, extent kinds, review designs and review modes.

Every layer the plugin adds carries its kind in the custom property :data:`KIND_PROPERTY`; code
that looks for "the error map" or "the confidence layer" reads that tag, never the layer's name
(names are the user's and are translated). The strings are stored in QGIS projects and review
GeoPackages: changing one breaks saved work.
"""

from __future__ import annotations

KIND_PROPERTY = "flair_qgis/kind"
"""Custom layer property holding one of the ``KIND_*`` values below."""

KIND_CLASS_MAP = "class_map"
KIND_LIVE_VIEW = "live_view"  # Follow the view's class map, updated in place
KIND_HEAD_CLASS_MAP = "head_class_map"  # class map of a multi-head model's further head
KIND_VALUE_MAP = "value_map"  # regression head
KIND_CONFIDENCE = "confidence"
KIND_POLYGONS = "polygons"
KIND_ERROR_MAP = "error_map"
KIND_SUSPICIOUS_LABELS = "suspicious_labels"

ERROR_MAP_FILE_TAG = "FLAIR_ERROR_MAP"
"""GeoTIFF metadata item set to ``"1"`` in every error map the score job writes: an error map
loaded by Processing (no kind property) is still recognised by its file, never by its name."""

CLASS_MAP_KINDS = (KIND_CLASS_MAP, KIND_LIVE_VIEW)
"""Kinds whose layer is a prediction that can be scored."""

EXTENT_CANVAS = "canvas"
EXTENT_LAYER = "layer"
EXTENT_POLYGONS = "polygons"
EXTENT_DRAWN = "drawn"
EXTENT_MODES = (EXTENT_CANVAS, EXTENT_LAYER, EXTENT_POLYGONS, EXTENT_DRAWN)

DESIGN_STRATIFIED = "stratified"
DESIGN_RANDOM = "random"
DESIGN_GRID = "grid"
DESIGN_SUSPICIOUS = "suspicious"
DESIGN_STRATIFIED_CONFIDENCE = "stratified_confidence"
DESIGN_STRATIFIED_LABEL = "stratified_label"  # strata = map class x label class (review issue 34)
DESIGNS = (
    DESIGN_STRATIFIED,
    DESIGN_RANDOM,
    DESIGN_GRID,
    DESIGN_SUSPICIOUS,
    DESIGN_STRATIFIED_CONFIDENCE,
    DESIGN_STRATIFIED_LABEL,
)
PIXEL_DESIGNS = (DESIGN_STRATIFIED, DESIGN_RANDOM, DESIGN_GRID, DESIGN_STRATIFIED_CONFIDENCE, DESIGN_STRATIFIED_LABEL)
STRATIFIED_DESIGNS = (DESIGN_STRATIFIED, DESIGN_STRATIFIED_CONFIDENCE, DESIGN_STRATIFIED_LABEL)

MODE_FIRST = "first"
MODE_SECOND = "second"  # blind second interpreter
MODE_ADJUDICATE = "adjudicate"
REVIEW_MODES = (MODE_FIRST, MODE_SECOND, MODE_ADJUDICATE)
