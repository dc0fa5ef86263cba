"""Typed errors of the core. Their text is shown to users as is: it says what to do."""


class FlairError(Exception):
    """Base class of every error a user can act on."""


class ModelError(FlairError):
    """The model file cannot be used (unreadable, not ONNX, inconsistent metadata)."""


class InputError(FlairError):
    """The raster, extent, bands or output paths do not fit the request."""


class NotSupportedError(FlairError):
    """The request is valid but this version cannot run it yet."""


class Canceled(Exception):  # noqa: N818 - a cancel is information, not an error
    """The user canceled the run; nothing was written."""
