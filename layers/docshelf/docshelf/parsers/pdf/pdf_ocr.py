"""Which PDF pages are read by OCR, and reading them: rendered with PDFium, recognised by the OCR engine.

A page is OCR'd when it has no text layer but has graphics (a scan, or text drawn as outlines), or when its text
layer covers little of the page while images cover much of it (a scan with a stamp or a page number in text).
Its rendering holds the text layer's characters too, so the OCR'd text replaces them. Pages with a real text
layer are never rendered: for a text PDF this module costs one sum over its lines per page.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

import pypdfium2 as pdfium

from docshelf.ocr import OcrEngine, OcrSettings, shared_engine
from docshelf.ocr.model import OcrBlock
from docshelf.parsers.pdf.pdf_workers import map_page_ranges, worker_count

if TYPE_CHECKING:
    from docshelf.parsers.pdf.pdf_lines import Line
    from docshelf.parsers.pdf.pdf_tables import PlacedTable

# 300 dpi: at 200 dpi Tesseract lost the line ends of 12 pt Chinese text (CER 9-12%) that it read whole at 300.
OCR_DPI = 300
# A page this large at OCR_DPI (an A2 sheet; A4 is 8.7 million pixels) is rendered at a lower resolution.
MAX_RENDER_PIXELS = 35_000_000
# Text lines covering less than this share of the page leave it to OCR when images cover IMAGE_COVERAGE of it.
TEXT_COVERAGE = 0.02
IMAGE_COVERAGE = 0.5

PageResult = tuple[list[OcrBlock], str | None] | str  # the blocks and a low-confidence warning, or why it failed


class PageCover(Protocol):
    """What `wants_ocr` reads of a page (`pdf.PageLayout`, which imports this module)."""

    @property
    def width(self) -> float: ...
    @property
    def height(self) -> float: ...
    @property
    def lines(self) -> Sequence[Line]: ...
    @property
    def tables(self) -> Sequence[PlacedTable]: ...
    @property
    def image_coverage(self) -> float: ...
    @property
    def has_graphics(self) -> bool: ...


def wants_ocr(page: PageCover) -> bool:
    has_text = bool(page.lines) or any(placed.table.cells for placed in page.tables)
    if not has_text:
        return page.has_graphics
    area = page.width * page.height
    covered = sum((line.x1 - line.x0) * (line.bottom - line.top) for line in page.lines)
    return page.image_coverage >= IMAGE_COVERAGE and area > 0 and covered / area < TEXT_COVERAGE


def ocr_pages(
    document: pdfium.PdfDocument, numbers: list[int], settings: OcrSettings, warnings: list[str]
) -> dict[int, list[OcrBlock]]:
    """The OCR'd paragraphs of each page in `numbers` (1-based), pages in parallel on spare CPUs.

    Raises OcrUnavailableError when OCR is off or cannot run here; a page that fails is a warning."""
    from docshelf.ocr.blocks import preload  # with numpy (ruled tables): imported only once a page needs OCR

    engine = shared_engine(settings)
    preload(engine, settings)  # before the fork: the workers share the loaded models

    def read(start: int, end: int) -> list[PageResult]:
        return [_ocr_page(document, numbers[index], engine, settings) for index in range(start, end)]

    results = map_page_ranges(read, len(numbers), worker_count(len(numbers), pages_per_worker=1), slice_pages=1)
    blocks: dict[int, list[OcrBlock]] = {}
    for number, result in zip(numbers, results, strict=True):
        if isinstance(result, str):
            warnings.append(f"page {number} could not be OCR'd: {result}")
            continue
        blocks[number], warning = result
        if warning:
            warnings.append(warning)
    return blocks


def _ocr_page(document: pdfium.PdfDocument, number: int, engine: OcrEngine, settings: OcrSettings) -> PageResult:
    from docshelf.ocr.blocks import recognise_page

    try:
        page = document[number - 1]
        try:
            width, height = page.get_size()
            scale = min(OCR_DPI / 72, math.sqrt(MAX_RENDER_PIXELS / max(1.0, width * height)))
            image = page.render(scale=scale, grayscale=True).to_pil()
        finally:
            page.close()
        return recognise_page(engine, image, settings, number, dpi=round(scale * 72))
    except (pdfium.PdfiumError, RuntimeError, ValueError) as exc:
        return f"{type(exc).__name__}: {exc}"[:300]
