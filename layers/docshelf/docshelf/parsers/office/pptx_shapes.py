"""PresentationML shapes to typed blocks: text frames, tables with spans, pictures, charts, SmartArt and groups."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from lxml import etree
from pptx.enum.shapes import MSO_SHAPE_TYPE, PP_PLACEHOLDER
from pptx.oxml.ns import qn
from pptx.shapes.picture import Picture

from docshelf.assets.collect import AssetCollector
from docshelf.assets.prepare import PreparedImage, prepare_bytes
from docshelf.model import Block, Heading, Image, Paragraph, Table, TableCell
from docshelf.parsers.base import ParseLimits
from docshelf.parsers.office.embedded import EMBEDDED_DOCUMENTS, EQUATION_OBJECTS, embedded_blocks
from docshelf.parsers.office.mtef import ole_equation_latex
from docshelf.parsers.office.omml import OMATH, OMATH_PARA, omml_latex
from docshelf.parsers.office.pptx_diagrams import diagram_data_rid, diagram_paragraphs
from docshelf.parsers.office.pptx_numbering import AutoNumbering, auto_number
from docshelf.parsers.ooxml_charts import read_chart
from docshelf.parsers.xml_safety import safe_xml_parser

if TYPE_CHECKING:
    from collections.abc import Iterable

EMU_PER_PIXEL = 9525
SAME_BAND_EMU = 228_600  # a quarter inch
TITLE_PLACEHOLDERS = frozenset({PP_PLACEHOLDER.TITLE, PP_PLACEHOLDER.CENTER_TITLE, PP_PLACEHOLDER.VERTICAL_TITLE})
SUBTITLE_PLACEHOLDERS = frozenset({PP_PLACEHOLDER.SUBTITLE})
BULLETED_PLACEHOLDERS = frozenset({PP_PLACEHOLDER.BODY, PP_PLACEHOLDER.OBJECT, PP_PLACEHOLDER.VERTICAL_BODY})
# Slide furniture from PowerPoint's Header & Footer dialog: the slide number always; a footer or a date when it is a
# field PowerPoint fills in, or when its text repeats on another slide. A date on the title slide alone (where pandoc
# puts the `date:` of its source) is the deck's content, and so is any plain text box.
FURNITURE_PLACEHOLDERS = frozenset({PP_PLACEHOLDER.FOOTER, PP_PLACEHOLDER.DATE})
_FIELD = qn("a:fld")
_ALTERNATE = "{http://schemas.openxmlformats.org/markup-compatibility/2006}AlternateContent"
_BULLET_TAGS = (qn("a:buChar"), qn("a:buAutoNum"), qn("a:buBlip"))

# Exceptions python-pptx raises on malformed shapes (missing attributes, unknown enum values, bad XML).
SHAPE_ERRORS = (KeyError, ValueError, AttributeError, TypeError, IndexError, etree.XMLSyntaxError)


def placeholder_type(shape: Any) -> Any:
    if not getattr(shape, "is_placeholder", False):
        return None
    try:
        return shape.placeholder_format.type
    except SHAPE_ERRORS:
        return None


def reading_order(shapes: Iterable[Any]) -> list[Any]:
    """Title placeholders first, then bands of shapes that start at about the same height, each left to right.

    Shapes side by side rarely share an exact top, so tops within SAME_BAND_EMU count as one band;
    shapes without any position (not even inherited from the layout) come last.
    """
    titles, placed, unplaced = [], [], []
    for shape in shapes:
        top, left = _position(shape)
        if placeholder_type(shape) in TITLE_PLACEHOLDERS:
            titles.append(shape)
        elif top is None:
            unplaced.append(shape)
        else:
            placed.append((top, left or 0, shape))
    placed.sort(key=lambda item: (item[0], item[1]))
    ordered: list[Any] = []
    band: list[tuple[int, int, Any]] = []
    for item in placed:
        if band and item[0] - band[0][0] > SAME_BAND_EMU:
            ordered.extend(shape for _, _, shape in sorted(band, key=lambda entry: entry[1]))
            band = []
        band.append(item)
    ordered.extend(shape for _, _, shape in sorted(band, key=lambda entry: entry[1]))
    return titles + ordered + unplaced


def _position(shape: Any) -> tuple[int | None, int | None]:
    try:
        return shape.top, shape.left
    except SHAPE_ERRORS:
        return None, None


def _pixels(value: int | None) -> int | None:
    if value is None:
        return None
    pixels = round(int(value) / EMU_PER_PIXEL)
    return pixels if pixels > 0 else None


def _picture_asset(shape: Any) -> PreparedImage | None:
    """The picture's asset, or None when it is decorative, linked rather than embedded, or unreadable."""
    try:
        blob = shape.image.blob
    except (*SHAPE_ERRORS, LookupError):
        return None
    return prepare_bytes(blob) if isinstance(blob, bytes) else None


def paragraph_text(paragraph: Any) -> str:
    """A paragraph's text as python-pptx reads it, with its equations (OMML in `mc:AlternateContent`, which it
    skips) as LaTeX where they stand."""
    p = paragraph._p
    if p.find(_ALTERNATE) is None:
        return str(paragraph.text)
    parts: list[str] = []
    for child in p:
        if child.tag in (qn("a:r"), qn("a:fld")):
            parts.append("".join(node.text or "" for node in child.iter(qn("a:t"))))
        elif child.tag == qn("a:br"):
            parts.append("\v")
        elif child.tag == _ALTERNATE:
            parts += [omml_latex(math) for math in child.iter(OMATH_PARA, OMATH) if math.getparent().tag != OMATH_PARA]
    return "".join(parts)


def clean_text(text: str) -> str:
    lines = text.replace("\v", "\n").split("\n")
    return "\n".join(" ".join(line.split()) for line in lines).strip()


def _alt_text(shape: Any) -> str:
    c_nv_pr = shape._element.find(".//" + qn("p:cNvPr"))
    if c_nv_pr is None:
        return ""
    return str(c_nv_pr.get("descr") or c_nv_pr.get("title") or "").strip()


def furniture_text(shape: Any) -> str | None:
    """The text of a footer or date placeholder ('' when it holds a date or slide-number field); None for others."""
    if placeholder_type(shape) not in FURNITURE_PLACEHOLDERS or not getattr(shape, "has_text_frame", False):
        return None
    for field in shape.text_frame._txBody.iter(_FIELD):
        if str(field.get("type", "")).lower().startswith(("datetime", "slidenum")):
            return ""
    return " ".join(clean_text(shape.text_frame.text).split())


class ShapeReader:
    """Converts the shapes of one slide; `bulleted_levels` are the master's body levels that carry bullets.

    `repeated` holds the footer and date texts found on more than one slide of the deck.
    """

    def __init__(
        self,
        page: int,
        bulleted_levels: frozenset[int],
        collector: AssetCollector | None = None,
        repeated: frozenset[str] = frozenset(),
        limits: ParseLimits | None = None,
    ) -> None:
        self.page = page
        self.limits = limits if limits is not None else ParseLimits()
        self.bulleted_levels = bulleted_levels
        self.repeated = repeated
        self.warnings: list[str] = []
        self.collector = collector if collector is not None else AssetCollector()

    def read(self, shapes: Iterable[Any]) -> list[Block]:
        blocks: list[Block] = []
        for shape in reading_order(shapes):
            try:
                blocks.extend(self._shape(shape))
            except SHAPE_ERRORS as exc:
                name = getattr(shape, "name", "?")
                self.warnings.append(f"slide {self.page}: shape {name!r} skipped ({type(exc).__name__}: {exc})")
        return blocks

    def _shape(self, shape: Any) -> list[Block]:
        kind = placeholder_type(shape)
        if kind == PP_PLACEHOLDER.SLIDE_NUMBER:
            return []
        if kind in FURNITURE_PLACEHOLDERS and (furniture_text(shape) or "") in {"", *self.repeated}:
            return []
        if shape.shape_type == MSO_SHAPE_TYPE.GROUP:
            return self.read(shape.shapes)
        if getattr(shape, "has_table", False):
            table = self._table(shape.table)
            return [table] if table is not None else []
        if getattr(shape, "has_chart", False):
            return self._chart(shape)
        if shape.shape_type == MSO_SHAPE_TYPE.EMBEDDED_OLE_OBJECT:
            return self._embedded(shape)
        diagram_rid = diagram_data_rid(shape._element)
        if diagram_rid is not None:
            return self._diagram(shape.part.related_part(diagram_rid).blob)
        blocks: list[Block] = []
        if isinstance(shape, Picture):
            shown = (_pixels(shape.width), _pixels(shape.height))
            image = self.collector.image(_picture_asset(shape), page=self.page, alt_text=_alt_text(shape), shown=shown)
            blocks.extend([image] if image is not None else [])
        if getattr(shape, "has_text_frame", False):
            blocks.extend(self._text_frame(shape.text_frame, kind))
        return blocks

    def _embedded(self, shape: Any) -> list[Block]:
        """An embedded object: an equation's LaTeX, a document's text and tables (a worksheet on a slide)."""
        ole = shape.ole_format
        prog_id = ole.prog_id or ""
        if prog_id.startswith(EQUATION_OBJECTS):
            latex = ole_equation_latex(ole.blob)
            return [Paragraph(text=f"$${latex}$$", page=self.page)] if latex else []
        if prog_id.startswith(EMBEDDED_DOCUMENTS):
            return [replace(block, page=self.page) for block in embedded_blocks(ole.blob, self.limits)]
        return []

    def _text_frame(self, frame: Any, kind: Any) -> list[Block]:
        if kind in TITLE_PLACEHOLDERS or kind in SUBTITLE_PLACEHOLDERS:
            text = " ".join(clean_text(frame.text).split())
            level = 1 if kind in TITLE_PLACEHOLDERS else 2
            return [Heading(text=text, level=level, page=self.page)] if text else []
        blocks: list[Block] = []
        numbering = AutoNumbering()
        for paragraph in frame.paragraphs:
            text = clean_text(paragraph_text(paragraph))
            if not text:
                continue
            level = int(paragraph.level or 0)
            label = numbering.next_label(level, auto_number(paragraph._p.pPr))
            bulleted = self._is_bulleted(paragraph, level, default=kind in BULLETED_PLACEHOLDERS)
            labelled = f"{label} {text}" if label else text
            blocks.append(Paragraph(text=labelled, page=self.page, list_level=level if bulleted else None))
        return blocks

    def _is_bulleted(self, paragraph: Any, level: int, *, default: bool) -> bool:
        p_pr = paragraph._p.pPr
        if p_pr is not None:
            if p_pr.find(qn("a:buNone")) is not None:
                return False
            if any(p_pr.find(tag) is not None for tag in _BULLET_TAGS):
                return True
        return default and level in self.bulleted_levels

    def _table(self, table: Any) -> Table | None:
        cells: list[TableCell] = []
        n_rows = len(table.rows)
        n_cols = len(table.columns)
        for r, row in enumerate(table.rows):
            for c, cell in enumerate(row.cells):
                if cell.is_spanned:
                    continue
                rowspan = cell.span_height if cell.is_merge_origin else 1
                colspan = cell.span_width if cell.is_merge_origin else 1
                rowspan = max(1, min(rowspan, n_rows - r))
                colspan = max(1, min(colspan, n_cols - c))
                cells.append(TableCell(row=r, col=c, text=clean_text(cell.text), rowspan=rowspan, colspan=colspan))
        if not any(cell.text for cell in cells):
            return None
        # The first row is the header whether or not the author ticked "header row" (firstRow).
        header_rows = 1 if n_rows > 1 else 0
        return Table(cells=tuple(cells), n_rows=n_rows, n_cols=n_cols, page=self.page, header_rows=header_rows)

    def _diagram(self, data_part: bytes) -> list[Block]:
        """A SmartArt diagram's node texts as list items, nested as its data model nests them."""
        data_model = etree.fromstring(data_part, parser=safe_xml_parser())
        items = [(level, clean_text(text)) for level, text in diagram_paragraphs(data_model)]
        return [Paragraph(text=text, page=self.page, list_level=level) for level, text in items if text]

    def _chart(self, shape: Any) -> list[Block]:
        """The chart as an image described in words (as XLSX charts are), then its cached values as a table."""
        chart = read_chart(etree.fromstring(shape.chart_part.blob, parser=safe_xml_parser()))
        image = Image(
            page=self.page,
            caption=chart.title,
            alt_text=_alt_text(shape) or chart.summary(),
            width=_pixels(shape.width),
            height=_pixels(shape.height),
        )
        rows = chart.value_rows()
        if not rows:
            return [image]
        cells = [TableCell(row=r, col=c, text=text) for r, row in enumerate(rows) for c, text in enumerate(row)]
        table = Table(cells=tuple(cells), n_rows=len(rows), n_cols=len(rows[0]), page=self.page, header_rows=1)
        return [image, table]
