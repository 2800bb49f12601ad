"""Running headers, footers and page numbers: text at the top or bottom edge that repeats across pages."""

from __future__ import annotations

import math
import re
from collections import Counter

from docshelf.parsers.pdf.pdf_lines import Line

EDGE_SHARE = 0.1  # the top and bottom tenth of the page
LINES_PER_EDGE = 3
_PAGE_NUMBER = re.compile(
    r"^(?:(?:page|p\.|seite|pág\.?|страница)\s*)?[-–—(\[]?\s*(?:\d{1,4}|[ivxlcdm]{1,7})\s*[-–—)\]]?"
    r"(?:\s*(?:/|of|von|de)\s*\d{1,4})?$|^第\s*\d{1,4}\s*页$|^\d{1,4}\s*ページ$",
    re.IGNORECASE,
)
_DIGITS = re.compile(r"\d+")


def is_page_number(text: str) -> bool:
    return bool(_PAGE_NUMBER.match(text.strip()))


def _key(text: str) -> str:
    return " ".join(_DIGITS.sub("#", text.lower()).split())


def _edge_lines(lines: list[Line], height: float) -> list[tuple[str, Line]]:
    """Up to LINES_PER_EDGE lines inside each edge band, tagged with the band they sit in."""
    by_top = sorted(lines, key=lambda line: line.top)
    top = [("top", line) for line in by_top if line.bottom <= height * EDGE_SHARE][:LINES_PER_EDGE]
    bottom = [("bottom", line) for line in reversed(by_top) if line.top >= height * (1 - EDGE_SHARE)]
    return top + bottom[:LINES_PER_EDGE]


def remove_furniture(pages: list[list[Line]], heights: list[float]) -> int:
    """Drop page numbers and repeated edge lines from every page, in place; returns how many were dropped."""
    repeats: Counter[tuple[str, str]] = Counter()
    edges = [_edge_lines(lines, height) for lines, height in zip(pages, heights, strict=True)]
    for page_edges in edges:
        repeats.update({(band, _key(line.text)) for band, line in page_edges})
    needed = max(3, min(10, math.ceil(0.25 * len(pages))))
    repeated = {key for key, count in repeats.items() if count >= needed} if len(pages) >= 3 else set()
    removed = 0
    for index, page_edges in enumerate(edges):
        drop = {
            id(line) for band, line in page_edges if is_page_number(line.text) or (band, _key(line.text)) in repeated
        }
        if drop:
            pages[index] = [line for line in pages[index] if id(line) not in drop]
            removed += len(drop)
    return removed
