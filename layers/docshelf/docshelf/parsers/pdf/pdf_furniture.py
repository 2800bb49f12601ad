"""Running headers, footers and page numbers: text at the top or bottom edge that repeats across pages.

A line repeats as furniture either often enough across the document, wherever it sits in its band, or at the same
place on another page: an even or odd page's header, a chapter's header over its pages, a short memo's header.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter, defaultdict

from docshelf.parsers.pdf.pdf_lines import Line, body_size

EDGE_SHARE = 0.1  # the top and bottom tenth of the page
LINES_PER_EDGE = 3
SAME_PLACE = 1.5  # points between the top edges, and between the left or the right edges, of one line's repeats
NEAR_PAGES = 2  # a line repeats in place on the next page, or on the one after (even and odd pages)
APART_EM = 1.0  # a gap this many font sizes wide sets the lines at a page's edge apart from its body
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
    apart = [_set_apart(page_edges, lines) for page_edges, lines in zip(edges, pages, strict=True)]
    in_place = _repeated_in_place(apart, [body_size(lines) for lines in pages])
    removed = 0
    for index, page_edges in enumerate(edges):
        drop = {
            id(line)
            for band, line in page_edges
            if is_page_number(line.text) or (band, _key(line.text)) in repeated or id(line) in in_place
        }
        if drop:
            pages[index] = [line for line in pages[index] if id(line) not in drop]
            removed += len(drop)
    return removed


def _set_apart(edges: list[tuple[str, Line]], lines: list[Line]) -> list[tuple[str, Line]]:
    """The edge lines between the page's edge and the first wide gap inwards: outside the body's extent."""
    result: list[tuple[str, Line]] = []
    for band in ("top", "bottom"):
        inwards = sorted(lines, key=lambda line: line.top, reverse=band == "bottom")
        in_band = {id(line) for edge_band, line in edges if edge_band == band}
        for line, following in itertools.pairwise(inwards):
            if id(line) not in in_band:
                break
            gap = following.top - line.bottom if band == "top" else line.top - following.bottom
            if gap >= APART_EM * max(line.size, following.size):
                result.extend((band, edge) for edge in inwards[: inwards.index(line) + 1])
                break
    return result


def _repeated_in_place(edges: list[list[tuple[str, Line]]], bodies: list[float]) -> set[int]:
    """The edge lines (by id) whose text stands at the same place on the next page or the one after (a header of
    even or odd pages, of a chapter's pages), set no larger than their page's body text. A title repeated at the
    top of two slides is larger than their body; a quote's attribution atop two pages far apart is text."""
    placed: dict[tuple[str, str], list[tuple[int, Line]]] = defaultdict(list)
    for number, (page_edges, body) in enumerate(zip(edges, bodies, strict=True)):
        for band, line in page_edges:
            if line.size <= body:
                placed[band, _key(line.text)].append((number, line))
    found: set[int] = set()
    for repeats in placed.values():
        for index, (number, line) in enumerate(repeats):
            for other_number, other in repeats[index + 1 :]:
                if other_number - number > NEAR_PAGES:
                    break
                if other_number > number and _same_place(line, other):
                    found.update((id(line), id(other)))
    return found


def _same_place(line: Line, other: Line) -> bool:
    left = abs(other.x0 - line.x0) <= SAME_PLACE
    return abs(other.top - line.top) <= SAME_PLACE and (left or abs(other.x1 - line.x1) <= SAME_PLACE)
