"""Reading order for one page: a recursive XY-cut that reads columns one after another.

A region is split at a vertical gutter (an empty x interval wide enough between two substantial sides);
a region without a gutter is cut into horizontal bands, and neighbouring bands are merged back while their
union still has a gutter, so a full-width title or footer separates column blocks without chopping the
columns into lines.

The page's gutters (`page_gutters`) are found from its rows before lines are built: a row's runs may stand closer
across a gutter than any one-row test can tell from a wide word space (LaTeX's 10 pt column gap at 11 pt type, a
larger heading beside a body line, a hyphen protruding into the gap), while the page shows it as an x interval that
many consecutive rows leave empty, with text on both sides and one of its edges aligned. Lines are built on each
side apart, and the reading order cuts at such a gutter however narrow it is, even a band where one side holds only
a short heading.
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Sequence
from typing import NamedTuple, Protocol, TypeVar

GUTTER_MIN_EM = 0.8
GUTTER_MIN_PT = 4.0
# Each side of a column cut must span at least this share of the region (keeps tab stops and labels together).
MIN_SIDE_SHARE = 0.2
# A page gutter is at least this many body font sizes wide, left empty by a streak of consecutive rows of which at
# least PAGE_GUTTER_ROWS have text on its left and as many on its right, and as many end (or start) within
# PAGE_GUTTER_ALIGN_EM of its edge: a column's lines share a margin, the word spaces of a paragraph's lines do not.
# As many rows on each side hold a stretch of text at least PAGE_GUTTER_TEXT_EM wide reaching within
# PAGE_GUTTER_NEAR_EM of it: columns of text face each other across it, not bullets or numbers and their items, nor
# a column of percentages and the text far to its left.
PAGE_GUTTER_MIN_EM = 0.5
PAGE_GUTTER_ROWS = 4
PAGE_GUTTER_ALIGN_EM = 0.25
PAGE_GUTTER_TEXT_EM = 4.0
PAGE_GUTTER_NEAR_EM = 2.0
MAX_OVERFULL_ROWS = 2  # rows of overfull lines a gutter is bridged over (`overfull_bridges`)


class Boxed(Protocol):
    @property
    def x0(self) -> float: ...
    @property
    def top(self) -> float: ...
    @property
    def x1(self) -> float: ...
    @property
    def bottom(self) -> float: ...


class Gutter(NamedTuple):
    """An x interval that the page's text leaves empty from `top` to `bottom`, with text on both sides."""

    x0: float
    x1: float
    top: float
    bottom: float


T = TypeVar("T", bound=Boxed)
Coverage = list[tuple[float, float]]


class _Cut(NamedTuple):
    threshold: float
    gutters: Sequence[Gutter]

    def known(self, items: Sequence[Boxed]) -> list[Gutter]:
        """The page gutters beside the items (overlapping them vertically)."""
        if not self.gutters:
            return []
        top, bottom = min(item.top for item in items), max(item.bottom for item in items)
        return [gutter for gutter in self.gutters if gutter.top < bottom and top < gutter.bottom]


def reading_order(
    items: list[T], gutter_min: float, *, rtl: bool = False, gutters: Sequence[Gutter] = ()
) -> list[list[T]]:
    """Regions (column blocks) in reading order; each region's items sorted top-down, then by x. A gap of the items
    over one of the page's `gutters` is a column gutter whatever its width and the width of its sides."""
    if not items:
        return []
    regions: list[list[T]] = []
    _cut(items, _Cut(max(GUTTER_MIN_PT, gutter_min), gutters), rtl, regions)
    return regions


def _cut(items: list[T], cut: _Cut, rtl: bool, out: list[list[T]]) -> None:
    split = _column_split(items, _coverage(items), cut)
    if split is not None:
        first = [item for item in items if item.x1 <= split]
        second = [item for item in items if item.x1 > split]
        for side in (second, first) if rtl else (first, second):
            _cut(side, cut, rtl, out)
        return
    groups = _band_groups(items, cut)
    if len(groups) == 1:
        out.append(_rows_in_order(items, rtl))
        return
    for group in groups:
        _cut(group, cut, rtl, out)


def _column_split(items: list[T], coverage: Coverage, cut: _Cut) -> float | None:
    """The gutter between two columns of the items, if any. Columns stand beside each other: a gap between items
    that lie one above the other (a centred title over a heading at the left margin) does not make them columns."""
    split = _gutter(coverage, cut.threshold, cut.known(items))
    if split is None:
        return None
    first = [item for item in items if item.x1 <= split]
    second = [item for item in items if item.x1 > split]
    overlap = min(max(item.bottom for item in first), max(item.bottom for item in second)) - max(
        min(item.top for item in first), min(item.top for item in second)
    )
    return split if overlap > 0 else None


def _coverage(items: list[T]) -> Coverage:
    return _merge_intervals([(item.x0, item.x1) for item in items])


def _merge_intervals(intervals: list[tuple[float, float]]) -> Coverage:
    merged: Coverage = []
    for start, end in sorted(intervals):
        if merged and start <= merged[-1][1]:
            if end > merged[-1][1]:
                merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged


def _gutter(coverage: Coverage, threshold: float, known: Sequence[Gutter] = ()) -> float | None:
    """The x position splitting the widest acceptable gap in the coverage, if any: wide enough, between sides wide
    enough, or over a known page gutter."""
    if len(coverage) < 2:
        return None
    left_edge, right_edge = coverage[0][0], coverage[-1][1]
    min_side = MIN_SIDE_SHARE * (right_edge - left_edge)
    best: tuple[float, float] | None = None
    for (_, gap_start), (gap_end, _) in itertools.pairwise(coverage):
        width = gap_end - gap_start
        # A line that reaches into the gutter (an overfull line, a protruding hyphen) narrows the gap beside it.
        over_known = any(gap_start <= gutter.x1 and gutter.x0 <= gap_end for gutter in known)
        if not over_known and (
            width < threshold or gap_start - left_edge < min_side or right_edge - gap_end < min_side
        ):
            continue
        if best is None or width > best[1] - best[0]:
            best = (gap_start, gap_end)
    return None if best is None else (best[0] + best[1]) / 2


def _band_groups(items: list[T], cut: _Cut) -> list[list[T]]:
    """Horizontal bands separated by empty y intervals, merged while their union keeps a gutter."""
    bands: list[list[T]] = []
    band_bottom = float("-inf")
    for item in sorted(items, key=lambda i: i.top):
        if bands and item.top < band_bottom:
            bands[-1].append(item)
            band_bottom = max(band_bottom, item.bottom)
        else:
            bands.append([item])
            band_bottom = item.bottom
    groups: list[list[T]] = []
    group_coverage: Coverage = []
    group_split = False
    for index, band in enumerate(bands):
        band_coverage = _coverage(band)
        band_split = _gutter(band_coverage, cut.threshold, cut.known(band)) is not None
        if groups:
            union = _merge_intervals(group_coverage + band_coverage)
            union_split = _column_split(groups[-1] + band, union, cut) is not None
            joins = union_split or (not group_split and not band_split)
            following = bands[index + 1] if index + 1 < len(bands) else None
            if joins and not union_split and following is not None and _opens_columns(band, following, cut):
                joins = False
            if joins and group_split and not band_split and following is not None:
                joins = not _leads_into(band, groups[-1], following, union, cut)
            if joins:
                groups[-1].extend(band)
                group_coverage, group_split = union, union_split
                continue
        groups.append(list(band))
        group_coverage, group_split = band_coverage, band_split
    return groups


def _opens_columns(band: list[T], following: list[T], cut: _Cut) -> bool:
    """Whether a band on one side of a page gutter that runs on beside the band below stands beside that band's
    columns (a column's first line set higher than the other column's first line, a heading over one column): it
    opens the columns rather than ends the text above them."""
    if not cut.gutters:
        return False
    known = [gutter for gutter in cut.known(band) if gutter in cut.known(following)]
    if not any(
        all(item.x1 <= gutter.x0 for item in band) or all(item.x0 >= gutter.x1 for item in band) for gutter in known
    ):
        return False
    return _column_split(band + following, _merge_intervals(_coverage(band) + _coverage(following)), cut) is not None


def _leads_into(band: list[T], group: list[T], following: list[T], union: Coverage, cut: _Cut) -> bool:
    """A single-column band between columns and a full-width block goes with the nearer of the two."""
    known = cut.known(group + band + following)
    if _gutter(_merge_intervals(union + _coverage(following)), cut.threshold, known) is not None:
        return False
    gap_above = min(item.top for item in band) - max(item.bottom for item in group)
    gap_below = min(item.top for item in following) - max(item.bottom for item in band)
    return gap_below < gap_above


def _rows_in_order(items: list[T], rtl: bool) -> list[T]:
    """Top-down; items on one visual row (vertical overlap) left to right, or right to left for RTL pages."""
    ordered: list[T] = []
    row: list[T] = []
    row_bottom = float("-inf")
    for item in sorted(items, key=lambda i: i.top):
        if row and item.top < row_bottom - 0.5 * min(item.bottom - item.top, row_bottom - row[-1].top):
            row.append(item)
            row_bottom = max(row_bottom, item.bottom)
            continue
        ordered.extend(sorted(row, key=lambda i: -i.x1 if rtl else i.x0))
        row = [item]
        row_bottom = item.bottom
    ordered.extend(sorted(row, key=lambda i: -i.x1 if rtl else i.x0))
    return ordered


def page_gutters(rows: Sequence[Sequence[Boxed]], size: float) -> list[Gutter]:
    """The page's gutters (see the module docstring), from its rows of text runs in top-down order; `size` is the
    body font size. As the XY-cut does, wider gutters bound the sides of narrower ones: the gap between a column's
    bullets and their text has the whole column beside it, but on its left only the bullets up to the gutter."""
    width = PAGE_GUTTER_MIN_EM * size
    edges = [_edges(row) for row in rows]
    starts = [
        (index, gap_start, gap_end)
        for index, row in enumerate(edges)
        for gap_start, gap_end in zip(row[2:-2:2], row[3:-1:2], strict=True)
        if gap_end - gap_start >= width
    ]
    streaks: list[_Streak] = []
    seen: list[tuple[int, int, float]] = []  # the rows and middle of each streak walked, a gutter or not
    for start, gap_start, gap_end in starts:
        if any(first <= start <= last and gap_start <= middle <= gap_end for first, last, middle in seen):
            continue  # a row of a streak walked already
        streak, first, last, middle = _streak(rows, edges, start, (gap_start, gap_end), size)
        if streak is not None:
            streaks.append(streak)
        if last > first:
            seen.append((first, last, middle))
    found: list[Gutter] = []
    for streak in sorted(streaks, key=lambda s: s.x1 - s.x0, reverse=True):
        beside = [g for g in found if g.top < streak.bottom and streak.top < g.bottom]
        left_edge = max([streak.left_edge, *(g.x1 for g in beside if g.x1 <= streak.x0)])
        right_edge = min([streak.right_edge, *(g.x0 for g in beside if g.x0 >= streak.x1)])
        min_side = MIN_SIDE_SHARE * (right_edge - left_edge)
        if streak.x0 - left_edge >= min_side and right_edge - streak.x1 >= min_side:
            found.append(Gutter(streak.x0, streak.x1, streak.top, streak.bottom))
    return sorted(found, key=lambda g: (g.top, g.x0))


def overfull_bridges(gutters: Sequence[Gutter], rows: Sequence[Sequence[Boxed]]) -> list[Gutter]:
    """Where a page gutter stops for at most MAX_OVERFULL_ROWS rows and goes on below at the same place, and in each
    of those rows text reaches into the gutter from its left without crossing it (an overfull line: an address or a
    formula LaTeX could not break), the gutter over those rows: their text on either side makes lines apart."""
    bridges: list[Gutter] = []
    for above, below in itertools.permutations(gutters, 2):
        x0, x1 = max(above.x0, below.x0), min(above.x1, below.x1)
        if above.bottom > below.top or x1 <= x0:
            continue
        between = [row for row in rows if row and above.bottom < (row[0].top + row[0].bottom) / 2 < below.top]
        if not between or len(between) > MAX_OVERFULL_ROWS:
            continue
        if all(
            any(item.x0 < x0 < item.x1 <= x1 for item in row) and not any(item.x0 < x0 and item.x1 > x1 for item in row)
            for row in between
        ):
            bridges.append(Gutter(x0, x1, above.bottom, below.top))
    return bridges


def _edges(row: Sequence[Boxed]) -> list[float]:
    """The edges of the row's spans between -inf and inf: its gaps are (edges[2j], edges[2j + 1])."""
    if len(row) == 1:
        return [-math.inf, row[0].x0, row[0].x1, math.inf]
    return [-math.inf, *(x for span in _merge_intervals([(item.x0, item.x1) for item in row]) for x in span), math.inf]


class _Side(NamedTuple):
    """What one row holds on either side of a strip: where its text left of it ends and right of it starts (None:
    no text on that side), how wide the text next to it on each side runs without a gap of the gutter's minimum
    width, and the row's outer edges."""

    end: float | None
    start: float | None
    left_width: float
    right_width: float
    x0: float
    x1: float


class _Streak(NamedTuple):
    """A gutter candidate and the outer edges of the text beside it."""

    x0: float
    x1: float
    top: float
    bottom: float
    left_edge: float
    right_edge: float


def _streak(
    rows: Sequence[Sequence[Boxed]], edges: list[list[float]], start: int, gap: tuple[float, float], size: float
) -> tuple[_Streak | None, int, int, float]:
    """The streak through the row `start`'s gap: the rows above and below it that leave an interval of the gap
    empty, narrowed to what they all leave empty (None when too few rows have text on both sides, line up at it or
    face each other across it), its first and last row, and the middle of what they leave empty."""
    width = PAGE_GUTTER_MIN_EM * size
    strip = gap
    sides: list[_Side] = []
    first = last = start
    for step in (1, -1):
        index = start if step == 1 else start - 1
        while 0 <= index < len(edges):
            found = _row_side(edges[index], strip, width)
            if found is None:
                break
            side, strip = found
            sides.append(side)
            first, last = min(first, index), max(last, index)
            index += step
    lo, hi = strip
    walk = (first, last, (lo + hi) / 2)
    if len(sides) < PAGE_GUTTER_ROWS:
        return None, *walk
    ends = [side.end for side in sides if side.end is not None]
    starts = [side.start for side in sides if side.start is not None]
    if len(ends) < PAGE_GUTTER_ROWS or len(starts) < PAGE_GUTTER_ROWS:
        return None, *walk
    tolerance = PAGE_GUTTER_ALIGN_EM * size
    aligned = max(sum(1 for end in ends if lo - end <= tolerance), sum(1 for x in starts if x - hi <= tolerance))
    if aligned < PAGE_GUTTER_ROWS:
        return None, *walk
    text, near = PAGE_GUTTER_TEXT_EM * size, PAGE_GUTTER_NEAR_EM * size
    facing_left = sum(1 for s in sides if s.end is not None and s.end >= lo - near and s.left_width >= text)
    facing_right = sum(1 for s in sides if s.start is not None and s.start <= hi + near and s.right_width >= text)
    if min(facing_left, facing_right) < PAGE_GUTTER_ROWS:
        return None, *walk
    left_edge = min(side.x0 for side in sides if side.end is not None)
    right_edge = max(side.x1 for side in sides if side.start is not None)
    top = min(item.top for row in rows[first : last + 1] for item in row)
    bottom = max(item.bottom for row in rows[first : last + 1] for item in row)
    return _Streak(lo, hi, top, bottom, left_edge, right_edge), *walk


def _row_side(edges: list[float], strip: tuple[float, float], width: float) -> tuple[_Side, tuple[float, float]] | None:
    """The row's gap (between its spans, or beyond its first or last; `edges` as `_edges` gives them) that holds the
    strip's middle and leaves `width` of the strip empty, as the row's sides and the strip narrowed to it; None when
    there is none. A glyph protruding into the strip narrows it from an edge; text across its middle (a page number
    centred under the columns) ends it."""
    index = bisect.bisect_right(edges, (strip[0] + strip[1]) / 2) - 1
    if index % 2:
        return None  # the middle falls on a span
    lo, hi = max(strip[0], edges[index]), min(strip[1], edges[index + 1])
    if hi - lo < width:
        return None
    end = edges[index] if index > 0 else None
    start = edges[index + 1] if index + 1 < len(edges) - 1 else None
    reach = index  # edges[reach] ends the text left of the gap; walk left while the gaps are narrow
    while reach > 2 and edges[reach - 1] - edges[reach - 2] < width:
        reach -= 2
    left_width = 0.0 if end is None else end - edges[reach - 1]
    reach = index + 1
    while reach < len(edges) - 3 and edges[reach + 2] - edges[reach + 1] < width:
        reach += 2
    right_width = 0.0 if start is None else edges[reach + 1] - start
    return _Side(end, start, left_width, right_width, edges[1], edges[-2]), (lo, hi)
