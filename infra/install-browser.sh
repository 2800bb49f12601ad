#!/usr/bin/env bash
# Installs Debian's chromium for the search page's browser test; does nothing when it is already there.
exec "$(dirname "$0")/install-debian.sh" chromium chromium chromium-driver
