"""What a canceled or failed job says it removed, in the user's language.

Each job removes everything it wrote when it fails or is canceled
(:func:`flair_qgis.core.atomic.job_outputs`) and lists the files on the error (``removed``);
the shells (the dock, Processing) only show it: the files by name, or that nothing had been
written.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from . import tr


def removed_files(err: BaseException | None) -> tuple[str, ...]:
    """The files a job removed when it raised ``err`` (none for None or an error without any)."""
    return tuple(getattr(err, "removed", ()) or ())


def canceled_text(removed: Sequence[str]) -> str:
    """The message of a canceled run: the files it had written and removed, or that there were none."""
    if not removed:
        return tr("Canceled: nothing had been written.")
    names = ", ".join(os.path.basename(path) for path in removed)
    return tr("Canceled: removed what the run had written ({files}).").format(files=names)


def with_removed(text: str, err: BaseException | None) -> str:
    """An error's message followed by the files the failed job removed (unchanged without any)."""
    removed = removed_files(err)
    if not removed:
        return text
    names = ", ".join(os.path.basename(path) for path in removed)
    return text + " " + tr("Removed what the run had written: {files}.").format(files=names)
