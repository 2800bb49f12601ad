#!/usr/bin/env bash
# Fetches axe-core (the accessibility engine the browser test runs in the search page) from the npm registry once,
# checks the tarball against the integrity npm publishes for that version, and keeps only axe.min.js in
# .browser/ (gitignored), so the tests run offline afterwards. Does nothing when it is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION=4.14.1
INTEGRITY="sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ=="
TARGET=.browser/axe-core-$VERSION.min.js

if [ -f "$TARGET" ]; then
  exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
  echo "fetch-axe: npm is not installed; the accessibility audit will be skipped" >&2
  exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tarball=$(cd "$work" && npm pack --silent "axe-core@$VERSION")
actual="sha512-$(openssl dgst -sha512 -binary "$work/$tarball" | base64 -w0)"
if [ "$actual" != "$INTEGRITY" ]; then
  echo "fetch-axe: $tarball does not match the pinned integrity ($actual)" >&2
  exit 1
fi
tar -xzf "$work/$tarball" -C "$work" package/axe.min.js
mkdir -p .browser
mv "$work/package/axe.min.js" "$TARGET"
echo "fetch-axe: $TARGET"
