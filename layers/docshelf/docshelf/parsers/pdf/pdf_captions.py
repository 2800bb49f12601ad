"""Table captions: a `Table 2: …` / `表 2.1 …` caption set right above or below a table is that table's caption.

Left in the text, a caption joins whatever paragraph lines up with it (the header row of a table whose rows read as
text, the paragraph after the table), and the table's chunks do not say what the grid is. A caption is one to
six lines, the first starting with a table label, the others following at the caption's own line spacing; it
belongs to the nearest table it overlaps across the page, at most MAX_GAP_EM font sizes above or below it. A text
that runs on past six lines is a paragraph that names a table, not a caption.
"""

from __future__ import annotations

import re
from dataclasses import replace

from docshelf.parsers.pdf.pdf_lines import Line
from docshelf.parsers.pdf.pdf_paragraphs import join_lines
from docshelf.parsers.pdf.pdf_tables import PlacedTable

# `Table 2:`, `TABLE II.`, `Tab. 3 Results`, `Table: Costs` (beamer), `表2.1`, `表 3：`; not running text naming one
# (`Table 2 compares…`, `表1に示す`).
TABLE_CAPTION = re.compile(
    r"^(?:(?i:table|tab\.)\s*(?::|[\dA-Z][\dA-Z.\-–]*\s*(?:[:.|—–-]|\s[A-Z]|$))"
    r"|表\s*[\d０-９一二三四五六七八九十][\d０-９.．\-–]*(?:\s|[:：.．]|$))"
)
MAX_GAP_EM = 3.0  # between a caption and its table
LINE_GAP_EM = 0.6  # between two lines of one caption
MAX_LINES = 6
WORD_GAP_EM = 2.0  # between a caption's label and its text on one line
SAME_LINE_EM = 0.25
SAME_SIZE_EM = 0.15


def attach_captions(lines: list[Line], tables: list[PlacedTable]) -> list[Line]:
    """Give each table the caption set next to it (`PlacedTable.table.caption`); the lines left, without captions."""
    if not tables:
        return lines
    fragments = sorted((line for line in lines if not line.vertical), key=lambda line: line.top)
    claims: list[tuple[float, int, PlacedTable, list[list[Line]]]] = []
    for index, line in enumerate(fragments):
        if not TABLE_CAPTION.match(line.text):
            continue
        block = _caption_block(fragments, line)
        nearest = _nearest_table(block, tables) if block is not None else None
        if block is not None and nearest is not None:
            claims.append((nearest[0], index, nearest[1], block))
    taken: set[int] = set()
    for _, _, placed, block in sorted(claims, key=lambda claim: claim[:2]):
        if placed.table.caption or any(id(line) in taken for row in block for line in row):
            continue
        placed.table = replace(placed.table, caption=join_lines([line.text for row in block for line in row]))
        taken.update(id(line) for row in block for line in row)
    return [line for line in lines if id(line) not in taken] if taken else lines


def _caption_block(fragments: list[Line], first: Line) -> list[list[Line]] | None:
    """The caption's lines from its first fragment: each line the fragments on its baseline that follow one another
    within WORD_GAP_EM (a label set apart from its text: `表2.1␣␣情報分類`), and the lines below at the caption's line
    spacing, in its size, across its width (not a line of the next column); None when they run on past MAX_LINES
    (a paragraph that starts with a table's name)."""
    size = first.size
    block = [_line_from(fragments, first)]
    while True:
        x0, x1 = min(line.x0 for row in block for line in row), max(line.x1 for row in block for line in row)
        bottom = max(line.bottom for line in block[-1])
        below = [
            line
            for line in fragments
            if -0.5 * size < line.top - bottom <= LINE_GAP_EM * size
            and abs(line.size - size) <= SAME_SIZE_EM * size
            and line.x0 < x1
            and x0 < line.x1
            and not any(line is other for row in block for other in row)
            and not TABLE_CAPTION.match(line.text)
        ]
        if not below:
            return block
        if len(block) == MAX_LINES:
            return None
        block.append(_line_from(fragments, min(below, key=lambda line: (line.top, line.x0))))


def _line_from(fragments: list[Line], first: Line) -> list[Line]:
    """The fragment and those that follow it on its baseline, each within WORD_GAP_EM of the one before."""
    row = [first]
    while True:
        last = row[-1]
        after = [
            line
            for line in fragments
            if 0 <= line.x0 - last.x1 <= WORD_GAP_EM * last.size
            and abs(line.bottom - last.bottom) <= SAME_LINE_EM * last.size
            and abs(line.size - last.size) <= SAME_SIZE_EM * last.size
        ]
        if not after:
            return row
        row.append(min(after, key=lambda line: line.x0))


def _nearest_table(block: list[list[Line]], tables: list[PlacedTable]) -> tuple[float, PlacedTable] | None:
    """The table the caption block stands right above or right below, the nearer one if both, with the gap."""
    top = min(line.top for line in block[0])
    bottom = max(line.bottom for line in block[-1])
    x0 = min(line.x0 for row in block for line in row)
    x1 = max(line.x1 for row in block for line in row)
    size = max(line.size for line in block[0])
    best: tuple[float, PlacedTable] | None = None
    for placed in tables:
        if min(x1, placed.x1) <= max(x0, placed.x0):
            continue
        gaps = [placed.top - bottom, top - placed.bottom]
        gap = min((gap for gap in gaps if -0.5 * size <= gap <= MAX_GAP_EM * size), default=None)
        if gap is not None and (best is None or gap < best[0]):
            best = (gap, placed)
    return best
