#!/usr/bin/env bash
# Creates .venv-tools, a separate venv for the PyTorch side tooling (demo-model training,
# checkpoint conversion to ONNX). The plugin never uses it: QGIS users only need onnxruntime.
#
# The venv sees Debian's site-packages (rasterio, numpy) and adds CPU-only torch, onnx,
# onnxruntime, onnxscript and safetensors from PyPI with numpy pinned to Debian's version, so
# the one numpy stays the one rasterio was built against.
# pytest comes along: `make test-tools` runs tests/test_tools_*.py with this venv's python.
# segmentation-models-pytorch and timm (with torchvision) rebuild IGN's FLAIR-HUB networks; where
# only PyPI's CUDA torchvision is reachable, tools/smp_models.py imports it without its C ops.
# Idempotent: a second run with nothing missing returns in about a second. Non-interactive;
# any failure stops the script with a non-zero status: 3 when no CPU torch wheel for this
# Python is reachable (e.g. Debian 13's Python 3.13 where only a 3.11 wheel is at hand), 1 else.
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=.venv-tools
SYS_PY=/usr/bin/python3
TORCH_VERSION="${FLAIR_TORCH_VERSION:-2.13.0}"
# "+cpu" pins the CPU build (PyPI's plain Linux torch is the multi-GB CUDA build). It comes from
# pip's find-links when a local wheel lies there, else from the PyTorch CPU index.
TORCH_INDEX="${FLAIR_TORCH_INDEX:-https://download.pytorch.org/whl/cpu}"
# segmentation-models-pytorch 0.4.0 is the version IGNF/FLAIR-HUB pins (setup.py at 3d5693b); timm
# 1.0.15 is the release of its time. They rebuild FLAIR-HUB's ConvNeXt-V2 and Swin UPerNets.
# torchvision (imported by both) follows torch: 0.28 goes with torch 2.13.
TORCHVISION_VERSION="${FLAIR_TORCHVISION_VERSION:-0.28.0}"
PACKAGES=("torch==$TORCH_VERSION+cpu" onnx onnxruntime onnxscript safetensors pytest
  "torchvision==$TORCHVISION_VERSION" segmentation-models-pytorch==0.4.0 timm==1.0.15 huggingface-hub==0.28.1)

if ! "$SYS_PY" -c 'import venv, numpy, rasterio' 2>/dev/null; then
  echo "tools-env: $SYS_PY needs python3-venv, python3-numpy and python3-rasterio (run make setup)" >&2
  exit 1
fi
numpy_version=$("$SYS_PY" -c 'import numpy; print(numpy.__version__)')

stamp_src="$(cat scripts/tools-env.sh; echo "$numpy_version $TORCH_VERSION $TORCHVISION_VERSION"; cat /etc/debian_version 2>/dev/null || true)"
stamp="$VENV/.flair-tools-$(printf '%s' "$stamp_src" | sha256sum | cut -c1-16)"
check='import torch, onnx, onnxruntime, safetensors, numpy, rasterio, pytest; from tools.smp_models import import_smp; import_smp(); import timm'
if [ -f "$stamp" ] && "$VENV/bin/python" -c "$check" 2>/dev/null; then
  exit 0
fi

[ -x "$VENV/bin/python" ] || "$SYS_PY" -m venv --system-site-packages "$VENV"
constraints="$VENV/constraints.txt"
echo "numpy==$numpy_version" > "$constraints"
echo "tools-env: installing ${PACKAGES[*]} into $VENV (CPU torch, numpy pinned to Debian's $numpy_version)"
# onnxruntime-gpu would shadow onnxruntime's files: keep exactly the CPU one here.
"$VENV/bin/python" -m pip uninstall -q -y onnxruntime-gpu >/dev/null 2>&1 || true
pip_install=("$VENV/bin/python" -m pip install -q --disable-pip-version-check --no-input -c "$constraints")
if ! "${pip_install[@]}" "${PACKAGES[@]}" 2>"$VENV/pip-local.log"; then
  grep -v "is ignored: it is neither" "$VENV/pip-local.log" | tail -n 3 >&2 || true
  echo "tools-env: no local torch $TORCH_VERSION+cpu wheel; trying the PyTorch CPU index $TORCH_INDEX"
  if ! "${pip_install[@]}" --extra-index-url "$TORCH_INDEX" "${PACKAGES[@]}" 2>"$VENV/pip-index.log"; then
    grep -v "is ignored: it is neither" "$VENV/pip-index.log" | tail -n 3 >&2 || true
    # pip names torch in its error ("No matching distribution found for torch==…", "Cannot
    # install torch==…") when no wheel of it fits this Python: the one case the tests may skip.
    if grep -qE "^ERROR: .*\btorch==" "$VENV/pip-index.log"; then
      python_version=$("$SYS_PY" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
      echo "tools-env: no torch $TORCH_VERSION+cpu wheel for Python $python_version in" \
        "PIP_FIND_LINKS (${PIP_FIND_LINKS:-unset}) nor on $TORCH_INDEX" >&2
      exit 3
    fi
    exit 1
  fi
fi

# Fail loudly when the result cannot do what the tools need: CPU torch on Debian's numpy, and an
# ONNX export that onnxruntime runs.
"$VENV/bin/python" - "$numpy_version" <<'EOF'
import io
import sys
import warnings

import numpy
import onnxruntime
import torch

expected_numpy = sys.argv[1]
if numpy.__version__ != expected_numpy:
    sys.exit(f"tools-env: numpy {numpy.__version__} is loaded, expected Debian's {expected_numpy}")
if torch.version.cuda is not None:
    sys.exit(f"tools-env: torch {torch.__version__} is a CUDA build; the tools need the CPU build")
if torch.from_numpy(numpy.arange(3, dtype=numpy.float32)).sum().item() != 3.0:
    sys.exit("tools-env: torch cannot read numpy arrays")
model = torch.nn.Conv2d(2, 3, 3, padding=1).eval()
buffer = io.BytesIO()
x = torch.rand(1, 2, 8, 8)
warnings.simplefilter("ignore", DeprecationWarning)  # the TorchScript exporter is what tools/ uses
torch.onnx.export(model, (x,), buffer, input_names=["x"], output_names=["y"], opset_version=17, dynamo=False)
session = onnxruntime.InferenceSession(buffer.getvalue(), providers=["CPUExecutionProvider"])
diff = abs(session.run(None, {"x": x.numpy()})[0] - model(x).detach().numpy()).max()
if not diff < 1e-5:
    sys.exit(f"tools-env: ONNX export round trip differs by {diff}")
EOF

rm -f "$VENV"/.flair-tools-*
touch "$stamp"
"$VENV/bin/python" -c 'import numpy, onnx, onnxruntime, torch
print(f"tools-env: ready: torch {torch.__version__}, onnx {onnx.__version__}, "
      f"onnxruntime {onnxruntime.__version__}, numpy {numpy.__version__}, {torch.get_num_threads()} threads")'
