"""Right-to-left text from PDFium put into the logical order a reader (and a search index) expects.

PDFium already reorders right-to-left runs from visual into logical order, but it reverses the characters of
each glyph along with the glyphs. A glyph that stands for several characters — in Arabic above all the
lam-alef ligature, whose ToUnicode entry is `لا` — then comes out backwards (`ال`), so `خلال` reads `خالل`
and `الإنتاجية` reads `اإلنتاجية`. From the text alone that cannot be undone (`ال` is also the article), so
the caller says which characters share a glyph (`unreversed_glyphs`): PDFium gives the characters of one glyph
identical boxes, and only pairs of right-to-left letters (`rtl_letter_pairs`) need their boxes compared.

Two more repairs need only a line's text (`logical_line`): presentation forms (U+FB50–U+FDFF, U+FE70–U+FEFF,
Hebrew U+FB1D–U+FB4F) become the base letters with NFKC, and a right-to-left letter glued to a left-to-right
letter (`Pythonمن`, no word has both) gets the space the layout implied but did not draw.
"""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Collection, Sequence

_RTL_SCRIPT = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]")
_PRESENTATION_FORMS = re.compile("[\ufb1d-\ufb4f\ufb50-\ufdff\ufe70-\ufefe]+")
_RTL_BIDI_CLASSES = frozenset({"R", "AL"})


def has_rtl(text: str) -> bool:
    """Whether the text has Hebrew or Arabic characters (the cheap test before any other work)."""
    return _RTL_SCRIPT.search(text) is not None


def rtl_letter_pairs(text: str) -> list[int]:
    """Indices i whose character and the one before it are both right-to-left letters: the only places where
    a glyph cluster can need un-reversing, so the only character boxes a caller has to compare."""
    if not has_rtl(text):
        return []
    return [index for index in range(1, len(text)) if _is_rtl_letter(text[index]) and _is_rtl_letter(text[index - 1])]


def glyph_continuations(boxes: Sequence[tuple[float, float, float, float]]) -> set[int]:
    """Indices of the characters drawn by the same glyph as the character before them: identical boxes, given
    as (left, bottom, right, top); empty boxes (generated spaces and line breaks) never form a glyph."""
    return {index for index in range(1, len(boxes)) if boxes[index] == boxes[index - 1] and _has_area(boxes[index])}


def unreversed_glyphs(text: str, continuations: Collection[int]) -> str:
    """The text with each right-to-left glyph cluster's characters back in logical order. `continuations` are
    the indices of characters drawn by the same glyph as the character before them. The length and the
    position of every cluster stay the same, so it can run on PDFium's page text before it is cut up."""
    if not continuations:
        return text
    chars = list(text)
    start = 0
    for index in range(1, len(chars) + 1):
        if index < len(chars) and index in continuations:
            continue
        if index - start > 1 and all(_is_rtl(char) for char in chars[start:index] if _is_letter(char)):
            chars[start:index] = reversed(chars[start:index])
        start = index
    return "".join(chars)


def logical_line(text: str) -> str:
    """A line's text with presentation forms normalised and touching right-to-left and left-to-right letters
    separated (for the text of a whole line: the letters that touch often come from different text objects)."""
    if not has_rtl(text):
        return text
    text = _PRESENTATION_FORMS.sub(lambda match: unicodedata.normalize("NFKC", match.group()), text)
    return separate_directions(text)


def separate_directions(text: str) -> str:
    """A space between each right-to-left letter and an adjacent left-to-right letter (`Pythonمن`)."""
    out: list[str] = []
    previous = ""
    for char in text:
        if previous and _is_letter(previous) and _is_letter(char) and _is_rtl(previous) != _is_rtl(char):
            out.append(" ")
        out.append(char)
        if not unicodedata.combining(char):
            previous = char
    return "".join(out)


def _is_letter(char: str) -> bool:
    return unicodedata.category(char).startswith("L")


def _is_rtl_letter(char: str) -> bool:
    return _is_letter(char) and _is_rtl(char)


def _is_rtl(char: str) -> bool:
    return unicodedata.bidirectional(char) in _RTL_BIDI_CLASSES


def _has_area(box: tuple[float, float, float, float]) -> bool:
    left, bottom, right, top = box
    return right > left and top > bottom
