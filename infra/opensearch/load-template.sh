#!/usr/bin/env bash
# Loads index-template.json as the composable template `docshelf-chunks` and, if the alias does not
# exist yet, creates docshelf-chunks-v1 with the write alias docshelf-chunks. Safe to re-run.
set -euo pipefail
URL=${OPENSEARCH_URL:-http://127.0.0.1:${OPENSEARCH_PORT:-9200}}
HERE=$(dirname "$0")
J='Content-Type: application/json'

curl -fsS -XPUT "$URL/_index_template/docshelf-chunks" -H "$J" --data-binary @"$HERE/index-template.json" >/dev/null
echo "template docshelf-chunks loaded into $URL"
if curl -fsS -o /dev/null "$URL/_alias/docshelf-chunks" 2>/dev/null; then
  echo "alias docshelf-chunks exists: $(curl -fsS "$URL/_cat/aliases/docshelf-chunks?h=index" | tr -d ' ')"
else
  curl -fsS -XPUT "$URL/docshelf-chunks-v1" -H "$J" \
    -d '{"aliases": {"docshelf-chunks": {"is_write_index": true}}}' >/dev/null
  echo "created docshelf-chunks-v1 with alias docshelf-chunks"
fi
