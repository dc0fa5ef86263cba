"""The catalogue of the messages a user can meet: one key, one English template, its parameters.

Every :class:`~flair_qgis.core.errors.FlairError` the core raises is made from a key of this
catalogue (``InputError.of("no_reference")``): its English text, what ``str(err)`` gives to logs
and ``scripts/flair``, is the template formatted with the parameters. Core has no Qt, so the GUI
and Processing translate: :func:`flair_qgis.i18n.errors.error_text` looks the template up in the
French ``.ts`` and formats it with the same parameters.

Each job and the engine list their own templates in their ``messages`` module and register them
here when their package is imported; the templates of the shared modules are below. A key names
one message in the whole plugin (registering it twice with another template is refused).
"""

from __future__ import annotations

import string
from collections.abc import Collection, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Message:
    """One catalogued message.

    Attributes:
        key: its name, unique in the plugin (``too_few_bands``).
        template: the English text, ``str.format`` fields naming the parameters
            (``"The model expects {channels} bands but the layer has {band_count}."``).
    """

    key: str
    template: str

    @property
    def params(self) -> frozenset[str]:
        """The names of the parameters the template uses."""
        return frozenset(field for _text, field, _spec, _conv in string.Formatter().parse(self.template) if field)


CATALOGUE: dict[str, Message] = {}
"""Every registered message by key (the shared modules' below, each job's once its package is imported)."""

WORDS: set[str] = set()
"""English words a message takes as a parameter ("report", "class map"): translated where shown."""


def register(templates: Mapping[str, str], words: Collection[str] = ()) -> dict[str, Message]:
    """Add ``templates`` (key -> English template) to :data:`CATALOGUE`, and the ``words`` its
    messages take as parameters to :data:`WORDS`; returns the templates as messages.

    Raises:
        ValueError: a key already registered with another template.
    """
    WORDS.update(words)
    added = {}
    for key, template in templates.items():
        known = CATALOGUE.get(key)
        if known is not None and known.template != template:
            raise ValueError(f"message key {key!r} is registered twice with different templates")
        added[key] = CATALOGUE[key] = Message(key, template)
    return added


MESSAGES = register(
    {
        # atomic.py: where an output file is written
        "no_output_file": "No {what} file given.",
        "output_is_folder": "The {what} path {path} is a folder: give a file name ending in .tif.",
        "output_folder_missing": "The folder of the {what} file does not exist: {folder}. Create it or choose another.",
        "folder_not_writable": "Cannot write to {folder}: choose a folder you can write to.",
        # paths.py: outputs that would overwrite inputs
        "overwrites_input": "{output} would overwrite {input} ({path}): choose another output file.",
        "overwrites_input_folder": (
            "{output} would overwrite {input} ({path}): choose another output folder, outside the input folder."
        ),
        "output_inside_input": (
            "{output} ({output_path}) is inside {input} ({input_path}): its files would be mixed with the "
            "input's files. Choose an output folder outside the input folder."
        ),
        "sidecar_overwrites_input": (
            "{output} writes {sidecar} beside it, which would overwrite {input} ({path}): "
            "choose another output file name."
        ),
        "same_output_file": (
            "{second} and {first} are the same file ({path}): one would overwrite the other; "
            "choose different output files."
        ),
        # read by Processing before any job is imported (processing/base.model_file_error), and by the engine
        "model_is_pickle": (
            "{file} is a PyTorch/pickle file, not ONNX. Convert it with scripts/export-onnx; flair_qgis never "
            "loads pickles."
        ),
    },
    words=("output",),  # what atomic.check_output_path names a file by default
)
