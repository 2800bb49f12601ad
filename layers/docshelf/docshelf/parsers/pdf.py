"""PDF parser: PDFium text objects -> lines -> columns -> paragraphs, headings and tables (ruled grids and
tables bounded by horizontal rules only).

Pages are loaded and closed one at a time; only the extracted lines stay in memory. Running headers,
footers and page numbers are removed once all pages are read, because they are found by repetition.
Reading pages and laying each one out (reading order, paragraphs) are per-page work: for long PDFs on
idle CPUs, forked workers share it (pdf_workers), with the same result as reading serially. Pages that are
images (scans) are rendered and OCR'd instead (pdf_ocr).
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from docshelf.errors import (
    OCR_SKIPPED_WARNING,
    CorruptDocumentError,
    DocumentTooLargeError,
    EncryptedDocumentError,
    NeedsOcrError,
)
from docshelf.model import Block
from docshelf.ocr.engine import OcrUnavailableError
from docshelf.ocr.settings import ocr_settings
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.pdf_furniture import remove_furniture
from docshelf.parsers.pdf_headings import OutlineEntry, classify
from docshelf.parsers.pdf_layout import GUTTER_MIN_EM, reading_order
from docshelf.parsers.pdf_lines import Line, build_lines
from docshelf.parsers.pdf_ocr import ocr_pages, wants_ocr
from docshelf.parsers.pdf_paragraphs import TextBlock, paragraphs
from docshelf.parsers.pdf_rule_tables import find_rule_tables
from docshelf.parsers.pdf_tables import PlacedTable, find_tables
from docshelf.parsers.pdf_text import PageReader, PageText, Run, split_run
from docshelf.parsers.pdf_workers import map_page_ranges, worker_count

if TYPE_CHECKING:
    from docshelf.ocr.model import OcrBlock

# Without OCR: below this many characters per page on average, a PDF whose pages are mostly images is a scan.
SCANNED_CHARS_PER_PAGE = 20


@dataclass(slots=True)
class PageLayout:
    number: int
    width: float
    height: float
    lines: list[Line]
    tables: list[PlacedTable] = field(default_factory=list)
    image_coverage: float = 0.0
    has_graphics: bool = False


def parse(data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent:
    document = _open(data, filename)
    warnings: list[str] = []
    try:
        page_count = len(document)
        if page_count > limits.max_pages:
            raise DocumentTooLargeError(f"{page_count} pages is over the limit of {limits.max_pages}")
        pages = _read_pages(document, page_count, warnings)
        ocr_blocks, ocr_off = _ocr(document, pages, warnings)
        outline = _outline(document, page_count)
        labels = _page_labels(document, page_count)
        title = _metadata_title(document)
    finally:
        document.close()
    if ocr_off is not None:
        _require_text_layer(pages, filename, warnings, ocr_off)
    kept = [page.lines for page in pages]
    remove_furniture(kept, [page.height for page in pages])
    for page, lines in zip(pages, kept, strict=True):
        page.lines = lines
    blocks = _blocks(pages, outline)
    if ocr_blocks:  # in page order; an OCR'd page has no text-layer blocks left
        blocks = sorted(blocks + [block for page in ocr_blocks.values() for block in page], key=lambda b: b.page)
    return ParsedContent(
        blocks=blocks,
        page_count=page_count,
        title=title,
        page_labels=labels,
        warnings=warnings,
        truncation=_lost_pages(warnings),
    )


def _open(data: bytes, filename: str) -> pdfium.PdfDocument:
    try:
        return pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        if getattr(exc, "err_code", None) == pdfium_c.FPDF_ERR_PASSWORD:
            raise EncryptedDocumentError(
                f"{filename!r} is password-protected (the empty password does not open it)"
            ) from exc
        raise CorruptDocumentError(f"{filename!r} is not a readable PDF: {exc}") from exc


def _read_pages(document: pdfium.PdfDocument, page_count: int, warnings: list[str]) -> list[PageLayout]:
    def read(start: int, end: int) -> list[PageLayout | str]:
        reader = PageReader()
        return [_page_layout(document, index, reader) for index in range(start, end)]

    pages: list[PageLayout] = []
    for index, page in enumerate(map_page_ranges(read, page_count, worker_count(page_count))):
        if isinstance(page, str):
            warnings.append(f"page {index + 1} could not be read: {page}")
        else:
            pages.append(page)
    return pages


def _lost_pages(warnings: list[str]) -> str:
    """What the document says it lost (`ParsedContent.truncation`): pages PDFium could not read and pages that are
    images without a text layer, whose text is not indexed."""
    lost = [w for w in warnings if w.startswith(("page ", OCR_SKIPPED_WARNING)) and "OCR confidence" not in w]
    return "; ".join(lost[:3]) + (f"; and {len(lost) - 3} more" if len(lost) > 3 else "")


def _page_layout(document: pdfium.PdfDocument, index: int, reader: PageReader) -> PageLayout | str:
    """The page's lines and tables, or why PDFium could not read it."""
    try:
        text, tables, loose_runs = _read_page(document, index, reader)
    except pdfium.PdfiumError as exc:
        return str(exc)
    return PageLayout(
        number=text.number,
        width=text.width,
        height=text.height,
        lines=build_lines(loose_runs),
        tables=tables,
        image_coverage=text.image_coverage,
        has_graphics=text.image_area > 0 or text.has_vector_paths,
    )


def _read_page(
    document: pdfium.PdfDocument, index: int, reader: PageReader
) -> tuple[PageText, list[PlacedTable], list[Run]]:
    """The page's text and its tables (found while the text page is open: cells may need character boxes)."""
    page = document[index]
    try:
        textpage = page.get_textpage()
        try:
            text = reader.read(page, textpage, index + 1)
            tables, loose_runs = find_tables(
                text.rules, text.runs, text.number, lambda run, cuts: split_run(textpage.raw, text.height, run, cuts)
            )
            rule_tables, loose_runs = find_rule_tables(text.rules, loose_runs, text.number, tables)
            return text, tables + rule_tables, loose_runs
        finally:
            textpage.close()
    finally:
        page.close()


def _ocr(
    document: pdfium.PdfDocument, pages: list[PageLayout], warnings: list[str]
) -> tuple[dict[int, list[OcrBlock]], str | None]:
    """The OCR'd blocks of the pages that need OCR (their text layer dropped), or why OCR could not run."""
    wanted = [page for page in pages if wants_ocr(page)]
    if not wanted:
        return {}, None
    try:
        blocks = ocr_pages(document, [page.number for page in wanted], ocr_settings(), warnings)
    except OcrUnavailableError as exc:
        return {}, str(exc)
    for page in wanted:
        page.lines, page.tables = [], []
    return blocks, None


def _require_text_layer(pages: list[PageLayout], filename: str, warnings: list[str], ocr_off: str) -> None:
    """Scans without a text layer (when OCR cannot run) must be reported as needing OCR, never returned as an empty
    success; `ocr_off` says why OCR did not read them."""
    chars = sum(len(line.text) for page in pages for line in page.lines)
    chars += sum(len(cell.text) for page in pages for placed in page.tables for cell in placed.table.cells)
    scanned = [page.number for page in pages if wants_ocr(page)]
    if chars == 0 and any(page.has_graphics for page in pages):
        raise NeedsOcrError(
            f"{filename!r} has no text layer ({len(scanned)} of {len(pages)} pages are images): {ocr_off}"
        )
    if pages and chars < SCANNED_CHARS_PER_PAGE * len(pages) and len(scanned) * 2 > len(pages):
        raise NeedsOcrError(
            f"{filename!r} is a scan: {len(scanned)} of {len(pages)} pages are images without text: {ocr_off}"
        )
    if scanned:
        shown = ", ".join(str(number) for number in scanned[:20])
        warnings.append(f"{OCR_SKIPPED_WARNING}: {shown}{' …' if len(scanned) > 20 else ''} ({ocr_off})")


def _blocks(pages: list[PageLayout], outline: list[OutlineEntry]) -> list[Block]:
    def layout(start: int, end: int) -> list[list[TextBlock | PlacedTable]]:
        return [_page_candidates(pages[index]) for index in range(start, end)]

    per_page = map_page_ranges(layout, len(pages), worker_count(len(pages)))
    candidates = [candidate for page in per_page for candidate in page]
    text_blocks = [item for item in candidates if isinstance(item, TextBlock)]
    classified = iter(classify(text_blocks, outline))
    result: list[Block] = []
    for candidate in candidates:
        result.append(candidate.table if isinstance(candidate, PlacedTable) else next(classified))
    return result


def _page_candidates(page: PageLayout) -> list[TextBlock | PlacedTable]:
    """The page's paragraphs and tables in reading order."""
    candidates: list[TextBlock | PlacedTable] = []
    sizes = [line.size for line in page.lines]
    gutter = GUTTER_MIN_EM * (statistics.median(sizes) if sizes else 10.0)
    rtl = sum(1 for line in page.lines if line.rtl) * 2 > len(page.lines)
    items: list[Line | PlacedTable] = [*(line for line in page.lines if not line.vertical), *page.tables]
    regions = reading_order(items, gutter, rtl=rtl)
    rotated: list[Line | PlacedTable] = [line for line in page.lines if line.vertical]
    if rotated:
        regions.append(rotated)  # margin stamps and side labels are read last
    for region in regions:
        run: list[Line] = []
        for item in region:
            if isinstance(item, Line):
                run.append(item)
                continue
            candidates.extend(paragraphs(run, page.number))
            run = []
            candidates.append(item)
        candidates.extend(paragraphs(run, page.number))
    return candidates


def _outline(document: pdfium.PdfDocument, page_count: int) -> list[OutlineEntry]:
    entries: list[OutlineEntry] = []
    try:
        for item in document.get_toc(max_depth=8):
            title = " ".join((item.get_title() or "").split())
            page_index = _bookmark_page(document, item.raw)
            if title and 0 <= page_index < page_count:
                entries.append(OutlineEntry(title=title, level=min(6, item.level + 1), page=page_index + 1))
    except (pdfium.PdfiumError, ValueError, AttributeError, OSError):
        return entries
    return entries


def _bookmark_page(document: pdfium.PdfDocument, bookmark: Any) -> int:
    """The 0-based target page of a bookmark, whether it holds a destination or a GoTo action (-1 if neither)."""
    dest = pdfium_c.FPDFBookmark_GetDest(document.raw, bookmark)
    if not dest:
        action = pdfium_c.FPDFBookmark_GetAction(bookmark)
        if not action or pdfium_c.FPDFAction_GetType(action) != pdfium_c.PDFACTION_GOTO:
            return -1
        dest = pdfium_c.FPDFAction_GetDest(document.raw, action)
        if not dest:
            return -1
    return int(pdfium_c.FPDFDest_GetDestPageIndex(document.raw, dest))


def _page_labels(document: pdfium.PdfDocument, page_count: int) -> dict[int, str]:
    labels: dict[int, str] = {}
    for index in range(page_count):
        try:
            label = document.get_page_label(index)
        except pdfium.PdfiumError:
            return labels
        if not label:
            return labels  # no label tree: PDFium answers empty for every page
        if label != str(index + 1):
            labels[index + 1] = label
    return labels


def _metadata_title(document: pdfium.PdfDocument) -> str:
    try:
        title = " ".join((document.get_metadata_value("Title") or "").split())
    except (pdfium.PdfiumError, KeyError, ValueError):
        return ""
    if sum(1 for char in title if char.isalpha()) < 3 or title.lower().endswith((".doc", ".docx", ".pdf", ".indd")):
        return ""
    return title
