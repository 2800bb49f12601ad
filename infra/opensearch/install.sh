#!/usr/bin/env bash
# Installs OpenSearch (pinned in env.sh) for docshelf's local/CI tests, from Maven Central only:
#   org.opensearch.distribution.integ-test-zip:opensearch:<v>:zip   -- server, launcher, netty4 transport,
#                                                                      no security plugin, no bundled JDK
#   + modules assembled from org.opensearch.plugin jars: lang-painless, analysis-common, reindex
#   + the plugin org.opensearch.plugin:opensearch-knn:<v>.0:zip (HNSW vectors through Lucene)
# into $OPENSEARCH_HOME (default /opt/docshelf-opensearch/<version>), owned by the user `opensearch`.
# Idempotent: a second run only checks the install marker and exits.
set -euo pipefail
. "$(dirname "$0")/env.sh"

RECIPE="version=$OPENSEARCH_VERSION recipe=2 modules=lang-painless,analysis-common,reindex plugins=opensearch-knn:$KNN_PLUGIN_VERSION"
MARKER=$OPENSEARCH_HOME/.docshelf-install
MVN=(mvn -B -q --no-transfer-progress)
DEP=org.apache.maven.plugins:maven-dependency-plugin:3.6.1

ensure_user() {
  [ "$(id -u)" -eq 0 ] || return 0          # not root: the node runs as the invoking user
  id -u "$OPENSEARCH_USER" >/dev/null 2>&1 && return 0
  log "creating system user $OPENSEARCH_USER"
  useradd --system --user-group --no-create-home --home-dir "$OPENSEARCH_BASE" \
    --shell /usr/sbin/nologin "$OPENSEARCH_USER" || die "could not create user $OPENSEARCH_USER"
}

if [ -f "$MARKER" ] && [ "$(cat "$MARKER")" = "$RECIPE" ]; then
  ensure_user
  log "OpenSearch $OPENSEARCH_VERSION already installed in $OPENSEARCH_HOME"
  exit 0
fi

JAVA_HOME=$(find_java_home) || die "no Java 11..21 found (set OPENSEARCH_JAVA_HOME); OpenSearch 2.x needs one, e.g. apt-get install openjdk-17-jre-headless"
export JAVA_HOME
command -v mvn >/dev/null 2>&1 || die "Maven (mvn) is required to fetch OpenSearch from Maven Central: apt-get install maven"
ensure_user
if [ -f "$OPENSEARCH_PIDFILE" ] && kill -0 "$(cat "$OPENSEARCH_PIDFILE")" 2>/dev/null; then
  die "a node from $OPENSEARCH_HOME is running (pid $(cat "$OPENSEARCH_PIDFILE")): run stop.sh before reinstalling"
fi

mkdir -p "$OPENSEARCH_BASE" "$(dirname "$OPENSEARCH_HOME")"
STAGE=$(mktemp -d "$(dirname "$OPENSEARCH_HOME")/.install-XXXXXX")
trap 'rm -rf "$STAGE"' EXIT
NEW=$STAGE/opensearch-$OPENSEARCH_VERSION

log "fetching org.opensearch.distribution.integ-test-zip:opensearch:$OPENSEARCH_VERSION:zip from Maven Central"
"${MVN[@]}" "$DEP:copy" -Dartifact="org.opensearch.distribution.integ-test-zip:opensearch:$OPENSEARCH_VERSION:zip" \
  -DoutputDirectory="$STAGE" >"$STAGE/mvn.log" 2>&1 \
  || { tail -n 30 "$STAGE/mvn.log" >&2; die "download of the OpenSearch $OPENSEARCH_VERSION zip from Maven Central failed (see above)"; }
ZIP=$STAGE/opensearch-$OPENSEARCH_VERSION.zip
if command -v unzip >/dev/null 2>&1; then
  unzip -q "$ZIP" -d "$STAGE"
else
  python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$ZIP" "$STAGE"
  chmod +x "$NEW"/bin/*                     # zipfile drops the exec bits
fi
rm -f "$ZIP"

jar_base() { basename "$1" .jar | sed -E 's/-[0-9]+(\.[0-9]+)*([.-][A-Za-z0-9]+)*$//'; }   # lucene-core-9.12.3 -> lucene-core

# add_module NAME CLASSNAME EXTENDED_PLUGIN GAV... : copies the jars and their third-party dependencies
# into modules/NAME, drops jars the server (or the extended module) already has, writes the descriptor.
add_module() {
  local name=$1 cls=$2 ext=$3 dir=$NEW/modules/$1 gav g a v j have
  shift 3
  mkdir -p "$dir" "$STAGE/pom-$name"
  {
    echo '<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>'
    echo "<groupId>local</groupId><artifactId>$name</artifactId><version>1</version><packaging>pom</packaging><dependencies>"
    for gav in "$@"; do
      IFS=: read -r g a v <<<"$gav"
      echo "<dependency><groupId>$g</groupId><artifactId>$a</artifactId><version>$v</version>"
      echo "<exclusions><exclusion><groupId>org.opensearch</groupId><artifactId>*</artifactId></exclusion></exclusions></dependency>"
    done
    echo '</dependencies></project>'
  } >"$STAGE/pom-$name/pom.xml"
  "${MVN[@]}" -f "$STAGE/pom-$name/pom.xml" "$DEP:copy-dependencies" -DincludeScope=runtime \
    -DoutputDirectory="$dir" >"$STAGE/mvn-$name.log" 2>&1 \
    || { tail -n 30 "$STAGE/mvn-$name.log" >&2; die "download of module $name from Maven Central failed (see above)"; }
  have=$(for j in "$NEW"/lib/*.jar ${ext:+"$NEW"/modules/$ext/*.jar}; do jar_base "$j"; done | sort -u)
  for j in "$dir"/*.jar; do
    if grep -qxF "$(jar_base "$j")" <<<"$have"; then rm -f "$j"; fi   # avoid "jar hell"
  done
  cat >"$dir/plugin-descriptor.properties" <<PROPS
description=$name module (assembled by docshelf from Maven Central jars)
version=$OPENSEARCH_VERSION
name=$name
classname=$cls
java.version=11
opensearch.version=$OPENSEARCH_VERSION
custom.foldername=
extended.plugins=$ext
has.native.controller=false
PROPS
}

V=$OPENSEARCH_VERSION
log "assembling modules lang-painless, analysis-common, reindex"
add_module lang-painless org.opensearch.painless.PainlessPlugin "" \
  "org.opensearch.plugin:lang-painless:$V" "org.opensearch.plugin:opensearch-scripting-painless-spi:$V"
cat >"$NEW/modules/lang-painless/plugin-security.policy" <<'POLICY'
grant {
  permission java.lang.RuntimePermission "createClassLoader";
  permission java.lang.RuntimePermission "getClassLoader";
};
POLICY
add_module analysis-common org.opensearch.analysis.common.CommonAnalysisPlugin lang-painless \
  "org.opensearch.plugin:analysis-common:$V"
add_module reindex org.opensearch.index.reindex.ReindexPlugin "" \
  "org.opensearch.plugin:reindex-client:$V" "org.opensearch:opensearch-ssl-config:$V"
cat >"$NEW/modules/reindex/plugin-security.policy" <<'POLICY'
grant {
  permission java.net.SocketPermission "*", "connect";
  permission java.net.NetPermission "getProxySelector";
};
POLICY

# The k-NN plugin, for its Lucene HNSW engine (pure Java; the zip on Maven Central has no faiss/nmslib libraries).
log "fetching org.opensearch.plugin:opensearch-knn:$KNN_PLUGIN_VERSION:zip from Maven Central"
"${MVN[@]}" "$DEP:copy" -Dartifact="org.opensearch.plugin:opensearch-knn:$KNN_PLUGIN_VERSION:zip" \
  -DoutputDirectory="$STAGE" >"$STAGE/mvn-knn.log" 2>&1 \
  || { tail -n 30 "$STAGE/mvn-knn.log" >&2; die "download of the k-NN plugin $KNN_PLUGIN_VERSION from Maven Central failed"; }
"$NEW/bin/opensearch-plugin" install --batch "file://$STAGE/opensearch-knn-$KNN_PLUGIN_VERSION.zip" >"$STAGE/knn.log" 2>&1 \
  || { tail -n 30 "$STAGE/knn.log" >&2; die "installing the k-NN plugin failed (see above)"; }
rm -f "$STAGE/opensearch-knn-$KNN_PLUGIN_VERSION.zip"

# Node configuration. Port and data/log paths are passed by start.sh (-E ...).
cat >"$NEW/config/opensearch.yml" <<YML
cluster.name: $OPENSEARCH_CLUSTER_NAME
node.name: docshelf-node-1
discovery.type: single-node
network.host: 127.0.0.1
# the disk may be nearly full on dev/CI machines: never block allocation or writes because of it
cluster.routing.allocation.disk.threshold_enabled: false
cluster.routing.allocation.disk.watermark.low: 97%
cluster.routing.allocation.disk.watermark.high: 98%
cluster.routing.allocation.disk.watermark.flood_stage: 99%
YML
if [ -d "$NEW/plugins/opensearch-security" ]; then   # not in the integ-test zip; kept for other distributions
  echo "plugins.security.disabled: true" >>"$NEW/config/opensearch.yml"
fi
# start.sh sets heap, GC log and dump paths; drop the zip's relative gc.log path (it would land in $OPENSEARCH_HOME)
sed -i '/gc\.log/d' "$NEW/config/jvm.options"

echo "$RECIPE" >"$NEW/.docshelf-install"
if [ "$(id -u)" -eq 0 ]; then chown -R "$OPENSEARCH_USER:$OPENSEARCH_USER" "$NEW"; fi
rm -rf "$OPENSEARCH_HOME"
mv "$NEW" "$OPENSEARCH_HOME"
log "installed OpenSearch $OPENSEARCH_VERSION in $OPENSEARCH_HOME (owner $OPENSEARCH_USER, JAVA_HOME $JAVA_HOME)"
