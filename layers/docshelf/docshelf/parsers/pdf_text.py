"""Text runs and page geometry from PDFium page objects (one run per text object, not per glyph).

The unit here is the text object: its text, bounds, effective font size and boldness. Coordinates are
converted to a top-down system (`top` grows downwards) in the page's unrotated space. Object texts come
from `pdf_chars.object_texts` (one page-wide text call); `FPDFTextObj_GetText` rescans every character
of the page per object and is only the fallback for pages whose text index does not map 1:1.
"""

from __future__ import annotations

import ctypes
import itertools
import math
from dataclasses import dataclass, field
from typing import Any

import pypdfium2.raw as pdfium_c

from docshelf.parsers.pdf_chars import object_texts

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)

# Control characters become nothing, layout whitespace becomes a space, PDFium's hyphen markers a hyphen.
_CLEAN = {code: None for code in range(32)} | {9: " ", 10: " ", 13: " ", 2: "-", 0xAD: "-", 0xFFFE: None, 0xFEFF: None}
_BOLD_NAMES = ("bold", "black", "heavy", "semibold", "demi")
_TEXT_BUFFER_UNITS = 4096
MAX_PATH_SEGMENTS = 256


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


@dataclass(slots=True)
class PageText:
    number: int
    width: float
    height: float
    runs: list[Run] = field(default_factory=list)
    image_area: float = 0.0
    rules: list[tuple[float, float, float, float]] = field(default_factory=list)
    has_vector_paths: bool = False

    @property
    def image_coverage(self) -> float:
        return self.image_area / (self.width * self.height) if self.width > 0 and self.height > 0 else 0.0


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
    """Reads one page's objects; holds reusable ctypes buffers and a font-boldness cache per document."""

    def __init__(self) -> None:
        self._text = (ctypes.c_ushort * _TEXT_BUFFER_UNITS)()
        self._name = ctypes.create_string_buffer(256)
        self._left, self._bottom = ctypes.c_float(), ctypes.c_float()
        self._right, self._top = ctypes.c_float(), ctypes.c_float()
        self._size = ctypes.c_float()
        self._matrix = pdfium_c.FS_MATRIX()
        self._bold_fonts: dict[int | None, bool] = {}
        self._object_texts: dict[int, str] | None = None

    def read(self, page: Any, textpage: Any, number: int) -> PageText:
        width, height = page.get_size()
        result = PageText(number=number, width=float(width), height=float(height))
        self._bold_fonts.clear()  # font handles are only stable while their page is loaded
        self._object_texts = object_texts(textpage.raw)
        self._walk(page.raw, textpage.raw, result, IDENTITY, is_form=False)
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
                pdfium_c.FPDFPageObj_GetMatrix(obj, self._matrix)
                m = self._matrix
                self._walk(obj, textpage, out, _multiply((m.a, m.b, m.c, m.d, m.e, m.f), outer), is_form=True)
            elif kind == pdfium_c.FPDF_PAGEOBJ_IMAGE:
                x0, y0, x1, y1 = self._bounds(obj, outer)
                out.image_area += max(0.0, x1 - x0) * max(0.0, y1 - y0)
            elif kind == pdfium_c.FPDF_PAGEOBJ_PATH:
                out.has_vector_paths = True
                x0, y0, x1, y1 = self._bounds(obj, outer)
                if min(x1 - x0, y1 - y0) <= 2.0 and max(x1 - x0, y1 - y0) >= 4.0:
                    out.rules.append((x0, out.height - y1, x1, out.height - y0))
                elif max(x1 - x0, y1 - y0) >= 4.0:
                    self._stroked_rules(obj, outer, out)

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
        if self._object_texts is None:
            raw_text = self._object_text(obj, textpage)
        else:
            raw_text = self._object_texts.get(ctypes.addressof(obj.contents), "")
        text = raw_text.translate(_CLEAN)
        if not text.strip():
            return None
        x0, y0, x1, y1 = self._bounds(obj, outer)
        pdfium_c.FPDFTextObj_GetFontSize(obj, self._size)
        pdfium_c.FPDFPageObj_GetMatrix(obj, self._matrix)
        m = self._matrix
        scale = math.sqrt(abs(m.a * m.d - m.b * m.c))
        if outer is not IDENTITY:
            scale *= math.sqrt(abs(outer[0] * outer[3] - outer[1] * outer[2]))
        size = self._size.value * scale if self._size.value > 0 else y1 - y0
        vertical = abs(m.b) > abs(m.a)
        return Run(text, x0, page_height - y1, x1, page_height - y0, round(size, 1), self._is_bold(obj), vertical)

    def _object_text(self, obj: Any, textpage: Any) -> str:
        n_bytes = pdfium_c.FPDFTextObj_GetText(obj, textpage, self._text, len(self._text) * 2)
        if n_bytes <= 2:
            return ""
        if n_bytes > len(self._text) * 2:
            self._text = (ctypes.c_ushort * (n_bytes // 2 + 1))()
            n_bytes = pdfium_c.FPDFTextObj_GetText(obj, textpage, self._text, len(self._text) * 2)
        return ctypes.string_at(self._text, n_bytes - 2).decode("utf-16-le", "replace")

    def _is_bold(self, obj: Any) -> bool:
        font = pdfium_c.FPDFTextObj_GetFont(obj)
        key = ctypes.addressof(font.contents) if font else None
        cached = self._bold_fonts.get(key)
        if cached is None:
            cached = False
            if key is not None:
                weight = pdfium_c.FPDFFont_GetWeight(font)
                length = pdfium_c.FPDFFont_GetBaseFontName(font, self._name, len(self._name))
                name = self._name.raw[: max(0, length - 1)].decode("latin-1").lower()
                cached = weight >= 600 or any(marker in name for marker in _BOLD_NAMES)
            self._bold_fonts[key] = cached
        return cached
