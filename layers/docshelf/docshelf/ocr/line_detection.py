"""Text-line rectangles from a DB text detector's probability map (PP-OCR's detector).

The detector marks the shrunk core of each text line; a line is a connected region of the map above THRESHOLD,
kept when the map's mean over its pixels reaches BOX_THRESHOLD, and grown back by the DB rule (each side moves out by
area x UNCLIP_RATIO / perimeter). A line's rectangle follows its direction, so that a page scanned a degree askew
gives each line its own rectangle and not a band that takes in the lines above and below.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from docshelf.ocr.model import Box

THRESHOLD = 0.3
BOX_THRESHOLD = 0.5
UNCLIP_RATIO = 1.6
MIN_SIDE = 3  # pixels of the map: smaller regions are specks
# Lines turned further than this (about 10 degrees) are read level: a document's text runs across the page.
MAX_ANGLE = 0.18


@dataclass(frozen=True, slots=True)
class LineBox:
    """A text line's rectangle, turned by `angle` (radians, clockwise on the page) about its centre."""

    centre_x: float
    centre_y: float
    width: float
    height: float
    angle: float

    @property
    def box(self) -> Box:
        """The rectangle turned level about its centre, in whole pixels."""
        return (
            round(self.centre_x - self.width / 2),
            round(self.centre_y - self.height / 2),
            round(self.centre_x + self.width / 2),
            round(self.centre_y + self.height / 2),
        )

    def scaled(self, x_scale: float, y_scale: float) -> LineBox:
        return LineBox(self.centre_x * x_scale, self.centre_y * y_scale, self.width * x_scale,
                       self.height * y_scale, self.angle)  # fmt: skip


def text_line_boxes(probability: np.ndarray) -> list[LineBox]:
    """The lines' rectangles in the map's pixels, top to bottom."""
    mask = _dilated(probability > THRESHOLD)
    boxes = [box for box in _regions(mask, probability) if box is not None]
    return sorted(boxes, key=lambda box: (box.centre_y - box.height / 2, box.centre_x))


def _dilated(mask: np.ndarray) -> np.ndarray:
    """The mask grown by a 2x2 square, as PP-OCR dilates it: touching strokes of a line join."""
    grown = mask.copy()
    grown[:, 1:] |= mask[:, :-1]
    grown[1:, :] |= mask[:-1, :]
    grown[1:, 1:] |= mask[:-1, :-1]
    return grown


def _regions(mask: np.ndarray, probability: np.ndarray) -> list[LineBox | None]:
    """Each 4-connected region of the mask as its line's rectangle (None when it is a speck or the map is unsure
    of it), from the mask's horizontal runs joined row to row."""
    padded = np.zeros((mask.shape[0], mask.shape[1] + 2), dtype=np.int8)
    padded[:, 1:-1] = mask
    edges = np.diff(padded, axis=1)
    run_rows, run_starts = np.nonzero(edges == 1)
    _, run_ends = np.nonzero(edges == -1)
    if len(run_rows) == 0:
        return []
    labels = _labels(run_rows.tolist(), run_starts.tolist(), run_ends.tolist())
    return _rectangles(labels, run_rows, run_starts, run_ends, probability)


def _labels(rows: list[int], starts: list[int], ends: list[int]) -> np.ndarray:
    """The region number of each run: runs overlapping on adjacent rows are one region."""
    parent = list(range(len(rows)))

    def root(run: int) -> int:
        while parent[run] != run:
            parent[run] = parent[parent[run]]
            run = parent[run]
        return run

    row_first: dict[int, int] = {}
    for index, row in enumerate(rows):
        row_first.setdefault(row, index)
    for index, row in enumerate(rows):
        other = row_first.get(row - 1)
        while other is not None and other < len(rows) and rows[other] == row - 1:
            if starts[other] < ends[index] and starts[index] < ends[other]:
                a, b = root(index), root(other)
                if a != b:
                    parent[max(a, b)] = min(a, b)
            other += 1
    roots = [root(index) for index in range(len(rows))]
    _, labels = np.unique(np.asarray(roots), return_inverse=True)
    return labels


def _rectangles(
    labels: np.ndarray, rows: np.ndarray, starts: np.ndarray, ends: np.ndarray, probability: np.ndarray
) -> list[LineBox | None]:
    """Each region's line: its direction from the second moments of its pixels, its extent along and across that
    direction from its runs' ends, grown back by the DB rule; scored by the map's mean over its pixels."""
    count = int(labels.max()) + 1
    y = rows.astype(np.float64)
    first, last = starts.astype(np.float64), ends.astype(np.float64) - 1
    length = last - first + 1
    sums = np.zeros((6, count))
    for row, values in enumerate((length, length * (first + last) / 2, length * y,
                                  (last * (last + 1) * (2 * last + 1) - (first - 1) * first * (2 * first - 1)) / 6,
                                  length * y * y, length * (first + last) / 2 * y)):  # fmt: skip
        np.add.at(sums[row], labels, values)
    cumulative = np.cumsum(probability, axis=1, dtype=np.float64)
    before = np.where(starts > 0, cumulative[rows, np.maximum(starts - 1, 0)], 0.0)
    mass = np.zeros(count)
    np.add.at(mass, labels, cumulative[rows, ends - 1] - before)
    result: list[LineBox | None] = []
    for label in range(count):
        n, sx, sy, sxx, syy, sxy = sums[:, label]
        if mass[label] / n < BOX_THRESHOLD:
            result.append(None)
            continue
        mx, my = sx / n, sy / n
        vxx, vyy, vxy = sxx / n - mx * mx, syy / n - my * my, sxy / n - mx * my
        angle = 0.5 * math.atan2(2 * vxy, vxx - vyy)
        if abs(angle) > MAX_ANGLE or vxx < 4 * vyy:  # upright text, or too short to tell a direction: level
            angle = 0.0
        result.append(_extent(labels == label, rows, first, last, angle))
    return result


def _extent(members: np.ndarray, rows: np.ndarray, first: np.ndarray, last: np.ndarray, angle: float) -> LineBox | None:
    cos, sin = math.cos(angle), math.sin(angle)
    xs = np.concatenate((first[members], last[members] + 1))
    ys = np.concatenate((rows[members], rows[members])).astype(np.float64)
    along = xs * cos + ys * sin
    across_top = -xs * sin + ys * cos
    low_u, high_u = float(along.min()), float(along.max())
    low_v, high_v = float(across_top.min()), float(across_top.max()) + 1
    width, height = high_u - low_u, high_v - low_v
    if min(width, height) < MIN_SIDE:
        return None
    grow = width * height * UNCLIP_RATIO / (2 * (width + height))
    centre_u, centre_v = (low_u + high_u) / 2, (low_v + high_v) / 2
    return LineBox(
        centre_u * cos - centre_v * sin, centre_u * sin + centre_v * cos, width + 2 * grow, height + 2 * grow, angle
    )
