"""Text drawn as part of a figure: a chart's tick labels, axis titles and legend, the labels inside a diagram.

A drawn figure shows as paths with more segments than a rectangle (plotted lines, curves, shapes); paths that
touch each other make one figure, grown by the straight rules crossing it (axes, grid lines). A bar chart shows as
filled boxes with no text in them standing on one base line at different lengths; one plotted line is a figure when
axes frame it. Text whose centre lies inside a figure, or around it in a smaller size than the body text, is the
figure's own, and is kept out of the body flow, where it would land between the sentences of a paragraph ("60 50
40", "# Train: 1k"); so are, in the body's size, text set sideways beside it (an axis title), short lines below or
beside it that stay within its width (category names, an axis title), and the label right of each legend swatch. A
box of paths around running text (a framed sidebar) is no figure: its lines are long; nor is one shape alone (a
rounded panel behind bullet points): a figure is drawn with two shapes or more (corpus charts and diagrams: 7 to 37).
"""

from __future__ import annotations

import itertools
import statistics
from dataclasses import dataclass

from docshelf.parsers.captions import CAPTION
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
BAR_BASE = 1.0  # the bars of one chart stand on one line, to a point
MIN_BARS = 3
BAR_MIN_SIDE = 2.0
BAR_GAP = 1.5  # bars stand apart, at least between categories; table cells meet
MAX_LABELLED_BARS = 4  # at most a quarter of the bars hold a value label
AXIS_SPAN = 0.8  # an axis spans most of what it measures
AXIS_CORNER = 3.0  # two axes meet at their ends
AXES_AREA = 10.0
GRID_PANEL_AREA = 20.0  # a flat line on a tall panel holds little of it
GRID_SPAN = 0.9
MIN_GRID_LINES = 2
MAX_LABEL_CHARS = 40
SWATCH_EM = 2.5  # a legend's swatch: a small box, a short line
SWATCH_MIN_EM = 0.5
LEGEND_REACH_EM = 8.0
LABEL_GAP_EM = 1.0  # a legend's label starts right of its swatch
LABEL_LEFT_EM = 6.0
WORD_GAP_EM = 0.5  # the letters and words of a label stand closer than this
PANEL_AREA = 4.0
TITLE_REACH_EM = 3.0  # a chart's title stands this close above it
MIN_WEDGES = 3
MIN_PIE_SIDE = 60.0  # smaller round shapes of wedges are icons
PIE_ASPECT = 0.7  # a pie's box is about as wide as tall
PIE_CENTRE_SHARE = 0.15  # its wedges meet this near the middle


@dataclass(frozen=True, slots=True)
class Figure:
    box: Box
    # A bar chart, or a plotted line between axes: text in the body's size around it can be its labels too.
    chart: bool
    # A pie (wedges around one centre): its labels stand on every side of it, above too.
    pie: bool = False


def page_figures(
    drawings: list[Box], plots: list[Box], rules: list[Box], bars: list[Box], filled: list[Box], runs: list[Run]
) -> list[Figure]:
    """The page's drawn figures, each with the rules that cross it; `plots` are the drawings that can show data
    (filled shapes, curves, slanted lines), `bars` the boxes of bar charts, `filled` the page's filled boxes."""
    boxes: list[Box] = []
    for drawing in sorted(drawings):
        for index, box in enumerate(boxes):
            if _touch(box, drawing, TOUCHING):
                boxes[index] = _union(box, drawing)
                break
        else:
            boxes.append(drawing)
    boxes = _merged(boxes)
    figures: list[Figure] = []
    for box in boxes:
        plotted = any(_touch(box, plot, 0.0) for plot in plots)
        axes = (_axes(box, rules) or _gridded_panel(box, filled, rules, runs)) if plotted else None
        if axes is None and (box[2] - box[0] < MIN_SIDE or box[3] - box[1] < MIN_SIDE or _area(box) < MIN_AREA):
            continue
        if axes is None and sum(1 for drawing in drawings if _touch(box, drawing, 0.0)) < MIN_DRAWINGS:
            continue
        charted = any(_touch(box, chart, 0.0) for chart in bars)
        grown = _with_crossing_rules(axes or box, rules)
        figures.append(Figure(grown, chart=axes is not None or charted))
    for pie in _pies(plots):
        figures = [figure for figure in figures if not _touch(pie, figure.box, 0.0)]
        figures.append(Figure(pie, chart=True, pie=True))
    for chart in bars:
        if not any(_touch(chart, figure.box, 0.0) for figure in figures):
            rules_within = [rule for rule in rules if _spans_within(rule, chart)]
            grown = _with_crossing_rules(chart, rules_within)
            figures.append(Figure(_with_crossing_rules(grown, rules_within), chart=True))  # axes meet grid lines
    return figures


def _pies(plots: list[Box]) -> list[Box]:
    """The boxes of pies among the shapes that can show data: three or more touching, all holding one point."""
    clusters: list[list[Box]] = []
    for shape in sorted(plots):
        touching = [cluster for cluster in clusters if any(_touch(shape, other, 0.5) for other in cluster)]
        merged = [shape, *(other for cluster in touching for other in cluster)]
        clusters = [cluster for cluster in clusters if cluster not in touching] + [merged]
    pies: list[Box] = []
    for cluster in clusters:
        box = cluster[0]
        for shape in cluster[1:]:
            box = _union(box, shape)
        if _shorter(box) >= MIN_PIE_SIDE and _is_pie(box, cluster):
            pies.append(box)
    return pies


def _is_pie(box: Box, shapes: list[Box]) -> bool:
    """Whether the shapes are a pie's wedges: three or more, all holding one point near the middle of a box about
    as wide as tall."""
    width, height = box[2] - box[0], box[3] - box[1]
    if len(shapes) < MIN_WEDGES or not PIE_ASPECT <= width / height <= 1 / PIE_ASPECT:
        return False
    x0, top = max(shape[0] for shape in shapes), max(shape[1] for shape in shapes)
    x1, bottom = min(shape[2] for shape in shapes), min(shape[3] for shape in shapes)
    if x0 > x1 + 1.0 or top > bottom + 1.0:
        return False
    reach = PIE_CENTRE_SHARE * min(width, height)
    return abs((x0 + x1 - box[0] - box[2]) / 2) <= reach and abs((top + bottom - box[1] - box[3]) / 2) <= reach


def bar_charts(filled: list[Box], rules: list[Box], runs: list[Run]) -> list[Box]:
    """The boxes of bar charts: three filled boxes or more standing on one base line (their bottoms, tops or left
    edges within a point) at two lengths or more, most of them without text, with a gap between two of them, and an
    axis drawn along that line. A table's shaded cells hold text and meet each other; a list's bullets are one size;
    bars in a table's cells (progress bars) have no axis."""
    candidates = [box for box in filled if _shorter(box) >= BAR_MIN_SIDE]
    charts: list[Box] = []
    for base, length in ((3, 1), (1, 1), (0, 0)):  # bottoms (heights), tops (heights), left edges (widths)
        across = 1 - length  # the axis along the base line
        for group in _on_one_line(candidates, base):
            lengths = [box[length + 2] - box[length] for box in group]
            if max(lengths) - min(lengths) <= BAR_BASE:
                continue
            holding = sum(1 for box in group if any(_centred_in(run, box, 0.0) for run in runs))
            if holding * MAX_LABELLED_BARS > len(group):
                continue
            ordered = sorted(group, key=lambda box: box[across])
            if not any(b[across] - a[across + 2] >= BAR_GAP for a, b in itertools.pairwise(ordered)):
                continue
            chart = group[0]
            for box in group[1:]:
                chart = _union(chart, box)
            if not any(_is_base_axis(rule, chart, base) for rule in rules):
                continue
            if not any(_touch(chart, other, 0.0) for other in charts):
                charts.append(chart)
    return charts


def _is_base_axis(rule: Box, chart: Box, base: int) -> bool:
    """Whether the rule lies along the bars' base line (`base`: the chart box's edge they stand on) across them."""
    if base == 0:
        return rule[2] - rule[0] <= 2.0 and abs(rule[0] - chart[0]) <= AXIS_CORNER and _covers(rule, chart, 1)
    return rule[3] - rule[1] <= 2.0 and abs(rule[base] - chart[base]) <= AXIS_CORNER and _covers(rule, chart, 0)


def _covers(rule: Box, chart: Box, axis: int) -> bool:
    return rule[axis] <= chart[axis] + BAR_BASE and rule[axis + 2] >= chart[axis + 2] - BAR_BASE


def _on_one_line(boxes: list[Box], edge: int) -> list[list[Box]]:
    """The boxes in groups of `MIN_BARS` or more whose `edge` coordinate lies within `BAR_BASE` of the next one's."""
    groups: list[list[Box]] = []
    current: list[Box] = []
    for box in sorted(boxes, key=lambda item: item[edge]):
        if current and box[edge] - current[-1][edge] > BAR_BASE:
            groups.append(current)
            current = []
        current.append(box)
    groups.append(current)
    return [group for group in groups if len(group) >= MIN_BARS]


def _axes(box: Box, rules: list[Box]) -> Box | None:
    """The box grown by its axes: a horizontal and a vertical rule meeting at their ends below and left of the
    box's middle, spanning most of its width and height, framing no more than a few times its area. None without."""
    width, height = box[2] - box[0], box[3] - box[1]
    middle_x, middle_y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    horizontals = [rule for rule in rules if rule[3] - rule[1] <= 2.0 and rule[2] - rule[0] >= AXIS_SPAN * width]
    verticals = [rule for rule in rules if rule[2] - rule[0] <= 2.0 and rule[3] - rule[1] >= AXIS_SPAN * height]
    for horizontal in horizontals:
        if not middle_y < horizontal[1] or not horizontal[0] < middle_x < horizontal[2]:
            continue
        for vertical in verticals:
            if abs(vertical[3] - horizontal[3]) > AXIS_CORNER or abs(horizontal[0] - vertical[0]) > AXIS_CORNER:
                continue
            if not vertical[0] < middle_x or not vertical[1] < middle_y < vertical[3]:
                continue
            framed = _union(horizontal, vertical)
            if _area(framed) <= AXES_AREA * _area(box):
                return _union(box, framed)
    return None


def _gridded_panel(box: Box, filled: list[Box], rules: list[Box], runs: list[Run]) -> Box | None:
    """The filled panel a plotted line is drawn on, when grid lines cross it (two rules or more spanning its width or
    its height) and it holds hardly any text (ggplot's grey panel, plotly's, without axis lines; not a shaded box of
    text with rules between its items). None without one."""
    for panel in sorted(filled, key=_area):
        if not _holds(panel, box):
            continue
        if _area(panel) > GRID_PANEL_AREA * max(_area(box), 1.0) or _shorter(panel) < MIN_SIDE:
            return None
        width, height = panel[2] - panel[0], panel[3] - panel[1]
        across = sum(
            1
            for rule in rules
            if _touch(panel, rule, 0.0)
            and (
                (rule[3] - rule[1] <= 2.0 and rule[2] - rule[0] >= GRID_SPAN * width)
                or (rule[2] - rule[0] <= 2.0 and rule[3] - rule[1] >= GRID_SPAN * height)
            )
        )
        if across < MIN_GRID_LINES:
            return None
        text = sum(len(run.text.strip()) for run in runs if _centred_in(run, panel, 0.0))
        return panel if text <= MAX_LABEL_CHARS else None
    return None


def _spans_within(rule: Box, box: Box) -> bool:
    """Whether a rule is no longer than half again the box's side along it (an axis, not a table's rule)."""
    if rule[3] - rule[1] <= 2.0:
        return rule[2] - rule[0] <= 1.5 * (box[2] - box[0])
    return rule[3] - rule[1] <= 1.5 * (box[3] - box[1])


def _with_crossing_rules(box: Box, rules: list[Box]) -> Box:
    grown = box
    for rule in rules:
        if _touch(box, rule, 1.0):
            grown = _union(grown, rule)
    return grown


def without_figure_text(runs: list[Run], figures: list[Figure], swatches: list[Box]) -> list[Run]:
    """The runs but those drawn as part of a figure: inside its box; in the margin around it those set smaller than
    the body text or without a letter (tick labels), set sideways (an axis title), or short lines below or beside it
    within its width (category names, an axis title); the label right of a legend swatch near it; never a caption.
    `swatches` are the page's small shapes and short rules, of which a legend's are some."""
    if not figures or not runs:
        return runs
    body = _body_size(runs)
    captions = _caption_runs(runs)
    dropped: set[int] = set()
    for figure in figures:
        box = figure.box
        inside = [run for run in runs if _centred_in(run, box, 0.0) and id(run) not in captions]
        lengths = [len(run.text.strip()) for run in inside]
        if inside and (statistics.median(lengths) > MAX_MEDIAN_CHARS or max(lengths) > MAX_CHARS):
            continue  # a frame around running text
        if any(run.size > LARGER * body for run in inside):
            if not figure.chart:
                continue  # a banner or panel behind a title, not a figure
            inside = [run for run in inside if run.size <= LARGER * body]  # a chart's title stays, as its caption
        margin = MARGIN_EM * body
        around = [
            run
            for run in runs
            if not _centred_in(run, box, 0.0) and id(run) not in captions and _is_label(run, figure, runs, margin, body)
        ]
        dropped.update(id(run) for run in inside + around)
        if not figure.chart:
            continue
        dropped.update(id(run) for run in _legend_labels(box, runs, swatches, body) if id(run) not in captions)
        panel = _panel(box, swatches)
        if panel is not None:
            dropped.update(
                id(run)
                for run in runs
                if _centred_in(run, panel, 0.0)
                and id(run) not in captions
                and run.size <= LARGER * body
                and sum(len(other.text.strip()) for other in _line_of(run, runs)) <= MAX_LABEL_CHARS
            )
    return [run for run in runs if id(run) not in dropped] if dropped else runs


def chart_titles(runs: list[Run], figures: list[Figure], swatches: list[Box]) -> list[Run]:
    """The runs set larger than the body inside a chart, just above it or inside the chart area behind it: its title,
    which stays in the text (as its caption) but stands beside other text on its line only by chance (a sheet's rows
    left of it)."""
    charts = [figure.box for figure in figures if figure.chart]
    if not charts or not runs:
        return []
    body = _body_size(runs)
    above = [(box[0], box[1] - TITLE_REACH_EM * body, box[2], box[3]) for box in charts]
    areas = above + [panel for box in charts if (panel := _panel(box, swatches)) is not None]
    return [run for run in runs if run.size > LARGER * body and any(_centred_in(run, area, 0.0) for area in areas)]


def _panel(box: Box, shapes: list[Box]) -> Box | None:
    """The smallest filled shape holding the figure whole, when it is at most a few times its size: the chart area
    a spreadsheet or a slide draws behind a chart, its title, axis titles and legend."""
    holding = [shape for shape in shapes if _holds(shape, box) and _area(shape) <= PANEL_AREA * _area(box)]
    return min(holding, key=_area) if holding else None


def _is_label(run: Run, figure: Figure, runs: list[Run], margin: float, body: float) -> bool:
    """Whether a run outside a figure is one of its labels: within the margin, set smaller than the body or without
    a letter; around a chart also, within the wider margin, one set sideways beside it (an axis title), and a short
    line below it within its width or beside it ending or starting near it (category names, axis titles)."""
    box = figure.box
    if not figure.chart:
        return _centred_in(run, box, margin * (VERTICAL_MARGIN if run.vertical else 1.0)) and (
            run.size < SMALLER * body or not any(char.isalpha() for char in run.text)
        )
    if _centred_in(run, box, margin) and (run.size < SMALLER * body or not any(char.isalpha() for char in run.text)):
        return True
    middle = (run.top + run.bottom) / 2
    if figure.pie and _centred_in(run, box, margin) and _short_line_within(run, box, runs, margin * VERTICAL_MARGIN):
        return True
    if run.vertical:
        return (
            _centred_in(run, box, margin * VERTICAL_MARGIN)
            and box[1] <= middle <= box[3]
            and len(run.text.strip()) <= MAX_LABEL_CHARS
        )
    reach = margin + MAX_LABEL_CHARS * run.size  # a label line's runs lie within its reach of the box
    return (
        box[1] <= middle <= box[3] + margin * VERTICAL_MARGIN
        and box[0] - reach <= run.x0
        and run.x1 <= box[2] + reach
        and _label_line(run, box, runs, margin)
    )


def _short_line_within(run: Run, box: Box, runs: list[Run], margin: float) -> bool:
    """Whether the run's line is short and lies wholly within the box widened by the margin (a pie's labels, a
    category axis's names)."""
    extent = _short_line(run, runs)
    return extent is not None and extent[0] >= box[0] - margin and extent[1] <= box[2] + margin


def _short_line(run: Run, runs: list[Run]) -> tuple[float, float] | None:
    """Where the run's line starts and ends, when it holds no more than a label's characters; else None."""
    line = _line_of(run, runs)
    if sum(len(other.text.strip()) for other in line) > MAX_LABEL_CHARS:
        return None
    return min(other.x0 for other in line), max(other.x1 for other in line)


def _label_line(run: Run, box: Box, runs: list[Run], margin: float) -> bool:
    """Whether the run is on a short line below the box within its width widened by the margin (a category axis's
    names, an axis title), or left of it ending within the margin where another such line ends (the names of
    horizontal bars, set flush against their axis), or starting right of it within an em (a right axis's title)."""
    extent = _short_line(run, runs)
    if extent is None:
        return False
    start, end = extent
    if (run.top + run.bottom) / 2 > box[3]:
        return start >= box[0] - margin and end <= box[2] + margin
    if box[0] - margin <= end <= box[0] + 1.0:
        return any(
            other is not run
            and not other.vertical
            and box[1] <= (other.top + other.bottom) / 2 <= box[3]
            and abs(other.x1 - end) <= AXIS_CORNER
            and abs(other.top - run.top) > run.size
            for other in runs
        )
    return box[2] - 1.0 <= start <= box[2] + margin / MARGIN_EM


def _line_of(run: Run, runs: list[Run]) -> list[Run]:
    """The runs on the run's line: their middles within a third of its height of its middle, each within two ems
    of the one before."""
    middle, reach = (run.top + run.bottom) / 2, (run.bottom - run.top) / 3
    level = sorted(
        (other for other in runs if not other.vertical and abs((other.top + other.bottom) / 2 - middle) <= reach),
        key=lambda other: other.x0,
    )
    index = next(position for position, other in enumerate(level) if other is run) if run in level else 0
    gap = 2.0 * max(run.size, 1.0)
    start = index
    while start > 0 and level[start].x0 - level[start - 1].x1 <= gap:
        start -= 1
    end = index
    while end + 1 < len(level) and level[end + 1].x0 - level[end].x1 <= gap:
        end += 1
    return level[start : end + 1] or [run]


def _legend_labels(box: Box, runs: list[Run], swatches: list[Box], body: float) -> list[Run]:
    """The labels of a legend near the box: a short run starting just right of a small shape or a short rule, or
    ending left of one (within a few ems: such labels are set flush left), its middle within the swatch's height;
    the swatch or the label near the box or near an entry of the legend found already (a legend in columns)."""
    gap = LABEL_GAP_EM * body
    wide = LABEL_LEFT_EM * body  # labels left of their swatches are set flush left, ending where they end
    small = [
        swatch
        for swatch in swatches
        if max(swatch[2] - swatch[0], swatch[3] - swatch[1]) <= SWATCH_EM * body
        and (_shorter(swatch) <= 2.0 or _shorter(swatch) >= SWATCH_MIN_EM * body)
    ]  # a line's swatch is a short rule, a bar's a box; a list's bullets are smaller
    entries: list[tuple[Box, list[Run]]] = []
    for swatch in small:
        level = sorted(
            (
                run
                for run in runs
                if not run.vertical and swatch[1] - 2.0 <= (run.top + run.bottom) / 2 <= swatch[3] + 2.0
            ),
            key=lambda run: run.x0,
        )
        right = [run for run in level if run.x0 >= swatch[2] - 1.0]
        left = [run for run in reversed(level) if run.x1 <= swatch[0] + 1.0]
        for label in (_chained(right, swatch[2], gap, forward=True), _chained(left, swatch[0], wide, forward=False)):
            if label and sum(len(run.text.strip()) for run in label) <= MAX_LABEL_CHARS:
                entries.append((_union(swatch, (label[0].x0, label[0].top, label[-1].x1, label[-1].bottom)), label))
    reach = LEGEND_REACH_EM * body
    near = [box]
    labels: dict[int, Run] = {}
    found = True
    while found:
        found = False
        for entry, label in entries:
            if id(label[0]) not in labels and any(_touch(region, entry, reach) for region in near):
                labels.update((id(run), run) for run in label)
                near.append(entry)
                found = True
    return list(labels.values())


def _chained(runs: list[Run], edge: float, reach: float, *, forward: bool) -> list[Run]:
    """The runs of one label next to a swatch's `edge`, in reading order: the first within `reach` of it, then each
    next one within half an em (the letters and words of the label), up to a wider gap."""
    chain: list[Run] = []
    for run in runs:
        gap = (run.x0 - (chain[-1].x1 if chain else edge)) if forward else ((chain[-1].x0 if chain else edge) - run.x1)
        if gap > (reach if not chain else WORD_GAP_EM * max(run.size, 1.0)):
            break
        chain.append(run)
    return chain if forward else chain[::-1]


def _holds(shape: Box, box: Box) -> bool:
    """Whether the shape holds the box whole, to a point."""
    return (
        shape[0] <= box[0] + 1.0 and shape[1] <= box[1] + 1.0 and box[2] <= shape[2] + 1.0 and box[3] <= shape[3] + 1.0
    )


def _shorter(box: Box) -> float:
    return min(box[2] - box[0], box[3] - box[1])


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
