"""core.cuda: where NVIDIA's wheels put CUDA, which library fails to load, and what the user reads.

Folder trees are real folders; loads are real ``dlopen`` calls (an empty file fails as a damaged
library does, a name found nowhere fails as a missing one, a real system library loads). The last
test runs a real onnxruntime-gpu without CUDA libraries, where a separate venv has one.
"""

from __future__ import annotations

import ctypes.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from toy_models import identity_model

from flair_qgis.core import cuda
from flair_qgis.core.cuda import CudaLibrary, cuda_libraries, failure_reason, load_libraries, nvidia_dirs

ROOT = Path(__file__).resolve().parents[3]


def _tree(root: Path, *folders: str) -> Path:
    for folder in folders:
        (root / folder).mkdir(parents=True)
    return root


def test_cuda_13_wheels_are_one_package_and_cudnn_its_own(tmp_path):
    site = _tree(tmp_path, "nvidia/cu13/lib", "nvidia/cudnn/lib", "nvidia/cublas/lib")
    assert nvidia_dirs([str(site)], 13) == [str(site / "nvidia/cu13/lib"), str(site / "nvidia/cudnn/lib")]
    win = _tree(tmp_path / "win", "nvidia/cu13/bin/x86_64", "nvidia/cudnn/bin")
    assert nvidia_dirs([str(win)], 13, windows=True) == [
        str(win / "nvidia/cu13/bin/x86_64"),
        str(win / "nvidia/cudnn/bin"),
    ]


def test_cuda_12_wheels_are_one_package_per_component(tmp_path):
    site = _tree(tmp_path, "nvidia/cublas/lib", "nvidia/cuda_runtime/lib", "nvidia/cudnn/lib", "nvidia/cu13/lib")
    assert nvidia_dirs([str(site), str(site)], 12) == [
        str(site / "nvidia/cuda_runtime/lib"),
        str(site / "nvidia/cublas/lib"),
        str(site / "nvidia/cudnn/lib"),
    ]
    assert nvidia_dirs([str(tmp_path / "absent")], 12) == []


def test_the_libraries_follow_the_cuda_version():
    names = [library.name for library in cuda_libraries(13)]
    assert names == ["libcuda.so.1", "libcudart.so.13", "libcublasLt.so.13", "libcublas.so.13", "libcurand.so.10",
                     "libcufft.so.12", "libcudnn.so.9"]  # fmt: skip
    assert "cufft64_11.dll" in [library.name for library in cuda_libraries(12, windows=True)]


def test_a_library_found_nowhere_is_named_with_its_fix():
    libraries = (CudaLibrary("libcudnn.so.9", "pip install x"), CudaLibrary("libflair_absent.so.1", "y"))
    check = load_libraries(libraries, [])
    assert [library.name for library, _ in check.missing] == ["libcudnn.so.9", "libflair_absent.so.1"]
    cudnn_only = load_libraries(cuda_libraries(13)[-1:], [])
    assert failure_reason(cudnn_only) == (
        "libcudnn.so.9 not found: pip install 'onnxruntime-gpu[cuda,cudnn]' in the plugin's Python, or install cuDNN 9"
    )
    assert failure_reason(check).startswith("libcudnn.so.9 not found (also missing: libflair_absent.so.1): ")


def test_a_damaged_library_in_the_wheel_folder_says_so(tmp_path):
    site = _tree(tmp_path, "nvidia/cudnn/lib")
    (site / "nvidia/cudnn/lib/libcudnn.so.9").write_bytes(b"")  # a truncated download
    check = load_libraries(cuda_libraries(13)[-1:], nvidia_dirs([str(site)], 13))
    reason = failure_reason(check)
    assert reason.startswith("libcudnn.so.9 could not be loaded (") and str(site) in reason
    assert reason.endswith("or install cuDNN 9")


@pytest.mark.skipif(shutil.which("gcc") is None, reason="no C compiler to build a library with a dependency")
def test_a_library_whose_own_dependency_is_missing_says_which(tmp_path):
    """A real shared library (as cuBLAS needs cuBLASLt) whose dependency was never installed."""
    lib = _tree(tmp_path, "nvidia/cu13/lib") / "nvidia/cu13/lib"
    source = tmp_path / "x.c"
    source.write_text("int flair_x(void) { return 1; }\n")
    build = ["gcc", "-shared", "-fPIC", "-o"]
    subprocess.run([*build, str(tmp_path / "libflairlt.so.13"), str(source)], check=True)
    subprocess.run([*build, str(lib / "libflair.so.13"), str(source), f"-L{tmp_path}", "-Wl,--no-as-needed",
                    "-l:libflairlt.so.13"], check=True)  # fmt: skip
    check = load_libraries([CudaLibrary("libflair.so.13", "fix")], nvidia_dirs([str(tmp_path)], 13))
    assert failure_reason(check) == (
        f"libflair.so.13 could not be loaded ({lib}/libflair.so.13: libflairlt.so.13: cannot open shared object "
        "file: No such file or directory): fix"
    )


def test_a_library_in_the_wheel_folder_loads_from_there(tmp_path):
    real = ctypes.util.find_library("z")
    if real is None:
        pytest.skip("no zlib on this machine")
    source = next(
        p for p in ("/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/usr/lib") if os.path.exists(f"{p}/{real}")
    )
    site = _tree(tmp_path, "nvidia/cu13/lib")
    shutil.copy(f"{source}/{real}", site / "nvidia/cu13/lib/libflair_zlib_copy.so.10")
    check = load_libraries([CudaLibrary("libflair_zlib_copy.so.10", "")], nvidia_dirs([str(site)], 13))
    assert check.missing == () and check.loaded == (str(site / "nvidia/cu13/lib/libflair_zlib_copy.so.10"),)
    assert failure_reason(check) == ""


def test_prepare_runs_once_per_process_with_the_installed_onnxruntime(tmp_path, monkeypatch):
    monkeypatch.setattr(cuda, "_DONE", {})  # this test's own first call
    first = cuda.prepare_cuda(site_dirs=[str(tmp_path)])
    assert cuda.prepare_cuda(site_dirs=["/elsewhere"]) is first
    assert len(first.missing) + len(first.loaded) == len(cuda_libraries(cuda._built_cuda_major()))


ORT_GPU_PYTHON = os.environ.get("FLAIR_ORTGPU_PYTHON", "/tmp/ortgpu/bin/python")
"""A Python with onnxruntime-gpu and QGIS's site packages (``docs/install.md``, "Check the message")."""


def _has_ort_gpu() -> bool:
    if not os.path.exists(ORT_GPU_PYTHON):
        return False
    code = "import importlib.metadata as m; m.version('onnxruntime-gpu')"
    return subprocess.run([ORT_GPU_PYTHON, "-c", code], capture_output=True, check=False).returncode == 0


@pytest.mark.skipif(not _has_ort_gpu(), reason=f"no onnxruntime-gpu at {ORT_GPU_PYTHON} (FLAIR_ORTGPU_PYTHON)")
def test_a_real_onnxruntime_gpu_without_cuda_names_the_missing_library(tmp_path):
    model = identity_model(tmp_path / "m.onnx", 3)
    code = (
        "import sys; from flair_qgis.core.engine.sessions import create_session\n"
        "session, info = create_session(sys.argv[1], 'cuda')\n"
        "print('PROVIDER', info.provider); print('WARNING', info.warning)\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([ORT_GPU_PYTHON, "-c", code, str(model)], capture_output=True, text=True, env=env, check=True)
    lines = dict(line.split(" ", 1) for line in done.stdout.splitlines() if " " in line)
    if lines["PROVIDER"] == "CUDAExecutionProvider":  # a machine where CUDA works
        assert lines["WARNING"].strip() == ""
        return
    warning = lines["WARNING"]
    assert "Running on the CPU." in warning and " not found" in warning
    assert "install the NVIDIA driver" in warning or "onnxruntime-gpu[cuda,cudnn]" in warning
    assert sys.executable != ORT_GPU_PYTHON


def test_a_driver_too_old_for_the_build_is_named_with_the_cuda_12_package():
    header = "| NVIDIA-SMI 535.216.01   Driver Version: 535.216.01   CUDA Version: 12.2     |"
    assert cuda.parse_driver_cuda(header) == 12
    assert cuda.parse_driver_cuda("NVIDIA-SMI has failed") is None
    # Every library loaded, yet CUDA fails: cuDriverGetVersion said 12020 (CUDA 12.2).
    old = cuda.CudaCheck(loaded=("libcudart.so.13",), built_cuda=13, driver_cuda=12020)
    assert failure_reason(old) == (
        "the NVIDIA driver runs CUDA up to 12.2 but this onnxruntime-gpu needs CUDA 13: update the driver, "
        "or pip install 'onnxruntime-gpu[cuda,cudnn]<1.27' (CUDA 12) in the plugin's Python"
    )
    assert failure_reason(cuda.CudaCheck(built_cuda=13, driver_cuda=13000)) == ""
    assert failure_reason(cuda.CudaCheck(built_cuda=12, driver_cuda=None)) == ""
