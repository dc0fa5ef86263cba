"""What pip would download for another platform: ``pip install --dry-run --report`` with ``--platform``,
``--python-version`` and ``--only-binary=:all:``, and each wheel's size (an HTTP HEAD of its URL).

Needs the package registry: :func:`registry_reachable` says whether it answers. Used by
``tests/test_deps_resolution.py`` and, run as a script, prints the table of docs/install.md:

    .venv/bin/python tests/pip_resolve.py
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import urllib.request
from dataclasses import dataclass

TARGETS = {
    "windows-py3.12": (("win_amd64",), "3.12"),
    "windows-py3.9": (("win_amd64",), "3.9"),
    "macos-arm64-py3.12": (("macosx_14_0_arm64",), "3.12"),
    "macos-x86_64-py3.12": (("macosx_13_0_x86_64",), "3.12"),
    "macos-x86_64-macos12-py3.12": (("macosx_12_0_x86_64",), "3.12"),
    "macos-arm64-py3.9": (("macosx_14_0_arm64",), "3.9"),
}
"""Name -> (pip ``--platform`` tags, Python version): QGIS 3.34 to 3.44 on Windows and macOS run
Python 3.12; QGIS 3.22 to 3.28 on Windows ran Python 3.9."""


@dataclass(frozen=True)
class Wheel:
    name: str
    version: str
    filename: str
    url: str
    size: int = 0


def registry_reachable(timeout: float = 10.0) -> bool:
    """True when PyPI's index answers (the dry runs need it)."""
    try:
        with urllib.request.urlopen("https://pypi.org/simple/pip/", timeout=timeout) as answer:
            return answer.status == 200
    except OSError:
        return False


def resolve(requirements: list[str], platforms: tuple[str, ...], python_version: str) -> list[Wheel]:
    """The wheels pip picks for ``requirements`` on that platform and Python (nothing installed).

    Raises:
        RuntimeError: pip found no solution; its last lines are in the message.
    """
    with tempfile.TemporaryDirectory() as target:
        args = [sys.executable, "-m", "pip", "install", "--dry-run", "--quiet", "--report", "-", "--ignore-installed"]
        args += ["--only-binary=:all:", "--python-version", python_version, "--target", target]
        for platform in platforms:
            args += ["--platform", platform]
        done = subprocess.run([*args, *requirements], capture_output=True, text=True, check=False, timeout=600)
    if done.returncode != 0:
        raise RuntimeError("\n".join(done.stderr.strip().splitlines()[-5:]))
    report = json.loads(done.stdout)
    return [
        Wheel(
            item["metadata"]["name"],
            item["metadata"]["version"],
            item["download_info"]["url"].rsplit("/", 1)[-1],
            item["download_info"]["url"],
        )
        for item in report["install"]
    ]


def with_sizes(wheels: list[Wheel]) -> list[Wheel]:
    """The wheels with their download sizes in bytes (``Content-Length`` of a HEAD request)."""
    sized = []
    for wheel in wheels:
        request = urllib.request.Request(wheel.url, method="HEAD")
        with urllib.request.urlopen(request, timeout=60) as answer:
            sized.append(
                Wheel(wheel.name, wheel.version, wheel.filename, wheel.url, int(answer.headers["Content-Length"]))
            )
    return sized


def main() -> None:
    sys.path.insert(0, ".")
    from flair_qgis.adapters.deps_platform import onnxruntime_requirement

    for name, (platforms, python) in TARGETS.items():
        version = tuple(int(p) for p in python.split("."))
        for gpu in (False, True):
            if gpu and not name.startswith("windows"):
                continue  # onnxruntime-gpu has no macOS wheels
            requirements = [onnxruntime_requirement(gpu, 13, version), "onnx"]
            try:
                wheels = with_sizes(resolve(requirements, platforms, python))
            except RuntimeError as err:
                print(f"{name} gpu={gpu} {requirements}: no solution: {err}")
                continue
            total = sum(w.size for w in wheels) / 1e6
            main_wheels = ", ".join(
                f"{w.name} {w.version}" for w in wheels if w.name in ("onnxruntime", "onnxruntime-gpu", "onnx", "numpy")
            )
            print(f"{name} gpu={gpu}: {len(wheels)} wheels, {total:.0f} MB; {main_wheels}")
            for wheel in wheels:
                print(f"    {wheel.filename} {wheel.size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
