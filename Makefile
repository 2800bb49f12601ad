# docshelf — every target sets itself up: a fresh machine needs only `make demo` and `make test`.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
VOCAB := layers/docshelf/docshelf/vocab/9b5ad71b2ce5302211f9c61530b329a4922fc6a4
# the OCR models (the OcrLayer's content: Tesseract's language data, PP-OCR's) and the OCR tests' CJK fonts
OCR_DATA := layers/docshelf/tessdata/ppocr/rec.onnx layers/docshelf/tessdata/chi_sim.traineddata tests/fonts/DroidSansFallbackFull.ttf tests/fonts/ipam.ttf \
	tests/fonts/ipag.ttf tests/fonts/uming.ttc tests/fonts/wqy-microhei.ttc
# the local embedding models (infra/fetch_models.py, sha256-pinned), fetched again when the catalog changes
MODELS := layers/docshelf/docshelf/embeddings/models/.fetched
DEMO_STORE := .docshelf-demo
# aws-sam-cli and cfn-lint live in their own venv so their pins never meet the runtime dependencies.
SAM_VENV := .venv-sam
SAM_STAMP := $(SAM_VENV)/.installed

.PHONY: setup demo test lint layers typecheck unit bench clean opensearch-up opensearch-down cfn-lint sam-build

# axe-core for the search page's accessibility audit (infra/fetch-axe.sh, integrity-pinned, gitignored)
AXE := .browser/axe-core-4.14.1.min.js

setup: $(STAMP) $(VOCAB) $(OCR_DATA) $(MODELS) $(AXE)

$(STAMP): pyproject.toml layers/docshelf/requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

$(VOCAB): | $(STAMP)
	$(PY) infra/fetch_vocab.py

$(OCR_DATA) &: infra/fetch_ocr_data.py | $(STAMP)
	$(PY) infra/fetch_ocr_data.py --fonts
	touch $(OCR_DATA)

$(MODELS): infra/fetch_models.py layers/docshelf/docshelf/embeddings/catalog.py | $(STAMP)
	$(PY) infra/fetch_models.py
	touch $(MODELS)

$(AXE): infra/fetch-axe.sh
	infra/fetch-axe.sh

AGENTIC_QUERY := What is the stem seal kit part number, and what changed in version 2.3.1?

demo: setup
	$(PY) examples/make_examples.py examples/docs
	rm -rf $(DEMO_STORE)
	$(VENV)/bin/docshelf ingest examples/docs --namespace demo --store $(DEMO_STORE)
	@while IFS= read -r query; do \
		echo; echo "=== $$query"; \
		$(VENV)/bin/docshelf search "$$query" --namespace demo --store $(DEMO_STORE) --top-k 3 || exit 1; \
	done < examples/queries.txt
	@echo; echo "=== (agentic: two questions in one, one 400-token budget) $(AGENTIC_QUERY)"
	$(VENV)/bin/docshelf search "$(AGENTIC_QUERY)" --agentic --namespace demo --store $(DEMO_STORE) --top-k 4 --max-tokens 400

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# the floors of docs/architecture.md as a checked contract (pyproject.toml's [tool.importlinter])
layers: setup
	$(VENV)/bin/lint-imports

typecheck: setup
	$(VENV)/bin/mypy

unit: setup
	infra/run-tests.sh -q

opensearch-up:
	infra/opensearch/install.sh
	infra/opensearch/start.sh

opensearch-down:
	infra/opensearch/stop.sh

$(SAM_STAMP):
	$(PYTHON) -m venv $(SAM_VENV)
	$(SAM_VENV)/bin/pip install --quiet --upgrade pip
	$(SAM_VENV)/bin/pip install --quiet aws-sam-cli==1.170.0 cfn-lint==1.58.0
	touch $(SAM_STAMP)

cfn-lint: $(SAM_STAMP)
	$(SAM_VENV)/bin/cfn-lint template.yaml

# `sam build` without a container needs the runtime's Python (python3.12, see README) on PATH.
sam-build: $(SAM_STAMP) $(VOCAB) $(OCR_DATA) $(MODELS)
	@runtime_python=$$(for candidate in python3.12 $$(pyenv root 2>/dev/null)/versions/3.12*/bin/python3.12; do \
		"$$candidate" -c 'import sys; print(sys.executable)' 2>/dev/null && break; done); \
	if [ -z "$$runtime_python" ]; then echo "sam-build: python3.12 (the Lambda runtime) is not installed" >&2; exit 1; fi; \
	PATH="$$(dirname "$$runtime_python"):$(CURDIR)/$(SAM_VENV)/bin:$$PATH" SAM_CLI_TELEMETRY=0 \
		$(SAM_VENV)/bin/sam build --cached --parallel

test: lint layers typecheck cfn-lint sam-build unit

bench: setup
	$(PY) -m bench.run

clean:
	rm -rf $(VENV) $(SAM_VENV) $(DEMO_STORE) .pytest_cache .mypy_cache .ruff_cache
