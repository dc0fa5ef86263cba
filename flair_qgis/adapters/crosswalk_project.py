"""A crosswalk kept with the QGIS project, and a class field's distinct values read in a task.

The Evaluate tab's "Crosswalk…" dialog edits which class each value of a reference's class field
counts as (:class:`~flair_qgis.core.score.Crosswalk`). The crosswalk is kept as CSV text in a custom
property of the reference layer (:data:`PROPERTY`, one CSV per field), which QGIS writes into the
project file: reopening the project finds it. :class:`DistinctValuesTask` counts the features per
value of a field inside a rectangle (the map view) in a QgsTask: the provider's spatial index
answers the rectangle, and the desktop never waits on a million-polygon layer.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from collections import Counter
from collections.abc import Callable

from qgis.core import QgsFeatureRequest, QgsRectangle, QgsVectorLayer, QgsVectorLayerFeatureSource

from ..core.score import Crosswalk, parse_crosswalk, reference_key
from ..i18n import tr
from .reference_input import attribute_value
from .task_work import JobTask

PROPERTY = "flair_qgis/crosswalks"
"""Layer custom property: JSON ``{field: CSV text}``."""
_CANCEL_EVERY = 1000


def crosswalk_csv(crosswalk: Crosswalk) -> str:
    """The CSV text of a crosswalk (header ``reference,class``)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(("reference", "class"))
    writer.writerows(crosswalk.rows)
    return out.getvalue()


def crosswalk_of_text(text: str, name: str) -> Crosswalk:
    """A crosswalk from CSV text (its SHA-256 is the text's, UTF-8).

    Raises:
        InputError: malformed CSV.
    """
    return parse_crosswalk(text, name, hashlib.sha256(text.encode("utf-8")).hexdigest())


def project_crosswalk(layer: QgsVectorLayer | None, field: str) -> Crosswalk | None:
    """The crosswalk kept with the project for ``field`` of ``layer``; None when there is none.

    Raises:
        InputError: the kept text is not a crosswalk (edited by hand).
    """
    if layer is None or not field:
        return None
    kept = json.loads(layer.customProperty(PROPERTY, "{}") or "{}")
    text = kept.get(field)
    return crosswalk_of_text(text, f"{layer.name()}.{field}.csv") if text else None


def keep_in_project(layer: QgsVectorLayer, field: str, crosswalk: Crosswalk | None) -> None:
    """Keep (or, with None, forget) the crosswalk of ``field`` of ``layer`` with the project."""
    kept = json.loads(layer.customProperty(PROPERTY, "{}") or "{}")
    if crosswalk is None:
        kept.pop(field, None)
    else:
        kept[field] = crosswalk_csv(crosswalk)
    layer.setCustomProperty(PROPERTY, json.dumps(kept, sort_keys=True))


def is_text_field(layer: QgsVectorLayer | None, field: str) -> bool:
    """Whether ``field`` of ``layer`` holds text (what the scoring refuses without a crosswalk)."""
    if not isinstance(layer, QgsVectorLayer) or not field:
        return False
    index = layer.fields().indexOf(field)
    return index >= 0 and not layer.fields().at(index).isNumeric()


class DistinctValuesTask(JobTask):
    """Features per value of a class field inside a rectangle of the layer's CRS, counted in a task.

    Attributes:
        counts: value (as the crosswalk compares it; None for a null) -> features, once finished.
    """

    def __init__(
        self, layer: QgsVectorLayer, field: str, rect: QgsRectangle | None, done: Callable[[DistinctValuesTask], None]
    ) -> None:
        super().__init__(tr("FLAIR: reading the values of {field}").format(field=field), done)
        self.source = QgsVectorLayerFeatureSource(layer)
        self.request = QgsFeatureRequest()
        self.request.setSubsetOfAttributes([field], layer.fields())
        self.request.setFlags(QgsFeatureRequest.Flag.NoGeometry)
        if rect is not None and not rect.isEmpty():
            self.request.setFilterRect(rect)
        self.field = field
        self.counts: Counter = Counter()

    def _work(self) -> None:
        for n, feature in enumerate(self.source.getFeatures(self.request)):
            if n % _CANCEL_EVERY == 0 and self.isCanceled():
                return
            self.counts[reference_key(attribute_value(feature[self.field]))] += 1

    def finished(self, result: bool) -> None:
        self.done(self)
