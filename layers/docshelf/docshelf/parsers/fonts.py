"""What a font's name tells of its face, for parsers that see fonts only by name (PDF, RTF)."""

from __future__ import annotations

import functools
import re

# Monospaced families: TeX's typewriter faces (cmtt, lmtt/LMMono, TeX Gyre Cursor, Inconsolata), Courier and its
# clones (Nimbus Mono, Cousine, Liberation Mono), the system and editor faces; names with or without their spaces
# (`Lucida Console` in RTF, `LucidaConsole` in PDF). Not the Monotype foundry's faces (Monotype Corsiva).
_MONOSPACE = re.compile(
    r"mono(?!type)|courier|consol|menlo|monaco|cmtt|lmtt|typewriter|inconsolata|cursor|cousine|lucida ?console|"
    r"source ?code|fira ?code|cascadia|andale|fixedsys|terminal|ocr-?[ab]\b",
    re.IGNORECASE,
)


@functools.lru_cache(maxsize=1024)
def monospaced(name: str) -> bool:
    """Whether a font's name names a monospaced face."""
    return _MONOSPACE.search(name) is not None
