#!/usr/bin/env bash
# The GPU checks of issue 32 (scripts/gpu_check.py) on the device machine: CUDA really used, and
# `flair segment --gpus all` with one Dask worker per GPU, pinned and reporting its GPU.
#
#   here:    scripts/gpu-check.sh kit      dask + distributed wheels for the device's Python 3.12,
#                                          in .gpu-check/ (about 5 MiB, ignored by git)
#            ../shared/tools/gpu-kit       onnxruntime-gpu, rasterio, shapely in .gpu-kit/{a,b,c}
#   device:  three calls back to back (a warm machine is given back after 30 s idle):
#     1. carry [".gpu-kit/a"]                 bash .gpu-kit/a/unpack
#     2. carry [".gpu-kit/b", ".gpu-check"]   bash .gpu-kit/b/unpack && bash scripts/gpu-check.sh unpack
#     3. carry [".gpu-kit/c"]                 bash .gpu-kit/c/unpack && bash scripts/gpu-check.sh run
#   (if .gpu-kit/b and .gpu-check do not fit in one call, run `scripts/gpu-check.sh unpack` in a
#   call of its own before the third). `run` writes $OUT/gpu-check.json and $OUT/gpu-check.log and
#   exits 1 when a check failed; a run takes about a minute (three local clusters start).
set -euo pipefail
cd "$(dirname "$0")/.."
KIT=.gpu-check
case "${1:-}" in
  kit)
    version=$(.venv/bin/python -c "import distributed; print(distributed.__version__)")
    W=$(mktemp -d /tmp/gpu-check-XXXX)
    python3 -m pip download -q --only-binary=:all: --python-version 3.12 --implementation cp \
      --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
      -d "$W/whl" "distributed==$version" "dask==$version" 2>&1 | grep -v "is ignored: it is neither" || true
    mkdir -p "$W/py"
    for w in "$W"/whl/*.whl; do (cd "$W/py" && python3 -m zipfile -e "$w" .); done
    rm -rf "$KIT"; mkdir -p "$KIT"
    (cd "$W/py" && tar -cf - .) | xz -T0 -6 > "$KIT/dask.tar.xz"
    gitdir=$(git rev-parse --git-common-dir); mkdir -p "$gitdir/info"
    grep -qx "/$KIT/" "$gitdir/info/exclude" 2>/dev/null || echo "/$KIT/" >> "$gitdir/info/exclude"
    rm -rf "$W"
    du -sh "$KIT"; echo "gpu-check: kit ready (distributed $version)" ;;
  unpack)
    mkdir -p /tmp/site
    if PYTHONPATH=/tmp/site python3 -c "import distributed" 2>/dev/null; then
      echo "gpu-check: distributed already importable"
    else
      python3 -W ignore -m tarfile -e "$KIT/dask.tar.xz" /tmp/site
      PYTHONPATH=/tmp/site python3 -c "import distributed; print('gpu-check: distributed', distributed.__version__)"
    fi ;;
  run)
    export PYTHONPATH="/tmp/site:$PWD${PYTHONPATH:+:$PYTHONPATH}"
    nvidia-smi -L || true
    out=${OUT:-/tmp/gpu-check-out}; mkdir -p "$out"
    OUT=$out python3 scripts/gpu_check.py 2>&1 | tee "$out/gpu-check.log"
    exit "${PIPESTATUS[0]}" ;;
  *) echo "usage: scripts/gpu-check.sh kit|unpack|run (see the header)" >&2; exit 2 ;;
esac
