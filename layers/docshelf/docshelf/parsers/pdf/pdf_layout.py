"""Reading order for one page: a recursive XY-cut that reads columns one after another.

A region is split at a vertical gutter (an empty x interval wide enough between two substantial sides);
a region without a gutter is cut into horizontal bands, and neighbouring bands are merged back while their
union still has a gutter, so a full-width title or footer separates column blocks without chopping the
columns into lines.
"""

from __future__ import annotations

import itertools
from typing import Protocol, TypeVar

GUTTER_MIN_EM = 0.8
GUTTER_MIN_PT = 4.0
# Each side of a column cut must span at least this share of the region (keeps tab stops and labels together).
MIN_SIDE_SHARE = 0.2


class Boxed(Protocol):
    @property
    def x0(self) -> float: ...
    @property
    def top(self) -> float: ...
    @property
    def x1(self) -> float: ...
    @property
    def bottom(self) -> float: ...


T = TypeVar("T", bound=Boxed)
Coverage = list[tuple[float, float]]


def reading_order(items: list[T], gutter_min: float, *, rtl: bool = False) -> list[list[T]]:
    """Regions (column blocks) in reading order; each region's items sorted top-down, then by x."""
    if not items:
        return []
    threshold = max(GUTTER_MIN_PT, gutter_min)
    regions: list[list[T]] = []
    _cut(items, threshold, rtl, regions)
    return regions


def _cut(items: list[T], threshold: float, rtl: bool, out: list[list[T]]) -> None:
    split = _column_split(items, _coverage(items), threshold)
    if split is not None:
        first = [item for item in items if item.x1 <= split]
        second = [item for item in items if item.x1 > split]
        for side in (second, first) if rtl else (first, second):
            _cut(side, threshold, rtl, out)
        return
    groups = _band_groups(items, threshold)
    if len(groups) == 1:
        out.append(_rows_in_order(items, rtl))
        return
    for group in groups:
        _cut(group, threshold, rtl, out)


def _column_split(items: list[T], coverage: Coverage, threshold: float) -> float | None:
    """The gutter between two columns of the items, if any. Columns stand beside each other: a gap between items
    that lie one above the other (a centred title over a heading at the left margin) does not make them columns."""
    split = _gutter(coverage, threshold)
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


def _gutter(coverage: Coverage, threshold: float) -> float | None:
    """The x position splitting the widest acceptable gap in the coverage, if any."""
    if len(coverage) < 2:
        return None
    left_edge, right_edge = coverage[0][0], coverage[-1][1]
    min_side = MIN_SIDE_SHARE * (right_edge - left_edge)
    best: tuple[float, float] | None = None
    for (_, gap_start), (gap_end, _) in itertools.pairwise(coverage):
        width = gap_end - gap_start
        if width < threshold or gap_start - left_edge < min_side or right_edge - gap_end < min_side:
            continue
        if best is None or width > best[1] - best[0]:
            best = (gap_start, gap_end)
    return None if best is None else (best[0] + best[1]) / 2


def _band_groups(items: list[T], threshold: float) -> list[list[T]]:
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
        band_split = _gutter(band_coverage, threshold) is not None
        if groups:
            union = _merge_intervals(group_coverage + band_coverage)
            union_split = _column_split(groups[-1] + band, union, threshold) is not None
            joins = union_split or (not group_split and not band_split)
            following = bands[index + 1] if index + 1 < len(bands) else None
            if joins and group_split and not band_split and following is not None:
                joins = not _leads_into(band, groups[-1], following, union, threshold)
            if joins:
                groups[-1].extend(band)
                group_coverage, group_split = union, union_split
                continue
        groups.append(list(band))
        group_coverage, group_split = band_coverage, band_split
    return groups


def _leads_into(band: list[T], group: list[T], following: list[T], union: Coverage, threshold: float) -> bool:
    """A single-column band between columns and a full-width block goes with the nearer of the two."""
    if _gutter(_merge_intervals(union + _coverage(following)), threshold) is not None:
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
