"""Accents drawn as glyphs of their own over or under a letter, composed with it: `J¨urgen` → `Jürgen`.

TeX's OT1 fonts (any LaTeX document without `\\usepackage[T1]{fontenc}`) have no accented letters: `\\"u` draws
the spacing accent `¨` and moves back to draw `u` under it, so the text holds the accent BEFORE its letter, and `í`
is the accent over a dotless `ı`. Other producers draw a letter and then an accent over it. Either way the accent's
box sits over (or, for a cedilla or ogonek, under) the letter's box, which a spacing accent typed in the text never
does: it has its own advance. An accent so placed becomes a combining mark after its letter, composed (NFC) into the
precomposed letter; the accent's slot is left empty (NUL, which the caller drops), so that the text stays one
character per entry of the page's character list.
"""

from __future__ import annotations

import ctypes
import re
import unicodedata
from typing import TYPE_CHECKING, Any

import pypdfium2.raw as pdfium_c

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

Box = tuple[float, float, float, float]  # left, right, bottom, top

# The spacing forms of the accents and the combining marks they draw; `^`, `~` and `` ` `` too, which some fonts'
# ToUnicode maps give their accent glyphs.
_SPACING = {
    "\u00a8": "\u0308",  # ¨
    "\u00b4": "\u0301",  # ´
    "\u0060": "\u0300",  # `
    "\u02c6": "\u0302",  # ˆ
    "\u005e": "\u0302",  # ^
    "\u02dc": "\u0303",  # ˜
    "\u007e": "\u0303",  # ~
    "\u02c7": "\u030c",  # ˇ
    "\u02dd": "\u030b",  # ˝
    "\u02da": "\u030a",  # ˚
    "\u00af": "\u0304",  # ¯
    "\u02c9": "\u0304",  # ˉ
    "\u02d8": "\u0306",  # ˘
    "\u02d9": "\u0307",  # ˙
    "\u00b8": "\u0327",  # ¸
    "\u02db": "\u0328",  # ˛
}
_BELOW = frozenset("\u0327\u0328")  # cedilla and ogonek hang under their letter
_CANDIDATE = re.compile("[" + "".join(re.escape(char) for char in _SPACING) + "\u0300-\u036f]")
_DOTLESS = {"ı": "i", "ȷ": "j"}  # an accent over a dotless i or j stands in for the dot
_LAST_ACCENTED_SCRIPT = 0x0530  # Latin, Greek and Cyrillic letters take these accents; CJK never does
_SPACE_CHARS = frozenset(" \r\n")
_ASCII = frozenset("^~`")  # common in code and addresses: only a letter beside them is tried
_SEARCH_WINDOW = 48
_EMPTY = "\x00"
# An accent belongs to the letter whose box holds its centre, this share of the letter's width either side allowed
# (an italic letter's accent sits a little to the right).
_SIDE_SLACK = 0.2
_WORD_GAP = 0.25  # a gap this many letter heights wide is a word space (about 0.15 of the font size)
_NEAR = 0.5  # the most an accent stands off its letter, in the letter's heights


def compose_accents(textpage: Any, text: str, first: int = 0) -> str:
    """`text` (the characters of the text page from index `first`, one per entry) with every accent placed over or
    under a letter composed into that letter, the accent's own entry NUL; the same length."""
    if _CANDIDATE.search(text) is None:
        return text
    chars = list(text)
    left, right, bottom, top = (ctypes.c_double() for _ in range(4))

    def box(index: int) -> Box | None:
        if not pdfium_c.FPDFText_GetCharBox(textpage, first + index, left, right, bottom, top):
            return None
        return left.value, right.value, bottom.value, top.value

    for match in _CANDIDATE.finditer(text):
        index = match.start()
        if chars[index] == _EMPTY or pdfium_c.FPDFText_IsGenerated(textpage, first + index) == 1:
            continue
        accent = text[index]
        mark = _SPACING.get(accent, accent)
        accent_box = box(index)
        if accent_box is None:
            continue
        for base in _bases(textpage, chars, first, index, accent):
            base_box = box(base)
            if base_box is None or not _placed_on(accent_box, base_box, below=mark in _BELOW):
                continue
            letter = chars[base]
            composed = unicodedata.normalize("NFC", _DOTLESS.get(letter, letter) + mark)
            if len(composed) != 1:
                break  # no precomposed letter: leave both as drawn rather than lose the one-to-one text
            chars[base] = composed
            chars[index] = _EMPTY
            _close_gap(textpage, chars, first, index, box)
            break
    return "".join(chars)


def _close_gap(textpage: Any, chars: list[str], first: int, index: int, box: Callable[[int], Box | None]) -> None:
    """PDFium writes a space where the text jumps back to draw an accent and another where it jumps on again: of the
    spaces it generated around the accent's emptied slot, one stays only where the characters on either side stand
    a word apart on one line."""
    start, end = index, index + 1
    while start > 0 and _generated_gap(textpage, chars, first, start - 1):
        start -= 1
    while end < len(chars) and _generated_gap(textpage, chars, first, end):
        end += 1
    gap = range(start, end)
    if start == 0 or end == len(chars) or any(chars[position] in "\r\n" for position in gap):
        return
    before, after = box(start - 1), box(end)
    if before is None or after is None:
        return
    height = max(before[3] - before[2], after[3] - after[2])
    if min(before[3], after[3]) - max(before[2], after[2]) < 0.5 * height:
        return  # not on one line
    spaced = after[0] - before[1] > _WORD_GAP * height
    for position in gap:
        if chars[position] == " " and spaced:
            spaced = False
            continue
        chars[position] = _EMPTY


def _generated_gap(textpage: Any, chars: list[str], first: int, position: int) -> bool:
    char = chars[position]
    return char == _EMPTY or (char in _SPACE_CHARS and pdfium_c.FPDFText_IsGenerated(textpage, first + position) == 1)


def _bases(textpage: Any, chars: list[str], first: int, index: int, accent: str) -> Iterator[int]:
    """The letters an accent may be drawn on, nearest first. A combining mark is out of order only before its letter.
    A spacing accent may come before its letter (OT1) or after it; a capital's accent, raised in a text object of
    its own, PDFium can move further along the line, so the letters near it in the text are tried too."""
    yield from _neighbour(textpage, chars, first, index, 1)
    if accent not in _SPACING:
        return
    yield from _neighbour(textpage, chars, first, index, -1)
    if accent in _ASCII:
        return
    for distance in range(2, _SEARCH_WINDOW):
        for position in (index - distance, index + distance):
            if 0 <= position < len(chars) and _takes_accent(chars[position]):
                yield position


def _neighbour(textpage: Any, chars: list[str], first: int, index: int, step: int) -> Iterator[int]:
    """The nearest letter that can take an accent from `index` in direction `step` past at most two spaces PDFium
    generated (nothing when another character comes first)."""
    position, skipped = index + step, 0
    while 0 <= position < len(chars) and skipped <= 2:
        char = chars[position]
        if char in _SPACE_CHARS and pdfium_c.FPDFText_IsGenerated(textpage, first + position) == 1:
            skipped += 1
            position += step
            continue
        if _takes_accent(char):
            yield position
        return


def _takes_accent(char: str) -> bool:
    return char.isalpha() and ord(char) < _LAST_ACCENTED_SCRIPT


def _placed_on(accent: Box, base: Box, *, below: bool) -> bool:
    """Whether an accent's box is centred over the letter's box, above its middle and near its top (under its foot
    for a cedilla), not over a letter of the line below."""
    a_left, a_right, a_bottom, a_top = accent
    b_left, b_right, b_bottom, b_top = base
    slack = _SIDE_SLACK * (b_right - b_left)
    centre_x, centre_y = (a_left + a_right) / 2, (a_bottom + a_top) / 2
    if not b_left - slack <= centre_x <= b_right + slack or b_top - b_bottom <= 0 or a_top - a_bottom <= 0:
        return False
    height = b_top - b_bottom
    if below:
        return centre_y < b_bottom + 0.2 * height and a_top >= b_bottom - _NEAR * height
    return centre_y > b_bottom + 0.6 * height and a_bottom <= b_top + _NEAR * height
