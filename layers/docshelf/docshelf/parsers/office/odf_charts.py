"""Charts of OpenDocument files (ODT, ODS, ODP): a frame's embedded object whose content is an `office:chart`
(odf_objects.py puts it inline). What it shows is read as DrawingML charts are (ooxml_charts.Chart): its kind
(`chart:class`, per series where they differ), title, axis titles, and the table of values it was drawn with, which
the chart keeps as its own local table (series names in its header row, a category and its values in each row)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from docshelf.model import Block, Image, Table, TableCell
from docshelf.parsers.office.opendocument import element_text
from docshelf.parsers.ooxml_charts import Chart, Series
from docshelf.parsers.xml_safety import local

if TYPE_CHECKING:
    from lxml import etree

CHART = "urn:oasis:names:tc:opendocument:xmlns:chart:1.0"
MAX_ROWS = 10_000  # of a chart's local table
# chart:class values (after `chart:`) in the words DrawingML charts are described with
_KINDS = {"circle": "pie", "ring": "doughnut", "filled-radar": "filled radar", "gantt": "Gantt"}
_ROW_PARTS = frozenset({"table-header-rows", "table-rows", "table-row-group"})


def frame_chart(frame: etree._Element) -> Chart | None:
    """The chart a frame's embedded object holds, or None when it holds none."""
    embedded = next((child for child in frame if local(child.tag) == "object"), None)
    chart = next(embedded.iter(f"{{{CHART}}}chart"), None) if embedded is not None else None
    if chart is None:
        return None
    title = next((child for child in chart if child.tag == f"{{{CHART}}}title"), None)
    plot = next((child for child in chart if child.tag == f"{{{CHART}}}plot-area"), None)
    kinds = [_kind(str(chart.get(f"{{{CHART}}}class", "")))]
    axis_titles: list[str] = []
    for element in plot if plot is not None else ():
        if element.tag == f"{{{CHART}}}series" and element.get(f"{{{CHART}}}class"):
            kinds.append(_kind(str(element.get(f"{{{CHART}}}class"))))
        elif element.tag == f"{{{CHART}}}axis":
            named = next((child for child in element if child.tag == f"{{{CHART}}}title"), None)
            if named is not None and element_text(named):
                axis_titles.append(element_text(named))
    rows = _local_rows(chart)
    names = rows[0][1:] if rows else []
    data = tuple(Series(name, tuple(row[at + 1] if at + 1 < len(row) else "" for row in rows[1:]))
                 for at, name in enumerate(names))  # fmt: skip
    return Chart(
        kinds=tuple(kind for kind in dict.fromkeys(kinds) if kind),
        title=element_text(title) if title is not None else "",
        series=tuple(name for name in names if name),
        axis_titles=tuple(axis_titles),
        categories=tuple(row[0] if row else "" for row in rows[1:]),
        data=data,
    )


def chart_blocks(chart: Chart, alt_text: str, *, page: int, with_values: bool = True) -> list[Block]:
    """The chart as an image described in words, then (`with_values`) its values as a table, as DOCX and PPTX
    charts are; a spreadsheet's chart shows values its sheet holds already."""
    image = Image(page=page, caption=chart.title, alt_text=alt_text or chart.summary())
    rows = chart.value_rows() if with_values else []
    if not rows:
        return [image]
    cells = [TableCell(row=r, col=c, text=text) for r, row in enumerate(rows) for c, text in enumerate(row)]
    return [image, Table(cells=tuple(cells), n_rows=len(rows), n_cols=len(rows[0]), page=page, header_rows=1)]


def _kind(value: str) -> str:
    name = value.rpartition(":")[2]
    return _KINDS.get(name, name)


def _local_rows(chart: etree._Element) -> list[list[str]]:
    """The chart's local table as text rows: its header row, then its data rows."""
    table = next((child for child in chart if local(child.tag) == "table"), None)
    if table is None:
        return []
    rows: list[list[str]] = []
    for part in table:
        members = [part] if local(part.tag) == "table-row" else list(part) if local(part.tag) in _ROW_PARTS else []
        for row in members:
            if local(row.tag) == "table-row" and len(rows) < MAX_ROWS:
                rows.append([_cell_text(cell) for cell in row if local(cell.tag) == "table-cell"])
    return rows


def _cell_text(cell: etree._Element) -> str:
    """The text a cell shows (its paragraphs, not the range description LibreOffice keeps beside it)."""
    return " ".join(element_text(p) for p in cell if local(p.tag) == "p").strip()
