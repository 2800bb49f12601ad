"""Runs cut at the wide gaps inside them, for the table finders.

pdfTeX, xdvipdfmx and LuaTeX write a row of a borderless or booktabs table as ONE text object, the space between its
cells as TJ offsets (`[(Ashcombe)-5000(112)-4000(812)]TJ`): its line is one fragment, and no table finder sees its
columns. `cut_at_gaps` cuts such a run where two of its glyphs stand further apart than `FRAGMENT_GAP_EM`, the gap that
makes two separate runs two line fragments. PDFium writes a space into the text wherever glyphs stand apart, so only the
characters on both sides of each space are measured (one character-box call each). The table finders ask for the
pieces only where a table may stand, beginning with the runs far wider than their characters need (`spacious`,
`roominess`), and text they leave is read from the whole run again: the wide word spaces of a loose justified line
never change the running text.
"""

from __future__ import annotations

import ctypes
import re
from typing import Any

import pypdfium2.raw as pdfium_c

from docshelf.parsers.pdf.pdf_lines import FRAGMENT_GAP_EM, is_rtl
from docshelf.parsers.pdf.pdf_text import Run, clean_text
from docshelf.scripts import no_space_script

# A run this many font sizes wide per character (a CJK character counting two) has far more room than its glyphs need
# (text runs 0.4-0.6): gaps between cells inside it, a row written as one text object.
SPACIOUS_EM = 0.75
_SPACES = re.compile(r"\s+")
_PLACEHOLDER = "\ufffe"


def spacious(run: Run) -> bool:
    """Whether the run is far wider than its characters need: a run worth measuring where a table may stand."""
    text = run.text.strip()
    room = (run.x1 - run.x0) / (SPACIOUS_EM * max(run.size, 1.0))  # in characters
    # The cheap bound first: counting a CJK character as two only asks for more room.
    return room > len(text) and " " in text and (text.isascii() or room > _width(text))


def roominess(run: Run) -> float:
    """The run's width per character in font sizes (a CJK character counting two); 0 for a run without a space."""
    text = run.text.strip()
    if " " not in text:
        return 0.0
    return (run.x1 - run.x0) / max(run.size, 1.0) / (len(text) if text.isascii() else _width(text))


def _width(text: str) -> int:
    return sum(2 if no_space_script(char) else 1 for char in text)


def cut_at_gaps(textpage: Any, run: Run) -> list[Run]:
    """The run in pieces at the gaps between its glyphs wider than FRAGMENT_GAP_EM font sizes; [run] without such a
    gap, for vertical or right-to-left text, and when the run's characters in the text page are not known."""
    start, end = run.chars
    if run.vertical or end - start < 3 or " " not in run.text.strip():
        return [run]
    text = _page_text(textpage, start, end)
    if text is None or is_rtl(text):
        return [run]
    limit = FRAGMENT_GAP_EM * max(run.size, 1.0)
    left, right, bottom, top = ctypes.c_double(), ctypes.c_double(), ctypes.c_double(), ctypes.c_double()

    def edges(index: int) -> tuple[float, float] | None:
        if not pdfium_c.FPDFText_GetCharBox(textpage, start + index, left, right, bottom, top):
            return None
        return (left.value, right.value) if right.value > left.value else None

    cuts: list[tuple[int, int, float, float]] = []  # the space's span in the text, the glyph edges on both sides
    for space in _SPACES.finditer(text):
        if space.start() == 0 or space.end() == len(text):
            continue
        before, after = edges(space.start() - 1), edges(space.end())
        if before is not None and after is not None and after[0] - before[1] > limit:
            cuts.append((space.start(), space.end(), before[1], after[0]))
    if not cuts:
        return [run]
    pieces: list[Run] = []
    piece_start, piece_x0 = 0, run.x0
    for space_start, space_end, gap_x0, gap_x1 in [*cuts, (len(text), len(text), run.x1, run.x1)]:
        piece_text = clean_text(text[piece_start:space_start])
        if piece_text.strip():
            chars = (start + piece_start, start + space_start)
            piece = Run(piece_text, piece_x0, run.top, gap_x0, run.bottom, run.size, run.bold, italic=run.italic)
            piece.font, piece.chars = run.font, chars
            pieces.append(piece)
        piece_start, piece_x0 = space_end, gap_x1
    return pieces if len(pieces) > 1 else [run]


def _page_text(textpage: Any, start: int, end: int) -> str | None:
    """The text page's characters [start, end), one entry per character, or None when PDFium's text is not 1:1."""
    count = end - start
    buffer = (ctypes.c_ushort * (count + 1))()
    n_units = pdfium_c.FPDFText_GetText(textpage, start, count, buffer)
    if n_units <= 1:
        return None
    text = ctypes.string_at(buffer, 2 * (n_units - 1)).decode("utf-16-le", "replace")
    if len(text) != count:
        return None
    if _PLACEHOLDER in text:  # PDFium's hyphen marker or an unmapped glyph: the character list tells which
        text = "".join(
            chr(pdfium_c.FPDFText_GetUnicode(textpage, start + index)) if char == _PLACEHOLDER else char
            for index, char in enumerate(text)
        )
    return text
