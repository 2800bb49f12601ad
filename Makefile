# docshelf — every target sets itself up: a fresh machine needs only `make demo` and `make test`.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
VOCAB := layers/docshelf/docshelf/vocab/9b5ad71b2ce5302211f9c61530b329a4922fc6a4
DEMO_STORE := .docshelf-demo

.PHONY: setup demo test lint typecheck unit bench clean opensearch-up opensearch-down

setup: $(STAMP) $(VOCAB)

$(STAMP): pyproject.toml layers/docshelf/requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

$(VOCAB): | $(STAMP)
	$(PY) infra/fetch_vocab.py

demo: setup
	$(PY) examples/make_examples.py examples/docs
	rm -rf $(DEMO_STORE)
	$(VENV)/bin/docshelf ingest examples/docs --namespace demo --store $(DEMO_STORE)
	@while IFS= read -r query; do \
		echo; echo "=== $$query"; \
		$(VENV)/bin/docshelf search "$$query" --namespace demo --store $(DEMO_STORE) --top-k 3 || exit 1; \
	done < examples/queries.txt

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: setup
	$(VENV)/bin/mypy

unit: setup
	infra/run-tests.sh -q

opensearch-up:
	infra/opensearch/install.sh
	infra/opensearch/start.sh

opensearch-down:
	infra/opensearch/stop.sh

test: lint typecheck unit

bench: setup
	$(PY) bench/run.py

clean:
	rm -rf $(VENV) $(DEMO_STORE) .pytest_cache .mypy_cache .ruff_cache
