"""Charts in a PDF: bar charts (filled boxes on an axis), one plotted line between axes and pies keep their labels
and legends out of the body text, in the body's own size too; progress bars in a table, shaded cells, text beside a
chart and the labels beside small round icons stay."""

from __future__ import annotations

import io

from reportlab.graphics import renderPDF
from reportlab.graphics.charts.barcharts import HorizontalBarChart, VerticalBarChart
from reportlab.graphics.charts.legends import Legend
from reportlab.graphics.charts.linecharts import HorizontalLineChart
from reportlab.graphics.charts.piecharts import Pie
from reportlab.graphics.shapes import Drawing, String
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas

from docshelf.model import Heading, Paragraph, Table
from docshelf.parsers.base import ParseLimits
from docshelf.parsers.pdf.pdf import parse
from docshelf.parsers.pdf.pdf_figures import bar_charts, page_figures
from docshelf.tables import table_grid

WIDTH, HEIGHT = A4
LEFT = 72.0
BEFORE = "The pumps were tested at four sites over four quarters, and throughput rose at every site."
AFTER = "The southern site stayed level because its pumps ran at the limit of the supply line."
BODY_SIZE = 10


def _texts(data: bytes) -> list[str]:
    content = parse(data, filename="report.pdf", limits=ParseLimits())
    return [block.text for block in content.blocks if isinstance(block, (Paragraph, Heading))]


def _tables(data: bytes) -> list[list[list[str]]]:
    content = parse(data, filename="report.pdf", limits=ParseLimits())
    return [table_grid(block) for block in content.blocks if isinstance(block, Table)]


def _page(draw_figure: object, caption: str = "Figure 1. Throughput by site in the first and last quarter.") -> bytes:
    """A page of body text in 10 pt, a chart drawn in the same size, its caption, more body text."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont("Helvetica", BODY_SIZE)
    pdf.drawString(LEFT, HEIGHT - 80, BEFORE)
    assert callable(draw_figure)
    draw_figure(pdf, HEIGHT - 340)
    pdf.setFont("Helvetica", BODY_SIZE)
    pdf.drawString(LEFT, HEIGHT - 370, caption)
    pdf.drawString(LEFT, HEIGHT - 400, AFTER)
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def _vertical_bars(pdf: canvas.Canvas, bottom: float, left: float = LEFT) -> None:
    drawing = Drawing(420, 230)
    chart = VerticalBarChart()
    chart.x, chart.y, chart.width, chart.height = 50, 40, 280, 170
    chart.data = [(52, 38, 44, 61), (71, 41, 47, 66)]
    chart.categoryAxis.categoryNames = ["North", "South", "East", "West"]
    chart.categoryAxis.labels.fontSize = BODY_SIZE
    chart.valueAxis.labels.fontSize = BODY_SIZE
    chart.valueAxis.valueMin, chart.valueAxis.valueMax, chart.valueAxis.valueStep = 0, 80, 20
    chart.bars[0].fillColor = colors.HexColor("#4477aa")
    chart.bars[1].fillColor = colors.HexColor("#ee6677")
    drawing.add(chart)
    legend = Legend()
    legend.x, legend.y, legend.fontSize = 345, 180, BODY_SIZE
    legend.colorNamePairs = [
        (colors.HexColor("#4477aa"), "Spring quarter"),
        (colors.HexColor("#ee6677"), "Winter quarter"),
    ]
    drawing.add(legend)
    drawing.add(String(190, 10, "Pumping station", fontSize=BODY_SIZE, textAnchor="middle"))
    renderPDF.draw(drawing, pdf, left, bottom)


def _horizontal_bars(pdf: canvas.Canvas, bottom: float) -> None:
    drawing = Drawing(420, 200)
    chart = HorizontalBarChart()
    chart.x, chart.y, chart.width, chart.height = 110, 30, 260, 160
    chart.data = [(12.5, 8.1, 15.0, 4.2)]
    chart.categoryAxis.categoryNames = ["Filters", "Seals", "Bearings", "Impellers"]
    chart.categoryAxis.labels.fontSize = BODY_SIZE
    chart.valueAxis.labels.fontSize = BODY_SIZE
    chart.valueAxis.valueMin = 0
    drawing.add(chart)
    renderPDF.draw(drawing, pdf, LEFT, bottom)


def _line_plot(pdf: canvas.Canvas, bottom: float) -> None:
    drawing = Drawing(420, 220)
    chart = HorizontalLineChart()
    chart.x, chart.y, chart.width, chart.height = 50, 40, 300, 170
    chart.data = [(2.1, 2.4, 2.2, 2.8, 3.0, 2.9, 3.1, 3.3, 3.2, 3.4, 3.5, 3.6)]
    chart.categoryAxis.categoryNames = [
        "Jan",
        "Feb",
        "Mar",
        "Apr",
        "May",
        "Jun",
        "Jul",
        "Aug",
        "Sep",
        "Oct",
        "Nov",
        "Dec",
    ]
    chart.categoryAxis.labels.fontSize = BODY_SIZE
    chart.valueAxis.labels.fontSize = BODY_SIZE
    drawing.add(chart)
    drawing.add(String(200, 10, "Month of operation", fontSize=BODY_SIZE, textAnchor="middle"))
    renderPDF.draw(drawing, pdf, LEFT, bottom)


def test_a_bar_chart_keeps_its_labels_legend_and_axis_title_out_of_the_body_text() -> None:
    caption = "Figure 1. Throughput by site in the first and last quarter."
    assert " ".join(_texts(_page(_vertical_bars, caption))) == f"{BEFORE} {caption} {AFTER}"


def test_the_names_of_horizontal_bars_beside_their_axis_are_the_chart_s() -> None:
    caption = "Figure 2. Parts replaced per thousand hours."
    assert " ".join(_texts(_page(_horizontal_bars, caption))) == f"{BEFORE} {caption} {AFTER}"


def test_one_plotted_line_between_axes_is_a_chart() -> None:
    caption = "Figure 3. Line pressure at the northern site."
    assert " ".join(_texts(_page(_line_plot, caption))) == f"{BEFORE} {caption} {AFTER}"


def _progress_table(pdf: canvas.Canvas, bottom: float) -> None:
    """A table of work packages whose third column draws a progress bar before each share: bars without an axis."""
    for index, (name, share, month) in enumerate(
        [("Intake", 80, "May"), ("Filters", 40, "June"), ("Pumps", 100, "July"), ("Controls", 20, "August")]
    ):
        y = bottom + 200 - 24 * index
        pdf.setFont("Helvetica", BODY_SIZE)
        pdf.drawString(LEFT, y, name)
        pdf.setFillColor(colors.HexColor("#4477aa"))
        pdf.rect(LEFT + 120, y - 1, share, 9, stroke=0, fill=1)
        pdf.setFillColor(colors.black)
        pdf.drawString(LEFT + 230, y, f"{share}%")
        pdf.drawString(LEFT + 300, y, month)


def test_progress_bars_in_a_table_are_no_chart() -> None:
    data = _page(_progress_table, caption="Table 1. Work packages.")
    words = " ".join(_texts(data) + [" ".join(" ".join(row) for row in grid) for grid in _tables(data)])
    for kept in ("Intake", "80%", "Filters", "40%", "Controls", "20%", "August"):
        assert kept in words


def _shaded_cells(pdf: canvas.Canvas, bottom: float) -> None:
    """A table whose every other row is shaded, some cells empty and of their own heights: it holds text."""
    for row in range(4):
        y = bottom + 180 - 30 * row
        if row % 2:
            for column, height in enumerate((20, 24, 20)):
                pdf.setFillColor(colors.HexColor("#dddddd"))
                pdf.rect(LEFT + 120 * column, y - 6, 120, height, stroke=0, fill=1)
        pdf.setFillColor(colors.black)
        pdf.setFont("Helvetica", BODY_SIZE)
        pdf.drawString(LEFT + 4, y, f"Site {row + 1}")
        if row != 1:
            pdf.drawString(LEFT + 124, y, f"{40 + row} m3/h")
        pdf.drawString(LEFT + 244, y, "in service")


def test_shaded_table_cells_are_no_bars() -> None:
    data = _page(_shaded_cells, caption="Table 1. Sites.")
    words = " ".join(_texts(data) + [" ".join(" ".join(row) for row in grid) for grid in _tables(data)])
    for kept in ("Site 1", "Site 2", "Site 4", "43 m3/h", "in service"):
        assert kept in words


def _chart_beside_text(pdf: canvas.Canvas, bottom: float) -> None:
    _vertical_bars(pdf, bottom)
    pdf.setFont("Helvetica", BODY_SIZE)
    pdf.drawString(LEFT + 430, bottom + 120, "North grew most.")


def test_a_short_line_beside_a_chart_but_apart_from_it_stays() -> None:
    assert "North grew most." in _texts(_page(_chart_beside_text))


def test_bars_need_an_axis_along_their_base_and_a_gap_between_them() -> None:
    bars = [(100.0, 300.0 - height, 120.0, 300.0) for height in (40.0, 80.0, 60.0)]
    bars = [(x0 + 30.0 * index, top, x1 + 30.0 * index, bottom) for index, (x0, top, x1, bottom) in enumerate(bars)]
    axis = (95.0, 299.5, 190.0, 300.5)
    assert bar_charts(bars, [axis], []) == [(100.0, 220.0, 180.0, 300.0)]
    assert bar_charts(bars, [], []) == []
    meeting = [
        (100.0 + 20.0 * index, top, 120.0 + 20.0 * index, bottom) for index, (_, top, _, bottom) in enumerate(bars)
    ]
    assert bar_charts(meeting, [axis], []) == []
    same_height = [(x0, 260.0, x1, 300.0) for x0, _, x1, _ in bars]
    assert bar_charts(same_height, [axis], []) == []


def test_a_lone_curve_without_axes_is_no_figure() -> None:
    curve = (100.0, 100.0, 300.0, 200.0)
    assert page_figures([curve], [curve], [], [], [], []) == []
    axes = [(90.0, 210.0, 310.0, 211.0), (90.0, 90.0, 91.0, 211.0)]
    (figure,) = page_figures([curve], [curve], axes, [], [], [])
    assert figure.chart and figure.box == (90.0, 90.0, 310.0, 211.0)


def _pie(pdf: canvas.Canvas, bottom: float) -> None:
    """A pie with a label by each wedge and a legend in two columns, labels left of their swatches."""
    drawing = Drawing(420, 200)
    pie = Pie()
    pie.x, pie.y, pie.width, pie.height = 50, 20, 160, 160
    pie.data = [45, 25, 20, 10]
    pie.labels = ["Energy", "Staff", "Parts", "Other"]
    pie.slices.fontSize = BODY_SIZE
    shades = [colors.HexColor(shade) for shade in ("#4477aa", "#ee6677", "#228833", "#ccbb44")]
    for index, shade in enumerate(shades):
        pie.slices[index].fillColor = shade
    drawing.add(pie)
    legend = Legend()
    legend.x, legend.y, legend.fontSize = 280, 150, BODY_SIZE
    legend.colorNamePairs = list(zip(shades, ["Energy 45%", "Staff 25%", "Parts 20%", "Other 10%"], strict=True))
    drawing.add(legend)
    renderPDF.draw(drawing, pdf, LEFT, bottom)


def test_a_pie_keeps_its_wedge_labels_and_legend_out_of_the_body_text() -> None:
    caption = "Figure 4. Operating cost by kind."
    assert " ".join(_texts(_page(_pie, caption))) == f"{BEFORE} {caption} {AFTER}"


def _icons(pdf: canvas.Canvas, bottom: float) -> None:
    """Small round icons drawn as four wedges each, a short line of text beside each: a report's navigation."""
    for index, text in enumerate(("Natural Capital", "Human Capital", "Financial Capital")):
        y = bottom + 200 - 40 * index
        for start in range(0, 360, 90):
            pdf.setFillColor(colors.HexColor("#4477aa" if start % 180 else "#ee6677"))
            pdf.wedge(LEFT, y, LEFT + 24, y + 24, start, 90, stroke=0, fill=1)
        pdf.setFillColor(colors.black)
        pdf.setFont("Helvetica", BODY_SIZE)
        pdf.drawString(LEFT + 32, y + 8, text)


def test_small_round_icons_are_no_pie() -> None:
    texts = " ".join(_texts(_page(_icons, "Table 2. Capitals.")))
    for kept in ("Natural Capital", "Human Capital", "Financial Capital"):
        assert kept in texts


def _sheet_with_chart() -> bytes:
    """A spreadsheet printed with its chart beside its table (LibreOffice Calc): the chart area is filled, and the
    chart's title, larger than the cells, stands level with the table's second row."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    top = HEIGHT - 80
    pdf.setFillColor(colors.HexColor("#f4f4f4"))
    pdf.rect(250, top - 250, 300, 262, stroke=0, fill=1)  # narrower than the chart: its title is found above it
    pdf.setFillColor(colors.black)
    pdf.setFont("Helvetica-Bold", 16)
    pdf.drawCentredString(410, top - 15, "Throughput by site")
    _vertical_bars(pdf, top - 240, left=260)
    pdf.setFont("Helvetica", BODY_SIZE)
    for index, row in enumerate(
        [("Site", "Q1", "Q4"), ("North", "52", "71"), ("South", "38", "41"), ("East", "44", "47")]
    ):
        pdf.drawString(56, top - 15 * index, row[0])
        pdf.drawRightString(150, top - 15 * index, row[1])
        pdf.drawRightString(200, top - 15 * index, row[2])
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def test_a_chart_s_title_level_with_a_table_s_row_stays_out_of_the_table() -> None:
    data = _sheet_with_chart()
    assert _tables(data) == [[["Site", "Q1", "Q4"], ["North", "52", "71"], ["South", "38", "41"], ["East", "44", "47"]]]
    assert "Throughput by site" in _texts(data)


def _gridded_plot(pdf: canvas.Canvas, bottom: float) -> None:
    """A line on a grey panel crossed by white grid lines, without axis lines (ggplot's and plotly's look): tick
    labels and axis titles in the body's size outside the panel."""
    left, width, height = LEFT + 50, 300.0, 170.0
    pdf.setFillColor(colors.HexColor("#ebebeb"))
    pdf.rect(left, bottom + 40, width, height, stroke=0, fill=1)
    pdf.setStrokeColor(colors.white)
    for step in range(1, 4):
        pdf.line(left, bottom + 40 + step * height / 4, left + width, bottom + 40 + step * height / 4)
        pdf.line(left + step * width / 4, bottom + 40, left + step * width / 4, bottom + 40 + height)
    pdf.setStrokeColor(colors.HexColor("#4477aa"))
    path = pdf.beginPath()
    path.moveTo(left + 10, bottom + 60)
    for index, value in enumerate((2.4, 2.2, 2.8, 3.0, 2.9, 3.1, 3.3, 3.2, 3.4, 3.5, 3.6)):
        path.lineTo(left + 10 + 25 * (index + 1), bottom + 40 + (value - 2.0) * 100)
    pdf.drawPath(path, stroke=1, fill=0)
    pdf.setFillColor(colors.black)
    pdf.setFont("Helvetica", BODY_SIZE)
    for step, label in enumerate(("2.5", "3.0", "3.5")):
        pdf.drawRightString(left - 4, bottom + 40 + (step + 1) * height / 4 - 3, label)
    for step, label in enumerate(("Mar", "Jun", "Sep")):
        pdf.drawCentredString(left + (step + 1) * width / 4, bottom + 28, label)
    pdf.drawCentredString(left + width / 2, bottom + 12, "Month of operation")
    pdf.setStrokeColor(colors.black)


def test_a_line_on_a_gridded_panel_without_axis_lines_is_a_chart() -> None:
    caption = "Figure 5. Line pressure at the northern site."
    assert " ".join(_texts(_page(_gridded_plot, caption))) == f"{BEFORE} {caption} {AFTER}"


def _shaded_list(pdf: canvas.Canvas, bottom: float) -> None:
    """A shaded box of option descriptions with rules between them and a slanted mark drawn in it, printed a glyph
    per object: no chart."""
    left, width, height = LEFT, 400.0, 160.0
    pdf.setFillColor(colors.HexColor("#eeeeee"))
    pdf.rect(left, bottom + 40, width, height, stroke=0, fill=1)
    pdf.setStrokeColor(colors.white)
    for step in range(1, 4):
        pdf.line(left, bottom + 40 + step * height / 4, left + width, bottom + 40 + step * height / 4)
    pdf.setStrokeColor(colors.HexColor("#4477aa"))
    path = pdf.beginPath()
    path.moveTo(left + 20, bottom + 50)
    for step in range(8):
        path.lineTo(left + 60 + 40 * step, bottom + 50 + (60 if step % 2 else 0))  # a decoration across the box
    pdf.drawPath(path, stroke=1, fill=0)
    pdf.setStrokeColor(colors.black)
    pdf.setFillColor(colors.black)
    pdf.setFont("Helvetica", BODY_SIZE)
    for step, text in enumerate(
        ("index_heading sets the heading.", "index_mark sets the mark.", "index_gap sets the gap.")
    ):
        x = left + 60
        for char in text:  # a glyph per object, as a browser prints: no run is long
            pdf.drawString(x, bottom + 40 + height - 25 - step * height / 4, char)
            x += stringWidth(char, "Helvetica", BODY_SIZE)


def test_a_shaded_box_of_text_with_rules_between_its_items_is_no_chart() -> None:
    texts = " ".join(_texts(_page(_shaded_list, "Table 3. Options.")))
    for kept in ("index_heading sets the heading.", "index_mark sets the mark.", "index_gap sets the gap."):
        assert kept in texts
