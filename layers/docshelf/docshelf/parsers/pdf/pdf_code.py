"""Code set in a monospaced font: its lines kept as lines, with their indentation, in one code paragraph.

A listing (LaTeX's verbatim and listings in Computer Modern Typewriter, a browser's <pre>, Word's Consolas or
Courier New) was joined into running text like any paragraph, and into the paragraph after it. Fonts are known by
their names: PDFs name the font of every text object, and the monospaced families are few. A page set mostly in a
monospaced font (a court filing or a plain-text letter in Courier) has no code apart from its text: its lines make
paragraphs as any text's do.
"""

from __future__ import annotations

from collections.abc import Sequence

from docshelf.parsers.fonts import monospaced
from docshelf.parsers.pdf.pdf_lines import Line

# A monospaced glyph's advance, in font sizes (Courier's and most code faces' 600 of 1000 units).
GLYPH_ADVANCE_EM = 0.6


def is_code(line: Line) -> bool:
    """Whether the line is set in a monospaced font (its majority font; a line of mixed fonts is not)."""
    return bool(line.font) and monospaced(line.font)


def code_apart(lines: Sequence[Line]) -> bool:
    """Whether code can stand apart from the page's text: less than half of the page's characters are monospaced."""
    mono = sum(len(line.text) for line in lines if is_code(line))
    return 2 * mono < sum(len(line.text) for line in lines)


def code_text(rows: Sequence[Sequence[Line]]) -> str:
    """The code's rows one to a line, each indented by how far it stands right of the leftmost, in glyph advances;
    fragments on one row apart by a space."""
    left = min(line.x0 for row in rows for line in row)
    texts: list[str] = []
    for row in rows:
        ordered = sorted(row, key=lambda line: line.x0)
        advance = GLYPH_ADVANCE_EM * max(ordered[0].size, 1.0)
        indent = " " * max(0, round((ordered[0].x0 - left) / advance))
        texts.append(indent + " ".join(line.text for line in ordered))
    return "\n".join(texts)
