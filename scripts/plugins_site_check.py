#!/usr/bin/env python3
"""Judge a plugin zip with the QGIS plugin repository's own code, run unchanged from a checkout of
qgis/QGIS-Plugins-Website: its upload validator (``qgis-app/plugins/validator.py``) and its security
scan (``qgis-app/plugins/security_scanner.py``: Bandit, detect-secrets, flake8, file checks) with the
rules the site enables (``qgis-app/plugins/management/commands/data/*_rules.json``).

Django, the site's database and the network are replaced by stand-ins: ``ValidationError`` and
``gettext_lazy`` are plain Python, the rules come from the JSON files as the site's
``populate_security_rules`` loads them, and the validator's URL check (an HTTP HEAD of tracker,
repository, homepage) answers 200 unless ``--check-urls`` is given (no internet on the build machines).

Needs a Python with the site's scanners on PATH (not the project's venv, not CI: installing them needs
the package registry), e.g.:

    python3 -m venv /tmp/sitevenv && /tmp/sitevenv/bin/pip install bandit flake8 flake8-json detect-secrets
    PATH=/tmp/sitevenv/bin:$PATH /tmp/sitevenv/bin/python \
        scripts/plugins_site_check.py SITE_CHECKOUT dist/flair_qgis.zip

Prints the validator's verdict and every finding of the scan; exits 1 when the validator refuses or
the scan finds anything.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import types
from pathlib import Path


class ValidationError(Exception):
    """django.forms.ValidationError's part the validator uses (``messages``)."""

    def __init__(self, message, *args, **kwargs):
        super().__init__(str(message))
        self.messages = [str(message)]


def _stand_ins(check_urls: bool, rules: dict[str, list[dict]]) -> None:
    """Modules the site's code imports, replaced: django's few names, its rule model, requests."""

    def module(name: str, **attrs) -> None:
        sys.modules[name] = types.SimpleNamespace(**attrs)  # type: ignore[assignment]

    module("django")
    module("django.conf", settings=types.SimpleNamespace())
    module("django.forms", ValidationError=ValidationError)
    module("django.utils")
    module("django.utils.translation", gettext_lazy=lambda text: text)
    module("django.core")
    module("django.core.files")
    module("django.core.files.uploadedfile", SimpleUploadedFile=lambda name, data, kind: (name, len(data), kind))
    if not check_urls:
        answer = types.SimpleNamespace(status_code=200)
        exceptions = types.SimpleNamespace(SSLError=OSError, Timeout=TimeoutError)
        module("requests", head=lambda url, **kwargs: answer, exceptions=exceptions)

    class Query(list):
        def values_list(self, field, flat=True):
            return [getattr(rule, field) for rule in self]

    class Objects:
        def filter(self, **kwargs):
            return Query(r for r in all_rules if all(getattr(r, k) == v for k, v in kwargs.items()))

    all_rules = [
        types.SimpleNamespace(check_category=category, **rule) for category, items in rules.items() for rule in items
    ]
    module("plugins")
    module("plugins.models", SecurityRule=types.SimpleNamespace(objects=Objects()))


def _load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    return loaded


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("site", type=Path, help="a checkout of qgis/QGIS-Plugins-Website")
    parser.add_argument("zip", type=Path)
    parser.add_argument("--check-urls", action="store_true", help="let the validator reach the metadata's URLs")
    args = parser.parse_args()
    app = args.site / "qgis-app" / "plugins"
    data = app / "management" / "commands" / "data"
    rules = {}
    for category, file in (
        ("bandit", "bandit"),
        ("secrets", "secrets"),
        ("flake8", "flake8"),
        ("file_analysis", "file_analysis"),
    ):
        rules[category] = json.loads((data / f"{file}_rules.json").read_text())["rules"]
    _stand_ins(args.check_urls, rules)
    failed = False
    validator = _load(app / "validator.py", "site_validator")
    with open(args.zip, "rb") as package:
        package.size = os.path.getsize(args.zip)  # type: ignore[attr-defined]  # what Django's upload has
        try:
            metadata = dict(validator.validator(package, is_new=True))
            warnings = {k: v for k, v in metadata.items() if k in ("multiple_parent_folders", "supportsQt6_deprecated")}
            print(
                f"validator: accepted {metadata['package_name']} {metadata['version']}; warnings: {warnings or 'none'}"
            )
        except ValidationError as err:
            print(f"validator: REFUSED: {err}")
            failed = True
    scanner_module = _load(app / "security_scanner.py", "site_security_scanner")
    enabled = [
        types.SimpleNamespace(check_category=category, **rule)
        for category, items in rules.items()
        for rule in items
        if rule["enabled"]
    ]
    report = scanner_module.PluginSecurityScanner(str(args.zip), enabled_rules=enabled).scan()
    print(f"security scan ({len(enabled)} enabled rules): {json.dumps(report['summary'])}")
    for check in report["checks"]:
        verdict = "passed" if check["passed"] else f"{check['issues_found']} finding(s)"
        print(f"  {check['name']}: {verdict}")
        for detail in check["details"]:
            if check["issues_found"] or "error" in str(detail.get("message", "")).lower():
                print(f"    {json.dumps(detail)[:300]}")
        failed = failed or not check["passed"]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
