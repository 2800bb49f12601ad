#!/usr/bin/env bash
# Runs a command with a local OpenSearch node when Java is present, stopping the node afterwards if it
# started it. In CI (CI=true) a node that cannot start fails the run; elsewhere the command runs without
# it and the parts that need it skip with a reason. Usage: infra/with-opensearch.sh COMMAND [ARG...]
set -euo pipefail
cd "$(dirname "$0")/.."

started_node=0
stop_node() { if [ "$started_node" = 1 ]; then infra/opensearch/stop.sh || true; fi; }
trap stop_node EXIT

if [ "${DOCSHELF_SKIP_OPENSEARCH:-0}" != 1 ] && command -v java >/dev/null 2>&1; then
  if infra/opensearch/status.sh >/dev/null 2>&1; then
    echo "with-opensearch: using the OpenSearch node already running"
  elif infra/opensearch/install.sh && infra/opensearch/start.sh; then
    started_node=1
  elif [ "${CI:-}" = true ]; then
    echo "with-opensearch: OpenSearch could not start, and CI requires it" >&2
    exit 1
  else
    echo "with-opensearch: OpenSearch could not start; what needs it will skip" >&2
  fi
else
  echo "with-opensearch: no Java (or DOCSHELF_SKIP_OPENSEARCH=1); what needs OpenSearch will skip"
fi

export OPENSEARCH_URL="${OPENSEARCH_URL:-http://127.0.0.1:${OPENSEARCH_PORT:-9200}}"
"$@"
