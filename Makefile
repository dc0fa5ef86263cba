# flair_qgis — every target installs what it needs first (Debian packages, .venv).
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
export QT_QPA_PLATFORM := offscreen
export PYTHONDONTWRITEBYTECODE := 1
PYTEST_ARGS ?=

.PHONY: setup test demo bench package lint clean

setup:
	@scripts/setup.sh

test: setup
	$(PY) -m pytest $(PYTEST_ARGS)

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
