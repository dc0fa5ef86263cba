"""Files written completely or not at all, and output paths checked before any work.

Every output of every job goes through here: a file is written under a hidden temporary name in
its target folder and renamed into place only when the writing succeeds; a failure or a cancel
deletes it, so no half file is ever left where a user would open it.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from .errors import Canceled, InputError, removed_message


def check_output_path(path: str, what: str = "output") -> str:
    """Check that an output file can be created; return its absolute path.

    Raises:
        InputError: empty path, missing or read-only folder, or the path is a folder.
    """
    if not path:
        raise InputError.of("no_output_file", what=what)
    path = os.path.abspath(path)
    folder = os.path.dirname(path)
    if os.path.isdir(path):
        raise InputError.of("output_is_folder", what=what, path=path)
    if not os.path.isdir(folder):
        raise InputError.of("output_folder_missing", what=what, folder=folder)
    if not os.access(folder, os.W_OK):
        raise InputError.of("folder_not_writable", folder=folder)
    return path


def make_world_readable(path: str) -> None:
    """Give a temporary file (created 0600) the permissions a plain new file would have."""
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(path, 0o666 & ~umask)


def write_atomic(path: str, write: Callable[[str], None], suffix: str = ".partial") -> None:
    """Write a file completely or not at all.

    ``write`` receives a hidden temporary path in the target folder (an empty file exists there);
    the file is renamed into place when it returns, and deleted when it raises.
    """
    folder, name = os.path.split(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=suffix, dir=folder)
    os.close(fd)
    try:
        write(tmp)
        make_world_readable(tmp)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


def write_text_atomic(path: str, text: str) -> None:
    """Write a UTF-8 text file completely or not at all."""

    def write(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8") as handle:
            handle.write(text)

    write_atomic(path, write)


def remove_outputs(*paths: str | None) -> None:
    """Delete files a failed or canceled run had already published, with their sidecars
    (``.qml`` style, ``.aux.xml`` GDAL metadata); paths that are None or absent are skipped."""
    for path in paths:
        if not path:
            continue
        for leftover in sidecars(path):
            if os.path.exists(leftover):
                os.remove(leftover)


def sidecars(path: str) -> tuple[str, str, str]:
    """A published file and the sidecars QGIS and GDAL keep beside it: ``.aux.xml``, ``.qml``."""
    return path, path + ".aux.xml", os.path.splitext(path)[0] + ".qml"


class JobOutputs:
    """The files a job has published so far: what it removes when it fails or is canceled.

    A job adds a file only once it is in place (its writer renamed it there): a file that was at
    an output path before the run is never removed unless the job replaced it.
    """

    def __init__(self) -> None:
        self.files: list[str] = []

    def add(self, *paths: str | None) -> None:
        """Record files now in place (None and "" are skipped)."""
        self.files.extend(os.path.abspath(path) for path in paths if path)

    def remove(self) -> tuple[str, ...]:
        """Delete every recorded file with its sidecars; returns the paths deleted, in order."""
        removed: list[str] = []
        for path in self.files:
            for leftover in sidecars(path):
                if os.path.exists(leftover) and leftover not in removed:
                    os.remove(leftover)
                    removed.append(leftover)
        self.files.clear()
        return tuple(removed)


@contextmanager
def job_outputs(is_canceled: Callable[[], bool] | None = None) -> Iterator[JobOutputs]:
    """The outputs of one job run, removed together when the run fails or is canceled.

    The body records each file as it is published (:meth:`JobOutputs.add`). When the body raises,
    every recorded file is deleted with its sidecars: a :class:`~.errors.Canceled` is raised again
    with the files removed (its message names them, or says that nothing had been written); any
    other error keeps its type and text and carries them in ``removed``. A cancel that comes
    after the last poll but before the job returns (``is_canceled`` answers True once the body is
    done) is a cancel too: the shells then never have to remove a job's outputs themselves.

    Args:
        is_canceled: the job's cancel hook, asked once more when the body is done; None not to.

    Raises:
        Canceled: the body was canceled (``removed``: the files deleted, absolute paths).
    """
    outputs = JobOutputs()
    try:
        yield outputs
        if is_canceled is not None and is_canceled():
            raise Canceled()
    except Canceled as err:
        removed = (*outputs.remove(), *err.removed)  # this job's files, then an inner job's (written later)
        raise Canceled(removed=removed) from err
    except BaseException as err:
        _note_removed(err, outputs.remove())
        raise


def _note_removed(err: BaseException, removed: tuple[str, ...]) -> None:
    """Attach the files a failed job removed to its error: put before those an inner job removed
    (``removed``), and a note that tracebacks show."""
    try:
        err.removed = (*removed, *getattr(err, "removed", ()))  # type: ignore[attr-defined]
    except AttributeError:  # an exception type without a __dict__
        pass
    if removed and hasattr(err, "add_note"):  # Python 3.11+; QGIS may run an older one
        err.add_note(removed_message(removed))
