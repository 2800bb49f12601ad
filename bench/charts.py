"""Grouped horizontal bar charts as SVG, without dependencies, for the benches' side-by-side comparisons.

One group a row block (a data set), one bar a series (a system) in every group, its value written at its end, and
a legend. The output depends only on the arguments (fixed number formatting, no timestamps or ids), so a chart
rendered twice from the same figures is the same file, and a committed chart shows its figures' change in a diff.
A missing value (`None`) draws no bar and writes "–".
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

# Colours that stay apart for the common colour-vision deficiencies (Okabe and Ito's palette).
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")

BAR_SPAN = 480  # the length of a bar at the axis' maximum
CHAR_WIDTH = 7  # a generous width of one character at 12 px, to size the labels' column
VALUE_WIDTH = 56  # room after the longest bar for its value
BAR_HEIGHT = 14
BAR_GAP = 2
GROUP_GAP = 12
TOP = 40  # the title's band
LEGEND_ROW = 18


def _font(size: int = 12) -> str:
    return f'font-family="DejaVu Sans, Arial, sans-serif" font-size="{size}"'


@dataclass(frozen=True)
class Series:
    """One system's values, one per group, in the groups' order."""

    name: str
    values: tuple[float | None, ...]


@dataclass(frozen=True)
class BarChart:
    title: str
    groups: tuple[str, ...]
    series: tuple[Series, ...]
    minimum: float = 0.0  # the value at the axis' origin: bars are proportional to value - minimum
    maximum: float | None = None  # None: the largest value
    value_format: str = "{:.3f}"
    note: str = ""  # a line under the chart, e.g. the measure and the command behind the figures

    def __post_init__(self) -> None:
        if not self.groups or not self.series:
            raise ValueError("a chart needs at least one group and one series")
        if len(self.series) > len(PALETTE):
            raise ValueError(f"at most {len(PALETTE)} series, got {len(self.series)}")
        for series in self.series:
            if len(series.values) != len(self.groups):
                raise ValueError(
                    f"series {series.name!r} has {len(series.values)} values for {len(self.groups)} groups"
                )
        if self.top() <= self.minimum:
            raise ValueError(f"the axis' maximum {self.top()} is not above its minimum {self.minimum}")
        low = [v for s in self.series for v in s.values if v is not None and v < self.minimum]
        if low:
            raise ValueError(f"values below the axis' minimum {self.minimum}: {low}")

    def top(self) -> float:
        if self.maximum is not None:
            return self.maximum
        return max((v for s in self.series for v in s.values if v is not None), default=self.minimum + 1.0)


def _number(value: float) -> str:
    """SVG coordinates with one decimal, written the same way on every platform."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def bar_length(chart: BarChart, value: float) -> float:
    """The length of `value`'s bar: proportional to its distance from the axis' minimum."""
    return BAR_SPAN * (min(value, chart.top()) - chart.minimum) / (chart.top() - chart.minimum)


def label_width(chart: BarChart) -> int:
    return 16 + CHAR_WIDTH * max(len(group) for group in chart.groups)


def render(chart: BarChart) -> str:
    """The chart as a standalone SVG document."""
    group_height = len(chart.series) * (BAR_HEIGHT + BAR_GAP) + GROUP_GAP
    legend_top = TOP + len(chart.groups) * group_height + 8
    height = legend_top + LEGEND_ROW * len(chart.series) + (LEGEND_ROW + 6 if chart.note else 6)
    x0 = label_width(chart)
    width = max(x0 + BAR_SPAN + VALUE_WIDTH, 9 * len(chart.title) + 20, 6 * len(chart.note) + 20)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{_number(height)}" '
        f'viewBox="0 0 {width} {_number(height)}" role="img" aria-labelledby="title">',
        f'<title id="title">{escape(chart.title)}</title>',
        f'<rect width="{width}" height="{_number(height)}" fill="#ffffff"/>',
        f'<text x="10" y="22" {_font(15)} font-weight="bold">{escape(chart.title)}</text>',
        f'<line x1="{x0}" y1="{TOP - 4}" x2="{x0}" y2="{_number(legend_top - 8)}" stroke="#444444"/>',
        f'<text x="{x0}" y="{TOP - 8}" {_font(10)} fill="#444444">'
        f"{escape(chart.value_format.format(chart.minimum))}</text>",
        f'<text x="{x0 + BAR_SPAN}" y="{TOP - 8}" text-anchor="end" {_font(10)} fill="#444444">'
        f"{escape(chart.value_format.format(chart.top()))}</text>",
    ]
    for g, group in enumerate(chart.groups):
        y = TOP + g * group_height
        middle = y + len(chart.series) * (BAR_HEIGHT + BAR_GAP) / 2 + 4
        out.append(f'<text x="{x0 - 8}" y="{_number(middle)}" text-anchor="end" {_font()}>{escape(group)}</text>')
        for s, series in enumerate(chart.series):
            bar_y = y + s * (BAR_HEIGHT + BAR_GAP)
            value = series.values[g]
            if value is None:
                label, length = "–", 0.0
            else:
                label, length = chart.value_format.format(value), bar_length(chart, value)
                out.append(
                    f'<rect class="bar" data-series={quoteattr(series.name)} data-group={quoteattr(group)} '
                    f'x="{x0}" y="{_number(bar_y)}" width="{_number(length)}" height="{BAR_HEIGHT}" '
                    f'fill="{PALETTE[s]}"/>'
                )
            out.append(
                f'<text x="{_number(x0 + length + 4)}" y="{_number(bar_y + BAR_HEIGHT - 3)}" {_font(10)}>'
                f"{escape(label)}</text>"
            )
    for s, series in enumerate(chart.series):
        y = legend_top + s * LEGEND_ROW
        out.append(f'<rect x="{x0}" y="{y}" width="12" height="12" fill="{PALETTE[s]}"/>')
        out.append(f'<text x="{x0 + 18}" y="{y + 10}" {_font()}>{escape(series.name)}</text>')
    if chart.note:
        y = legend_top + len(chart.series) * LEGEND_ROW + 10
        out.append(f'<text x="10" y="{y}" {_font(10)} fill="#444444">{escape(chart.note)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def write(chart: BarChart, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render(chart), encoding="utf-8")
