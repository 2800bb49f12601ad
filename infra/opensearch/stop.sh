#!/usr/bin/env bash
# Stops the node started by start.sh: SIGTERM, then SIGKILL after ${OPENSEARCH_STOP_TIMEOUT:-30}s.
set -euo pipefail
. "$(dirname "$0")/env.sh"

TIMEOUT=${OPENSEARCH_STOP_TIMEOUT:-30}

if [ ! -f "$OPENSEARCH_PIDFILE" ]; then
  if curl -fsS --max-time 2 -o /dev/null "$OPENSEARCH_URL_LOCAL" 2>/dev/null; then
    log "no pid file $OPENSEARCH_PIDFILE, but something answers at $OPENSEARCH_URL_LOCAL: not started by start.sh, left alone"
  else
    log "not running (no pid file)"
  fi
  exit 0
fi

pid=$(cat "$OPENSEARCH_PIDFILE")
# Guard against a stale pid file whose pid now belongs to another process.
if ! kill -0 "$pid" 2>/dev/null || ! tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q 'org.opensearch.bootstrap.OpenSearch'; then
  log "stale pid file (pid $pid is not OpenSearch); removing it"
  rm -f "$OPENSEARCH_PIDFILE"
  exit 0
fi

log "stopping OpenSearch (pid $pid)"
kill -TERM "$pid"
for _ in $(seq 1 "$TIMEOUT"); do
  if ! kill -0 "$pid" 2>/dev/null; then
    rm -f "$OPENSEARCH_PIDFILE"
    log "stopped"
    exit 0
  fi
  sleep 1
done
log "still running after ${TIMEOUT}s; sending SIGKILL"
kill -KILL "$pid" 2>/dev/null || true
sleep 1
rm -f "$OPENSEARCH_PIDFILE"
log "killed"
