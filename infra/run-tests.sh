#!/usr/bin/env bash
# Runs pytest with the local services the tests need: a real OpenSearch node when Java is present.
# In CI (CI=true) a node that cannot start fails the run; elsewhere its tests skip with a reason.
set -euo pipefail
cd "$(dirname "$0")/.."

started_node=0
stop_node() { if [ "$started_node" = 1 ]; then infra/opensearch/stop.sh || true; fi; }
trap stop_node EXIT

if [ "${DOCSHELF_SKIP_OPENSEARCH:-0}" != 1 ] && command -v java >/dev/null 2>&1; then
  if infra/opensearch/status.sh >/dev/null 2>&1; then
    echo "run-tests: using the OpenSearch node already running"
  elif infra/opensearch/install.sh && infra/opensearch/start.sh; then
    started_node=1
  elif [ "${CI:-}" = true ]; then
    echo "run-tests: OpenSearch could not start, and CI requires it" >&2
    exit 1
  else
    echo "run-tests: OpenSearch could not start; its tests will skip" >&2
  fi
else
  echo "run-tests: no Java (or DOCSHELF_SKIP_OPENSEARCH=1); OpenSearch tests will skip"
fi

# The search page's browser test needs chromium; in CI a browser that cannot be installed fails the run.
if ! command -v chromium >/dev/null 2>&1; then
  if ! infra/install-browser.sh && [ "${CI:-}" = true ]; then
    echo "run-tests: chromium could not be installed, and CI requires it" >&2
    exit 1
  fi
fi

export OPENSEARCH_URL="${OPENSEARCH_URL:-http://127.0.0.1:${OPENSEARCH_PORT:-9200}}"
.venv/bin/pytest "$@"
