# UNO score keeper: run it, test it, lint it.
#
#   make run          serve the app on 0.0.0.0 (port from PORT, default 8000)
#   make test         run the script's unit tests (node --test), then the test suite, one worker
#                     per core and one more; options go in PYTEST_ARGS="-k hands"
#                     (PYTEST_WORKERS=0 runs it in one process)
#   make lint         ruff check, format check and mypy; ESLint on the page's script
#   make screenshots  take the phone screenshots again and put them in docs/screenshots/
#   make catalogs     extract every sentence to translate and merge it into each language's
#                     catalog (scorer/translations/<language>/LC_MESSAGES/messages.po)
#   make translations compile the catalogs for the app (run and test do it first)
#
# The virtualenv lives in .venv. uv (installed in it by pip) runs again only when pyproject.toml
# is newer than the stamp file for that set of dependencies; npm ci (ESLint, in node_modules)
# only when package-lock.json is newer than its stamp.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
NODE_MODULES := node_modules
PYTEST_ARGS ?=
# pytest-xdist workers, one per core and one more: the browser tests spend part of their time
# waiting on a server or a browser, time one more worker fills (on two cores a fourth worker
# gained nothing). Each test file stays on one worker: the browser tests
# share one server per file. Files go out in the order tests/conftest.py collects them, the
# slowest first.
PYTEST_WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))
SCREENSHOTS := tests/browser/test_screenshots.py

TRANSLATIONS := scorer/translations
CATALOGS := $(wildcard $(TRANSLATIONS)/*/LC_MESSAGES/messages.po)

.PHONY: run test lint screenshots catalogs translations

run: $(VENV)/.installed-run
	$(MAKE) --no-print-directory translations
	$(BIN)/scorer serve

# Compiled modules, and pytest's rewritten test modules, are kept in __pycache__ for the next run
# (collection: 9 s the first time, 3.6 s after); an environment with PYTHONDONTWRITEBYTECODE set
# would have every worker and every server a test starts compile them all again.
test: export PYTHONDONTWRITEBYTECODE =
test: $(VENV)/.installed-test
	$(MAKE) --no-print-directory translations
	scripts/ensure-nodejs.sh
	if command -v node >/dev/null; then node --test tests/js/; fi
	scripts/ensure-chromium.sh
	scripts/ensure-redis.sh
	scripts/ensure-caddy.sh
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist loadfile --no-loadscope-reorder $(PYTEST_ARGS)

# The tests write them to build/screenshots/; only this target changes the committed ones. CI=true
# makes a missing chromium an error rather than a skip that would leave nothing to copy.
screenshots: $(VENV)/.installed-test
	$(MAKE) --no-print-directory translations
	scripts/ensure-chromium.sh
	CI=true $(BIN)/python -m pytest $(SCREENSHOTS)
	mkdir -p docs/screenshots
	rm -f docs/screenshots/*.png
	cp build/screenshots/*.png docs/screenshots/

# The template every catalog follows, then each catalog brought up to it: new sentences come in
# empty, changed ones marked fuzzy, for a translator to settle (docs/development.md).
catalogs: | $(BIN)/python
	$(BIN)/pybabel extract --mapping-file $(TRANSLATIONS)/babel.cfg --keywords _l \
		--add-comments TRANSLATORS: --sort-by-file --no-wrap --project scorer \
		--copyright-holder "" --output-file $(TRANSLATIONS)/messages.pot .
	$(BIN)/pybabel update --input-file $(TRANSLATIONS)/messages.pot --output-dir $(TRANSLATIONS) \
		--no-wrap --ignore-obsolete

translations: $(CATALOGS:.po=.mo)

# Babel comes with the app, so any of the virtualenv's installs has pybabel.
$(TRANSLATIONS)/%/LC_MESSAGES/messages.mo: $(TRANSLATIONS)/%/LC_MESSAGES/messages.po
	$(BIN)/pybabel compile --statistics --input-file $< --output-file $@ --locale $*

lint: $(VENV)/.installed-lint $(NODE_MODULES)/.installed
	$(BIN)/ruff check scorer tests benchmarks
	$(BIN)/ruff format --check scorer tests benchmarks
	$(BIN)/mypy
	$(NODE_MODULES)/.bin/eslint

# ESLint and its configuration's packages, exactly as package-lock.json has them.
$(NODE_MODULES)/.installed: package.json package-lock.json
	scripts/ensure-nodejs.sh
	npm ci --no-audit --no-fund
	touch $@

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# The venv is order-only: its age must not trigger a reinstall.
# uv installs into the virtualenv what pip would, from PyPI, in a quarter of pip's time (a fresh
# clone's test tools: 5 s against 20 s), which a fresh clone's `make test` spends every time.
# It does not compile the installed modules up front: a run compiles what it imports and keeps
# it (see `test`).
$(BIN)/uv: | $(BIN)/python
	$(BIN)/python -m pip install --quiet uv

$(VENV)/.installed-run: pyproject.toml | $(BIN)/uv
	$(BIN)/uv pip install --python $(BIN)/python -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/uv
	$(BIN)/uv pip install --python $(BIN)/python -e '.[test]'
	touch $@

$(VENV)/.installed-lint: pyproject.toml | $(BIN)/uv
	$(BIN)/uv pip install --python $(BIN)/python -e '.[lint]'
	touch $@
