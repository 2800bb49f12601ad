"""Text runs and page geometry from PDFium page objects (one run per text object, not per glyph).

The unit here is the text object: its text, bounds, effective font size and boldness. Coordinates are
converted to a top-down system (`top` grows downwards) in the page's unrotated space. Object texts come
from `pdf_chars.object_texts` (one page-wide text call); `FPDFTextObj_GetText` rescans every character
of the page per object and is only the fallback for pages whose text index does not map 1:1.
"""

from __future__ import annotations

import bisect
import ctypes
import itertools
import math
import re
from dataclasses import dataclass, field
from typing import Any

import pypdfium2.raw as pdfium_c

from docshelf.parsers.fonts import monospaced
from docshelf.parsers.pdf.pdf_accents import compose_accents
from docshelf.parsers.pdf.pdf_chars import GlyphAdvances, object_texts, page_text

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)

# Control characters (C0, DEL, C1: what PDFium gives for a glyph its font maps to no character) become nothing,
# layout whitespace becomes a space, PDFium's hyphen markers a hyphen.
_CONTROLS = (*range(32), *range(0x7F, 0xA0))
_CLEAN = {code: None for code in _CONTROLS} | {9: " ", 10: " ", 13: " ", 2: "-", 0xAD: "-", 0xFFFE: None, 0xFEFF: None}
_UNMAPPED_GLYPH = frozenset(chr(code) for code in _CONTROLS if code not in (2, 9, 10, 13))
# A glyph without a character alone before a line's text is its bullet when it is shaped like one (about as wide as
# high, BULLET_SIZE_EM of the text's size), the text starts BULLET_GAP_EM after it (a space, not a mark drawn over
# or into the word) and nothing stands BULLET_CLEAR_EM before it on the line.
BULLET = "\u2022"
BULLET_SIZE_EM = (0.2, 0.7)
BULLET_GAP_EM = (0.2, 2.0)
BULLET_CLEAR_EM = 3.0
_BOLD_NAMES = ("bold", "black", "heavy", "semibold", "demi")
# A font name's style part (after its last `-` or `,`, a trailing `MT` or `PS` aside) made only of these words says
# the face is not bold, whatever weight PDFium reads from its stem width: Chromium (Skia) measures the stem of an
# oblique face across its slant, so DejaVuSans-Oblique reads 610 and italic text would pass for bold.
_LIGHT_STYLE = re.compile(r"(?:regular|roman|book|normal|light|thin|extralight|ultralight|italic|oblique|ital|it)+")
_ITALIC_NAMES = ("italic", "oblique")
_ITALIC_FLAG = 1 << 6  # PDF font descriptor flag 7
_TEXT_BUFFER_UNITS = 4096
MAX_PATH_SEGMENTS = 256
DRAWING_SEGMENTS = 6
FLAT_BOX_EM, ASCENT_EM, DESCENT_EM = 0.05, 0.8, 0.2
# A figure's run whose box starts this many font sizes before its first glyph's origin starts at the glyph: the
# space before it is padding (Calc sets a right-aligned figure after a space glyph as wide as the cell), and its box
# would reach over the cell before it.
WIDE_LEAD_EM = 2.0
# A figure as a table cell holds it: `12,553`, `(81)`, `-3.5%`, `$1,200`, or a dash for none.
FIGURE = re.compile(r"[-+−–—(]?[$€£¥]?\d[\d,.\u202f\u00a0]*%?\)?|[—–-]")
# A baseline turned more than this many degrees from the page's axes is not set in a line of the page: a diagonal
# watermark or stamp ("DRAFT" at 45°), a slanted chart label.
SKEWED_DEGREES = 10.0
MARK_MIN_SIDE, MARK_MAX_SIDE = 1.5, 8.0
MARK_MAX_ASPECT = 2.0


@dataclass(slots=True)
class Run:
    text: str
    x0: float
    top: float
    x1: float
    bottom: float
    size: float
    bold: bool
    vertical: bool = False
    italic: bool = False
    font: str = ""  # base font name without the subset tag
    chars: tuple[int, int] = (0, 0)  # the object's character index range in the text page, when known
    # The x of the first glyph's origin and of the end of the last glyph's advance (spaces at the ends left out):
    # where the text starts and where a glyph following it without a space would start. None when unknown.
    advance: tuple[float, float] | None = None
    written_space: bool = False  # the object's own last character is a space (the producer wrote the word space)
    # Where the object's text stands: its origin's y (top-down), text rise included; None when unknown.
    baseline: float | None = None


@dataclass(slots=True)
class PageText:
    number: int
    width: float
    height: float
    runs: list[Run] = field(default_factory=list)
    image_area: float = 0.0
    rules: list[tuple[float, float, float, float]] = field(default_factory=list)
    has_vector_paths: bool = False
    # Boxes of paths with more segments than a rectangle has: plotted lines, curves, shapes of a drawn figure.
    drawings: list[tuple[float, float, float, float]] = field(default_factory=list)
    # The shapes that can show data: drawings filled (bars) or with curves or slanted lines, not grids of straight
    # rules; and filled shapes of few segments with a curve or a slant (a pie's small wedges).
    plots: list[tuple[float, float, float, float]] = field(default_factory=list)
    # Boxes of filled shapes of a rectangle's few segments, neither a rule nor a bullet: a bar chart's bars, shaded
    # table cells, panels.
    filled: list[tuple[float, float, float, float]] = field(default_factory=list)
    # Boxes of small filled shapes and forms the size of a bullet (a list's bullets as Chromium and beamer draw them).
    marks: list[tuple[float, float, float, float]] = field(default_factory=list)

    @property
    def image_coverage(self) -> float:
        return self.image_area / (self.width * self.height) if self.width > 0 and self.height > 0 else 0.0


def is_mark(width: float, height: float) -> bool:
    """Whether a shape has a bullet's size: small, about as wide as tall."""
    if not (MARK_MIN_SIDE <= width <= MARK_MAX_SIDE and MARK_MIN_SIDE <= height <= MARK_MAX_SIDE):
        return False
    return max(width, height) <= MARK_MAX_ASPECT * min(width, height)


def _multiply(inner: Matrix, outer: Matrix) -> Matrix:
    a, b, c, d, e, f = inner
    a2, b2, c2, d2, e2, f2 = outer
    return (
        a * a2 + b * c2,
        a * b2 + b * d2,
        c * a2 + d * c2,
        c * b2 + d * d2,
        e * a2 + f * c2 + e2,
        e * b2 + f * d2 + f2,
    )


class PageReader:
    """Reads one page's objects; holds reusable ctypes buffers and a font style cache per page."""

    def __init__(self) -> None:
        self._text = (ctypes.c_ushort * _TEXT_BUFFER_UNITS)()
        self._name = ctypes.create_string_buffer(256)
        self._left, self._bottom = ctypes.c_float(), ctypes.c_float()
        self._right, self._top = ctypes.c_float(), ctypes.c_float()
        self._size = ctypes.c_float()
        self._matrix = pdfium_c.FS_MATRIX()
        self._fonts: dict[int | None, tuple[bool, bool, str]] = {}
        self._object_texts: dict[int, str] | None = None
        self._ranges: dict[int, tuple[int, int]] = {}
        self._glyphs: GlyphAdvances | None = None
        self._page_text = ""
        self._unmapped: list[Run] = []

    def read(self, page: Any, textpage: Any, number: int) -> PageText:
        width, height = page.get_size()
        result = PageText(number=number, width=float(width), height=float(height))
        self._fonts.clear()  # font handles are only stable while their page is loaded
        self._ranges = {}
        text = page_text(textpage.raw)
        if text:
            text = compose_accents(textpage.raw, text)
        self._object_texts = object_texts(textpage.raw, self._ranges, text=text)
        self._page_text = text or ""
        self._glyphs = GlyphAdvances(textpage.raw, text) if text else None
        self._unmapped = []
        self._walk(page.raw, textpage.raw, result, IDENTITY, is_form=False)
        if self._unmapped:
            result.runs.extend(unmapped_bullets(result.runs, self._unmapped))
        return result

    def _walk(self, container: Any, textpage: Any, out: PageText, outer: Matrix, *, is_form: bool) -> None:
        count = pdfium_c.FPDFFormObj_CountObjects if is_form else pdfium_c.FPDFPage_CountObjects
        get = pdfium_c.FPDFFormObj_GetObject if is_form else pdfium_c.FPDFPage_GetObject
        for index in range(count(container)):
            obj = get(container, index)
            kind = pdfium_c.FPDFPageObj_GetType(obj)
            if kind == pdfium_c.FPDF_PAGEOBJ_TEXT:
                run = self._text_run(obj, textpage, out.height, outer)
                if run is not None:
                    out.runs.append(run)
            elif kind == pdfium_c.FPDF_PAGEOBJ_FORM:
                x0, y0, x1, y1 = self._bounds(obj, outer)
                if is_mark(x1 - x0, y1 - y0):  # a bullet drawn once and placed per item (beamer's balls)
                    out.marks.append((x0, out.height - y1, x1, out.height - y0))
                pdfium_c.FPDFPageObj_GetMatrix(obj, self._matrix)
                m = self._matrix
                self._walk(obj, textpage, out, _multiply((m.a, m.b, m.c, m.d, m.e, m.f), outer), is_form=True)
            elif kind == pdfium_c.FPDF_PAGEOBJ_IMAGE:
                x0, y0, x1, y1 = self._bounds(obj, outer)
                out.image_area += max(0.0, x1 - x0) * max(0.0, y1 - y0)
            elif kind == pdfium_c.FPDF_PAGEOBJ_PATH:
                self._path(obj, outer, out)

    def _path(self, obj: Any, outer: Matrix, out: PageText) -> None:
        """Sorts a path by its shape: a bullet, a rule, a drawing (and whether it can show data), a filled box."""
        out.has_vector_paths = True
        x0, y0, x1, y1 = self._bounds(obj, outer)
        box = (x0, out.height - y1, x1, out.height - y0)
        mark = is_mark(x1 - x0, y1 - y0) and self._bullet_shape(obj)
        if mark:
            out.marks.append(box)
        if min(x1 - x0, y1 - y0) <= 2.0 and max(x1 - x0, y1 - y0) >= 4.0:
            out.rules.append(box)
        elif max(x1 - x0, y1 - y0) >= 4.0:
            self._stroked_rules(obj, outer, out)
            if pdfium_c.FPDFPath_CountSegments(obj) > DRAWING_SEGMENTS:
                out.drawings.append(box)
                if self._filled(obj) or self._slanted(obj):
                    out.plots.append(box)
            elif not mark and self._filled(obj):
                out.filled.append(box)
                if self._slanted(obj):
                    out.plots.append(box)  # a small wedge of a pie, a triangle

    def _slanted(self, obj: Any) -> bool:
        """Whether a path has a curve or a slanted straight segment: a plotted line, not a grid of rules."""
        x, y = ctypes.c_float(), ctypes.c_float()
        previous: tuple[float, float] | None = None
        for index in range(min(pdfium_c.FPDFPath_CountSegments(obj), MAX_PATH_SEGMENTS)):
            segment = pdfium_c.FPDFPath_GetPathSegment(obj, index)
            kind = pdfium_c.FPDFPathSegment_GetType(segment)
            if kind == pdfium_c.FPDF_SEGMENT_BEZIERTO:
                return True
            pdfium_c.FPDFPathSegment_GetPoint(segment, x, y)
            point = (x.value, y.value)
            if (
                kind == pdfium_c.FPDF_SEGMENT_LINETO
                and previous is not None
                and abs(point[0] - previous[0]) > 1.0
                and abs(point[1] - previous[1]) > 1.0
            ):
                return True
            previous = point
        return False

    def _filled(self, obj: Any) -> bool:
        fill, stroke = ctypes.c_int(), ctypes.c_int()
        return bool(pdfium_c.FPDFPath_GetDrawMode(obj, fill, stroke)) and fill.value != 0

    def _bullet_shape(self, obj: Any) -> bool:
        """A filled shape (a disc, a square), or a circle's outline (a browser's bullet of a nested list): a small
        stroked path drawn with curves. A stroked square is a checkbox, not a bullet."""
        fill, stroke = ctypes.c_int(), ctypes.c_int()
        if not pdfium_c.FPDFPath_GetDrawMode(obj, fill, stroke):
            return False
        if fill.value != 0:
            return True
        if not stroke.value:
            return False
        segments = min(pdfium_c.FPDFPath_CountSegments(obj), MAX_PATH_SEGMENTS)
        curve = pdfium_c.FPDF_SEGMENT_BEZIERTO
        return any(
            pdfium_c.FPDFPathSegment_GetType(pdfium_c.FPDFPath_GetPathSegment(obj, index)) == curve
            for index in range(segments)
        )

    def _stroked_rules(self, obj: Any, outer: Matrix, out: PageText) -> None:
        """Axis-aligned straight segments of a stroked path (grids and boxes drawn as one path)."""
        fill, stroke = ctypes.c_int(), ctypes.c_int()
        n_segments = pdfium_c.FPDFPath_CountSegments(obj)
        if not 2 <= n_segments <= MAX_PATH_SEGMENTS or not pdfium_c.FPDFPath_GetDrawMode(obj, fill, stroke):
            return
        if not stroke.value:
            return
        pdfium_c.FPDFPageObj_GetMatrix(obj, self._matrix)
        m = self._matrix
        matrix = _multiply((m.a, m.b, m.c, m.d, m.e, m.f), outer)
        x, y = ctypes.c_float(), ctypes.c_float()
        points: list[tuple[float, float, int]] = []
        for index in range(n_segments):
            segment = pdfium_c.FPDFPath_GetPathSegment(obj, index)
            pdfium_c.FPDFPathSegment_GetPoint(segment, x, y)
            a, b, c, d, e, f = matrix
            points.append(
                (
                    a * x.value + c * y.value + e,
                    b * x.value + d * y.value + f,
                    pdfium_c.FPDFPathSegment_GetType(segment),
                )
            )
        for (ax, ay, _), (bx, by, kind) in itertools.pairwise(points):
            if kind != pdfium_c.FPDF_SEGMENT_LINETO:
                continue
            if (abs(ay - by) <= 1.0 and abs(ax - bx) >= 4.0) or (abs(ax - bx) <= 1.0 and abs(ay - by) >= 4.0):
                out.rules.append((min(ax, bx), out.height - max(ay, by), max(ax, bx), out.height - min(ay, by)))

    def _bounds(self, obj: Any, outer: Matrix) -> tuple[float, float, float, float]:
        pdfium_c.FPDFPageObj_GetBounds(obj, self._left, self._bottom, self._right, self._top)
        x0, y0, x1, y1 = self._left.value, self._bottom.value, self._right.value, self._top.value
        if outer is IDENTITY:
            return x0, y0, x1, y1
        a, b, c, d, e, f = outer
        xs = [a * x + c * y + e for x, y in ((x0, y0), (x0, y1), (x1, y0), (x1, y1))]
        ys = [b * x + d * y + f for x, y in ((x0, y0), (x0, y1), (x1, y0), (x1, y1))]
        return min(xs), min(ys), max(xs), max(ys)

    def _text_run(self, obj: Any, textpage: Any, page_height: float, outer: Matrix) -> Run | None:
        chars = (0, 0)
        if self._object_texts is None:
            raw_text = self._object_text(obj, textpage)
        else:
            address = ctypes.addressof(obj.contents)
            raw_text = self._object_texts.get(address, "")
            chars = self._ranges.get(address, chars)
        text = raw_text.translate(_CLEAN)
        unmapped = False
        if not text.strip():
            if raw_text.strip(" ") not in _UNMAPPED_GLYPH:
                return None
            unmapped = True
        pdfium_c.FPDFPageObj_GetMatrix(obj, self._matrix)
        m = self._matrix
        if outer is IDENTITY:
            a, b, c, d, f = m.a, m.b, m.c, m.d, m.f
        else:
            a, b, c, d, _, f = _multiply((m.a, m.b, m.c, m.d, m.e, m.f), outer)
        if a and b and is_skewed(a, b):  # a baseline along an axis (b or a 0) never is
            return None
        x0, y0, x1, y1 = self._bounds(obj, outer)
        pdfium_c.FPDFTextObj_GetFontSize(obj, self._size)
        scale = math.sqrt(abs(a * d - b * c))
        size = self._size.value * scale if self._size.value > 0 else y1 - y0
        vertical = abs(b) > abs(a)
        if not vertical and y1 - y0 < FLAT_BOX_EM * size:
            # A font without glyph boxes (some CID fonts of dvipdfm) gives a flat box on the baseline.
            y0, y1 = y0 - DESCENT_EM * size, y0 + ASCENT_EM * size
        advance, written_space = None, False
        if self._glyphs is not None and chars[1] > chars[0] and not vertical and a > 0:
            advance, gaps = self._glyphs.read(*chars, size)
            if gaps:
                text = self._spaced(raw_text, chars[0], gaps).translate(_CLEAN)
            written_space = self._page_text[chars[1] - 1].isspace()
        bold, italic, font = self._font_style(obj)
        if advance is not None and self._glyphs is not None and " " in text.strip() and monospaced(font):
            text = _with_columns(text, self._glyphs.columns(*chars))
        x0 = _first_glyph(x0, advance, size, text)
        top, bottom = page_height - y1, page_height - y0
        size = round(size, 1)
        run = Run(
            text,
            x0,
            top,
            x1,
            bottom,
            size,
            bold,
            vertical,
            italic,
            font,
            chars,
            advance,
            written_space,
            page_height - f,
        )

        if unmapped:  # a bullet or nothing, once the page's lines are known (`unmapped_bullets`)
            self._unmapped.append(run)
            return None
        return run

    def _spaced(self, raw_text: str, start: int, gaps: list[int]) -> str:
        """The object's text with a space after each of the given characters (page indices), when the text is the
        page's characters from `start` on (an object whose characters are not contiguous is left as it is)."""
        own = self._page_text[start : gaps[-1] + 2]
        if not raw_text.startswith(own):
            return raw_text
        cuts = [0, *(index - start + 1 for index in gaps), len(raw_text)]
        return " ".join(raw_text[begin:end] for begin, end in itertools.pairwise(cuts))

    def _object_text(self, obj: Any, textpage: Any) -> str:
        n_bytes = pdfium_c.FPDFTextObj_GetText(obj, textpage, self._text, len(self._text) * 2)
        if n_bytes <= 2:
            return ""
        if n_bytes > len(self._text) * 2:
            self._text = (ctypes.c_ushort * (n_bytes // 2 + 1))()
            n_bytes = pdfium_c.FPDFTextObj_GetText(obj, textpage, self._text, len(self._text) * 2)
        return ctypes.string_at(self._text, n_bytes - 2).decode("utf-16-le", "replace")

    def _font_style(self, obj: Any) -> tuple[bool, bool, str]:
        """(bold, italic, base font name) of a text object's font, cached per font handle."""
        font = pdfium_c.FPDFTextObj_GetFont(obj)
        key = ctypes.addressof(font.contents) if font else None
        cached = self._fonts.get(key)
        if cached is None:
            cached = (False, False, "")
            if key is not None:
                weight = pdfium_c.FPDFFont_GetWeight(font)
                length = pdfium_c.FPDFFont_GetBaseFontName(font, self._name, len(self._name))
                name = self._name.raw[: max(0, length - 1)].decode("latin-1")
                name = name.split("+", 1)[1] if name[6:7] == "+" else name
                lowered = name.lower()
                bold = any(marker in lowered for marker in _BOLD_NAMES) or (weight >= 600 and not _light_style(lowered))
                flags = pdfium_c.FPDFFont_GetFlags(font)
                italic = bool(flags & _ITALIC_FLAG) or any(marker in lowered for marker in _ITALIC_NAMES)
                cached = (bold, italic, name)
            self._fonts[key] = cached
        return cached


def _first_glyph(x0: float, advance: tuple[float, float] | None, size: float, text: str) -> float:
    """Where a figure's run starts: at its first glyph's origin when its box starts WIDE_LEAD_EM or more before it
    (leading spaces as wide as a cell, as Calc pads a right-aligned figure, have no ink). Only figures: a listing set
    in a proportional font indents its lines with such spaces. (The box is measured first: the text of every run
    passes here, few boxes reach so far.)"""
    if advance is not None and advance[0] - x0 > WIDE_LEAD_EM * size and FIGURE.fullmatch(text.strip()):
        return advance[0]
    return x0


def _light_style(name: str) -> bool:
    """Whether a font's (lower-case) name states a style that is not bold (`dejavusans-oblique`, `arial-italicmt`)."""
    family, _, style = name.replace(",", "-").rpartition("-")
    return bool(family) and _LIGHT_STYLE.fullmatch(style.removesuffix("mt").removesuffix("ps")) is not None


def _with_columns(text: str, columns: str) -> str:
    """A monospaced object's text with its spaces widened to its columns (`GlyphAdvances.columns`), when both hold
    the same words (else as it is); a space PDFium put after the object stays."""
    columns = columns.translate(_CLEAN).rstrip()
    if columns.split() != text.split():
        return text
    return columns + text[len(text.rstrip()) :]


def clean_text(text: str) -> str:
    """The text without control characters, layout whitespace as spaces and PDFium's hyphen markers as hyphens."""
    return text.translate(_CLEAN)


def unmapped_bullets(runs: list[Run], unmapped: list[Run]) -> list[Run]:
    """Bullets for the text objects that draw one glyph without a character (a bitmap bullet of a Type 3 font, which
    PDFium reads as a control character): one alone just before a line's text, with nothing before it on the line,
    is the line's bullet; any other is dropped, as a control character is no text."""
    bullets: list[Run] = []
    for glyph in unmapped:
        width, height = glyph.x1 - glyph.x0, glyph.bottom - glyph.top
        if glyph.vertical or not 0.7 <= width / max(height, 0.1) <= 1.4:
            continue
        mates = [
            run
            for run in runs
            if not run.vertical
            and min(run.bottom, glyph.bottom) - max(run.top, glyph.top) >= 0.5 * height
            and BULLET_SIZE_EM[0] <= height / run.size <= BULLET_SIZE_EM[1]
        ]
        follows = any(BULLET_GAP_EM[0] <= (run.x0 - glyph.x1) / run.size <= BULLET_GAP_EM[1] for run in mates)
        preceded = any(run.x1 <= glyph.x0 + 1.0 and glyph.x0 - run.x1 <= BULLET_CLEAR_EM * run.size for run in mates)
        if follows and not preceded:
            bullets.append(Run(BULLET, glyph.x0, glyph.top, glyph.x1, glyph.bottom, glyph.size, glyph.bold))
    return bullets


def is_skewed(a: float, b: float) -> bool:
    """Whether a text matrix whose baseline runs along (a, b) sets its text askew: neither along a line of the page
    nor across it (vertical text, a margin stamp turned by 90°)."""
    angle = math.degrees(math.atan2(abs(b), abs(a)))
    return SKEWED_DEGREES < angle < 90.0 - SKEWED_DEGREES


def split_run(textpage: Any, page_height: float, run: Run, cuts: list[float]) -> list[Run] | None:
    """The run cut at the given x positions into one run per side, from its characters' boxes; None when a cut
    falls inside a word. Without the run's character range, the page's characters inside its box are taken."""
    if run.vertical:
        return None
    start, end = run.chars
    known = end > start
    if not known:
        start, end = 0, max(0, pdfium_c.FPDFText_CountChars(textpage))
    left, right, bottom, top = ctypes.c_double(), ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
    pieces: dict[int, list[tuple[float, float, str]]] = {}
    previous_side, previous_char, previous_right = -1, " ", 0.0
    codes = "".join(chr(pdfium_c.FPDFText_GetUnicode(textpage, index)) for index in range(start, end))
    for index, code in enumerate(compose_accents(textpage, codes, start), start):
        char = code.translate(_CLEAN)
        if not char or not pdfium_c.FPDFText_GetCharBox(textpage, index, left, right, bottom, top):
            continue
        x = (left.value + right.value) / 2
        if not known:
            y = page_height - (top.value + bottom.value) / 2
            if not (run.x0 <= x <= run.x1 and run.top <= y <= run.bottom):
                continue
        side = bisect.bisect(cuts, x)
        joined = not char.isspace() and not previous_char.isspace() and left.value - previous_right < 0.25 * run.size
        if side != previous_side and previous_side >= 0 and joined:
            return None  # the cut runs through a word
        pieces.setdefault(side, []).append((left.value, right.value, char))
        previous_side, previous_char, previous_right = side, char, right.value
    result: list[Run] = []
    for _, chars in sorted(pieces.items()):
        text = "".join(char for _, _, char in chars)
        boxes = [(x0, x1) for x0, x1, char in chars if not char.isspace()]
        if not text.strip() or not boxes:
            continue
        x0, x1 = min(box[0] for box in boxes), max(box[1] for box in boxes)
        piece = Run(text, x0, run.top, x1, run.bottom, run.size, run.bold, False, run.italic, run.font)
        piece.baseline = run.baseline
        result.append(piece)
    return result or None
