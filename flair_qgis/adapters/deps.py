"""The plugin's third-party dependencies, as its callers know them (``from ..adapters import deps``).

Two parts: :mod:`.deps_check` says which modules the plugin and each feature need and what to do
when one is missing; :mod:`.deps_install` finds, offers and pip-installs onnxruntime (and any
package) into the plugin's folder of the QGIS profile.
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
    DEPS_FOLDER_NAME,
    GPU_PACKAGE,
    DependencyError,
    InstallTask,
    activate_deps_dir,
    cuda_label,
    cuda_present,
    deps_dir,
    gpu_present,
    install,
    install_command_text,
    numpy_pin,
    onnxruntime_package,
    onnxruntime_status,
    pip_arguments,
    python_executable,
    runtime_packages,
)

__all__ = [
    "DEPS_FOLDER_NAME",
    "GPU_PACKAGE",
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
    "InstallTask",
    "Requirement",
    "activate_deps_dir",
    "cuda_label",
    "cuda_present",
    "deps_dir",
    "gpu_present",
    "install",
    "install_command_text",
    "missing_modules",
    "numpy_pin",
    "onnxruntime_package",
    "onnxruntime_status",
    "optional_dependency_error",
    "pip_arguments",
    "platform_advice",
    "python_executable",
    "quantize_dependency_error",
    "require_vectorize",
    "runtime_packages",
    "vectorize_dependency_error",
]
