#!/usr/bin/env bash
# Installs what flair_qgis needs on Debian 12/13: Debian's QGIS stack, then a venv that sees the
# system site-packages (QGIS, GDAL, rasterio, geopandas all share Debian's one GDAL and numpy)
# and adds only onnxruntime and the test tools from PyPI, with numpy pinned to Debian's version.
# Idempotent: a second run with nothing missing returns in about a second.
set -euo pipefail
cd "$(dirname "$0")/.."

# onnxruntime and onnxruntime-gpu overwrite each other's files: exactly one of them, chosen by
# whether an NVIDIA driver answers on this machine. The GPU build comes with its CUDA and cuDNN
# wheels ([cuda,cudnn]): a machine with only the driver has no CUDA toolkit for it to load.
# onnxruntime-gpu >= 1.27 is built for CUDA 13: a driver that runs only CUDA 12 (nvidia-smi's
# header) gets the last CUDA 12 build (flair_qgis/adapters/deps_install.py chooses the same).
# The minimum versions are flair_qgis/adapters/deps_platform.py's (MIN_ONNXRUNTIME, MIN_ONNXRUNTIME_GPU).
ort_package() {
  if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
    local driver_cuda
    driver_cuda=$(nvidia-smi 2>/dev/null | sed -n 's/.*CUDA Version: *\([0-9]*\).*/\1/p' | head -n 1 || true)
    if [ -n "$driver_cuda" ] && [ "$driver_cuda" -lt 13 ]; then
      echo "onnxruntime-gpu[cuda,cudnn]>=1.21.0,<1.27"
    else
      echo "onnxruntime-gpu[cuda,cudnn]>=1.21.0"
    fi
  else
    echo "onnxruntime>=1.19.2"
  fi
}
[ "${FLAIR_SETUP_ONLY_PRINT_ORT:-}" = 1 ] && { ort_package; exit 0; }  # tests/test_gpu_setup.py

APT_PACKAGES=(qgis python3-qgis qgis-providers python3-rasterio python3-geopandas python3-pyproj python3-scipy
  python3-sklearn python3-venv python3-pip proj-bin gdal-bin xvfb
  qttools5-dev-tools  # lrelease: make package compiles the translations
  postgresql postgis)  # tests/postgis_server.py: a throwaway PostGIS server for the shared-database tests
VENV=.venv
SYS_PY=/usr/bin/python3

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# The PostGIS extension for the server (package postgis only recommends it): postgresql-NN-postgis-3,
# NN being the major version Debian's postgresql package depends on (15 on Debian 12, 17 on 13).
if ! compgen -G "/usr/share/postgresql/*/extension/postgis.control" >/dev/null; then
  pg_major=$(dpkg-query -W -f='${Depends}' postgresql | grep -o 'postgresql-[0-9]*' | head -n 1 | cut -d- -f2)
  echo "setup: installing Debian package postgresql-$pg_major-postgis-3"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  [ ${#missing[@]} -gt 0 ] || $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
    "postgresql-$pg_major-postgis-3" >/dev/null
fi

ORT=$(ort_package)

stamp_src="$(cat requirements-dev.txt scripts/setup.sh; echo "$ORT"; cat /etc/debian_version)"
stamp="$VENV/.flair-setup-$(printf '%s' "$stamp_src" | sha256sum | cut -c1-16)"
# PyQt6 from PyPI in a venv of its own (the QGIS 4 bindings cannot share a process with QGIS 3's
# PyQt5): tests/test_qt_names.py resolves every Qt name the plugin uses against both.
QT6_VENV=.venv-qt6
if [ -f "$stamp" ] && "$VENV/bin/python" -c "import onnxruntime, qgis.core" 2>/dev/null \
    && "$QT6_VENV/bin/python" -c "import PyQt6.QtWidgets" 2>/dev/null; then
  exit 0
fi

[ -x "$VENV/bin/python" ] || "$SYS_PY" -m venv --system-site-packages "$VENV"
numpy_version=$("$SYS_PY" -c 'import numpy; print(numpy.__version__)')
constraints="$VENV/constraints.txt"
echo "numpy==$numpy_version" > "$constraints"
other=onnxruntime-gpu; [[ "$ORT" == onnxruntime-gpu* ]] && other=onnxruntime
"$VENV/bin/python" -m pip uninstall -q -y "$other" >/dev/null 2>&1 || true
echo "setup: installing $ORT and test tools into $VENV (numpy pinned to Debian's $numpy_version)"
"$VENV/bin/python" -m pip install -q --disable-pip-version-check -c "$constraints" \
  "$ORT" -r requirements-dev.txt 2>&1 | grep -v "is ignored: it is neither a file nor a directory" || true
"$VENV/bin/python" -c "import onnxruntime, onnx, pytest_qgis, numpy, distributed; assert numpy.__version__ == '$numpy_version'"
test -x "$VENV/bin/dask" || { echo "setup: $VENV/bin/dask is missing (dask distributed did not install)" >&2; exit 1; }
[ -x "$QT6_VENV/bin/python" ] || "$SYS_PY" -m venv "$QT6_VENV"
echo "setup: installing PyQt6 into $QT6_VENV (the Qt6 name check)"
"$QT6_VENV/bin/python" -m pip install -q --disable-pip-version-check "PyQt6>=6.5" 2>&1 \
  | grep -v "is ignored: it is neither a file nor a directory" || true
"$QT6_VENV/bin/python" -c "import PyQt6.QtCore, PyQt6.QtGui, PyQt6.QtWidgets"
rm -f "$VENV"/.flair-setup-*
touch "$stamp"
echo "setup: ready ($("$VENV/bin/python" -c 'import onnxruntime; print("onnxruntime", onnxruntime.__version__)'))"
