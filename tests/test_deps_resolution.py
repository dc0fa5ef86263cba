"""pip resolves the dependency dialog's exact requirement sets for Windows, macOS arm64 and macOS x86_64
(``pip install --dry-run --platform ... --python-version ... --only-binary=:all:``), the GPU set included,
and the dialog's MB figures stay near what pip downloads.

Needs the package registry (PyPI): skipped where it does not answer (CI, the fresh-check roots).
docs/install.md records what these runs resolved and which combinations are only on paper.
"""

from __future__ import annotations

import pytest
from pip_resolve import TARGETS, registry_reachable, resolve, with_sizes

from flair_qgis.adapters.deps_plan import GPU_MB, RUNTIME_MB, install_plan, platform_key
from flair_qgis.adapters.deps_platform import MIN_ONNXRUNTIME, MIN_ONNXRUNTIME_GPU, version_at_least

pytestmark = [
    pytest.mark.skipif(not registry_reachable(), reason="the package registry (pypi.org) does not answer"),
    pytest.mark.timeout(900),
    pytest.mark.slow,  # six pip dry runs and about 40 HEAD requests: about a minute
]

CASES = [
    ("windows-py3.12", "win32", "AMD64", False),
    ("windows-py3.12", "win32", "AMD64", True),
    ("windows-py3.9", "win32", "AMD64", False),
    ("macos-arm64-py3.12", "darwin", "arm64", False),
    ("macos-x86_64-py3.12", "darwin", "x86_64", False),
    ("macos-x86_64-macos12-py3.12", "darwin", "x86_64", False),
]


@pytest.mark.parametrize(("target", "platform", "machine", "gpu"), CASES)
def test_pip_resolves_the_dialog_requirements(target, platform, machine, gpu):
    platforms, python = TARGETS[target]
    version = tuple(int(part) for part in python.split("."))
    plan = install_plan((), True, platform=platform, machine=machine, cuda=gpu, driver_cuda=13, version=version)
    wheels = with_sizes(resolve(list(plan.pip), platforms, python))
    found = {wheel.name.lower(): wheel for wheel in wheels}
    runtime = found["onnxruntime-gpu" if gpu else "onnxruntime"]
    assert version_at_least(runtime.version, MIN_ONNXRUNTIME_GPU if gpu else MIN_ONNXRUNTIME)
    assert "onnx" in found
    megabytes = sum(wheel.size for wheel in wheels) / 1e6
    if gpu:
        assert len([name for name in found if name.startswith("nvidia-")]) >= 6  # CUDA runtime, cuBLAS, cuDNN...
        assert abs(megabytes - GPU_MB) < 0.25 * GPU_MB, megabytes
    elif python == "3.12":
        expected = RUNTIME_MB[platform_key(platform, machine)]
        assert abs(megabytes - expected) < 0.5 * expected, megabytes
