"""List bullets as text, next to their item's text.

Producers set a bullet three ways, and each lost the list: Chromium ("Save as PDF") and beamer draw it as a small
filled shape, which has no text at all; Word and LibreOffice write it as a glyph of a symbol font (Symbol's
U+F0B7, Wingdings' U+F0A7 in the private use area, or OpenSymbol's `▪`) a tab stop away from the item's text, so
the glyph made a line of its own and the items ran together; Japanese text follows the glyph without a space
(`•基幹業務`). Here a small shape drawn just left of a line's first word becomes a `•` run, a symbol-font bullet
becomes `•`, and a bullet alone reaches to its item's text with a space, as `pdf_paragraphs` expects of a list
item.
"""

from __future__ import annotations

import bisect

from docshelf.parsers.pdf.pdf_text import Run

Box = tuple[float, float, float, float]  # x0, top, x1, bottom

BULLETS = "•●○◦▪▫■‣⁃◆◇►▶➢➤"
# Symbol's bullet and Wingdings' square, diamond, arrowheads and check as Word exports them (private use area).
SYMBOL_FONT_BULLETS = "\uf0b7\uf0a7\uf0a8\uf076\uf0d8\uf0d7\uf0fc\uf0e0\uf06c\uf06e\uf0a0"
MAX_MARKS = 200  # more small shapes than this on a page is a plot, not a list
TEXT_WITHIN_EM = 4.0  # how far right of its bullet an item's text may start
CLEAR_LEFT_EM = 2.0  # a bullet opens its line: no text ends this close to its left
MIN_ITEMS = 2
ALIGNED = 1.0  # points: the bullets of one list stand at one left edge, in one size
NEXT_ITEM_WITHIN = 24.0  # bullet heights (a bullet is about a third of an em: some six lines of text)


def with_bullets(runs: list[Run], marks: list[Box]) -> list[Run]:
    """The runs with a bullet run for each mark that opens a line, and every bullet set next to its item."""
    for run in runs:
        if run.text[:1] in SYMBOL_FONT_BULLETS:
            run.text = "•" + run.text[1:]
    listed = _listed(marks) if len(marks) <= MAX_MARKS else []
    if listed:
        placed = _Placed(runs)
        added = [bullet for mark in listed if (bullet := placed.drawn_bullet(mark)) is not None]
        runs = runs + added if len(added) >= MIN_ITEMS else runs
    if not any(run.text.lstrip()[:1] in BULLETS for run in runs):
        return runs
    placed = _Placed(runs)
    for run in runs:
        text = run.text.strip()
        if text and text[0] in BULLETS and not run.vertical:
            placed.set_next_to_item(run, text)
    return runs


def _listed(marks: list[Box]) -> list[Box]:
    """The marks that stand as a list's bullets do: alone on their row, in a column of two or more of one size,
    each near the next. A row of dots (a rating, a progress bar) or a lone dot in a graphic is no list."""
    alone = [mark for mark in marks if not any(other is not mark and _same_row(mark, other) for other in marks)]
    return [mark for mark in alone if sum(1 for other in alone if _same_column(mark, other)) >= MIN_ITEMS]


def _same_row(a: Box, b: Box) -> bool:
    return a[1] <= (b[1] + b[3]) / 2 <= a[3]


def _same_column(a: Box, b: Box) -> bool:
    """Bullets of one list: one left edge, one size, the next item a few lines away (not two icons a page apart)."""
    near = abs(a[1] - b[1]) <= NEXT_ITEM_WITHIN * max(a[3] - a[1], 1.0)
    return near and abs(a[0] - b[0]) <= ALIGNED and abs((a[2] - a[0]) - (b[2] - b[0])) <= ALIGNED


class _Placed:
    """The page's horizontal runs sorted by left and by right edge, to find a run's neighbours on its row."""

    def __init__(self, runs: list[Run]) -> None:
        flat = [run for run in runs if not run.vertical and run.text.strip()]
        self.by_left = sorted(flat, key=lambda run: run.x0)
        self.lefts = [run.x0 for run in self.by_left]
        self.by_right = sorted(flat, key=lambda run: run.x1)
        self.rights = [run.x1 for run in self.by_right]

    def drawn_bullet(self, mark: Box) -> Run | None:
        """A bullet run for a mark that stands before a run on its row, with no text close on its left (an icon
        or a separator inside a line of text is no bullet)."""
        x0, top, x1, bottom = mark
        item = self._right_of(x1, (top + bottom) / 2, bottom - top)
        if item is None or not self._clear_left(x0, (top + bottom) / 2, item.size):
            return None
        return Run("• ", x0, item.top, x1, item.bottom, item.size, item.bold, italic=item.italic, font=item.font)

    def set_next_to_item(self, bullet: Run, text: str) -> None:
        """A bullet glyph alone reaches to its item's text (a tab stop away), with a space between; a bullet glued
        to its item's first character is set off from it."""
        if len(text) > 1:
            if not text[1].isspace():
                bullet.text = text[0] + " " + text[1:]
            return
        middle = (bullet.top + bullet.bottom) / 2
        item = self._right_of(bullet.x1, middle, 0.0, exclude=bullet)
        if item is not None and self._clear_left(bullet.x0, middle, bullet.size):
            bullet.text = text + " "
            bullet.x1 = max(bullet.x1, item.x0 - 0.25 * max(item.size, 1.0))

    def _clear_left(self, x: float, middle: float, size: float) -> bool:
        """No text on the row ends within CLEAR_LEFT_EM left of x (a bullet opens its line)."""
        low = bisect.bisect_left(self.rights, x - CLEAR_LEFT_EM * max(size, 1.0))
        high = bisect.bisect_right(self.rights, x + 0.5)
        return not any(run.top <= middle <= run.bottom for run in self.by_right[low:high])

    def _right_of(self, x: float, middle: float, height: float, exclude: Run | None = None) -> Run | None:
        """The nearest run starting right of x, within TEXT_WITHIN_EM of its size, whose row holds `middle`."""
        for run in self.by_left[bisect.bisect_left(self.lefts, x - 0.5) :]:
            if run.x0 > x + TEXT_WITHIN_EM * max(run.size, 1.0):
                return None
            if run is not exclude and run.top <= middle <= run.bottom and height <= run.bottom - run.top:
                return run
        return None
