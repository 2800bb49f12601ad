#!/usr/bin/env bash
# Runs pytest with the local services the tests need: chromium and axe-core for the search page's browser test,
# LibreOffice for the tests that convert generated files with soffice, and a real OpenSearch node
# (infra/with-opensearch.sh). In CI (CI=true) any one missing fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null 2>&1; then
  if ! infra/install-browser.sh && [ "${CI:-}" = true ]; then
    echo "run-tests: chromium could not be installed, and CI requires it" >&2
    exit 1
  fi
fi

if ! command -v soffice >/dev/null 2>&1; then
  if ! infra/install-office.sh && [ "${CI:-}" = true ]; then
    echo "run-tests: LibreOffice could not be installed, and CI requires it" >&2
    exit 1
  fi
fi

if ! infra/fetch-axe.sh && [ "${CI:-}" = true ]; then
  echo "run-tests: axe-core could not be fetched, and CI requires it" >&2
  exit 1
fi

exec infra/with-opensearch.sh .venv/bin/pytest "$@"
