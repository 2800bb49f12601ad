#!/usr/bin/env bash
# Loads index-template.json as the composable template `docshelf-chunks` (pattern docshelf-chunks.*). Each
# namespace NS gets its own index docshelf-chunks.NS.v1 behind the write alias docshelf-chunks.NS, which
# docshelf creates on the namespace's first publish; pass a namespace to create its index now. Safe to re-run.
set -euo pipefail
URL=${OPENSEARCH_URL:-http://127.0.0.1:${OPENSEARCH_PORT:-9200}}
HERE=$(dirname "$0")
J='Content-Type: application/json'

curl -fsS -XPUT "$URL/_index_template/docshelf-chunks" -H "$J" --data-binary @"$HERE/index-template.json" >/dev/null
echo "template docshelf-chunks loaded into $URL"
for ns in "$@"; do
  alias="docshelf-chunks.$ns"
  if curl -fsS -o /dev/null "$URL/_alias/$alias" 2>/dev/null; then
    echo "alias $alias exists: $(curl -fsS "$URL/_cat/aliases/$alias?h=index" | tr -d ' ')"
  else
    curl -fsS -XPUT "$URL/$alias.v1" -H "$J" -d "{\"aliases\": {\"$alias\": {\"is_write_index\": true}}}" >/dev/null
    echo "created $alias.v1 with alias $alias"
  fi
done
