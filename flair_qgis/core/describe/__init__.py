"""Describe: give a model that carries no metadata its bands, normalisation, classes, resolution and
tile size, once, in a copy of the model; the original is never changed.

Entry point: :func:`job.describe` writes the copy from a :class:`~.job.DescribeRequest` whose
:class:`~.values.Description` comes from a preset (:mod:`flair_qgis.core.model_presets`) and typed
values (:mod:`.values`); :mod:`.model_file` reads the model and writes the copy, streamed with its
new metadata by :mod:`.wire` (the tensors copied as bytes, never re-encoded).
:func:`.note.guessed_note` is the run log's line on a model whose normalisation or classes the
engine guesses. Callers outside this package import the names below.
"""

from . import messages  # noqa: F401 - registers the package's message templates before any of its errors
from .job import DESCRIBED_KEY, DescribeRequest, DescribeResult, check_output, describe
from .note import guessed_note
from .values import NO_PRESET, Description, description, parse_bands, parse_classes, parse_numbers, preset_of

__all__ = [
    "DESCRIBED_KEY",
    "NO_PRESET",
    "DescribeRequest",
    "DescribeResult",
    "Description",
    "check_output",
    "describe",
    "description",
    "guessed_note",
    "parse_bands",
    "parse_classes",
    "parse_numbers",
    "preset_of",
]
