#!/usr/bin/env bash
# Prints whether the node answers, its pid, health and resident memory. Exit 0 if healthy, 1 if not.
set -euo pipefail
. "$(dirname "$0")/env.sh"

if [ -f "$OPENSEARCH_PIDFILE" ] && kill -0 "$(cat "$OPENSEARCH_PIDFILE")" 2>/dev/null; then
  pid=$(cat "$OPENSEARCH_PIDFILE")
  log "pid $pid, RSS $(awk '/^VmRSS/ {print $2, $3}' "/proc/$pid/status")"
fi
if health=$(curl -fsS --max-time 5 "$OPENSEARCH_URL_LOCAL/_cluster/health" 2>/dev/null); then
  log "$OPENSEARCH_URL_LOCAL $health"
else
  log "no node answers at $OPENSEARCH_URL_LOCAL"
  exit 1
fi
