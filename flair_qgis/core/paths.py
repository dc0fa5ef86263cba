"""Refuse an output path that would overwrite an input of the same run.

Every shell (Processing algorithms, the dock) calls these checks before anything is written, so
``flair:segment OUTPUT=<the INPUT raster>`` is refused instead of replacing the user's imagery.
Paths are compared after resolving ``~``, relative paths and symlinks (``os.path.realpath``) and,
where both exist, by file identity (``os.path.samefile``), which also catches hard links and
case-insensitive file systems (Windows, macOS) where ``X.tif`` and ``x.tif`` are one file.

QGIS layer sources such as ``/data/ref.gpkg|layername=roads`` are compared by their file part.

Public API:
``check_file_not_input(output_name, output_path, input_name, input_path) -> None``
``check_folder_not_input(output_name, output_dir, input_name, input_dir) -> None``
``check_sidecars_not_input(output_name, output_path, suffixes, inputs) -> None``
``check_outputs_not_inputs(outputs, inputs) -> None``
``sidecar_paths(output_path, suffixes) -> list[str]``
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence

from .errors import InputError

__all__ = [
    "check_file_not_input",
    "check_folder_not_input",
    "check_outputs_not_inputs",
    "check_sidecars_not_input",
    "same_path",
    "sidecar_paths",
]


def _file_part(path: str) -> str:
    """The file of a path or QGIS layer source (``file.gpkg|layername=x`` -> ``file.gpkg``)."""
    return path.split("|", 1)[0].strip()


def resolved(path: str) -> str:
    """The absolute, symlink-free, case-normalised (Windows) form of a path or layer source."""
    return os.path.normcase(os.path.realpath(os.path.expanduser(_file_part(path))))


def same_path(path_a: str, path_b: str) -> bool:
    """Whether two paths name the same file or folder.

    Args:
        path_a: a path or QGIS layer source; need not exist.
        path_b: another one.

    Returns:
        True when they resolve to the same path, or both exist and are the same file
        (hard link, case-insensitive file system).
    """
    file_a, file_b = _file_part(path_a), _file_part(path_b)
    if resolved(file_a) == resolved(file_b):
        return True
    try:
        return os.path.samefile(os.path.expanduser(file_a), os.path.expanduser(file_b))
    except OSError:  # one of them does not exist (yet): it cannot be the other one
        return False


def _shown(path: str) -> str:
    """The path as the user gave it, with what it resolves to when that differs."""
    real = os.path.realpath(os.path.expanduser(_file_part(path)))
    given = _file_part(path)
    return given if os.path.abspath(os.path.expanduser(given)) == real else f"{given} = {real}"


def check_file_not_input(output_name: str, output_path: str | None, input_name: str, input_path: str | None) -> None:
    """Refuse an output file that is an input file of the same run.

    Args:
        output_name: the output's parameter name, e.g. ``OUTPUT``.
        output_path: the output file; None or empty means the output is not written.
        input_name: the input's parameter name, e.g. ``INPUT``.
        input_path: the input file or QGIS layer source; None or empty means no input.

    Raises:
        InputError: the output would overwrite the input; the text names both parameters.
    """
    if not output_path or not input_path:
        return
    if same_path(output_path, input_path):
        raise InputError.of("overwrites_input", output=output_name, input=input_name, path=_shown(input_path))


def _self_and_ancestors(path: str) -> Iterator[str]:
    """The path and each folder above it, from the deepest up to the root."""
    current = os.path.abspath(os.path.expanduser(path))
    while True:
        yield current
        parent = os.path.dirname(current)
        if parent == current:
            return
        current = parent


def check_folder_not_input(output_name: str, output_dir: str | None, input_name: str, input_dir: str | None) -> None:
    """Refuse an output folder that is an input folder of the same run, or lies inside it.

    Files written inside an input folder would be mixed with (and could replace) the input's
    files, and a later run over that folder would read them as inputs.

    Args:
        output_name: the output's parameter name, e.g. ``OUTPUT_PREDICTIONS``.
        output_dir: the output folder (need not exist yet); None or empty means not written.
        input_name: the input's parameter name, e.g. ``DATASET``.
        input_dir: the input folder; None or empty means no input.

    Raises:
        InputError: the output folder is the input folder or inside it.
    """
    if not output_dir or not input_dir:
        return
    if same_path(output_dir, input_dir):
        raise InputError.of("overwrites_input_folder", output=output_name, input=input_name, path=_shown(input_dir))
    real_input = resolved(input_dir)
    for folder in list(_self_and_ancestors(output_dir))[1:]:
        if resolved(folder) == real_input or same_path(folder, input_dir):
            raise InputError.of(
                "output_inside_input",
                output=output_name,
                output_path=_shown(output_dir),
                input=input_name,
                input_path=_shown(input_dir),
            )


def sidecar_paths(output_path: str, suffixes: Sequence[str]) -> list[str]:
    """The files written beside an output: its name with each suffix instead of its extension.

    Args:
        output_path: the main output file, e.g. ``report.json``.
        suffixes: extensions with their dot, e.g. ``(".csv", ".png")``.

    Returns:
        One path per suffix, e.g. ``report.csv``, ``report.png``.
    """
    stem = os.path.splitext(output_path)[0]
    return [stem + suffix for suffix in suffixes]


def check_sidecars_not_input(
    output_name: str, output_path: str | None, suffixes: Sequence[str], inputs: Mapping[str, str | None]
) -> None:
    """Refuse an output whose sidecar files (written beside it) would overwrite an input.

    Args:
        output_name: the output's parameter name, e.g. ``OUTPUT_REPORT``.
        output_path: the main output file; None or empty means not written.
        suffixes: the sidecars' extensions, e.g. ``(".csv", ".png")``.
        inputs: input parameter name -> file or layer source (None or empty: not given).

    Raises:
        InputError: a sidecar is an input; the text names the output, the sidecar and the input.
    """
    if not output_path:
        return
    for sidecar in sidecar_paths(output_path, suffixes):
        for input_name, input_path in inputs.items():
            if input_path and same_path(sidecar, input_path):
                raise InputError.of(
                    "sidecar_overwrites_input",
                    output=output_name,
                    sidecar=os.path.basename(sidecar),
                    input=input_name,
                    path=_shown(input_path),
                )


def check_outputs_not_inputs(outputs: Mapping[str, str | None], inputs: Mapping[str, str | None]) -> None:
    """Refuse any output file that is any input file of the same run (each pair checked).

    Also refuses two outputs that are one file: the second would overwrite the first.

    Args:
        outputs: output parameter name -> file (None or empty: not written).
        inputs: input parameter name -> file or layer source (None or empty: not given).

    Raises:
        InputError: the first clash found, naming both parameters.
    """
    for output_name, output_path in outputs.items():
        for input_name, input_path in inputs.items():
            check_file_not_input(output_name, output_path, input_name, input_path)
    given = [(name, path) for name, path in outputs.items() if path]
    for index, (first_name, first_path) in enumerate(given):
        for second_name, second_path in given[index + 1 :]:
            if same_path(first_path, second_path):
                raise InputError.of("same_output_file", second=second_name, first=first_name, path=_shown(first_path))
