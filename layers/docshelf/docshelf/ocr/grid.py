"""Ruled tables on a page image: long dark horizontal and vertical strokes that cross into a grid of at least two
rows and two columns. Only ruled grids are found; a table drawn without lines stays paragraphs."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from PIL.Image import Image

# A stroke is a ruling line from this share of the page's width (or height) on; text strokes are far shorter.
MIN_LINE_SHARE = 0.04
# Strokes within this many pixels are one line (a line several pixels thick, or two touching segments).
MERGE_PX = 4
# The shortest piece of a line kept before pieces are joined: longer than a letter's stroke at 12 pt and 300 dpi.
MIN_PIECE_PX = 40
DARK = 128
# A page with more long dark runs than this (a ruled table makes a few for each line) is taken as a picture.
MAX_PIECES = 20_000


@dataclass(frozen=True, slots=True)
class Rule:
    at: float  # y of a horizontal line's middle, x of a vertical one's
    start: int  # where it starts and ends along its direction
    end: int
    low: int  # the rows (columns) it covers across: more than its width when the scan is turned a little
    high: int


@dataclass(frozen=True, slots=True)
class Grid:
    rows: tuple[float, ...]  # y of each horizontal line, top to bottom
    cols: tuple[float, ...]  # x of each vertical line, left to right

    def cell(self, x: float, y: float) -> tuple[int, int] | None:
        """The (row, column) a point falls in, or None outside the grid."""
        if not (self.rows[0] < y < self.rows[-1] and self.cols[0] < x < self.cols[-1]):
            return None
        row = int(np.searchsorted(self.rows, y)) - 1
        col = int(np.searchsorted(self.cols, x)) - 1
        return row, col


def find_grids(image: Image) -> list[Grid]:
    dark = np.asarray(image.convert("L")) < DARK
    horizontal = _rules(dark, max(40, int(MIN_LINE_SHARE * dark.shape[1])))
    vertical = _rules(dark.T, max(40, int(MIN_LINE_SHARE * dark.shape[0])))
    return [grid for grid in _grids(horizontal, vertical) if len(grid.rows) >= 3 and len(grid.cols) >= 3]


def _rules(dark: np.ndarray, min_length: int) -> list[Rule]:
    """Lines along the rows at least `min_length` long: pieces of a quarter of that, joined across small gaps (a
    worn or blurred scan breaks its lines)."""
    pieces = sorted(_pieces(dark, max(MIN_PIECE_PX, min_length // 4)), key=lambda rule: rule.start)
    joined: list[Rule] = []
    for piece in pieces:
        for index, rule in enumerate(joined):
            aligned = piece.low <= rule.high + MERGE_PX and rule.low <= piece.high + MERGE_PX
            if aligned and piece.start - rule.end <= min_length // 4:
                low, high = min(rule.low, piece.low), max(rule.high, piece.high)
                joined[index] = Rule((low + high) / 2, rule.start, max(rule.end, piece.end), low, high)
                break
        else:
            joined.append(piece)
    return [rule for rule in joined if rule.end - rule.start >= min_length]


def _pieces(dark: np.ndarray, min_length: int) -> list[Rule]:
    """Runs of dark pixels along each row at least `min_length` long, merged across adjacent rows."""
    padded = np.zeros((dark.shape[0], dark.shape[1] + 2), dtype=np.int8)
    padded[:, 1:-1] = dark
    edges = np.diff(padded, axis=1)
    rows, starts = np.nonzero(edges == 1)
    _, ends = np.nonzero(edges == -1)
    long = ends - starts >= min_length
    if np.count_nonzero(long) > MAX_PIECES:
        return []  # a picture's texture, not ruling lines; merging it would cost seconds
    merged: list[list[int]] = []  # [first row, last row, start, end]
    for row, start, end in zip(rows[long].tolist(), starts[long].tolist(), ends[long].tolist(), strict=True):
        for rule in merged:
            if row - rule[1] <= MERGE_PX and start < rule[3] and end > rule[2]:
                rule[1], rule[2], rule[3] = row, min(rule[2], start), max(rule[3], end)
                break
        else:
            merged.append([row, row, start, end])
    return [Rule((first + last) / 2, start, end, first, last) for first, last, start, end in merged]


def _grids(horizontal: list[Rule], vertical: list[Rule]) -> list[Grid]:
    """Lines grouped by crossing each other; each group's lines as a grid."""
    lines = [("h", rule) for rule in horizontal] + [("v", rule) for rule in vertical]
    parent = list(range(len(lines)))

    def root(index: int) -> int:
        while parent[index] != index:
            parent[index] = parent[parent[index]]
            index = parent[index]
        return index

    for i, (kind, rule) in enumerate(lines):
        if kind != "h":
            continue
        for j, (other_kind, other) in enumerate(lines):
            if other_kind == "v" and _cross(rule, other):
                parent[root(i)] = root(j)
    groups: dict[int, list[tuple[str, Rule]]] = {}
    for index, line in enumerate(lines):
        groups.setdefault(root(index), []).append(line)
    return [
        Grid(rows=_positions(rule for kind, rule in group if kind == "h"),
             cols=_positions(rule for kind, rule in group if kind == "v"))
        for group in groups.values()
    ]  # fmt: skip


def _cross(horizontal: Rule, vertical: Rule) -> bool:
    """Whether the lines meet: each one's extent across reaches into the other's length."""
    slack = MERGE_PX * 2
    return (
        horizontal.start - slack <= vertical.high and vertical.low <= horizontal.end + slack
        and vertical.start - slack <= horizontal.high and horizontal.low <= vertical.end + slack
    )  # fmt: skip


def _positions(rules: Iterable[Rule]) -> tuple[float, ...]:
    positions: list[float] = []
    for at in sorted(rule.at for rule in rules):
        if not positions or at - positions[-1] > MERGE_PX * 2:
            positions.append(at)
    return tuple(positions)
