"""Reading order of a page's detected text boxes: columns, lines and paragraphs.

A detector finds text boxes, not a layout. The page is cut recursively at its widest blank gap, across (between
blocks) or down (between columns), as in XY-cut; a cut down needs prose on both sides (at least MIN_COLUMN_LINES
lines whose median width is MIN_COLUMN_WIDTH of the page), so that an unruled table is read row by row and not
column by column. Boxes side by side on one row (a table's cells, words the detector set apart) are one line, left to
right; lines follow each other in a paragraph until a gap of more than PARAGRAPH_GAP line heights, a change of size,
or a jump back up the page.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from docshelf.ocr.model import Box, union

MIN_COLUMN_LINES = 3
MIN_COLUMN_WIDTH = 0.15
PARAGRAPH_GAP = 1.0
SIZE_CHANGE = 1.3


def paragraphs(boxes: Sequence[Box], page_width: int) -> list[list[list[int]]]:
    """The boxes' indices as paragraphs of lines of boxes, in reading order."""
    ordered = _cut(list(range(len(boxes))), boxes, page_width)
    lines = _lines(ordered, boxes)
    result: list[list[list[int]]] = []
    previous: Box | None = None
    for line in lines:
        box = union([boxes[index] for index in line])
        if previous is None or _starts_paragraph(previous, box):
            result.append([])
        result[-1].append(line)
        previous = box
    return result


def _cut(items: list[int], boxes: Sequence[Box], page_width: int) -> list[int]:
    if len(items) < 2:
        return items
    across = _widest_gap(items, boxes, vertical=True)
    down = _widest_gap(items, boxes, vertical=False)
    if down is not None and not _columns(items, boxes, down[1], page_width):
        down = None
    if across is None and down is None:
        return sorted(items, key=lambda index: (boxes[index][1], boxes[index][0]))
    if across is not None and (down is None or across[0] >= down[0]):
        position, axis = across[1], 1
    else:
        position, axis = down[1], 0  # type: ignore[index]
    first = [index for index in items if boxes[index][axis + 2] <= position]
    rest = [index for index in items if boxes[index][axis + 2] > position]
    return _cut(first, boxes, page_width) + _cut(rest, boxes, page_width)


def _widest_gap(items: list[int], boxes: Sequence[Box], *, vertical: bool) -> tuple[int, int] | None:
    """(width, position) of the widest blank band between the items, across the page (vertical: between rows) or
    down it; the position is where the first part ends."""
    low, high = (1, 3) if vertical else (0, 2)
    spans = sorted((boxes[index][low], boxes[index][high]) for index in items)
    best: tuple[int, int] | None = None
    reach = spans[0][1]
    for start, end in spans[1:]:
        if start > reach and (best is None or start - reach > best[0]):
            best = (start - reach, reach)
        reach = max(reach, end)
    return best


def _columns(items: list[int], boxes: Sequence[Box], position: int, page_width: int) -> bool:
    sides = (
        [boxes[index] for index in items if boxes[index][2] <= position],
        [boxes[index] for index in items if boxes[index][2] > position],
    )
    return all(
        len(side) >= MIN_COLUMN_LINES and statistics.median(b[2] - b[0] for b in side) >= MIN_COLUMN_WIDTH * page_width
        for side in sides
    )


def _lines(ordered: list[int], boxes: Sequence[Box]) -> list[list[int]]:
    """Consecutive boxes that share most of their height are one line, left to right."""
    lines: list[list[int]] = []
    for index in ordered:
        if lines and _same_row(union([boxes[i] for i in lines[-1]]), boxes[index]):
            lines[-1].append(index)
        else:
            lines.append([index])
    return [sorted(line, key=lambda index: boxes[index][0]) for line in lines]


def _same_row(line: Box, box: Box) -> bool:
    overlap = min(line[3], box[3]) - max(line[1], box[1])
    return overlap > 0.5 * min(line[3] - line[1], box[3] - box[1])


def _starts_paragraph(previous: Box, box: Box) -> bool:
    height, last = box[3] - box[1], previous[3] - previous[1]
    gap = box[1] - previous[3]
    return (
        gap < -0.5 * last
        or gap > PARAGRAPH_GAP * min(height, last)
        or max(height, last) > SIZE_CHANGE * min(height, last)
    )
