# Shared settings for the docshelf OpenSearch scripts; sourced by install/start/stop/status.sh.
# Every value can be overridden from the environment.

# 2.x runs on Java 11-21 (3.x needs 21). 2.19.1, not the newest 2.19.x: the k-NN plugin (HNSW for the semantic
# channel) must match the server's version exactly, and 2.19.1.0 is the one 2.19 build of it on Maven Central.
OPENSEARCH_VERSION=2.19.1
KNN_PLUGIN_VERSION=$OPENSEARCH_VERSION.0
OPENSEARCH_BASE=${OPENSEARCH_BASE:-/opt/docshelf-opensearch}
OPENSEARCH_HOME=${OPENSEARCH_HOME:-$OPENSEARCH_BASE/$OPENSEARCH_VERSION}
# data/, logs/, run/; one per version, since a node cannot read data a newer version wrote
OPENSEARCH_VAR=${OPENSEARCH_VAR:-$(dirname "$OPENSEARCH_HOME")/var-$OPENSEARCH_VERSION}
OPENSEARCH_PORT=${OPENSEARCH_PORT:-9200}
OPENSEARCH_HEAP=${OPENSEARCH_HEAP:-512m}
OPENSEARCH_URL_LOCAL="http://127.0.0.1:$OPENSEARCH_PORT"
OPENSEARCH_PIDFILE=$OPENSEARCH_VAR/run/opensearch-$OPENSEARCH_PORT.pid
OPENSEARCH_CONSOLE_LOG=$OPENSEARCH_VAR/logs/console-$OPENSEARCH_PORT.log
OPENSEARCH_CLUSTER_NAME=docshelf-dev

# OpenSearch refuses to run as root, so as root we run it as a dedicated system user.
if [ "$(id -u)" -eq 0 ]; then
  OPENSEARCH_USER=${OPENSEARCH_USER:-opensearch}
else
  OPENSEARCH_USER=${OPENSEARCH_USER:-$(id -un)}
fi

die() { echo "opensearch: ERROR: $*" >&2; exit 1; }
log() { echo "opensearch: $*"; }

# Prints a JAVA_HOME for Java 11..21. OpenSearch 2.x needs the SecurityManager, which Java 24+
# removed, so a JAVA_HOME pointing at Java 25 is skipped in favour of a system Java 17/21/11.
find_java_home() {
  local cand major
  for cand in "${OPENSEARCH_JAVA_HOME:-}" "${JAVA_HOME:-}" \
      "$(command -v java >/dev/null 2>&1 && dirname "$(dirname "$(readlink -f "$(command -v java)")")")" \
      /usr/lib/jvm/java-17-openjdk-amd64 /usr/lib/jvm/java-21-openjdk-amd64 /usr/lib/jvm/java-11-openjdk-amd64; do
    [ -n "$cand" ] && [ -x "$cand/bin/java" ] || continue
    major=$("$cand/bin/java" -XshowSettings:properties -version 2>&1 \
      | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p')
    if [ -n "$major" ] && [ "$major" -ge 11 ] && [ "$major" -le 21 ]; then
      echo "$cand"; return 0
    fi
  done
  return 1
}

# Command prefix that runs a command as $OPENSEARCH_USER (setpriv execs in place: no PAM session,
# no extra process, so the pid of a backgrounded command is the pid of the command itself).
AS_OPENSEARCH_USER=()
if [ "$(id -un)" != "$OPENSEARCH_USER" ]; then
  AS_OPENSEARCH_USER=(setpriv --reuid="$OPENSEARCH_USER" --regid="$OPENSEARCH_USER" --init-groups --)
fi
