# Two commands for a fresh clone (see README):  make run   and   make test
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat requirements/*.lock | sha1sum | cut -c1-12)
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?= -n auto --dist loadfile

.PHONY: run demo screenshots setup install lock audit messages test test-postgres lint typecheck ci clean

run: setup ## set up on SQLite with the rulebook content and serve on http://127.0.0.1:8000
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

demo: setup ## as run, with a demo federation: clubs, members, dues, tournaments, ratings
	$(BIN)/python manage.py load_demo
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

screenshots: install messages ## the README's pictures (docs/screenshots/) from the current code
	@./scripts/ensure-system-packages
	$(BIN)/python scripts/readme_screenshots.py

setup: install messages
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_content
	$(BIN)/python manage.py create_demo_admin

install: $(STAMP)

# Every package, transitive ones included, at the version and with the hashes of the lock
# (pip itself too); a file whose hash differs is refused.
$(STAMP):
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements/test.lock
	touch $(STAMP)

# The direct dependencies are in requirements/*.in; the locks pin everything they pull in,
# with hashes. `make lock` adds what the .in files gained and keeps the other pins;
# `make lock LOCK_ARGS=--upgrade` (or `--upgrade-package NAME`) moves them on.
# Only the package index is asked (no local pip configuration), so the hashes are the index's.
PIP_COMPILE := cd requirements && PIP_CONFIG_FILE=/dev/null PIP_FIND_LINKS= \
	CUSTOM_COMPILE_COMMAND="make lock" ../$(BIN)/pip-compile --quiet --generate-hashes \
	--allow-unsafe --strip-extras --no-emit-index-url --no-emit-find-links $(LOCK_ARGS)
LOCK_ARGS ?=

lock: install ## regenerate requirements/base.lock and test.lock from the .in files
	$(PIP_COMPILE) --output-file base.lock base.in
	$(PIP_COMPILE) --output-file test.lock test.in

audit: install ## known vulnerabilities in the locked runtime dependencies (asks the index)
	$(BIN)/pip-audit --require-hashes --disable-pip -r requirements/base.lock

messages: install
	$(BIN)/python manage.py compile_translations

test: install messages ## the whole suite (SQLite unless DATABASE_URL is set)
	@./scripts/ensure-system-packages
	$(BIN)/python -m pytest $(PYTEST_ARGS)

test-postgres: ## the whole suite on the local PostgreSQL
	DATABASE_URL=$${DATABASE_URL:-postgres://postgres:postgres@127.0.0.1:5432/mahjong} $(MAKE) test

lint: install
	$(BIN)/ruff check .

typecheck: install
	$(BIN)/mypy

ci:
	./.ci/run

clean:
	rm -rf $(VENV) db.sqlite3 static_collected .pytest_cache .mypy_cache .ruff_cache
	find locale -name '*.mo' -delete
