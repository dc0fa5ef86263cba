"""Core and adapter errors in the user's language and in the wording of where they are shown.

Every error the core raises carries a message ``key`` of the catalogue
(:mod:`flair_qgis.core.messages`) and its ``params``: its template is translated with ``tr()``
(the French is in ``flair_qgis_fr.ts``) and formatted with the same parameters, so the shells
show core refusals as they are, never re-worded. A few keys have a wording of their own for
where they are shown (:data:`_TEXTS`): the dock names its widgets ("Protocol", "Class field"),
Processing its parameters (``PROTOCOL``, ``IGNORE_CLASSES``). An error without a key (raised by
an adapter with an already translated text) keeps its text. Value lists show at most five
values, then "… and N more".
"""

from __future__ import annotations

from collections.abc import Callable

from ..core.errors import MAX_LISTED, FlairError
from ..core.messages import CATALOGUE, WORDS
from . import tr

DOCK = "dock"
PROCESSING = "processing"


def listed(values) -> str:
    """At most five values, then "… and N more" in the user's language."""
    values = list(values or [])
    shown = ", ".join(str(v) for v in values[:MAX_LISTED])
    left = len(values) - MAX_LISTED
    return shown + (" " + tr("… and {n} more").format(n=left) if left > 0 else "")


def _undeclared(params: dict, where: str) -> str:
    reference, prediction, classes = params.get("reference"), params.get("prediction"), params.get("classes")
    if where != DOCK:  # Processing: its parameter names, the core's sentence
        parts = []
        if reference:
            parts.append(tr("reference value(s) {values}").format(values=listed(reference)))
        if prediction:
            parts.append(tr("prediction value(s) {values}").format(values=listed(prediction)))
        class_map = (
            tr(", say which code each prediction value is with CLASS_MAP (value:code,...)") if prediction else ""
        )
        return tr(
            "Protocol {protocol} does not declare {values} (its classes are {classes}). Add them to IGNORE_CLASSES, "
            "regroup them with PROTOCOL=custom and REMAP{class_map}, or pick the protocol that matches these rasters."
        ).format(
            protocol=params.get("protocol", ""), values="; ".join(parts), classes=listed(classes), class_map=class_map
        )
    text = _undeclared_facts(params)
    if classes and len(reference or []) > 10 * len(classes):
        return text + " " + tr("The class field looks like an identifier, not a class: pick the class field.")
    return (
        text
        + " "
        + tr(
            "Check the class field, pick the protocol of these layers under 'Protocol', or 'custom' to score the "
            "values as they are."
        )
    )


def _undeclared_facts(params: dict) -> str:
    """The dock's sentence naming the values a protocol does not know (reference and class map sides)."""
    reference, prediction = params.get("reference"), params.get("prediction")
    parts = []
    if reference:
        parts.append(tr("reference values {values}").format(values=listed(reference)))
    if prediction:
        parts.append(tr("class map values {values}").format(values=listed(prediction)))
    return tr("Protocol {protocol} does not know {values} (its classes are {classes}).").format(
        protocol=params.get("protocol", ""), values="; ".join(parts), classes=listed(params.get("classes"))
    )


def crosswalk_offer(err: BaseException) -> str | None:
    """The dock's text for a score refused because a polygon reference's class field holds values
    that are not the model's classes (text, fractions, or numbers the protocol does not know),
    pointing at the Evaluate tab's "Crosswalk…"; None for any other error, and for reference values
    so many that the field looks like an identifier (a crosswalk is not the fix)."""
    if not isinstance(err, FlairError):
        return None
    if err.key == "field_not_classes":
        return _field_not_classes(err.params, DOCK)
    reference, classes = err.params.get("reference"), err.params.get("classes")
    if err.key != "undeclared_values" or not reference or (classes and len(reference) > 10 * len(classes)):
        return None
    return (
        _undeclared_facts(err.params)
        + " "
        + tr(
            "Click Crosswalk… under the class field to say which class each of these values counts as, or pick "
            "the protocol of these layers under 'Protocol'."
        )
    )


def _not_aligned(params: dict, where: str) -> str:
    facts = tr(
        "The class map's classes ({declared}) are neither the codes nor the class names of protocol "
        "{protocol} ({classes})."
    ).format(
        declared=listed(params.get("declared")),
        protocol=params.get("protocol", ""),
        classes=listed(params.get("classes")),
    )
    if where == DOCK:
        return facts + " " + tr("Pick the protocol of this model under 'Protocol', or 'custom'.")
    return facts + " " + tr("Give CLASS_MAP as value:code pairs (e.g. 0:1,1:2), or choose the protocol of this model.")


def _no_common_pixel(_params: dict, _where: str) -> str:
    return tr(
        "No pixel has data in both the class map and the reference here: check that they cover the same "
        "place, and their nodata."
    )


def _no_class_field(params: dict, where: str) -> str:
    if where == DOCK:
        return tr("Labels given as polygons need their class field: pick it under 'Class field'.")
    return _catalogued("no_class_field", params, where)


def _value_map_polygons(params: dict, where: str) -> str:
    if where == DOCK:
        return tr("Output '{name}' is a value map, not classes: it has no polygons; untick 'Also as polygons'.").format(
            name=params.get("name", "")
        )
    return tr("Output '{name}' is a value map, not classes: it has no polygons; leave OUTPUT_VECTOR empty.").format(
        name=params.get("name", "")
    )


def _no_confidence(params: dict, where: str) -> str:
    name = params.get("name", "")
    if where != DOCK:
        return _catalogued("no_confidence", params, where)
    if params.get("value_map"):
        text = tr("Output '{name}' is a value map, not class scores: it has no confidence; untick it.")
        return text.format(name=name)
    return tr("This model outputs class indices, not scores: it cannot give a confidence; untick it.")


def _too_few_bands(params: dict, where: str) -> str:
    if where != DOCK:
        return _catalogued("too_few_bands", params, where)
    text = tr(
        "The model expects {channels} bands but the layer has {count}: choose a layer with {channels} bands, "
        "or a layer band for each model channel."
    )
    return text.format(channels=params.get("channels", ""), count=params.get("band_count", ""))


def _fp16_cpu(params: dict, where: str) -> str:
    if where != DOCK:
        return _catalogued("fp16_cpu", params, where)
    return tr("Half precision (fp16) runs on CUDA only: choose fp32, or a CUDA device.")


def _fp16_agreement(params: dict, where: str) -> str:
    agreement = float(params.get("agreement", 0.0)) * 100.0
    required = float(params.get("required", 0.995)) * 100.0
    if where != DOCK:
        text = tr(
            "PRECISION=fp16 agrees with fp32 on {agreement:.2f} % of the pixels of the first tiles "
            "(at least {required:.1f} % is required): run this model with PRECISION=fp32."
        )
    else:
        text = tr(
            "Half precision agrees with fp32 on {agreement:.2f} % of the pixels of the first tiles "
            "(at least {required:.1f} % is required): choose fp32 for this model."
        )
    return text.format(agreement=agreement, required=required)


def _unknown_device(params: dict, _where: str) -> str:
    return tr("DEVICE must be auto, cuda or cpu, got '{}'.").format(params.get("device", ""))


def _unknown_precision(params: dict, _where: str) -> str:
    return tr("PRECISION must be fp32 or fp16, got '{}'.").format(params.get("precision", ""))


def _label_design(params: dict, where: str) -> str:
    if where == DOCK:
        return tr("Stratified by class and label needs the labels under review: pick them under Labels.")
    return _catalogued("label_design_needs_reference", params, where)


def _confidence_design(params: dict, where: str) -> str:
    if where == DOCK:
        return tr(
            "Stratified by confidence needs the model's confidence layer: pick it under Confidence (a run with "
            "'Confidence layer' ticked writes it)."
        )
    return _catalogued("confidence_design_needs_raster", params, where)


def _min_per_class(params: dict, where: str) -> str:
    if where == DOCK:
        return tr(
            "Min. per class must be at least 2: a class with no item leaves the review incomplete, and one with a "
            "single item has no variance, so its figures get no interval."
        )
    return _catalogued("min_per_class_too_low", params, where)


def _field_not_classes(params: dict, where: str) -> str:
    if where != DOCK:
        return _catalogued("field_not_classes", params, where)
    text = tr(
        "Field '{field}' holds values that are not class values ({values}{more}): click Crosswalk… under the "
        "class field to say which class each value counts as, or choose the field that holds the class codes."
    )
    return text.format(field=params.get("field", ""), values=params.get("values", ""), more=params.get("more", ""))


_TEXTS: dict[str, Callable[[dict, str], str]] = {
    "field_not_classes": _field_not_classes,
    "undeclared_values": _undeclared,
    "classes_not_aligned": _not_aligned,
    "no_common_pixel": _no_common_pixel,
    "no_class_field": _no_class_field,
    "value_map_polygons": _value_map_polygons,
    "no_confidence": _no_confidence,
    "too_few_bands": _too_few_bands,
    "fp16_cpu": _fp16_cpu,
    "fp16_agreement": _fp16_agreement,
    "bad_device": _unknown_device,
    "bad_precision": _unknown_precision,
    "label_design_needs_reference": _label_design,
    "confidence_design_needs_raster": _confidence_design,
    "min_per_class_too_low": _min_per_class,
}


def error_text(err: BaseException, where: str = DOCK) -> str:
    """The text to show for ``err`` in the user's language: its key's own wording for ``where``
    (``dock`` or ``processing``) when it has one, else its catalogued template translated and
    formatted with its parameters; its text as is when it has no catalogued key."""
    if not isinstance(err, FlairError) or err.key is None:
        return str(err)
    if err.key in _TEXTS:
        return _TEXTS[err.key](err.params, where)
    return _catalogued(err.key, err.params, where) or str(err)


def message_text(key: str, params: dict, where: str = DOCK) -> str:
    """A catalogued message that is not an error (a run's note) in the user's language: its template
    translated and formatted with ``params``; the English when the translation is missing."""
    return _catalogued(key, params, where) or CATALOGUE[key].template.format(**params)


def note_text(text: str, where: str = DOCK) -> str:
    """A line of a run's log in the user's language: a catalogued note
    (:class:`flair_qgis.core.engine.messages.Note`) translated, any other text as is."""
    key = getattr(text, "key", None)
    return text if key is None else message_text(key, getattr(text, "params", {}), where)


def _catalogued(key: str, params: dict, where: str) -> str:
    """Catalogued message ``key``'s template translated and formatted with ``params`` ("" for an
    unknown key, or a translation that lost a placeholder: the caller shows the English)."""
    message = CATALOGUE.get(key)
    if message is None:
        return ""
    try:
        return tr(message.template).format(**{name: _shown(value, where) for name, value in params.items()})
    except (KeyError, IndexError, ValueError):
        return ""


def _shown(value: object, where: str) -> object:
    """A parameter as the translated text shows it: lists listed, words translated, errors in their
    own translated text; numbers and other values are left to the template's format."""
    if isinstance(value, list):
        return listed(value) or "–"
    if isinstance(value, FlairError):
        return error_text(value, where)
    if isinstance(value, str) and value in WORDS:
        return tr(value)
    return value
