"""The HTML an Outlook message keeps inside its RTF body (MS-OXRTFEX): an RTF marked `\\fromhtml1` holds the HTML's
tags in `{\\*\\htmltag… <p>}` groups and its text as RTF text, with RTF meant only for RTF readers between `\\htmlrtf`
and `\\htmlrtf0`. The HTML is the tags' text and the text outside those runs, in order; the header's tables and
every other `\\*` destination are left out."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from docshelf.parsers.rtf_tokens import CONTROL_SYMBOLS, SYMBOLS, TOKEN
from docshelf.parsers.textcodec import code_page_codec

_FROM_HTML = re.compile(rb"\\fromhtml1")
HEADER_BYTES = 4096  # where \fromhtml1 must be: in the header, before any text
SKIPPED = frozenset({"fonttbl", "colortbl", "stylesheet", "info", "pict", "listtable", "listoverridetable"})
# A paragraph or line end is a line break of the HTML's source; other symbols as the RTF reader reads them.
_SHOWN = {**SYMBOLS, "par": "\r\n", "line": "\r\n"}


@dataclass(slots=True)
class _State:
    skip: bool = False  # a destination left out
    rtf_only: bool = False  # inside \htmlrtf … \htmlrtf0
    tag: bool = False  # inside a {\*\htmltag …} group
    fresh: bool = False  # no control word read yet in this group
    starred: bool = False  # the group opened with \*
    uc: int = 1  # the fallback characters after each \uN


def encapsulated_html(rtf: bytes) -> str | None:
    """The HTML, or None for an RTF that does not encapsulate any."""
    if not _FROM_HTML.search(rtf[:HEADER_BYTES]):
        return None
    reader = _Reader()
    for match in TOKEN.finditer(rtf):
        reader.token(*match.groups())
    return reader.html()


class _Reader:
    def __init__(self) -> None:
        self.state = _State()
        self.stack: list[_State] = []
        self.parts: list[str] = []
        self.pending = bytearray()
        self.code_page = "cp1252"
        self.fallback = 0  # fallback characters of the last \uN still to skip

    def token(self, word: bytes | None, number: bytes | None, hex_byte: bytes | None, symbol: bytes | None,
              brace: bytes | None, text: bytes | None) -> None:  # fmt: skip
        state = self.state
        if brace == b"{":
            self.stack.append(state)
            self.state = replace(state, fresh=True, starred=False)
        elif brace == b"}":
            self.state = self.stack.pop() if self.stack else state
        elif symbol == b"*":
            state.starred = True
        elif word is not None:
            self._control(word.decode("ascii"), int(number) if number is not None else None)
            state.fresh = False
        elif hex_byte is not None:
            self._bytes(bytes([int(hex_byte, 16)]))
        elif text is not None:
            self._bytes(text)
        elif symbol is not None:
            self._text(CONTROL_SYMBOLS.get(symbol.decode("latin-1"), ""))

    def _control(self, word: str, number: int | None) -> None:
        state = self.state
        if state.fresh:
            if word == "htmltag" and not state.skip:
                state.tag, state.rtf_only = True, False
                return
            if state.starred or word in SKIPPED:
                state.skip = True
                return
        if word == "htmlrtf":
            state.rtf_only = number != 0
        elif word == "ansicpg" and number:
            self._flush()
            self.code_page = code_page_codec(number)
        elif word == "uc" and number is not None:
            state.uc = max(number, 0)
        elif word == "u" and number is not None:
            self._text(chr(number + 0x10000 if number < 0 else number))
            self.fallback = state.uc
        elif word in _SHOWN:
            self._text(_SHOWN[word])

    def _shown(self) -> bool:
        return not self.state.skip and (self.state.tag or not self.state.rtf_only)

    def _bytes(self, data: bytes) -> None:
        if self.fallback:
            skipped, self.fallback = min(self.fallback, len(data)), self.fallback - min(self.fallback, len(data))
            data = data[skipped:]
        if data and self._shown():
            self.pending += data

    def _text(self, text: str) -> None:
        self.fallback = 0
        if text and self._shown():
            self._flush()
            self.parts.append(text)

    def _flush(self) -> None:
        if self.pending:
            self.parts.append(self.pending.decode(self.code_page, errors="replace"))
            self.pending.clear()

    def html(self) -> str:
        self._flush()
        joined = "".join(self.parts)
        return joined.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")  # \u pairs joined
