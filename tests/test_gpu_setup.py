"""The GPU package choice: ``scripts/setup.sh`` and the dependency dialog install the same one.

An NVIDIA driver that answers ``nvidia-smi -L`` gets ``onnxruntime-gpu[cuda,cudnn]`` (the CUDA and
cuDNN wheels come with it); no driver, or one that does not answer, gets ``onnxruntime``. The
``nvidia-smi`` here is a real executable script put first on ``PATH``.
"""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

import pytest

from flair_qgis.adapters import deps
from flair_qgis.core.cuda import list_gpus

ROOT = Path(__file__).resolve().parents[1]


def _fake_smi(folder: Path, exit_code: int, driver_cuda: str = "13.0") -> Path:
    """A folder holding an ``nvidia-smi`` that answers as a driver running CUDA ``driver_cuda`` does
    (``-L`` and ``--query-gpu``: one GPU; no argument: the header), and exits with ``exit_code``."""
    folder.mkdir(parents=True, exist_ok=True)
    smi = folder / "nvidia-smi"
    smi.write_text(
        '#!/bin/sh\nif [ "$1" = -L ]; then echo "GPU 0: NVIDIA H200 (UUID: GPU-0)"\n'
        'elif [ "$1" = --query-gpu=index,name ]; then echo "0, NVIDIA H200"; else\n'
        f'echo "| NVIDIA-SMI 535.216.01   Driver Version: 535.216.01   CUDA Version: {driver_cuda}     |"; fi\n'
        f"exit {exit_code}\n"
    )
    smi.chmod(smi.stat().st_mode | stat.S_IXUSR)
    return folder


def _setup_choice(path: str) -> str:
    env = dict(os.environ, PATH=path, FLAIR_SETUP_ONLY_PRINT_ORT="1")
    done = subprocess.run(["bash", str(ROOT / "scripts/setup.sh")], env=env, capture_output=True, text=True, check=True)
    return done.stdout.strip()


@pytest.mark.parametrize(
    ("exit_code", "driver_cuda", "expected"),
    [
        (0, "13.0", deps.GPU_PACKAGE),
        (0, "12.2", "onnxruntime-gpu[cuda,cudnn]>=1.21.0,<1.27"),  # the last onnxruntime-gpu built for CUDA 12
        (9, "13.0", "onnxruntime>=1.19.2"),  # nvidia-smi is there but the driver does not answer
        (None, "", "onnxruntime>=1.19.2"),  # no nvidia-smi
    ],
)
def test_setup_and_dialog_choose_the_same_package(tmp_path, monkeypatch, exit_code, driver_cuda, expected):
    path = "/usr/bin:/bin"
    if exit_code is not None:
        path = f"{_fake_smi(tmp_path / 'bin', exit_code, driver_cuda)}:{path}"
    assert _setup_choice(path) == expected
    monkeypatch.setenv("PATH", path)
    list_gpus.cache_clear()  # the driver is asked once per process
    try:
        assert deps.onnxruntime_package() == expected
    finally:
        list_gpus.cache_clear()


def test_the_gpu_command_installs_the_cuda_wheels(tmp_path):
    command = deps.install_command_text(deps.GPU_PACKAGE, str(tmp_path / "flair_qgis_deps"))
    assert "onnxruntime-gpu[cuda,cudnn]" in command and "numpy==" in command
    # The shell gives pip one argument with the brackets (the text is pasted into a terminal).
    words = command.split(" ", 1)[1]
    done = subprocess.run(["bash", "-c", f"printf '%s\\n' {words}"], capture_output=True, text=True, check=True)
    assert deps.GPU_PACKAGE in done.stdout.splitlines()  # brackets and >= reach pip as one argument
