"""The text of every text object on a page, from one page-wide text call instead of one call per object.

`FPDFTextObj_GetText` scans all characters of the page for each object (~37 µs per object on a full page).
Here the page text is read once, the character list is cut into runs that belong to one text object by
galloping search over `FPDFText_GetTextObject` (a few calls per run, not one per character), and each
object's text is rebuilt with the rules of PDFium's `CPDF_TextPage::GetTextByObject`: the object's own
characters, one space when a space follows them, and a line break when a later piece of the same object
starts on another baseline. An accent drawn as a glyph of its own over a letter is composed with it
(`pdf_accents`).
"""

from __future__ import annotations

import ctypes
import re
import unicodedata
from collections import defaultdict
from typing import Any

import pypdfium2.raw as pdfium_c

from docshelf.parsers.pdf.pdf_accents import compose_accents
from docshelf.parsers.pdf.pdf_bidi import glyph_continuations, rtl_letter_pairs, unreversed_glyphs
from docshelf.scripts import no_space_script

# The page text shows both PDFium's soft-hyphen marker (0x02) and unmapped glyphs (0) as U+FFFE.
_PAGE_PLACEHOLDER = "\ufffe"
# Glyphs closer than this many font sizes belong to one word: kerning and rounding never set them further apart,
# and a word space (a quarter to a third of an em, shrunk or stretched) is wider.
SPACE_GAP_EM = 0.15
_SPACE = re.compile(r"\s")


def _unwrapped(function: Any, restype: Any, *argtypes: Any) -> Any:
    """The same C function with plain integer handles: no ctypes pointer object is built per call."""
    address = ctypes.cast(function, ctypes.c_void_p).value
    assert address is not None
    return ctypes.CFUNCTYPE(restype, *argtypes)(address)


_text_object_at = _unwrapped(pdfium_c.FPDFText_GetTextObject, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int)


def object_texts(
    textpage: Any,
    char_ranges: dict[int, tuple[int, int]] | None = None,
    *,
    logical_order: bool = True,
    text: str | None = None,
    accents: bool = True,
) -> dict[int, str] | None:
    """Object address -> text as `FPDFTextObj_GetText` gives it (plus a NUL where it skips an unmapped glyph),
    or None when the page text is not 1:1 with the character list (then the caller must ask per object).
    `char_ranges` receives the character index range [start, end) of each object whose characters are contiguous
    in the text page but for generated spaces and line breaks. With `logical_order` right-to-left ligatures are
    put back in logical order (see `_logical_glyph_order`), where PDFium's own per-object text keeps them reversed.
    `text` is the page text when the caller has read it already (`page_text`, accents composed as it wants);
    else it is read here, and with `accents` an accent drawn over its letter is composed with it (`pdf_accents`)."""
    if text is None:
        text = page_text(textpage, logical_order=logical_order)
        if text and accents:
            text = compose_accents(textpage, text)
    if not text:
        return None if text is None else {}
    handle = ctypes.cast(textpage, ctypes.c_void_p).value
    if handle is None:
        return None
    pieces: dict[int, list[tuple[int, int]]] = defaultdict(list)
    interleaved: set[int] = set()
    last_object = None
    for obj, start, end in _object_runs(handle, text):
        if obj:
            if obj != last_object and obj in pieces:
                interleaved.add(obj)
            pieces[obj].append((start, end))
            last_object = obj
    result: dict[int, str] = {}
    for obj, ranges in pieces.items():
        if len(ranges) == 1:
            start, end = ranges[0]
            result[obj] = text[start:end] + (" " if text[end : end + 1] == " " else "")
        else:
            result[obj] = _scattered_object_text(textpage, text, ranges)
    if char_ranges is not None:
        char_ranges.update(
            (obj, (spans[0][0], spans[-1][1])) for obj, spans in pieces.items() if obj not in interleaved
        )
    return result


def _characters_one_by_one(textpage: Any, n_chars: int) -> str:
    """The page text from each character's code: NUL for an unmapped glyph, and a character outside the BMP, which
    PDFium lists as its two UTF-16 halves, whole at the first and NUL at the second (the indices stay the list's;
    the caller drops control characters)."""
    codes = [pdfium_c.FPDFText_GetUnicode(textpage, index) for index in range(n_chars)]
    chars: list[str] = []
    index = 0
    while index < n_chars:
        code = codes[index]
        following = codes[index + 1] if index + 1 < n_chars else 0
        if 0xD800 <= code < 0xDC00 and 0xDC00 <= following < 0xE000:
            chars += [chr(0x10000 + ((code - 0xD800) << 10) + following - 0xDC00), "\0"]
            index += 2
            continue
        chars.append("\ufffd" if 0xD800 <= code < 0xE000 else chr(code))
        index += 1
    return "".join(chars)


def _with_real_characters(textpage: Any, text: str) -> str:
    chars = list(text)
    for index, char in enumerate(chars):
        if char == _PAGE_PLACEHOLDER:
            code = pdfium_c.FPDFText_GetUnicode(textpage, index)
            chars[index] = chr(code)  # NUL for unmapped glyphs keeps the indices; the caller drops control chars
    return "".join(chars)


def _object_runs(handle: int, text: str) -> list[tuple[int | None, int, int]]:
    """Maximal index ranges [start, end) whose characters belong to the same object (None: generated).

    The end of a range is first guessed from the text (most objects end at a line break, most generated
    ranges are one CRLF or one space), checked with two calls, and otherwise found by galloping and bisection.
    """
    n_chars = len(text)
    runs: list[tuple[int | None, int, int]] = []
    start = 0
    while start < n_chars:
        obj = _text_object_at(handle, start)
        same, different = start, -1
        guess = _likely_end(text, start, generated=obj is None)
        if guess - 1 > same:
            if _text_object_at(handle, guess - 1) == obj:
                same = guess - 1
            else:
                different = guess - 1
        if different < 0:
            step = 1
            probe = same + 1
            while probe < n_chars and _text_object_at(handle, probe) == obj:
                same = probe
                step *= 2
                probe = same + step
            different = min(probe, n_chars)
        while different - same > 1:
            middle = (same + different) // 2
            if _text_object_at(handle, middle) == obj:
                same = middle
            else:
                different = middle
        runs.append((obj, start, different))
        start = different
    return runs


def _likely_end(text: str, start: int, *, generated: bool) -> int:
    if generated:  # generated characters of different gaps look alike, so never guess past this one
        return start + 2 if text[start : start + 2] == "\r\n" else start + 1
    line_end = text.find("\r", start + 1)
    return len(text) if line_end < 0 else line_end


def _scattered_object_text(textpage: Any, text: str, spans: list[tuple[int, int]]) -> str:
    """GetTextByObject's rules for an object whose characters are not contiguous (bidi reordering, inline
    generated characters): between its pieces, a following space is kept once, and a piece that starts on
    a new baseline after other non-space characters is preceded by CRLF."""
    parts: list[str] = []
    baseline = 0.0
    contains_previous = add_line_feed = False
    x, y = ctypes.c_double(), ctypes.c_double()
    cursor = 0
    for start, end in spans:
        gap = text[cursor:start]
        if gap:
            if gap[0] == " ":
                if contains_previous:
                    parts.append(" ")
                    add_line_feed = False
            else:
                add_line_feed = True
            if gap[1:].strip(" "):
                add_line_feed = True
            contains_previous = False
        if add_line_feed and not contains_previous:
            pdfium_c.FPDFText_GetCharOrigin(textpage, start, x, y)
            if y.value != baseline:
                baseline = y.value
                if parts:
                    parts.append("\r\n")
        parts.append(text[start:end])
        contains_previous, add_line_feed = True, False
        cursor = end
    if contains_previous and text[cursor : cursor + 1] == " ":
        parts.append(" ")
    return "".join(parts)


def page_text(textpage: Any, *, logical_order: bool = True) -> str | None:
    """The page text, one character per entry of the character list, or None when PDFium gives no text."""
    n_chars = pdfium_c.FPDFText_CountChars(textpage)
    if n_chars <= 0:
        return ""
    buffer = (ctypes.c_ushort * (2 * n_chars + 2))()
    n_units = pdfium_c.FPDFText_GetText(textpage, 0, n_chars, buffer)
    if n_units <= 0:
        return None
    text = ctypes.string_at(buffer, 2 * (n_units - 1)).decode("utf-16-le", "replace")
    if len(text) != n_chars:
        # Not one to one (PDFium's text leaves out some unmapped glyphs: one in a Wikipedia page's list of
        # languages): read the characters one by one, or the whole page would lose its character ranges, glyph
        # advances and spacing.
        text = _characters_one_by_one(textpage, n_chars)
    elif _PAGE_PLACEHOLDER in text:
        text = _with_real_characters(textpage, text)
    return _logical_glyph_order(textpage, text) if logical_order else text


def _logical_glyph_order(textpage: Any, text: str) -> str:
    """PDFium gives a right-to-left ligature's letters reversed (lam-alef comes out as alef-lam); both letters
    of one glyph share one box, so only adjacent right-to-left letters need their boxes compared."""
    pairs = rtl_letter_pairs(text)
    if not pairs:
        return text
    left, right, bottom, top = (ctypes.c_double() for _ in range(4))

    def box(index: int) -> tuple[float, float, float, float]:
        pdfium_c.FPDFText_GetCharBox(textpage, index, left, right, bottom, top)
        return (left.value, bottom.value, right.value, top.value)

    return unreversed_glyphs(text, {i for i in pairs if glyph_continuations([box(i - 1), box(i)])})


_loose_char_box = _unwrapped(
    pdfium_c.FPDFText_GetLooseCharBox, ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p
)


# The most spaces a gap inside a monospaced object stands for (a wider gap is a layout's, not a listing's column).
MAX_COLUMN_SPACES = 40


class GlyphAdvances:
    """Where glyphs stand by their origins and advances, from PDFium's loose character boxes (origin to origin +
    advance width). Inside one text object the gap between two such boxes is exactly the spacing the producer set
    between the glyphs (character spacing, a TJ kern), whatever their ink; between objects it tells glyphs placed
    one after another (a glyph per object, as Chromium writes) from words set apart."""

    def __init__(self, textpage: Any, text: str) -> None:
        handle = ctypes.cast(textpage, ctypes.c_void_p).value
        self._handle = handle or 0
        self._text = text
        self._rect = pdfium_c.FS_RECTF()
        self._address = ctypes.addressof(self._rect)

    def read(self, start: int, end: int, size: float) -> tuple[tuple[float, float] | None, list[int]]:
        """For the characters [start, end) of one upright left-to-right text object: the x of its first glyph's
        origin and of the end of its last glyph's advance (spaces at either end left out), and the indices after
        which a gap wider than `SPACE_GAP_EM` stands between two glyphs without a space between them.

        Character spacing (Tc) widens every gap of an object alike; a PostScript converter (ghostscript's ps2pdf)
        sets word spaces that way (`(dan)Tj` with 3.7 pt spacing for "d a n"), and PDFium's text has no space
        there. So the gaps are only measured one by one in an object without a space of its own (one that has
        spaces, written or PDFium's for its kerns, sets its words apart with them, and its character spacing is
        letter spacing: an OCR layer stretching each word to the scanned one), and when its first glyph pair
        already stands apart."""
        text, rect, handle, address = self._text, self._rect, self._handle, self._address
        first, last = start, end - 1
        if text[first].isspace() or text[last].isspace():
            while first <= last and text[first].isspace():
                first += 1
            while last > first and text[last].isspace():
                last -= 1
            if first > last:
                return None, []
        _loose_char_box(handle, first, address)
        origin, first_end, first_bottom = rect.left, rect.right, rect.bottom
        if last > first:
            _loose_char_box(handle, last, address)
        if rect.right <= origin:
            return None, []
        extent = (origin, rect.right)
        if (
            last == first
            or text.find(" ", start, end) >= 0
            or _no_gap_here(text[first])
            or _no_gap_here(text[first + 1])
            or _SPACE.search(text, start, end) is not None
        ):
            return extent, []
        _loose_char_box(handle, first + 1, address)
        limit = SPACE_GAP_EM * size
        if rect.left - first_end <= limit or abs(rect.bottom - first_bottom) > limit:
            return extent, []
        return extent, self._wide_gaps(first, last, limit)

    def _wide_gaps(self, first: int, last: int, limit: float) -> list[int]:
        text, rect, handle, address = self._text, self._rect, self._handle, self._address
        gaps: list[int] = []
        _loose_char_box(handle, first, address)
        previous_end, previous_bottom = rect.right, rect.bottom
        for index in range(first + 1, last + 1):
            _loose_char_box(handle, index, address)
            if (
                rect.left - previous_end > limit
                and abs(rect.bottom - previous_bottom) <= limit
                and not _no_gap_here(text[index - 1])
                and not _no_gap_here(text[index])
            ):
                gaps.append(index - 1)
            previous_end, previous_bottom = rect.right, rect.bottom
        return gaps

    def columns(self, start: int, end: int) -> str:
        """The characters [start, end) of one monospaced text object with each run of spaces as wide, in spaces, as
        the gap it stands for in glyph advances (a listing's aligned columns: `P1  52.1`, which PDFium gives with
        one space, written or its own)."""
        text, rect, handle, address = self._text, self._rect, self._handle, self._address
        pieces: list[str] = []
        index = start
        while index < end:
            if not text[index].isspace() or index == start:
                pieces.append(text[index])
                index += 1
                continue
            after = index
            while after < end and text[after].isspace():
                after += 1
            if after == end:
                pieces.append(text[index:end])
                break
            _loose_char_box(handle, index - 1, address)
            left, glyph_end = rect.left, rect.right
            _loose_char_box(handle, after, address)
            advance = glyph_end - left
            spaces = round((rect.left - glyph_end) / advance) if advance > 0 else 1
            pieces.append(" " * max(1, min(spaces, MAX_COLUMN_SPACES)))
            index = after
        return "".join(pieces)


def _no_gap_here(char: str) -> bool:
    """A space (written or generated), a combining mark, or a character of a script written without spaces: no
    space goes beside it for a gap inside an object."""
    return char.isspace() or no_space_script(char) or unicodedata.combining(char) > 0 or char < " "
