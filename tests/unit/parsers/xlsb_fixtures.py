"""Excel binary workbooks (.xlsb) written record by record as [MS-XLSB] lays them out: no library here writes them
(LibreOffice reads them only), so the tests build them, and LibreOffice's reading of one checks this writer."""

from __future__ import annotations

import io
import struct
import zipfile
from dataclasses import dataclass, field

from tests.unit.parsers.ooxml_fixtures import png_bytes

Value = str | float | int | bool | tuple[str, float] | tuple[str, str] | tuple[str, int] | None
# A cell value: text, a number (General), a bool, ("style name", number) for a styled number, ("formula", text) for a
# formula's cached string, ("error", code) for an error, None for a styled blank.

STYLES = {"General": 0, "date": 1, "percent": 2, "money": 3, "time": 4, "duration": 5}
# Custom number formats, numbered from 164 as Excel numbers them; `date` and `percent` use built-in formats 14 and 10.
CUSTOM_FORMATS = {164: '"$"#,##0.00', 165: "[h]:mm"}
CELL_FORMATS = (0, 14, 10, 164, 20, 165)  # each style's number format, in STYLES order


def record(kind: int, body: bytes = b"") -> bytes:
    head = bytes([kind]) if kind < 0x80 else bytes([(kind & 0x7F) | 0x80, kind >> 7])
    size, length = len(body), b""
    while True:
        byte, size = size & 0x7F, size >> 7
        length += bytes([byte | (0x80 if size else 0)])
        if not size:
            return head + length + body


def wide(text: str) -> bytes:
    encoded = text.encode("utf-16-le")
    return struct.pack("<I", len(encoded) // 2) + encoded


@dataclass
class Sheet:
    name: str
    rows: list[list[Value]]
    merges: list[tuple[int, int, int, int]] = field(default_factory=list)  # top, bottom, left, right (0-based)
    chart_picture: bool = False  # a picture drawn on the sheet (its drawing part is XML, as in XLSX)


def xlsb(*sheets: Sheet, date_1904: bool = False) -> bytes:
    strings: list[str] = []
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as package:
        package.writestr("[Content_Types].xml", _content_types(sheets))
        package.writestr("_rels/.rels", _rels([("rId1", "officeDocument", "xl/workbook.bin")]))
        targets = [(f"rId{n}", "worksheet", f"worksheets/sheet{n}.bin") for n in range(1, len(sheets) + 1)]
        targets += [("rIdS", "styles", "styles.bin"), ("rIdT", "sharedStrings", "sharedStrings.bin")]
        package.writestr("xl/_rels/workbook.bin.rels", _rels(targets))
        package.writestr("xl/workbook.bin", _workbook(sheets, date_1904))
        for number, sheet in enumerate(sheets, start=1):
            package.writestr(f"xl/worksheets/sheet{number}.bin", _sheet(sheet, strings))
            if sheet.chart_picture:
                _picture(package, number)
        package.writestr("xl/styles.bin", _styles())
        package.writestr("xl/sharedStrings.bin", _shared_strings(strings))
    return out.getvalue()


def _workbook(sheets: tuple[Sheet, ...], date_1904: bool) -> bytes:
    body = record(131) + record(153, struct.pack("<II", int(date_1904), 0) + wide("ThisWorkbook")) + record(143)
    for number, sheet in enumerate(sheets, start=1):
        body += record(156, struct.pack("<II", 0, number) + wide(f"rId{number}") + wide(sheet.name))
    return body + record(144) + record(132)


def _sheet(sheet: Sheet, strings: list[str]) -> bytes:
    body = record(129) + record(145)
    for row_number, row in enumerate(sheet.rows):
        body += record(0, struct.pack("<IIHHBBB", row_number, 0, 300, 0, 0, 0, 0) + bytes(8))
        for column, value in enumerate(row):
            body += _cell(column, value, strings)
    body += record(146)
    if sheet.merges:
        body += record(177, struct.pack("<I", len(sheet.merges)))
        body += b"".join(record(176, struct.pack("<IIII", *merge)) for merge in sheet.merges)
        body += record(178)
    return body + record(130)


def _cell(column: int, value: Value, strings: list[str]) -> bytes:
    def head(style: str = "General") -> bytes:
        return struct.pack("<II", column, STYLES[style])

    if value is None:
        return record(1, head())
    if isinstance(value, bool):
        return record(4, head() + bytes([value]))
    if isinstance(value, int) and -(1 << 29) <= value < (1 << 29):
        return record(2, head() + struct.pack("<I", ((value << 2) | 0x2) & 0xFFFFFFFF))  # an RK integer
    if isinstance(value, int | float):
        return record(5, head() + struct.pack("<d", float(value)))
    if isinstance(value, str):
        strings.append(value)
        return record(7, head() + struct.pack("<I", len(strings) - 1))
    kind, inner = value
    if kind == "formula":
        return record(8, head() + wide(str(inner)) + struct.pack("<H", 0) + struct.pack("<I", 0))
    if kind == "error":
        return record(3, head() + bytes([int(inner)]))
    if kind == "rk100":  # an RK number stored as hundredths (12.34 as 1234)
        return record(2, head() + struct.pack("<I", ((int(inner) << 2) | 0x3) & 0xFFFFFFFF))
    return record(5, head(kind) + struct.pack("<d", float(inner)))


def _styles() -> bytes:
    body = record(278) + record(615, struct.pack("<I", len(CUSTOM_FORMATS)))
    body += b"".join(record(44, struct.pack("<H", number) + wide(code)) for number, code in CUSTOM_FORMATS.items())
    body += record(616)
    # the cell style formats come first; a date format there must not be taken for a cell's
    body += record(626, struct.pack("<I", 1)) + record(47, _xf(14)) + record(627)
    body += record(617, struct.pack("<I", len(CELL_FORMATS)))
    body += b"".join(record(47, _xf(number)) for number in CELL_FORMATS)
    return body + record(618) + record(279)


def _xf(number_format: int) -> bytes:
    return struct.pack("<HHHHHBBHH", 0xFFFF, number_format, 0, 0, 0, 0, 0, 0, 0)


def _shared_strings(strings: list[str]) -> bytes:
    body = record(159, struct.pack("<II", len(strings), len(strings)))
    body += b"".join(record(19, b"\x00" + wide(text)) for text in strings)
    return body + record(160)


def _rels(targets: list[tuple[str, str, str]]) -> str:
    base = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
    items = "".join(
        f'<Relationship Id="{rid}" Type="{base}{kind}" Target="{target}"/>' for rid, kind, target in targets
    )
    return (
        f'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">{items}</Relationships>'
    )


def _content_types(sheets: tuple[Sheet, ...]) -> str:
    binary = "application/vnd.ms-excel."
    overrides = [("/xl/workbook.bin", binary + "sheet.binary.macroEnabled.main")]
    overrides += [(f"/xl/worksheets/sheet{n}.bin", binary + "worksheet") for n in range(1, len(sheets) + 1)]
    overrides += [("/xl/styles.bin", binary + "styles"), ("/xl/sharedStrings.bin", binary + "sharedStrings")]
    items = "".join(f'<Override PartName="{part}" ContentType="{kind}"/>' for part, kind in overrides)
    return (
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/>'
        f"{items}</Types>"
    )


def _picture(package: zipfile.ZipFile, number: int) -> None:
    """A picture anchored at C5, described `Pump PX-9 cutaway`, in an XML drawing part as XLSX has it."""
    package.writestr(
        f"xl/worksheets/_rels/sheet{number}.bin.rels", _rels([("rId1", "drawing", f"../drawings/drawing{number}.xml")])
    )
    package.writestr(f"xl/drawings/_rels/drawing{number}.xml.rels", _rels([("rId1", "image", "../media/image1.png")]))
    package.writestr("xl/media/image1.png", png_bytes(40, 30))
    xdr = "http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing"
    a = "http://schemas.openxmlformats.org/drawingml/2006/main"
    r = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    package.writestr(
        f"xl/drawings/drawing{number}.xml",
        f'<xdr:wsDr xmlns:xdr="{xdr}" xmlns:a="{a}" xmlns:r="{r}"><xdr:oneCellAnchor>'
        "<xdr:from><xdr:col>2</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>4</xdr:row><xdr:rowOff>0</xdr:rowOff>"
        '</xdr:from><xdr:ext cx="381000" cy="285750"/><xdr:pic><xdr:nvPicPr>'
        '<xdr:cNvPr id="2" name="Picture 1" descr="Pump PX-9 cutaway"/><xdr:cNvPicPr/></xdr:nvPicPr>'
        '<xdr:blipFill><a:blip r:embed="rId1"/></xdr:blipFill><xdr:spPr/></xdr:pic><xdr:clientData/>'
        "</xdr:oneCellAnchor></xdr:wsDr>",
    )
