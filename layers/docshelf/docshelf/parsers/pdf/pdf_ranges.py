"""A PDF parsed in page ranges, each step its own call so that each can run in its own Lambda invocation: the plan
(the document's head and its ranges), one range's pages, and the merge of every range into the Document. What
passes between them is JSON. The merge runs the whole-document steps (scan check, running headers and footers,
headings against the outline) over all pages, so its Document is the whole-document parse's."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from docshelf.config import ParseLimits
from docshelf.model import Document, Source
from docshelf.parsers import finish_document, run_parser, source_of, with_assets
from docshelf.parsers.pdf.pdf import DocumentHead, PageLayout, merge_pages, open_document, read_head, read_pages
from docshelf.parsers.pdf.pdf_pages_json import head_from_dict, head_to_dict, pages_from_dict, pages_to_dict
from docshelf.parsers.pdf.pdf_shards import PageSpan, plan_document

JsonObject = dict[str, Any]


@dataclass(frozen=True, slots=True)
class PdfPlan:
    filename: str  # as the parser was given it: the scan check's messages name it
    source: Source
    head: DocumentHead
    ranges: list[PageSpan]

    def to_dict(self) -> JsonObject:
        head = head_to_dict(self.head)
        return {"filename": self.filename, "source": asdict(self.source), "head": head, "ranges": self.ranges}

    @classmethod
    def from_dict(cls, data: JsonObject) -> PdfPlan:
        ranges = [(int(start), int(end)) for start, end in data["ranges"]]
        return cls(str(data["filename"]), Source(**data["source"]), head_from_dict(data["head"]), ranges)


def plan_pdf(data: bytes, filename: str, *, limits: ParseLimits, uri: str = "") -> PdfPlan:
    """The document's head and shard plan (raises the DocumentError of a PDF that cannot be opened)."""

    def plan() -> tuple[DocumentHead, list[PageSpan]]:
        document = open_document(data, filename)
        try:
            head = read_head(document, limits)
            return head, plan_document(document, head.page_count, limits)
        finally:
            document.close()

    head, ranges = run_parser("pdf", limits, plan)
    return PdfPlan(filename, source_of(data, filename, "pdf", uri), head, ranges)


def read_pdf_range(data: bytes, filename: str, span: PageSpan, *, limits: ParseLimits) -> JsonObject:
    """Pages [start, end) as JSON: their lines and tables, or why a page could not be read."""

    def read() -> list[PageLayout | str]:
        document = open_document(data, filename)
        try:
            return read_pages(document, *span)
        finally:
            document.close()

    return pages_to_dict(run_parser("pdf", limits, read))


def merge_pdf_ranges(
    plan: PdfPlan, ranges: list[JsonObject], *, limits: ParseLimits
) -> tuple[Document, dict[str, bytes]]:
    """The Document from every range's pages, in the plan's order, and its image assets (raises the document's
    DocumentError)."""
    pages = [page for data in ranges for page in pages_from_dict(data)]
    if len(pages) != plan.head.page_count:
        raise ValueError(f"the ranges hold {len(pages)} pages of {plan.head.page_count}")
    content = run_parser("pdf", limits, lambda: merge_pages(plan.head, pages, plan.filename))
    document = finish_document(content, plan.source, "pdf", limits=limits)
    return with_assets(document, content)
