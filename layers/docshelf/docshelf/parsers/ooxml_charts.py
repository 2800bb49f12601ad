"""DrawingML chart parts (`c:chartSpace`), as XLSX and PPTX embed them: what a chart shows, in words and values.

The words are the chart's title, kinds, series names and axis titles; the values are the categories and
each series' points as the part caches them (the numbers the chart was last drawn with), so they can be read
without the workbook the chart was made from.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from docshelf.parsers.xml_safety import local

if TYPE_CHECKING:
    from lxml import etree

CHART_NS = "http://schemas.openxmlformats.org/drawingml/2006/chart"
DRAWING_NS = "http://schemas.openxmlformats.org/drawingml/2006/main"
MAX_POINTS = 10_000  # per series; a cache index beyond it is ignored
_AXES = ("catAx", "valAx", "dateAx", "serAx")
_CATEGORIES = ("cat", "xVal")
_VALUES = ("val", "yVal")


@dataclass(frozen=True, slots=True)
class Series:
    """One series' name and its cached points by index ('' where the cache has none)."""

    name: str
    points: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Chart:
    kinds: tuple[str, ...]
    title: str
    series: tuple[str, ...]
    axis_titles: tuple[str, ...]
    categories: tuple[str, ...] = ()
    data: tuple[Series, ...] = ()

    def summary(self) -> str:
        """What the chart shows, in words: `Line chart of col-2, col-3 (axes: year, sales)`."""
        kind = " and ".join(dict.fromkeys(self.kinds)) or "chart"
        text = f"{kind[0].upper()}{kind[1:]} chart" if self.kinds else "Chart"
        if self.series:
            text += " of " + ", ".join(self.series)
        if self.axis_titles:
            text += " (axes: " + ", ".join(self.axis_titles) + ")"
        return text

    def value_rows(self) -> list[list[str]]:
        """The cached values as a grid: a header of series names, then one row per category; [] without values."""
        if not any(any(series.points) for series in self.data):
            return []
        count = max(len(self.categories), *(len(series.points) for series in self.data))
        labels = [*self.categories, *(str(number) for number in range(len(self.categories) + 1, count + 1))]
        rows = [["", *(series.name for series in self.data)]]
        for index in range(count):
            values = [series.points[index] if index < len(series.points) else "" for series in self.data]
            rows.append([labels[index], *values])
        return rows


def read_chart(root: etree._Element) -> Chart:
    """The title, chart kinds, series names, axis titles and cached values of a `c:chartSpace` part."""
    chart = _child(root, CHART_NS, "chart")
    if chart is None:
        return Chart((), "", (), ())
    title_element = _child(chart, CHART_NS, "title")
    plot = _child(chart, CHART_NS, "plotArea")
    kinds: list[str] = []
    data: list[Series] = []
    categories: tuple[str, ...] = ()
    axis_titles: list[str] = []
    for element in plot if plot is not None else ():
        name = local(element.tag)
        if name.endswith("Chart"):
            kinds.append(_kind_words(name))
            for ser in element.iterchildren(f"{{{CHART_NS}}}ser"):
                data.append(Series(_text_of(_child(ser, CHART_NS, "tx")), _cached(ser, _VALUES)))
                categories = categories or _cached(ser, _CATEGORIES)
        elif name in _AXES:
            text = _text_of(_child(element, CHART_NS, "title"))
            if text:
                axis_titles.append(text)
    series = [item.name for item in data if item.name]
    title = _text_of(title_element)
    if not title and title_element is not None and len(series) == 1:
        title = series[0]  # a title element without text shows the only series' name
    return Chart(
        tuple(kinds), title, tuple(dict.fromkeys(series)), tuple(dict.fromkeys(axis_titles)), categories, tuple(data)
    )


def _cached(ser: etree._Element, sources: tuple[str, ...]) -> tuple[str, ...]:
    """The cached points of a series' categories or values, by index; of multi-level labels, the innermost."""
    source = next((child for child in ser if local(child.tag) in sources), None)
    if source is None:
        return ()
    level = next(source.iter(f"{{{CHART_NS}}}lvl"), None)
    points: dict[int, str] = {}
    for point in (level if level is not None else source).iter(f"{{{CHART_NS}}}pt"):
        index, value = point.get("idx", ""), _child(point, CHART_NS, "v")
        if index.isdigit() and int(index) < MAX_POINTS and value is not None:
            points[int(index)] = " ".join((value.text or "").split())
    return tuple(points.get(index, "") for index in range(max(points) + 1)) if points else ()


def _child(element: etree._Element | None, ns: str, name: str) -> etree._Element | None:
    return None if element is None else element.find(f"{{{ns}}}{name}")


def _text_of(element: etree._Element | None) -> str:
    """Text of a title or series `tx`: rich-text runs, else the cached value of a cell reference."""
    if element is None:
        return ""
    runs = [run.text or "" for run in element.iter(f"{{{DRAWING_NS}}}t")]
    if not runs:
        runs = [value.text or "" for value in element.iter(f"{{{CHART_NS}}}v")]
    return " ".join(" ".join(runs).split())


def _kind_words(tag: str) -> str:
    """`bar3DChart` -> `3D bar`, `lineChart` -> `line`, `ofPieChart` -> `pie-of-pie`."""
    stem = tag[: -len("Chart")]
    if stem == "ofPie":
        return "pie-of-pie"
    if stem.endswith("3D"):
        return "3D " + stem[:-2].lower()
    return stem.lower()
