# UNO score keeper: run it, test it, lint it.
#
#   make run    serve the app on 0.0.0.0 (port from PORT, default 8000)
#   make test   run the test suite; pass options with PYTEST_ARGS="-k hands -x"
#   make lint   ruff check, format check and mypy
#
# The virtualenv lives in .venv. pip runs again only when pyproject.toml is newer than the
# stamp file for that set of dependencies.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PYTEST_ARGS ?=

.PHONY: run test lint

run: $(VENV)/.installed-run
	$(BIN)/scorer serve

test: $(VENV)/.installed-test
	scripts/ensure-chromium.sh
	scripts/ensure-redis.sh
	scripts/ensure-caddy.sh
	$(BIN)/python -m pytest $(PYTEST_ARGS)

lint: $(VENV)/.installed-test
	$(BIN)/ruff check scorer tests benchmarks
	$(BIN)/ruff format --check scorer tests benchmarks
	$(BIN)/mypy

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# The venv is order-only: its age must not trigger a reinstall.
$(VENV)/.installed-run: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -e '.[test]'
	touch $@
