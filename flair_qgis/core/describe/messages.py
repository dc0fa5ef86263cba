"""The messages of the describe job (a copy of a model with its metadata): key -> English template.

Registered in the plugin's catalogue (:mod:`flair_qgis.core.messages`) when the package is imported;
raised as ``InputError.of(key, **params)``; the French is in ``flair_qgis/i18n/flair_qgis_fr.ts``.
The ``guessed_*`` messages are not errors: they are the run log's note on a model described by
nobody (:func:`.note.guessed_note`).
"""

from __future__ import annotations

from ..messages import register

MESSAGES = register(
    {
        # values.py
        "describe_bad_numbers": "{what} must be numbers separated by commas (e.g. 105.08,110.87,101.82), got {text!r}.",
        "describe_bad_class": (
            "Class entry {entry!r} is not value:name or value:name:#rrggbb (e.g. 1:building:#db0e9a)."
        ),
        "describe_duplicate_class": "Class value {value} is given twice: give each class value once.",
        "describe_bad_classes_csv": (
            "{path} is not a class table: it needs a header with columns value and name (and optionally color)."
        ),
        "describe_unknown_preset": "PRESET must be one of {choices}, got {preset!r}.",
        "describe_mean_without_std": "Give MEAN and STD together (both in the layer's pixel units).",
        "describe_scale_and_std": "Give either SCALE or MEAN and STD, not both.",
        "describe_bad_scale": "SCALE must be a positive number (pixels are divided by it), got {scale}.",
        "describe_bad_std": "STD must be positive for every band, got {std}.",
        "describe_nothing": (
            "Nothing to describe: pick a PRESET or give BANDS, MEAN and STD (or SCALE), CLASSES, RESOLUTION_CM "
            "or TILE_SIZE."
        ),
        # job.py
        "describe_no_output": "Choose an OUTPUT file for the described copy of the model.",
        "describe_output_is_model": (
            "OUTPUT is the model itself: the original is never changed; choose another file for the described copy."
        ),
        "describe_unreadable": "{file} is not a readable ONNX model: {error}",
        "describe_multi_input": (
            "{file} has {count} inputs: describing is supported for single-input models only (give their "
            "metadata when exporting them)."
        ),
        "describe_band_mismatch": (
            "{file} takes {channels} band(s) but {what} has {count} value(s): give one value per model band."
        ),
        "describe_class_mismatch": (
            "{file} has {channels} output channel(s) but {count} class(es) were given: give one class per output "
            "channel, or a preset with {channels} classes."
        ),
        "describe_tile_mismatch": (
            "{file} takes tiles of {fixed} px only (its input size is fixed): TILE_SIZE {tile} does not fit; "
            "leave it empty or give {fixed}."
        ),
        "describe_too_large": (
            "{file} is too large to copy into one ONNX file ({megabytes} MB, 2 GB at most): describing models "
            "stored with external data above 2 GB is not supported."
        ),
        # note.py: the run log's line on a model nobody described
        "guessed_normalisation_classes": (
            "{model} declares neither its normalisation nor its classes: this run guesses pixels / 255 and classes "
            "{first}..{last}. Describe the model once (flair:describe_model, or 'Describe this model…' on the "
            "dock's model card)."
        ),
        "guessed_normalisation": (
            "{model} declares no normalisation: this run guesses pixels / 255. Describe the model once "
            "(flair:describe_model, or 'Describe this model…' on the dock's model card)."
        ),
        "guessed_classes": (
            "{model} declares no classes: this run guesses classes {first}..{last}, named 'class N'. Describe the "
            "model once (flair:describe_model, or 'Describe this model…' on the dock's model card)."
        ),
    },
    words=("described model",),  # what check_output names the OUTPUT file by
)
