"""Running headers, footers and page numbers: text at the top or bottom edge that repeats across pages.

The page's text is read as rows (line fragments on one baseline: a slide's footline of author, title, date and
slide number is one row). A page's edge is its top and bottom tenth, and also the rows set apart from the rest of
its text by a gap that lie beyond the body's extent (where most pages' text starts and ends): LaTeX's default
margins put a page number at 87% of the page's height and a running header at 12%.

A line repeats as furniture either often enough across the document, wherever it sits in its band, or at the same
place on another page: an even or odd page's header, a chapter's header over its pages, a short memo's header. A
page number is dropped in the band, and beyond it where it is confirmed (it reads its own page's number, or another
page's number stands at the same place or counts the pages in step with it); a row set apart at the edge that
holds a confirmed page number is the running header or footer around it, and goes whole (an odd page's header
naming a section printed once).
"""

from __future__ import annotations

import itertools
import math
import re
import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass

from docshelf.parsers.numerals import roman_value
from docshelf.parsers.pdf.pdf_lines import Line, body_size

EDGE_SHARE = 0.1  # the top and bottom tenth of the page
LINES_PER_EDGE = 3  # rows of text, each any number of fragments on one baseline
SAME_PLACE = 1.5  # points between the top edges, and between the left, right or middle, of one line's repeats
NEAR_PAGES = 2  # a line repeats in place on the next page, or on the one after (even and odd pages)
APART_EM = 1.0  # a gap this many font sizes wide sets the lines at a page's edge apart from its body
# A page number is set no more than this over the body's size (a Japanese class sets its kanji smaller than the
# Latin digits of its folios); a chapter's number opening its page is larger.
NUMBER_SIZE_SLACK = 1.1
# A number this close before three words or more that do not repeat labels them (a footnote's number; LibreOffice
# sets a footnote's text a tab after it, 3.3 of the note's font sizes in its export of a Word file).
LABEL_GAP_EM, LABEL_TEXT_WORDS = 4.0, 3
PRINT_EDGE_SIZE = 9.0
_PAGE_NUMBER = re.compile(
    r"^(?:(?:page|p\.|seite|pág\.?|страница)\s*)?[-–—(\[]?\s*(?:\d{1,4}|[ivxlcdm]{1,7})\s*[-–—)\]]?"
    r"(?:\s*(?:/|of|von|de)\s*\d{1,4})?$|^第\s*\d{1,4}\s*页$|^\d{1,4}\s*ページ$",
    re.IGNORECASE,
)
# A browser's print header opens with the date and time of printing (`12/6/26, 7:56 AM`, `06.12.26, 07:56`,
# `2026/12/06 7:56`) before the page's title; its footer is the page's address, then `1/3` at the right.
_PRINT_STAMP = re.compile(
    r"^\d{1,4}[./-]\d{1,2}[./-]\d{1,4},?\s+\d{1,2}:\d{2}(?::\d{2})?(?:\s*[AaPp]\.?[Mm]\.?)?(?:\s|$)"
)
_PRINT_ADDRESS = re.compile(r"^(?:https?|file)://\S+$")
_DIGITS = re.compile(r"\d+")
_ROMAN_LETTERS = re.compile(r"\b[ivxlcdm]+\b")


@dataclass(slots=True)
class Row:
    """Line fragments on one baseline, and their extent."""

    lines: list[Line]
    top: float
    bottom: float
    size: float


Edge = tuple[str, Row]  # the band ("top" or "bottom") and a row in it


def is_page_number(text: str) -> bool:
    return bool(_PAGE_NUMBER.match(text.strip()))


def _key(text: str) -> str:
    return " ".join(_DIGITS.sub("#", text.lower()).split())


def _outer_rows(lines: list[Line]) -> list[Row]:
    """The page's first and last LINES_PER_EDGE + 1 rows, top-down (every row of a short page): all that the edges,
    the gaps setting them apart and the body's extent are read from."""
    ordered = sorted(lines, key=lambda item: item.top + item.bottom)
    head, used = _group(ordered, LINES_PER_EDGE + 1)
    tail, tail_used = _group(ordered[::-1], LINES_PER_EDGE + 1)
    if used + tail_used >= len(ordered):
        return _group(ordered, len(ordered))[0]
    return head + tail[::-1]


def _group(lines: list[Line], count: int) -> tuple[list[Row], int]:
    """The first `count` rows of lines in order (fragments whose vertical extents overlap by at least half of the
    smaller one), and how many lines they hold."""
    rows: list[Row] = []
    for index, line in enumerate(lines):
        if rows:
            row = rows[-1]
            overlap = min(line.bottom, row.bottom) - max(line.top, row.top)
            if overlap >= 0.5 * min(line.height, row.bottom - row.top):
                row.lines.append(line)
                row.top, row.bottom = min(row.top, line.top), max(row.bottom, line.bottom)
                row.size = max(row.size, line.size)
                continue
            if len(rows) == count:
                return rows, index
        rows.append(Row([line], line.top, line.bottom, line.size))
    return rows, len(lines)


def _band_rows(rows: list[Row], height: float) -> list[Edge]:
    """Up to LINES_PER_EDGE rows inside each edge band, tagged with the band they sit in."""
    top = [("top", row) for row in rows[:LINES_PER_EDGE] if row.bottom <= height * EDGE_SHARE]
    bottom = [("bottom", row) for row in rows[: -LINES_PER_EDGE - 1 : -1] if row.top >= height * (1 - EDGE_SHARE)]
    return top + bottom


def _set_apart(rows: list[Row], height: float) -> list[Edge]:
    """The rows between the page's edge and the first wide gap inwards (up to LINES_PER_EDGE on each side); the only
    row of a page is set apart from nothing (a blank page's running header)."""
    if len(rows) == 1:
        return [("top" if rows[0].top + rows[0].bottom < height else "bottom", rows[0])]
    result: list[Edge] = []
    reach = -math.inf
    for count, (row, following) in enumerate(itertools.pairwise(rows[: LINES_PER_EDGE + 1]), start=1):
        reach = max(reach, row.bottom)
        if following.top - reach >= APART_EM * max(row.size, following.size):
            result.extend(("top", seen) for seen in rows[:count])
            break
    reach = math.inf
    inwards = rows[: -LINES_PER_EDGE - 2 : -1]
    for count, (row, following) in enumerate(itertools.pairwise(inwards), start=1):
        reach = min(reach, row.top)
        if reach - following.bottom >= APART_EM * max(row.size, following.size):
            result.extend(("bottom", seen) for seen in inwards[:count])
            break
    return result


def _body_extent(rows: list[list[Row]], apart: list[list[Edge]]) -> tuple[float, float]:
    """Where most pages' text starts and ends once the rows set apart at their edges are left out."""
    tops: list[float] = []
    bottoms: list[float] = []
    for page_rows, page_apart in zip(rows, apart, strict=True):
        outer = {id(row) for _, row in page_apart}
        inner = [
            row for row in page_rows[: LINES_PER_EDGE + 1] + page_rows[-LINES_PER_EDGE - 1 :] if id(row) not in outer
        ]
        if inner:
            tops.append(min(row.top for row in inner))
            bottoms.append(max(row.bottom for row in inner))
    if not tops:
        return -math.inf, math.inf
    return statistics.median(tops), statistics.median(bottoms)


def remove_furniture(pages: list[list[Line]], heights: list[float]) -> int:
    """Drop page numbers and repeated edge lines from every page, in place; returns how many were dropped."""
    rows = [_outer_rows(lines) for lines in pages]
    bands = [_band_rows(page_rows, height) for page_rows, height in zip(rows, heights, strict=True)]
    set_apart = [_set_apart(page_rows, height) for page_rows, height in zip(rows, heights, strict=True)]
    body_top, body_bottom = _body_extent(rows, set_apart)
    apart = [
        [
            (band, row)
            for band, row in page_apart
            if any(row is banded for _, banded in page_bands)
            or (row.bottom <= body_top if band == "top" else row.top >= body_bottom)
        ]
        for page_apart, page_bands in zip(set_apart, bands, strict=True)
    ]
    repeats: Counter[tuple[str, str]] = Counter()
    for page_bands in bands:
        repeats.update({(band, _key(line.text)) for band, row in page_bands for line in _countable(row)})
    needed = max(3, min(10, math.ceil(0.25 * len(pages))))
    repeated = {key for key, count in repeats.items() if count >= needed} if len(pages) >= 3 else set()
    bodies = [body_size(lines) for lines in pages]
    in_place = _repeated_in_place(
        [[(band, line) for band, row in page_apart for line in _countable(row)] for page_apart in apart], bodies
    )
    furniture = _Furniture({key for _, key in repeated}, in_place)
    body = Counter(bodies).most_common(1)[0][0] if bodies else 10.0
    numbered = _numbered_rows(apart, bands, body, furniture)
    removed = 0
    for index, (page_bands, page_apart) in enumerate(zip(bands, apart, strict=True)):
        drop: set[int] = set()
        for band, row in page_bands:
            number = _page_number(row, furniture)
            drop.update(id(line) for line in _countable(row) if line is number or (band, _key(line.text)) in repeated)
            if _printed_by_browser(band, row, bodies[index]):
                drop.update(id(line) for line in row.lines)
        drop.update(
            id(line) for _, row in page_apart for line in row.lines if id(line) in in_place or id(row) in numbered
        )
        if drop:
            pages[index] = [line for line in pages[index] if id(line) not in drop]
            removed += len(drop)
    return removed


@dataclass(slots=True)
class _Furniture:
    """What repeats across pages: texts by key, lines by id."""

    texts: set[str]
    lines: set[int]

    def labels(self, row: Row, number: Line) -> bool:
        """Whether a number labels the text right after it on its row, a footnote's own words (`1  Certificates are
        retained for seven years…`), not a running header's (`12 | Annual Report`, repeated on every page)."""
        after = [line for line in row.lines if line.x0 >= number.x1 - 0.5 and line is not number]
        if not after:
            return False
        text = min(after, key=lambda line: line.x0)
        return (
            text.x0 - number.x1 <= LABEL_GAP_EM * max(number.size, 1.0)
            and len(text.text.split()) >= LABEL_TEXT_WORDS
            and _key(text.text) not in self.texts
            and id(text) not in self.lines
        )


def _printed_by_browser(band: str, row: Row, body: float) -> bool:
    """Whether an edge row is what a browser prints around a web page: at the top the date and time of printing (and
    the page's title), at the bottom the page's address (and the page count), set smaller than the body or at most
    PRINT_EDGE_SIZE (Chromium sets them at 8 pt, whatever the page's own sizes). Found on a page of its own, where
    nothing repeats yet."""
    if row.size >= body and row.size > PRINT_EDGE_SIZE:
        return False
    ordered = sorted(row.lines, key=lambda line: line.x0)
    if band == "top":
        return _PRINT_STAMP.match(ordered[0].text) is not None
    return _PRINT_ADDRESS.match(ordered[0].text) is not None and all(is_page_number(line.text) for line in ordered[1:])


def _page_number(row: Row, furniture: _Furniture) -> Line | None:
    """The row's page number: its only fragment that reads as one, unless it labels the text after it."""
    numbers = [line for line in row.lines if is_page_number(line.text)]
    if len(numbers) != 1 or furniture.labels(row, numbers[0]):
        return None
    return numbers[0]


def _countable(row: Row) -> list[Line]:
    """The fragments of a row that may be furniture: the numbers of a row holding several are a table's or a chart
    axis's cells, not page numbers, however often they repeat."""
    numbers = [line for line in row.lines if is_page_number(line.text)]
    return row.lines if len(numbers) < 2 else [line for line in row.lines if not any(line is n for n in numbers)]


def _numbered_rows(apart: list[list[Edge]], bands: list[list[Edge]], body: float, furniture: _Furniture) -> set[int]:
    """The rows (by id) set apart at a page's edge whose page number, no larger than the body text, is confirmed:
    it reads its own page's number (a one-page memo's 1), or another page's number stands at the same place or
    counts the pages in step with it (2 on the page after 1, a chapter's first page numbered at its foot beside
    headers numbered at the top)."""
    placed: dict[tuple[str, int], list[tuple[int, Line]]] = defaultdict(list)
    offsets: dict[int, set[int]] = defaultdict(set)
    candidates: list[tuple[int, str, Row, Line]] = []
    for number, (page_apart, page_bands) in enumerate(zip(apart, bands, strict=True)):
        outer = {id(row) for _, row in page_apart}
        for band, row in page_apart + [edge for edge in page_bands if id(edge[1]) not in outer]:
            line = _page_number(row, furniture)
            if line is None or line.size > body * NUMBER_SIZE_SLACK:
                continue
            placed[band, round(line.top / SAME_PLACE)].append((number, line))
            value = _value(line.text)
            if value is not None:
                offsets[value - number].add(number)
            if id(row) in outer:
                candidates.append((number, band, row, line))
    found: set[int] = set()
    for number, band, row, line in candidates:
        value = _value(line.text)
        if value is not None and (value == number + 1 or offsets[value - number] - {number}):
            found.add(id(row))
            continue
        bucket = round(line.top / SAME_PLACE)
        others = itertools.chain.from_iterable(placed.get((band, bucket + step), ()) for step in (-1, 0, 1))
        if any(other_number != number and _same_place(line, other) for other_number, other in others):
            found.add(id(row))
    return found


def _value(text: str) -> int | None:
    """The number a page number reads (its first, in `3 of 7`), arabic or roman."""
    digits = _DIGITS.search(text)
    if digits:
        return int(digits.group())
    letters = _ROMAN_LETTERS.search(text.lower())
    return roman_value(letters.group()) if letters else None


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
    """At the same height, and aligned on the left, on the right or on the middle (a centred page number widens)."""
    if abs(other.top - line.top) > SAME_PLACE:
        return False
    middle = abs((other.x0 + other.x1) - (line.x0 + line.x1)) / 2
    return min(abs(other.x0 - line.x0), abs(other.x1 - line.x1), middle) <= SAME_PLACE
