#!/usr/bin/env bash
# Usage: install-debian.sh COMMAND PACKAGE...: installs Debian's PACKAGEs (no recommends) unless COMMAND is already on
# PATH, and fails unless COMMAND is there afterwards. The installers of the tests' local tools call it.
set -euo pipefail

command_name=$1
shift
if command -v "$command_name" >/dev/null 2>&1; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-debian: no apt-get here; install $* with your package manager" >&2
  exit 1
fi
sudo_cmd=()
if [ "$(id -u)" != 0 ]; then sudo_cmd=(sudo); fi
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "$@"
command -v "$command_name" >/dev/null
