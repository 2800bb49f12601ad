#!/usr/bin/env bash
# Starts the single-node OpenSearch installed by install.sh on 127.0.0.1:${OPENSEARCH_PORT:-9200},
# as the non-root user, and waits for cluster health yellow/green. No-op if a healthy node already answers.
set -euo pipefail
. "$(dirname "$0")/env.sh"

TIMEOUT=${OPENSEARCH_START_TIMEOUT:-120}
HEALTH="$OPENSEARCH_URL_LOCAL/_cluster/health?wait_for_status=yellow&timeout=1s"

healthy() { curl -fsS --max-time 5 "$HEALTH" >/dev/null 2>&1; }

if healthy; then
  log "a healthy node already answers at $OPENSEARCH_URL_LOCAL"
  echo "$OPENSEARCH_URL_LOCAL"
  exit 0
fi
if curl -sS --max-time 5 -o /dev/null "$OPENSEARCH_URL_LOCAL" 2>/dev/null; then
  die "something answers on port $OPENSEARCH_PORT but is not a healthy OpenSearch node; pick another OPENSEARCH_PORT"
fi

[ -x "$OPENSEARCH_HOME/bin/opensearch" ] || die "OpenSearch is not installed in $OPENSEARCH_HOME: run $(dirname "$0")/install.sh"
JAVA_HOME=$(find_java_home) || die "no Java 11..21 found (set OPENSEARCH_JAVA_HOME)"

mkdir -p "$OPENSEARCH_VAR"/{data,logs,run}
if [ "$(id -u)" -eq 0 ]; then chown -R "$OPENSEARCH_USER:$OPENSEARCH_USER" "$OPENSEARCH_VAR"; fi

show_logs() {
  echo "---- last lines of $OPENSEARCH_CONSOLE_LOG" >&2
  tail -n 40 "$OPENSEARCH_CONSOLE_LOG" >&2 || true
}

pid=""
if [ -f "$OPENSEARCH_PIDFILE" ] && kill -0 "$(cat "$OPENSEARCH_PIDFILE")" 2>/dev/null; then
  pid=$(cat "$OPENSEARCH_PIDFILE")
  log "node already starting (pid $pid); waiting for it"
else
  rm -f "$OPENSEARCH_PIDFILE"
  log "starting OpenSearch $OPENSEARCH_VERSION on $OPENSEARCH_URL_LOCAL (heap $OPENSEARCH_HEAP, data in $OPENSEARCH_VAR)"
  java_opts="-Xms$OPENSEARCH_HEAP -Xmx$OPENSEARCH_HEAP"
  java_opts+=" -XX:HeapDumpPath=$OPENSEARCH_VAR/logs -XX:ErrorFile=$OPENSEARCH_VAR/logs/hs_err_pid%p.log"
  java_opts+=" -Xlog:gc*,gc+age=trace,safepoint:file=$OPENSEARCH_VAR/logs/gc.log:utctime,pid,tags:filecount=4,filesize=16m"
  # The launcher runs in the foreground (bin/opensearch -d needs `ps`) in its own session, so the node
  # outlives the calling shell; bin/opensearch execs java, so $! is the JVM and matches the pid file.
  cd /
  "${AS_OPENSEARCH_USER[@]}" setsid env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$OPENSEARCH_VAR" LANG=C.UTF-8 \
      JAVA_HOME="$JAVA_HOME" OPENSEARCH_JAVA_OPTS="$java_opts" \
      "$OPENSEARCH_HOME/bin/opensearch" -p "$OPENSEARCH_PIDFILE" \
      -E http.port="$OPENSEARCH_PORT" -E path.data="$OPENSEARCH_VAR/data" -E path.logs="$OPENSEARCH_VAR/logs" \
      >>"$OPENSEARCH_CONSOLE_LOG" 2>&1 </dev/null &
  pid=$!
fi

start=$(date +%s)
while :; do
  if healthy; then
    log "up after $(($(date +%s) - start))s (pid $pid)"
    echo "$OPENSEARCH_URL_LOCAL"
    exit 0
  fi
  if ! kill -0 "$pid" 2>/dev/null; then
    show_logs
    die "OpenSearch exited during start-up"
  fi
  if [ $(($(date +%s) - start)) -ge "$TIMEOUT" ]; then
    show_logs
    kill "$pid" 2>/dev/null || true   # the JVM itself (see above)
    die "OpenSearch was not healthy within ${TIMEOUT}s (stopped it)"
  fi
  sleep 1
done
