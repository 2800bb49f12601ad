#!/usr/bin/env bash
# Installs Debian's LibreOffice (Writer, Impress, Calc; no GUI) for the tests that convert generated files to
# .doc/.ppt/.pdf with soffice; does nothing when soffice is already there.
exec "$(dirname "$0")/install-debian.sh" soffice \
  libreoffice-writer-nogui libreoffice-impress-nogui libreoffice-calc-nogui
