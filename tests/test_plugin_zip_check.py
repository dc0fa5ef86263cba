"""scripts/plugin_zip.py check: what the QGIS plugin repository refuses or flags in a zip, found before upload."""

from __future__ import annotations

import importlib.util
import zipfile

import pytest
from conftest import REPO

spec = importlib.util.spec_from_file_location("plugin_zip", REPO / "scripts" / "plugin_zip.py")
plugin_zip = importlib.util.module_from_spec(spec)
spec.loader.exec_module(plugin_zip)

METADATA = """[general]
name=Demo
description=d
about=a
version=1.0
qgisMinimumVersion=3.22
author=someone
email=a@b.org
tracker=https://example.org/issues
repository=https://example.org/repo
icon=icon.svg
"""
GOOD = {"demo/__init__.py": "", "demo/metadata.txt": METADATA, "demo/LICENSE": "GPL", "demo/icon.svg": "<svg/>"}


def _zip(tmp_path, files, name="p.zip"):
    path = tmp_path / name
    with zipfile.ZipFile(path, "w") as archive:
        for member, text in files.items():
            archive.writestr(member, text)
    return str(path)


def test_a_good_zip_passes(tmp_path):
    assert plugin_zip.check_zip(_zip(tmp_path, GOOD)) == []


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"demo/LICENSE": None}, "demo/LICENSE is missing"),
        ({"demo/__pycache__/x.cpython-311.pyc": ""}, "compiled Python"),
        ({"demo/.hidden": ""}, "a hidden file"),
        ({"other/__init__.py": ""}, "one top folder expected"),
        ({"demo/tool.sh": ""}, "binary file type"),
        ({"demo/metadata.txt": METADATA.replace("email=a@b.org\n", "")}, "metadata.txt lacks email"),
        ({"demo/metadata.txt": METADATA.replace("about=a", "about=100%")}, "does not read"),
        ({"demo/metadata.txt": METADATA.replace("https://example.org/issues", "bugs")}, "tracker=bugs is not a URL"),
        ({"demo/icon.svg": None}, "the icon icon.svg is not in the zip"),
    ],
)
def test_what_the_repository_refuses_is_named(tmp_path, change, reason):
    files = {**GOOD, **change}
    problems = plugin_zip.check_zip(_zip(tmp_path, {k: v for k, v in files.items() if v is not None}))
    assert any(reason in problem for problem in problems), problems


def test_a_zip_over_25_mb_is_refused(tmp_path):
    path = tmp_path / "big.zip"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_STORED) as archive:
        for member, text in GOOD.items():
            archive.writestr(member, text)
        archive.writestr("demo/model.onnx", b"\0" * 25_000_001)
    assert "over the repository's 25,000,000" in plugin_zip.check_zip(str(path))[0]


def test_metadata_gets_the_changelog_and_warns_on_placeholders():
    source = "[general]\nname=Demo\nemail=x@example.org\nhomepage=https://h.org\n"
    changelog = "# Changelog\n\n## 0.2.0 - 2026-12-08\n\n- new\n  and wrapped\n\n## 0.1.0 - 2026-11-01\n\n- first\n"
    text, warnings = plugin_zip.zip_metadata(source, changelog)
    assert text.startswith(source)
    assert text.endswith("changelog=0.2.0 - 2026-12-08:\n    - new and wrapped\n    0.1.0 - 2026-11-01:\n    - first\n")
    assert len(warnings) == 1 and "email=x@example.org is a placeholder" in warnings[0]
