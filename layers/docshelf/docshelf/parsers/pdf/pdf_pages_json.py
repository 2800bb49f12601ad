"""JSON of what a page range's reading hands the merge: each page's lines, tables, images (their stored bytes in
base64, with their hashes, so the merge names and dedupes them as a whole parse does) and OCR'd blocks, or why it
could not be read, and the document's head. Floats survive JSON exactly, so a merge of pages read back from JSON
is the merge of the pages as read."""

from __future__ import annotations

import base64
from dataclasses import asdict, fields
from typing import Any

from docshelf.model import Block, Image, Table
from docshelf.ocr.model import OcrBlock
from docshelf.parsers.pdf.pdf import DocumentHead, PageLayout
from docshelf.parsers.pdf.pdf_headings import OutlineEntry
from docshelf.parsers.pdf.pdf_images import PlacedImage
from docshelf.parsers.pdf.pdf_layout import Gutter
from docshelf.parsers.pdf.pdf_lines import Line
from docshelf.parsers.pdf.pdf_tables import PlacedTable
from docshelf.serde import block_from_dict
from docshelf.versions import PAGES_FORMAT

JsonObject = dict[str, Any]


def pages_to_dict(pages: list[PageLayout | str]) -> JsonObject:
    return {"format": PAGES_FORMAT, "pages": [_page_to_dict(page) for page in pages]}


def pages_from_dict(data: JsonObject) -> list[PageLayout | str]:
    if data.get("format") != PAGES_FORMAT:
        raise ValueError(f"page range object of format {data.get('format')!r}, not {PAGES_FORMAT}")
    return [_page_from_dict(page) for page in data["pages"]]


def head_to_dict(head: DocumentHead) -> JsonObject:
    return {
        "page_count": head.page_count,
        "outline": [[entry.title, entry.level, entry.page] for entry in head.outline],
        "page_labels": {str(number): label for number, label in head.page_labels.items()},
        "title": head.title,
    }


def head_from_dict(data: JsonObject) -> DocumentHead:
    return DocumentHead(
        page_count=int(data["page_count"]),
        outline=[OutlineEntry(title, level, page) for title, level, page in data["outline"]],
        page_labels={int(number): label for number, label in data["page_labels"].items()},
        title=str(data["title"]),
    )


def _page_to_dict(page: PageLayout | str) -> JsonObject:
    """Every field of the page; its lines and tables in their own forms, the others (numbers, flags) as they are,
    so that a plain field added to PageLayout crosses without a change here."""
    if isinstance(page, str):
        return {"error": page}
    data = {item.name: getattr(page, item.name) for item in fields(PageLayout)}
    data["lines"] = [_line_fields(line) for line in page.lines]
    data["tables"] = [
        {"table": asdict(placed.table), "box": [placed.x0, placed.top, placed.x1, placed.bottom]}
        for placed in page.tables
    ]
    data["images"] = [_image_to_dict(image) for image in page.images]
    data["ocr_blocks"] = [asdict(block) for block in page.ocr_blocks]
    data["gutters"] = [list(gutter) for gutter in page.gutters]
    return data


def _page_from_dict(data: JsonObject) -> PageLayout | str:
    if "error" in data:
        return str(data["error"])
    tables: list[PlacedTable] = []
    for placed in data["tables"]:
        table = block_from_dict(placed["table"])
        if not isinstance(table, Table):
            raise ValueError(f"a page's table holds a {table.kind} block")
        tables.append(PlacedTable(table, *placed["box"]))
    lines = [Line(*values) for values in data["lines"]]
    images = [_image_from_dict(image) for image in data["images"]]
    ocr_blocks = [_ocr_block(block_from_dict(block)) for block in data["ocr_blocks"]]
    gutters = [Gutter(*gutter) for gutter in data.get("gutters", [])]
    fixed = {"lines": lines, "tables": tables, "images": images, "ocr_blocks": ocr_blocks, "gutters": gutters}
    return PageLayout(**{**data, **fixed})


def _ocr_block(block: Block) -> OcrBlock:
    if isinstance(block, Image):
        raise ValueError("a page's OCR'd text holds an image block")
    return block


def _image_to_dict(image: PlacedImage) -> JsonObject:
    prepared = image.prepared
    stored = {"data": base64.b64encode(prepared.data).decode("ascii"), "ext": prepared.ext, "width": prepared.width,
              "height": prepared.height, "phash": prepared.phash, "dhash": prepared.dhash}  # fmt: skip
    return {"page": image.page, "top": image.top, "area": image.area, "prepared": stored}


def _image_from_dict(data: JsonObject) -> PlacedImage:
    from docshelf.assets.prepare import PreparedImage  # Pillow and numpy load with it: only for pages with images

    stored = data["prepared"]
    prepared = PreparedImage(**{**stored, "data": base64.b64decode(stored["data"])})
    return PlacedImage(int(data["page"]), float(data["top"]), float(data["area"]), prepared)


def _line_fields(line: Line) -> list[Any]:
    _, fields = line.__reduce__()
    return list(fields)
