"""Files written completely or not at all, and output paths checked before any work.

Every output of every job goes through here: a file is written under a hidden temporary name in
its target folder and renamed into place only when the writing succeeds; a failure or a cancel
deletes it, so no half file is ever left where a user would open it.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable

from .errors import InputError


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
        for leftover in (path, path + ".aux.xml", os.path.splitext(path)[0] + ".qml"):
            if os.path.exists(leftover):
                os.remove(leftover)
