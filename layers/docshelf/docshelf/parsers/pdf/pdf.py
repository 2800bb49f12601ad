"""PDF parser: PDFium text objects -> lines -> columns -> paragraphs, headings and tables (ruled grids and
tables bounded by horizontal rules only).

Pages are loaded and closed one at a time; only the extracted lines stay in memory. Running headers,
footers and page numbers are removed once all pages are read, because they are found by repetition.
Reading pages and laying each one out (reading order, paragraphs) are per-page work: for long PDFs on
idle CPUs, forked workers share it (pdf_workers), with the same result as reading serially. Pages that are
images (scans) are rendered and OCR'd instead (pdf_ocr) as they are read. The steps are apart (`read_head`,
`read_pages` of a page range, `merge_pages` for the whole-document steps) so that a long PDF can be read in the page
ranges of its shard plan (pdf_shards), on AWS one invocation a range (pdf_ranges).
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from docshelf import forked
from docshelf.assets.collect import AssetCollector
from docshelf.errors import (
    OCR_SKIPPED_WARNING,
    CorruptDocumentError,
    DocumentTooLargeError,
    EncryptedDocumentError,
    NeedsOcrError,
)
from docshelf.forked import forked_imap
from docshelf.model import Block
from docshelf.ocr.engine import OcrUnavailableError
from docshelf.ocr.settings import ocr_settings
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.captions import is_caption
from docshelf.parsers.pdf.pdf_aligned_tables import find_aligned_tables
from docshelf.parsers.pdf.pdf_captions import attach_captions
from docshelf.parsers.pdf.pdf_code import code_apart
from docshelf.parsers.pdf.pdf_figures import bar_charts, chart_titles, page_figures, without_figure_text
from docshelf.parsers.pdf.pdf_flow import (
    continues,
    merge_into,
    note_rule,
    resolve_hyphens,
    take_footnotes,
)
from docshelf.parsers.pdf.pdf_furniture import remove_furniture
from docshelf.parsers.pdf.pdf_gaps import cut_at_gaps
from docshelf.parsers.pdf.pdf_headings import OutlineEntry, classify, join_title_parts
from docshelf.parsers.pdf.pdf_images import ImageCache, PlacedImage, page_images
from docshelf.parsers.pdf.pdf_layout import GUTTER_MIN_EM, Gutter, reading_order
from docshelf.parsers.pdf.pdf_leader_tables import find_leader_tables
from docshelf.parsers.pdf.pdf_lines import Line, body_size, page_lines
from docshelf.parsers.pdf.pdf_marks import with_bullets
from docshelf.parsers.pdf.pdf_ocr import IMAGE_COVERAGE, ocr_pages, wants_ocr
from docshelf.parsers.pdf.pdf_paragraphs import TextBlock, paragraphs
from docshelf.parsers.pdf.pdf_rule_tables import find_rule_tables
from docshelf.parsers.pdf.pdf_shards import PageSpan, plan_document
from docshelf.parsers.pdf.pdf_tables import PlacedTable, find_tables
from docshelf.parsers.pdf.pdf_text import PageReader, PageText, Run, split_run
from docshelf.parsers.pdf.pdf_workers import MAX_WORKERS, map_page_ranges, worker_count

if TYPE_CHECKING:
    from docshelf.ocr.model import OcrBlock

# Without OCR: below this many characters per page on average, a PDF whose pages are mostly images is a scan.
SCANNED_CHARS_PER_PAGE = 20
FIGURE_GAP_EM = 3.0  # a gap in a column wider than this many ems holds something: a paragraph may go on below it


@dataclass(slots=True)
class PageLayout:
    number: int
    width: float
    height: float
    lines: list[Line]
    tables: list[PlacedTable] = field(default_factory=list)
    image_coverage: float = 0.0
    has_graphics: bool = False
    images: list[PlacedImage] = field(default_factory=list)
    ocr_blocks: list[OcrBlock] = field(default_factory=list)  # the page's text when OCR read it
    ocr_off: str = ""  # why OCR could not read a page that needs it
    notes: list[str] = field(default_factory=list)  # warnings of its reading for the document
    gutters: list[Gutter] = field(default_factory=list)  # the page's column gutters (pdf_layout.page_gutters)
    note_rule: float | None = None  # the top of the rule over the page's footnotes (pdf_flow.note_rule)


@dataclass(slots=True)
class DocumentHead:
    """What the whole-document steps take from the document itself, besides its pages."""

    page_count: int
    outline: list[OutlineEntry]
    page_labels: dict[int, str]
    title: str


def parse(data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent:
    document = open_document(data, filename)
    try:
        head = read_head(document, limits)
        pages = read_planned(document, _local_plan(document, head.page_count, limits))
    finally:
        document.close()
    return merge_pages(head, pages, filename)


def _local_plan(document: pdfium.PdfDocument, page_count: int, limits: ParseLimits) -> list[PageSpan]:
    """In one process, a document that would be one range if all its pages were text is read whole by the page
    workers: its plan could split it only for its scans, which the page workers spread as well, and surveying the
    pages to know costs a fifth of reading a text PDF (DA-619p.pdf: 0.31 of 1.57 CPU s). Longer documents are read
    in their plan's ranges. The Document is the same either way."""
    if page_count <= limits.text_pages_per_range:
        return [(0, page_count)]
    return plan_document(document, page_count, limits)


def read_head(document: pdfium.PdfDocument, limits: ParseLimits) -> DocumentHead:
    page_count = len(document)
    if page_count > limits.max_pages:
        raise DocumentTooLargeError(f"{page_count} pages is over the limit of {limits.max_pages}")
    outline = _outline(document, page_count)
    return DocumentHead(page_count, outline, _page_labels(document, page_count), _metadata_title(document))


def merge_pages(head: DocumentHead, pages: list[PageLayout | str], filename: str) -> ParsedContent:
    """The whole-document steps over every page read (in page order; a string is why a page could not be read):
    the scan check, furniture removal by repetition, reading order and headings against the outline."""
    warnings = [
        f"page {index + 1} could not be read: {page}" for index, page in enumerate(pages) if isinstance(page, str)
    ]
    read = [page for page in pages if not isinstance(page, str)]
    warnings += [note for page in read for note in page.notes]
    ocr_off = next((page.ocr_off for page in read if page.ocr_off), None)
    if ocr_off is not None:
        _require_text_layer(read, filename, warnings, ocr_off)
    kept = [page.lines for page in read]
    remove_furniture(kept, [page.height for page in read])
    for page, lines in zip(read, kept, strict=True):
        page.lines = lines
    collector = AssetCollector()
    blocks = _blocks(read, head.outline, collector)
    ocr_blocks: list[Block] = [block for page in read for block in page.ocr_blocks]
    if ocr_blocks:  # in page order; an OCR'd page has no text-layer blocks left
        blocks = sorted(blocks + ocr_blocks, key=lambda block: block.page)
    return ParsedContent(
        assets=collector.assets,
        blocks=blocks,
        page_count=head.page_count,
        title=head.title,
        page_labels=head.page_labels,
        warnings=warnings,
        truncation=_lost_pages(warnings),
    )


def open_document(data: bytes, filename: str) -> pdfium.PdfDocument:
    try:
        return pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        if getattr(exc, "err_code", None) == pdfium_c.FPDF_ERR_PASSWORD:
            raise EncryptedDocumentError(
                f"{filename!r} is password-protected (the empty password does not open it)"
            ) from exc
        raise CorruptDocumentError(f"{filename!r} is not a readable PDF: {exc}") from exc


def read_pages(document: pdfium.PdfDocument, start: int, end: int) -> list[PageLayout | str]:
    """Pages [start, end) laid out, in page order; a string says why PDFium could not read that page."""

    def read(first: int, last: int) -> list[PageLayout | str]:
        return _layouts(document, start + first, start + last)

    return with_ocr(document, map_page_ranges(read, end - start, worker_count(end - start)))


def read_planned(document: pdfium.PdfDocument, ranges: list[PageSpan]) -> list[PageLayout | str]:
    """Every page, in page order: one range shared by the page workers, or each range of a shard plan read by one
    forked worker (the same pages as on AWS, where each range is one invocation)."""
    if len(ranges) == 1:
        return read_pages(document, *ranges[0])
    workers = min(MAX_WORKERS, forked.spare_cpus())

    def read_range(span: PageSpan) -> list[PageLayout | str]:
        return with_ocr(document, _layouts(document, *span))

    by_range = dict(forked_imap(read_range, ranges, workers))
    return [page for number in range(len(ranges)) for page in by_range[number]]


def _layouts(document: pdfium.PdfDocument, start: int, end: int) -> list[PageLayout | str]:
    """Pages [start, end) laid out by one reader, in page order (no OCR yet)."""
    reader, images = PageReader(), ImageCache()
    return [_page_layout(document, index, reader, images) for index in range(start, end)]


def _lost_pages(warnings: list[str]) -> str:
    """What the document says it lost (`ParsedContent.truncation`): pages PDFium could not read and pages that are
    images without a text layer, whose text is not indexed."""
    lost = [w for w in warnings if w.startswith(("page ", OCR_SKIPPED_WARNING)) and "OCR confidence" not in w]
    return "; ".join(lost[:3]) + (f"; and {len(lost) - 3} more" if len(lost) > 3 else "")


def _page_layout(document: pdfium.PdfDocument, index: int, reader: PageReader, images: ImageCache) -> PageLayout | str:
    """The page's lines, tables and images, or why PDFium could not read it."""
    try:
        text, tables, lines, gutters, placed = _read_page(document, index, reader, images)
    except pdfium.PdfiumError as exc:
        return str(exc)
    return PageLayout(
        number=text.number,
        width=text.width,
        height=text.height,
        lines=attach_captions(lines, tables),
        tables=tables,
        image_coverage=text.image_coverage,
        has_graphics=text.image_area > 0 or text.has_vector_paths,
        images=placed,
        gutters=gutters,
        note_rule=note_rule(text.rules, lines, text.height, text.width),
    )


def _read_page(
    document: pdfium.PdfDocument, index: int, reader: PageReader, images: ImageCache
) -> tuple[PageText, list[PlacedTable], list[Line], list[Gutter], list[PlacedImage]]:
    """The page's text, its tables, the lines and gutters of the text outside them, and its images: all made while
    the text page is open (cells may need character boxes, runs their glyph advances)."""
    page = document[index]
    try:
        textpage = page.get_textpage()
        try:
            text = reader.read(page, textpage, index + 1)
            text.runs = with_bullets(text.runs, text.marks)
            tables, loose_runs = find_tables(
                text.rules, text.runs, text.number, lambda run, cuts: split_run(textpage.raw, text.height, run, cuts)
            )

            def cut(run: Run) -> list[Run]:
                return cut_at_gaps(textpage.raw, run)

            rule_tables, loose_runs = find_rule_tables(text.rules, loose_runs, text.number, tables, cut)
            charts = bar_charts(text.filled, text.rules, text.runs)
            figures = page_figures(text.drawings, text.plots, text.rules, charts, text.filled, text.runs)
            shapes = text.filled + text.drawings + text.rules + text.marks
            titles = chart_titles(loose_runs, figures, shapes)
            loose_runs = without_figure_text(loose_runs, figures, shapes)
            held = {id(run) for run in titles}  # a chart's title is no cell of a table beside it
            loose_runs = [run for run in loose_runs if id(run) not in held]
            leader_tables, loose_runs = find_leader_tables(loose_runs, text.number)
            aligned_tables, loose_runs, rows = find_aligned_tables(loose_runs, text.number, cut)
            if titles:
                loose_runs, rows = loose_runs + titles, None
            # The text walk saw every image object already: a page without one is not walked again.
            lines, gutters = page_lines(loose_runs, rows)
            placed = page_images(page, text.number, text.height, images) if text.image_area > 0 else []
            return text, tables + rule_tables + leader_tables + aligned_tables, lines, gutters, placed
        finally:
            textpage.close()
    finally:
        page.close()


def with_ocr(document: pdfium.PdfDocument, pages: list[PageLayout | str]) -> list[PageLayout | str]:
    """The pages, those that need OCR carrying its blocks instead of their text layer, or each why OCR could not
    run; OCR's warnings go with the first such page (`notes`). Done where the pages are read, with the document
    open, so that a page range read apart brings its OCR'd text to the merge."""
    wanted = [page for page in pages if not isinstance(page, str) and wants_ocr(page)]
    if not wanted:
        return pages
    notes: list[str] = []
    try:
        blocks = ocr_pages(document, [page.number for page in wanted], ocr_settings(), notes)
    except OcrUnavailableError as exc:
        for page in wanted:
            page.ocr_off = str(exc)
        return pages
    for page in wanted:
        page.lines, page.tables, page.ocr_blocks = [], [], blocks.get(page.number, [])
    wanted[0].notes.extend(notes)
    return pages


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


def _blocks(pages: list[PageLayout], outline: list[OutlineEntry], collector: AssetCollector) -> list[Block]:
    def layout(start: int, end: int) -> list[list[TextBlock | PlacedTable | PlacedImage]]:
        return [_page_candidates(pages[index]) for index in range(start, end)]

    per_page = map_page_ranges(layout, len(pages), worker_count(len(pages)))
    candidates = join_title_parts(_rejoined([candidate for page in per_page for candidate in page]))
    text_blocks = [item for item in candidates if isinstance(item, TextBlock)]
    resolve_hyphens(text_blocks)
    classified = iter(classify(text_blocks, outline))
    result: list[Block] = []
    for candidate in candidates:
        if isinstance(candidate, PlacedImage):
            image = collector.image(candidate.prepared, page=candidate.page)
            result.extend([image] if image is not None else [])
        else:
            result.append(candidate.table if isinstance(candidate, PlacedTable) else next(classified))
    return result


def _broken_off(piece: TextBlock, block: TextBlock) -> bool:
    """Whether `block` is set where a column or page end, or something taking room (a drawn figure, an equation),
    broke off the paragraph ending with `piece`: on another page, in another column (above its end), or more than
    FIGURE_GAP_EM below it. Right below it in the same lines, those lines already told two paragraphs apart."""
    gap = block.top - piece.bottom
    return block.page != piece.page or gap < 0 or gap > FIGURE_GAP_EM * max(piece.size, block.size, 1.0)


def _rejoined(candidates: list[TextBlock | PlacedTable | PlacedImage]) -> list[TextBlock | PlacedTable | PlacedImage]:
    """The candidates with each paragraph that a column or page end broke off joined again, across the tables,
    images and captions placed in between; not a paragraph right below it in the same column, which the lines
    already left apart."""
    result: list[TextBlock | PlacedTable | PlacedImage] = []
    last_text: TextBlock | None = None
    last_piece: TextBlock | None = None  # the last block merged into `last_text`: where it ends
    for candidate in candidates:
        if isinstance(candidate, TextBlock):
            if (
                last_text is not None
                and last_piece is not None
                and continues(last_text, candidate)
                and (not candidate.parted or _broken_off(last_piece, candidate) or result[-1] is not last_text)
            ):
                merge_into(last_text, candidate)
                last_piece = candidate
                continue
            # A caption floats with its figure, as tables and images do, and a footnote at its page's foot; text
            # beside the flow is no part of it.
            if not (candidate.aside or candidate.note or is_caption(candidate.text)):
                last_text = last_piece = candidate
        result.append(candidate)
    return result


def _page_candidates(page: PageLayout) -> list[TextBlock | PlacedTable | PlacedImage]:
    """The page's paragraphs, tables and images in reading order (an image before the first line or table, in
    reading order, that starts below its top edge)."""
    candidates: list[TextBlock | PlacedTable | PlacedImage] = []
    images = sorted(_cited_images(page), key=lambda image: image.top, reverse=True)
    sizes = [line.size for line in page.lines]
    gutter = GUTTER_MIN_EM * (statistics.median(sizes) if sizes else 10.0)
    rtl = sum(1 for line in page.lines if line.rtl) * 2 > len(page.lines)
    items: list[Line | PlacedTable] = [*(line for line in page.lines if not line.vertical), *page.tables]
    regions = reading_order(items, gutter, rtl=rtl, gutters=page.gutters)
    rotated: list[Line] = [line for line in page.lines if line.vertical]
    aside = [] if _written_vertically(page.lines) else rotated  # margin stamps, side labels, turned headings
    if rotated and not aside:
        regions.append(list(rotated))
    body = body_size(page.lines)
    code = code_apart(page.lines)
    notes: list[TextBlock] = []
    for region in regions:
        region_start = len(candidates)
        run: list[Line] = []
        for item in region:
            if images and images[-1].top <= item.top:
                candidates.extend(paragraphs(run, page.number, code=code))
                run = []
                while images and images[-1].top <= item.top:
                    candidates.append(images.pop())
            if isinstance(item, Line):
                run.append(item)
                continue
            candidates.extend(paragraphs(run, page.number, code=code))
            run = []
            candidates.append(item)
        candidates.extend(paragraphs(run, page.number, code=code))
        region_texts = [item for item in candidates[region_start:] if isinstance(item, TextBlock)]
        moved = {id(note) for note in take_footnotes(region_texts, body, page.height, page.note_rule)}
        if moved:
            notes.extend(item for item in candidates[region_start:] if id(item) in moved)  # type: ignore[misc]
            candidates[region_start:] = [item for item in candidates[region_start:] if id(item) not in moved]
    candidates.extend(reversed(images))
    candidates.extend(notes)  # footnotes at the end of their page's flow
    candidates.extend(_asides(aside, page.number))
    return candidates


def _written_vertically(lines: list[Line]) -> bool:
    """Whether most of the page's text is set in vertical lines (tategaki): its vertical lines are its flow. On a
    page written horizontally they stand beside the flow (arXiv's identifier in the margin, turned labels)."""
    vertical = sum(len(line.text) for line in lines if line.vertical)
    return vertical >= sum(len(line.text) for line in lines if not line.vertical)


def _asides(lines: list[Line], page: int) -> list[TextBlock]:
    """Lines beside the page's flow as paragraphs at its end: never headings, no break in a paragraph."""
    blocks = paragraphs(lines, page)
    for block in blocks:
        block.aside = True
    return blocks


def _cited_images(page: PageLayout) -> list[PlacedImage]:
    """The page's images but a page-filling one on a page without text: that is a scan, the page itself (OCR)."""
    page_area = page.width * page.height
    return [image for image in page.images if page.lines or image.area < IMAGE_COVERAGE * page_area]


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
