"""Charts and pictures a worksheet draws, read from the package parts openpyxl's read-only mode ignores.

A sheet's drawing is found through its relationships (worksheet rels -> drawing part -> drawing rels -> chart
or image parts). Each chart becomes an Image block: the chart title as caption, and as alt text the author's
description when there is one, else what the chart shows (its kind, series names and axis titles), since that
text exists nowhere else in the workbook. Parts are parsed without entity expansion or network access; a part
that is missing, oversized or malformed is skipped with a warning rather than failing the whole workbook.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lxml import etree

from docshelf.errors import DocumentError
from docshelf.model import Image
from docshelf.parsers.ooxml_charts import CHART_NS, read_chart
from docshelf.parsers.opc import Relationship, relationships, relationships_part
from docshelf.parsers.xml_safety import local, safe_xml_parser

if TYPE_CHECKING:
    import zipfile

DOC_RELS_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
MAX_PART_BYTES = 8 * 1024 * 1024
MAX_DRAWN_OBJECTS = 500
EMU_PER_PIXEL = 9525


def sheet_drawings(archive: zipfile.ZipFile, sheet_path: str, *, page: int, warnings: list[str]) -> list[Image]:
    """Image blocks for the charts and pictures drawn on the worksheet at `sheet_path`, top to bottom."""
    try:
        drawings = [rel.target for rel in _relationships(archive, sheet_path) if rel.kind == "drawing"]
        anchored: list[tuple[tuple[int, int], Image]] = []
        for drawing_path in drawings:
            anchored.extend(_drawing_images(archive, drawing_path, page=page))
            if len(anchored) >= MAX_DRAWN_OBJECTS:
                warnings.append(f"{sheet_path}: only the first {MAX_DRAWN_OBJECTS} drawn objects are read")
                break
    except (DocumentError, etree.XMLSyntaxError, KeyError, ValueError, OSError) as exc:
        warnings.append(f"{sheet_path}: drawing skipped ({exc})")
        return []
    anchored.sort(key=lambda item: item[0])
    return [image for _, image in anchored[:MAX_DRAWN_OBJECTS]]


def _drawing_images(archive: zipfile.ZipFile, drawing_path: str, *, page: int) -> list[tuple[tuple[int, int], Image]]:
    charts = {rel.rid: rel.target for rel in _relationships(archive, drawing_path) if rel.kind == "chart"}
    found: list[tuple[tuple[int, int], Image]] = []
    for anchor in _parse(archive, drawing_path):
        if not local(anchor.tag).endswith("Anchor"):
            continue
        position = _anchor_cell(anchor)
        for frame in anchor.iter():
            name = local(frame.tag)
            if name not in {"graphicFrame", "pic"}:
                continue
            described = next((el for el in frame.iter() if local(el.tag) == "cNvPr"), None)
            alt = _description(described)
            width, height = _extent(frame, anchor)
            if name == "pic":
                found.append((position, Image(page=page, alt_text=alt, width=width, height=height)))
                continue
            chart_ref = next(frame.iter(f"{{{CHART_NS}}}chart"), None)
            chart_path = charts.get(chart_ref.get(f"{{{DOC_RELS_NS}}}id", "")) if chart_ref is not None else None
            if chart_path is None or chart_path not in archive.NameToInfo:
                continue
            chart = read_chart(_parse(archive, chart_path))
            image = Image(page=page, caption=chart.title, alt_text=alt or chart.summary(), width=width, height=height)
            found.append((position, image))
    return found


def _description(properties: etree._Element | None) -> str:
    """The author's description of a drawn object; Excel's default, the object's own name (`Picture 1`), is none."""
    if properties is None:
        return ""
    description = " ".join((properties.get("descr") or "").split())
    return "" if description == " ".join((properties.get("name") or "").split()) else description


def _relationships(archive: zipfile.ZipFile, part: str) -> list[Relationship]:
    """The internal relationships of `part`, with targets resolved to part names."""
    rels_path = relationships_part(part)
    if rels_path not in archive.NameToInfo:
        return []
    return relationships(_part_bytes(archive, rels_path), part, what=rels_path)


def _parse(archive: zipfile.ZipFile, part: str) -> etree._Element:
    return etree.fromstring(_part_bytes(archive, part), parser=safe_xml_parser())


def _part_bytes(archive: zipfile.ZipFile, part: str) -> bytes:
    info = archive.getinfo(part)
    if info.file_size > MAX_PART_BYTES:
        raise ValueError(f"{part} is {info.file_size} bytes (limit {MAX_PART_BYTES})")
    return archive.read(info)


def _anchor_cell(anchor: etree._Element) -> tuple[int, int]:
    start = next((el for el in anchor if local(el.tag) == "from"), None)
    if start is None:
        return (0, 0)
    values = {local(el.tag): (el.text or "").strip() for el in start}
    row, col = values.get("row", "0"), values.get("col", "0")
    return (int(row) if row.isdigit() else 0, int(col) if col.isdigit() else 0)


def _extent(frame: etree._Element, anchor: etree._Element) -> tuple[int | None, int | None]:
    """Size from the shape's own transform, else from a one-cell anchor's extent (zero means not given)."""
    for element in (frame, anchor):
        for ext in element.iter():
            if local(ext.tag) == "ext" and _pixels(ext.get("cx")) is not None:
                return _pixels(ext.get("cx")), _pixels(ext.get("cy"))
    return None, None


def _pixels(value: str | None) -> int | None:
    if value is None or not value.isdigit():
        return None
    pixels = round(int(value) / EMU_PER_PIXEL)
    return pixels if pixels > 0 else None
