# zhisai — the two commands a newcomer needs are `make serve` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=

.PHONY: serve test lint unit bench openapi migrate clean

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "zhisai needs Python 3.11 or newer")'
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e .
	@touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	@touch $@ $(VENV)/.installed

serve: $(VENV)/.installed  ## migrate the database and serve on $(HOST):$(PORT)
	$(BIN)/zhisai serve --host $(HOST) --port $(PORT)

migrate: $(VENV)/.installed
	$(BIN)/zhisai migrate

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test: lint  ## lint, type-check and run the whole suite (SQLite unless ZHISAI_TEST_DATABASE_URL is set)
	$(BIN)/python -m pytest -n 2 $(PYTEST_ARGS)

unit: $(VENV)/.installed-dev
	$(BIN)/python -m pytest tests/unit $(PYTEST_ARGS)

bench: $(VENV)/.installed-dev  ## run every benchmark in bench/ and print the figures
	@for script in bench/bench_*.py; do echo "== $$script"; PYTHONPATH=. $(BIN)/python $$script || exit 1; done

openapi: $(VENV)/.installed-dev  ## rewrite openapi.md from the app and its prose
	$(BIN)/zhisai openapi --output openapi.md

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
