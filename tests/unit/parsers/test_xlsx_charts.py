from __future__ import annotations

import io
import zipfile

from lxml import etree
from openpyxl import Workbook
from openpyxl.chart import BarChart, LineChart, Reference, Series
from openpyxl.drawing.image import Image as SheetPicture

from docshelf.model import Heading, Image, Table
from docshelf.parsers.base import ParseLimits
from docshelf.parsers.ooxml_charts import read_chart
from docshelf.parsers.sheets.xlsx import parse
from docshelf.parsers.xml_safety import safe_xml_parser

from .ooxml_fixtures import png_bytes


def _xlsx(workbook: Workbook) -> bytes:
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def _workbook_with_charts() -> Workbook:
    workbook = Workbook()
    data = workbook.active
    data.title = "Data"
    data.append(["Year", "Revenue", "Costs"])
    for row in ([2021, 10, 7], [2022, 12, 8], [2023, 15, 9]):
        data.append(row)
    line = LineChart()
    line.title = "Revenue against costs"
    line.x_axis.title = "Fiscal year"
    line.y_axis.title = "Million EUR"
    for column, name in ((2, "Revenue"), (3, "Costs")):  # openpyxl caches no text for titles_from_data
        line.series.append(Series(Reference(data, min_col=column, min_row=2, max_row=4), title=name))
    data.add_chart(line, "E20")
    bar = BarChart()
    bar.title = "Costs per year"
    bar.series.append(Series(Reference(data, min_col=3, min_row=2, max_row=4), title="Costs"))
    data.add_chart(bar, "E2")
    workbook.create_sheet("Empty")
    gallery = workbook.create_sheet("Gallery")
    gallery.add_chart(LineChart(), "A1")  # untitled, no series: still an image on its own sheet
    return workbook


def test_charts_are_images_on_the_sheet_that_draws_them_top_to_bottom() -> None:
    content = parse(_xlsx(_workbook_with_charts()), filename="charts.xlsx", limits=ParseLimits())

    images = [block for block in content.blocks if isinstance(block, Image)]
    assert [(image.page, image.caption) for image in images] == [
        (1, "Costs per year"),  # anchored at E2, above the line chart at E20
        (1, "Revenue against costs"),
        (3, ""),
    ]
    assert images[0].alt_text == "Bar chart of Costs"
    assert images[1].alt_text == "Line chart of Revenue, Costs (axes: Fiscal year, Million EUR)"
    assert images[2].alt_text == "Line chart"
    data_blocks = [block for block in content.blocks if block.page == 1]
    assert isinstance(data_blocks[0], Heading) and isinstance(data_blocks[1], Table)
    assert Heading(text="Gallery", level=1, page=3) in content.blocks  # a sheet holding only a chart is kept
    assert not any(block.page == 2 for block in content.blocks)


def _picture_workbook(description: bytes) -> bytes:
    workbook = Workbook()
    sheet = workbook.active
    sheet["A1"] = "Logo below"
    sheet.add_image(SheetPicture(io.BytesIO(png_bytes(40, 30))), "B3")
    return _with_member_replaced(_xlsx(workbook), "xl/drawings/drawing1.xml", b'descr="Picture"', description)


def test_pictures_are_images_with_their_alt_text_and_size() -> None:
    content = parse(_picture_workbook(b'descr="Company logo"'), filename="logo.xlsx", limits=ParseLimits())
    image = next(block for block in content.blocks if isinstance(block, Image))
    assert (image.alt_text, image.width, image.height) == ("Company logo", 40, 30)

    content = parse(_picture_workbook(b'descr="Image 1"'), filename="unnamed.xlsx", limits=ParseLimits())
    image = next(block for block in content.blocks if isinstance(block, Image))
    assert image.alt_text == ""  # Excel's default description is the shape's own name: no alt text


def test_a_malformed_or_missing_chart_part_is_a_warning_not_a_failure() -> None:
    broken = _with_member_replaced(_xlsx(_workbook_with_charts()), "xl/charts/chart1.xml", None, b"<c:chartSpace")
    content = parse(broken, filename="broken.xlsx", limits=ParseLimits())
    assert any(isinstance(block, Table) for block in content.blocks)
    assert any("drawing skipped" in warning for warning in content.warnings)

    data = _xlsx(_workbook_with_charts())
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        costs_chart = next(name for name in archive.namelist() if b"Costs per year" in archive.read(name))
    missing = _without_member(data, costs_chart)
    content = parse(missing, filename="missing.xlsx", limits=ParseLimits())
    assert [image.caption for image in content.blocks if isinstance(image, Image) and image.page == 1] == [
        "Revenue against costs"
    ]


def test_chart_text_comes_from_rich_runs_or_cached_cell_values() -> None:
    chart = (
        b'<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart"'
        b' xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><c:chart>'
        b"<c:title><c:tx><c:rich><a:p><a:r><a:t>Sales </a:t></a:r><a:r><a:t>by region</a:t></a:r></a:p></c:rich>"
        b"</c:tx></c:title><c:plotArea><c:bar3DChart><c:ser><c:tx><c:strRef><c:f>Data!$B$1</c:f><c:strCache><c:pt>"
        b"<c:v>North</c:v></c:pt></c:strCache></c:strRef></c:tx></c:ser><c:ser><c:tx><c:v>South</c:v></c:tx></c:ser>"
        b"</c:bar3DChart><c:pieChart/><c:catAx><c:title><c:tx><c:rich><a:p><a:r><a:t>Region</a:t></a:r></a:p>"
        b"</c:rich></c:tx></c:title></c:catAx></c:plotArea></c:chart></c:chartSpace>"
    )
    summary = read_chart(etree.fromstring(chart))
    assert summary.title == "Sales by region"
    assert summary.summary() == "3D bar and pie chart of North, South (axes: Region)"


def test_chart_xml_entities_are_not_expanded() -> None:
    chart = (
        b'<?xml version="1.0"?><!DOCTYPE c [<!ENTITY secret SYSTEM "file:///etc/passwd">]>'
        b'<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart><c:title><c:tx>'
        b"<c:strRef><c:strCache><c:pt><c:v>Total &secret;</c:v></c:pt></c:strCache></c:strRef>"
        b"</c:tx></c:title><c:plotArea/></c:chart></c:chartSpace>"
    )
    summary = read_chart(etree.fromstring(chart, parser=safe_xml_parser()))
    assert summary.title == "Total"
    assert "root:" not in summary.title


def _with_member_replaced(data: bytes, name: str, old: bytes | None, new: bytes) -> bytes:
    source = zipfile.ZipFile(io.BytesIO(data))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            payload = source.read(info)
            if info.filename == name:
                payload = new if old is None else payload.replace(old, new)
            target.writestr(info.filename, payload)
    return buffer.getvalue()


def _without_member(data: bytes, name: str) -> bytes:
    source = zipfile.ZipFile(io.BytesIO(data))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            if info.filename != name:
                target.writestr(info.filename, source.read(info))
    return buffer.getvalue()
