# flair_qgis — every target installs what it needs first (Debian packages, .venv).
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
export QT_QPA_PLATFORM := offscreen
export PYTHONDONTWRITEBYTECODE := 1
PYTEST_ARGS ?=

.PHONY: setup test test-tools demo bench package lint clean

setup:
	@scripts/setup.sh

test: setup
	$(PY) -m pytest $(PYTEST_ARGS)
	@$(MAKE) --no-print-directory test-tools

# The PyTorch-side tools (U-Net, ONNX export) in their own venv; skipped when it cannot be built.
test-tools:
	@if scripts/tools-env.sh >/dev/null 2>&1; then \
		.venv-tools/bin/python -m pytest tests/test_tools_unet.py -p no:qgis -p no:cacheprovider -q -o addopts= ; \
	else echo "test-tools: .venv-tools could not be built (no PyTorch wheel reachable): tools tests skipped"; fi

demo: setup
	$(PY) scripts/demo.py

bench: setup
	$(PY) bench/run.py

package:
	@scripts/package.sh

lint: setup
	$(VENV)/bin/ruff check flair_qgis tests scripts bench tools
	$(VENV)/bin/ruff format --check flair_qgis tests scripts bench tools
	$(VENV)/bin/mypy flair_qgis/core

clean:
	rm -rf build dist .pytest_cache .mypy_cache .ruff_cache
