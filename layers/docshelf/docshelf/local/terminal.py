"""Text for a terminal, from document text and names that anyone may have written: control characters are shown
as escapes instead of acting. An ESC sequence can write the clipboard (OSC 52), hide text, move the cursor or
retitle the window; C1 controls act as ESC sequences in some terminals; bidi overrides and isolates reorder what
a line seems to say; a newline or a line separator in a file name breaks a listing. JSON output is not passed
through here: JSON escapes C0 controls itself and is read by programs."""

from __future__ import annotations

import re

# C0 but tab and line feed, DEL, C1, and the bidi embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069).
_IN_TEXT = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
# The same and tab, line feed and the Unicode line and paragraph separators: one line stays one line.
_IN_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def shown_text(text: str) -> str:
    """Text of several lines (a document, evidence) with its control characters escaped; lines and tabs kept."""
    return _IN_TEXT.sub(_escape, text)


def shown_line(text: str) -> str:
    """One line (a file name, a key, a message, a citation) with every control character escaped, line breaks too."""
    return _IN_LINE.sub(_escape, text)
