"""Leptonica, under Tesseract, writes messages such as "Error in boxClipToRectangle: box outside rectangle" to the
process's stderr from inside page layout, for pages that are read correctly all the same; they would break into the
progress lines of `docshelf ingest` and the logs of the parse function. Its own `setMsgSeverity` turns them off,
called in the copy of the library that the tesserocr wheel loaded (dlopen of a loaded path gives that copy)."""

from __future__ import annotations

import ctypes
from pathlib import Path
from types import ModuleType

L_SEVERITY_NONE = 6  # leptonica's environ.h


def quiet_leptonica(tesserocr: ModuleType) -> bool:
    """True when leptonica's messages are off; False when its library is not found (a system Tesseract build:
    the messages then stay)."""
    libraries = Path(str(tesserocr.__file__)).parent.parent / "tesserocr.libs"
    for path in sorted(libraries.glob("libleptonica*.so*")):
        try:
            ctypes.CDLL(str(path)).setMsgSeverity(ctypes.c_int(L_SEVERITY_NONE))
        except (OSError, AttributeError):
            continue
        return True
    return False
