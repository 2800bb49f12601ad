"""Text drawn as part of a figure: a chart's tick labels, axis titles and legend, the labels inside a diagram.

A drawn figure shows as paths with more segments than a rectangle (plotted lines, curves, shapes); paths that
touch each other make one figure, grown by the straight rules crossing it (axes, grid lines). Text whose centre
lies inside a figure, or around it in a smaller size than the body text, is the figure's own, and is kept out of
the body flow, where it would land
between the sentences of a paragraph ("60 50 40", "# Train: 1k"). A box of paths around running text (a framed
sidebar) is no figure: its lines are long; nor is one shape alone (a rounded panel behind bullet points): a figure
is drawn with two shapes or more (corpus charts and diagrams: 7 to 37).
"""

from __future__ import annotations

import statistics

from docshelf.parsers.pdf.pdf_flow import CAPTION
from docshelf.parsers.pdf.pdf_text import Run

Box = tuple[float, float, float, float]  # x0, top, x1, bottom
TOUCHING = 6.0
MIN_SIDE = 24.0
MIN_AREA = 2000.0
MIN_DRAWINGS = 2
MARGIN_EM = 2.0  # tick labels and axis titles stand outside the plotted area
VERTICAL_MARGIN = 1.5  # a rotated axis title stands further out than the tick labels
MAX_MEDIAN_CHARS = 25
MAX_CHARS = 60
SMALLER = 0.95
LARGER = 1.15


def figure_boxes(drawings: list[Box], rules: list[Box]) -> list[Box]:
    """The boxes of the page's drawn figures, each with the rules that cross it."""
    boxes: list[Box] = []
    for drawing in sorted(drawings):
        for index, box in enumerate(boxes):
            if _touch(box, drawing, TOUCHING):
                boxes[index] = _union(box, drawing)
                break
        else:
            boxes.append(drawing)
    boxes = _merged(boxes)
    figures: list[Box] = []
    for box in boxes:
        if box[2] - box[0] < MIN_SIDE or box[3] - box[1] < MIN_SIDE or _area(box) < MIN_AREA:
            continue
        if sum(1 for drawing in drawings if _touch(box, drawing, 0.0)) < MIN_DRAWINGS:
            continue
        grown = box
        for rule in rules:
            if _touch(box, rule, 1.0):
                grown = _union(grown, rule)
        figures.append(grown)
    return figures


def without_figure_text(runs: list[Run], figures: list[Box]) -> list[Run]:
    """The runs but those drawn as part of a figure: inside its box, and in the margin around it those set smaller
    than the body text or without a letter (tick labels, axis titles), never a caption."""
    if not figures or not runs:
        return runs
    body = _body_size(runs)
    captions = _caption_runs(runs)
    dropped: set[int] = set()
    for box in figures:
        inside = [run for run in runs if _centred_in(run, box, 0.0) and id(run) not in captions]
        lengths = [len(run.text.strip()) for run in inside]
        if inside and (statistics.median(lengths) > MAX_MEDIAN_CHARS or max(lengths) > MAX_CHARS):
            continue  # a frame around running text
        if any(run.size > LARGER * body for run in inside):
            continue  # a banner or panel behind a title, not a figure
        margin = MARGIN_EM * body
        around = [
            run
            for run in runs
            if _centred_in(run, box, margin * (VERTICAL_MARGIN if run.vertical else 1.0))
            and not _centred_in(run, box, 0.0)
            and (run.size < SMALLER * body or not any(char.isalpha() for char in run.text))
            and id(run) not in captions
        ]
        dropped.update(id(run) for run in inside + around)
    return [run for run in runs if id(run) not in dropped] if dropped else runs


def _caption_runs(runs: list[Run]) -> set[int]:
    """The runs of caption lines: one that starts with `Figure 3`, `Fig. 2`, `表1`…, and the runs to its right on
    its line."""
    starts = [run for run in runs if CAPTION.match(run.text.strip())]
    kept = {id(run) for run in starts}
    for start in starts:
        middle = (start.top + start.bottom) / 2
        kept.update(id(run) for run in runs if run.x0 >= start.x0 and run.top <= middle <= run.bottom)
    return kept


def _centred_in(run: Run, box: Box, margin: float) -> bool:
    x, y = (run.x0 + run.x1) / 2, (run.top + run.bottom) / 2
    return box[0] - margin <= x <= box[2] + margin and box[1] - margin <= y <= box[3] + margin


def _body_size(runs: list[Run]) -> float:
    weights: dict[float, int] = {}
    for run in runs:
        weights[run.size] = weights.get(run.size, 0) + len(run.text)
    return max(weights.items(), key=lambda item: item[1])[0]


def _touch(a: Box, b: Box, tolerance: float) -> bool:
    return (
        a[0] - tolerance <= b[2] and b[0] - tolerance <= a[2] and a[1] - tolerance <= b[3] and b[1] - tolerance <= a[3]
    )


def _union(a: Box, b: Box) -> Box:
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def _area(box: Box) -> float:
    return (box[2] - box[0]) * (box[3] - box[1])


def _merged(boxes: list[Box]) -> list[Box]:
    """Boxes merged until no two touch (a union can reach a box it did not touch before)."""
    merged = True
    while merged:
        merged = False
        result: list[Box] = []
        for box in boxes:
            for index, other in enumerate(result):
                if _touch(box, other, TOUCHING):
                    result[index] = _union(box, other)
                    merged = True
                    break
            else:
                result.append(box)
        boxes = result
    return boxes
