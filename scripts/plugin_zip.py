#!/usr/bin/env python3
"""The two steps of make package around the zip (standard library only: make package needs no venv).

    scripts/plugin_zip.py metadata SOURCE CHANGELOG           the zip's metadata.txt on stdout
    scripts/plugin_zip.py check ZIP                           exit 1 with the reasons when the QGIS
                                                              plugin repository would refuse or flag it

``metadata``: the plugin's flair_qgis/metadata.txt (the one place of the author's email and the
homepage, tracker and repository URLs: a warning on stderr while one is a :data:`PLACEHOLDERS` value)
with ``changelog`` from CHANGELOG.md (newest first, as written there).

``check``: what the repository's upload validator refuses (qgis/QGIS-Plugins-Website,
qgis-app/plugins/validator.py: size, paths, one top folder named as a Python identifier, __init__.py,
metadata.txt with its required fields, LICENSE) and what its security scan flags in the file list
(hidden files, executables, binary extensions). Bandit runs in make lint; docs/install.md says how the
whole scan was reproduced.
"""

from __future__ import annotations

import configparser
import io
import re
import sys
import zipfile
from urllib.parse import urlparse

MAX_BYTES = 25_000_000
"""The repository's PLUGIN_MAX_UPLOAD_SIZE."""
REQUIRED = ("name", "description", "version", "qgisMinimumVersion", "author", "email", "about", "tracker", "repository")
"""The repository's PLUGIN_REQUIRED_METADATA."""
URL_KEYS = ("tracker", "repository", "homepage")
PUBLISHED = ("email", "homepage", "tracker", "repository")
PLACEHOLDERS = ("example.org", "github.com/flair-qgis/")
"""Values nobody has claimed yet (an example.org address, a GitHub organisation not confirmed)."""
FORBIDDEN_PARTS = ("__MACOSX", ".git", "__pycache__")
BINARY_SUFFIXES = (".exe", ".dll", ".so", ".dylib", ".bat", ".sh", ".ps1", ".cmd")
"""What the security scan's FILE_SUSPICIOUS rule (critical, not skippable) flags."""


def changelog_entries(markdown: str) -> list[str]:
    """``## <version>`` sections of CHANGELOG.md as lines: the version, then one line per item."""
    lines: list[str] = []
    for raw in markdown.splitlines():
        if raw.startswith("## "):
            lines.append(raw[3:].strip() + ":")
        elif raw.startswith("- ") and lines:
            lines.append(raw.strip())
        elif raw.startswith("  ") and raw.strip() and lines and lines[-1].startswith("- "):
            lines[-1] += " " + raw.strip()
    return lines


def zip_metadata(source: str, changelog: str) -> tuple[str, list[str]]:
    """The zip's metadata.txt text and the warnings about placeholders."""
    config = configparser.ConfigParser(interpolation=None)
    config.optionxform = str  # type: ignore[assignment,method-assign]
    config.read_string(source)
    general = config["general"] if config.has_section("general") else {}
    warnings = [
        f"metadata.txt: {key}={general[key]} is a placeholder: set it before uploading to plugins.qgis.org"
        for key in PUBLISHED
        if key in general and any(mark in general[key] for mark in PLACEHOLDERS)
    ]
    text = "\n".join(line for line in source.rstrip("\n").splitlines() if not line.startswith("changelog=")) + "\n"
    entries = changelog_entries(changelog)
    if not entries:
        warnings.append("CHANGELOG.md has no '## <version>' section: the zip has no changelog")
    else:
        text += "changelog=" + entries[0] + "\n" + "".join(f"    {line}\n" for line in entries[1:])
    return text, warnings


def _name_problems(names: list[str]) -> list[str]:
    problems = []
    for name in names:
        parts = name.split("/")
        if ".." in name or name.startswith("/") or "\\" in name or re.match(r"^[A-Za-z]:", name):
            problems.append(f"{name}: a path the repository refuses ('..', absolute, backslash or drive)")
        if name.endswith((".pyc", ".pyo")) or any(part in FORBIDDEN_PARTS for part in parts):
            problems.append(f"{name}: compiled Python or a {'/'.join(FORBIDDEN_PARTS)} folder")
        if parts[-1].startswith("."):
            problems.append(f"{name}: a hidden file")
        if name.lower().endswith(BINARY_SUFFIXES):
            problems.append(f"{name}: an executable or binary file type the security scan flags")
    return problems


def _metadata_problems(text: str, names: set[str], top: str) -> list[str]:
    parser = configparser.ConfigParser()
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    try:
        parser.read_string(text)
    except configparser.Error as err:
        return [f"metadata.txt does not parse: {err}"]
    if not parser.has_section("general"):
        return ["metadata.txt has no [general] section"]
    try:
        general = dict(parser.items("general"))  # interpolated, as the repository and QGIS read it
    except configparser.Error as err:
        return [f"metadata.txt: a value does not read ({err}); write % as another character"]
    problems = [f"metadata.txt lacks {key}" for key in REQUIRED if not general.get(key, "").strip()]
    for key in URL_KEYS:
        url = urlparse(general.get(key, ""))
        if general.get(key) and not (url.scheme and url.netloc):
            problems.append(f"metadata.txt: {key}={general[key]} is not a URL")
    if "/" in general.get("author", ""):
        problems.append("metadata.txt: the author contains a slash")
    icon = general.get("icon", "").removeprefix("./")
    if icon and f"{top}/{icon}" not in names:
        problems.append(f"metadata.txt: the icon {icon} is not in the zip")
    return problems


def check_zip(path: str) -> list[str]:
    """Why the plugin repository would refuse or flag the zip at ``path``; empty when it would not."""
    with open(path, "rb") as handle:
        data = handle.read()
    if len(data) > MAX_BYTES:
        return [f"{len(data):,} bytes: over the repository's {MAX_BYTES:,}"]
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile as err:
        return [f"not a zip: {err}"]
    names = archive.namelist()
    problems = _name_problems(names)
    if archive.testzip() is not None:
        problems.append(f"bad CRC in {archive.testzip()}")
    tops = sorted({name.split("/")[0] for name in names})
    if len(tops) != 1 or not all("/" in name for name in names):
        return [*problems, f"one top folder expected, found {tops}"]
    top = tops[0]
    if not (top.isidentifier() and re.match(r"^[A-Za-z][A-Za-z0-9_-]+$", top)):
        problems.append(f"the top folder {top} is not a Python identifier starting with a letter")
    for required in ("__init__.py", "metadata.txt", "LICENSE"):
        if f"{top}/{required}" not in names:
            problems.append(f"{top}/{required} is missing")
    for info in archive.infolist():
        if info.filename.endswith(".py") and (info.external_attr >> 16) & 0o111:
            problems.append(f"{info.filename}: a Python file with the executable bit")
    if f"{top}/metadata.txt" in names:
        text = archive.read(f"{top}/metadata.txt").decode("utf-8")
        problems += _metadata_problems(text, set(names), top)
    return problems


def main(argv: list[str]) -> int:
    if len(argv) == 4 and argv[1] == "metadata":
        texts = []
        for path in argv[2:]:
            with open(path, encoding="utf-8") as handle:
                texts.append(handle.read())
        text, warnings = zip_metadata(*texts)
        for warning in warnings:
            print(f"package: WARNING: {warning}", file=sys.stderr)
        sys.stdout.write(text)
        return 0
    if len(argv) == 3 and argv[1] == "check":
        problems = check_zip(argv[2])
        for problem in problems:
            print(f"package: the QGIS plugin repository would refuse or flag {argv[2]}: {problem}", file=sys.stderr)
        return 1 if problems else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
