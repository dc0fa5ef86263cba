"""The plugin's third-party dependencies, as its callers know them (``from ..adapters import deps``).

Four parts: :mod:`.deps_check` says which modules the plugin and each feature need and what to do
when one is missing; :mod:`.deps_platform` where the folder is and how pip starts on each platform;
:mod:`.deps_plan` what the dialog offers (from where, how many MB); :mod:`.deps_install` finds,
offers and pip-installs onnxruntime (and any package) into the plugin's folder.
"""

from __future__ import annotations

from .deps_check import (
    ONNXRUNTIME,
    OPTIONAL,
    QUANTIZE,
    QUANTIZE_MODULES,
    REQUIRED_MODULES,
    REQUIREMENTS,
    VECTORIZE,
    VECTORIZE_MODULES,
    WITH_QGIS,
    Requirement,
    missing_modules,
    optional_dependency_error,
    platform_advice,
    quantize_dependency_error,
    require_vectorize,
    vectorize_dependency_error,
)
from .deps_install import (
    GPU_PACKAGE,
    DependencyError,
    InstallTask,
    activate_deps_dir,
    cuda_label,
    cuda_present,
    deps_dir,
    find_qgis_python,
    gpu_present,
    install,
    install_command_text,
    numpy_pin,
    onnxruntime_package,
    onnxruntime_status,
    pip_arguments,
    python_executable,
    qgis_proxy,
    runtime_packages,
)
from .deps_plan import InstallPlan, install_plan, plan_text
from .deps_platform import DEPS_FOLDER_NAME, MIN_ONNXRUNTIME, MIN_ONNXRUNTIME_GPU

__all__ = [
    "DEPS_FOLDER_NAME",
    "GPU_PACKAGE",
    "MIN_ONNXRUNTIME",
    "MIN_ONNXRUNTIME_GPU",
    "ONNXRUNTIME",
    "OPTIONAL",
    "QUANTIZE",
    "QUANTIZE_MODULES",
    "REQUIRED_MODULES",
    "REQUIREMENTS",
    "VECTORIZE",
    "VECTORIZE_MODULES",
    "WITH_QGIS",
    "DependencyError",
    "InstallPlan",
    "InstallTask",
    "Requirement",
    "activate_deps_dir",
    "cuda_label",
    "cuda_present",
    "deps_dir",
    "find_qgis_python",
    "gpu_present",
    "install",
    "install_command_text",
    "install_plan",
    "missing_modules",
    "numpy_pin",
    "onnxruntime_package",
    "onnxruntime_status",
    "optional_dependency_error",
    "pip_arguments",
    "plan_text",
    "platform_advice",
    "python_executable",
    "qgis_proxy",
    "quantize_dependency_error",
    "require_vectorize",
    "runtime_packages",
    "vectorize_dependency_error",
]
