#!/usr/bin/env bash
# Installs Debian's LibreOffice (Writer, Impress, Calc; no GUI) for the tests that convert generated files to
# .doc/.ppt/.pdf with soffice; does nothing when soffice is already there.
set -euo pipefail

if command -v soffice >/dev/null 2>&1; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-office: no apt-get here; install LibreOffice with your package manager" >&2
  exit 1
fi
sudo_cmd=()
if [ "$(id -u)" != 0 ]; then sudo_cmd=(sudo); fi
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends \
  libreoffice-writer-nogui libreoffice-impress-nogui libreoffice-calc-nogui
command -v soffice >/dev/null
