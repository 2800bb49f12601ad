"""The visible content of one WordprocessingML paragraph: text, note marks, inline pictures, text boxes, page breaks."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from docshelf.parsers.office.code_blocks import verbatim
from docshelf.parsers.office.docx_notes import REFERENCES
from docshelf.parsers.office.docx_numbering import flag, w
from docshelf.parsers.office.embedded import EMBEDDED_DOCUMENTS, EQUATION_OBJECTS
from docshelf.parsers.office.omml import OMATH, OMATH_PARA, omml_latex

if TYPE_CHECKING:
    from collections.abc import Callable

    from lxml import etree

    # (note kind, note id) -> the mark the reference shows ('' for none)
    Cite = Callable[[str, str], str]

WP_NS = "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"
A_NS = "http://schemas.openxmlformats.org/drawingml/2006/main"
MC_NS = "http://schemas.openxmlformats.org/markup-compatibility/2006"
VML_NS = "urn:schemas-microsoft-com:vml"
OFFICE_NS = "urn:schemas-microsoft-com:office:office"
REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
EMU_PER_PIXEL = 9525  # 914400 EMU per inch at 96 dpi

_PICTURE_URIS = (
    "http://schemas.openxmlformats.org/drawingml/2006/picture",
    "http://schemas.openxmlformats.org/drawingml/2006/chart",
    "http://schemas.openxmlformats.org/drawingml/2006/diagram",
)
# Subtrees with no visible text of their own: deleted revisions, properties, field codes, fallback renderings,
# and the ruby (furigana) printed above a base text: the sentence reads through the base alone.
_SKIPPED = frozenset(
    {
        w("del"),
        w("moveFrom"),
        w("pPr"),
        w("rPr"),
        w("sdtPr"),
        w("sdtEndPr"),
        w("instrText"),
        w("delText"),
        w("rt"),
        f"{{{MC_NS}}}Fallback",
    }
)
_RUN = w("r")
_CHARACTERS = {w("tab"): "\t", w("cr"): "\n", w("noBreakHyphen"): "-", w("softHyphen"): ""}


@dataclass(frozen=True, slots=True)
class PictureInfo:
    alt_text: str
    width: int | None
    height: int | None
    rel_id: str = ""  # the relationship naming the picture's image part


@dataclass(slots=True)
class ParagraphContent:
    text: str = ""
    pictures_before: list[PictureInfo] = field(default_factory=list)
    pictures_after: list[PictureInfo] = field(default_factory=list)
    breaks_before: int = 0
    rendered_breaks_before: int = 0
    breaks_after: int = 0
    text_boxes: list[etree._Element] = field(default_factory=list)
    # Each run holding visible text, with how many of its characters are not spaces: what the text looks like.
    runs: list[tuple[etree._Element, int]] = field(default_factory=list)
    # The relationship ids of the documents embedded as objects in it (a workbook, a Word document, a deck).
    embedded: list[str] = field(default_factory=list)


class _Collector:
    def __init__(self, cite: Cite | None, equation: Callable[[str], str | None] | None = None) -> None:
        self.parts: list[str] = []
        self.content = ParagraphContent()
        self.cite = cite
        self.equation = equation  # an embedded equation object's LaTeX, by its relationship id
        self.equations: list[str] = []  # the equation objects' text, as written into the parts

    def _has_text(self) -> bool:
        return any(part.strip() for part in self.parts)

    def page_break(self, *, rendered: bool = False) -> None:
        if self._has_text():
            self.content.breaks_after += 1
        elif rendered:
            self.content.rendered_breaks_before += 1
        else:
            self.content.breaks_before += 1

    def picture(self, picture: PictureInfo) -> None:
        (self.content.pictures_after if self._has_text() else self.content.pictures_before).append(picture)

    def walk(self, element: etree._Element) -> None:
        for child in element:
            tag = child.tag
            if not isinstance(tag, str) or tag in _SKIPPED or _is_hidden_run(child):
                continue
            if tag == w("t"):
                self._text(child)
            elif tag in (OMATH, OMATH_PARA):
                self.parts.append(omml_latex(child))
            elif tag in _CHARACTERS:
                self.parts.append(_CHARACTERS[tag])
            elif tag in REFERENCES and self.cite is not None:
                self.parts.append(self.cite(REFERENCES[tag], str(child.get(w("id")))))
            elif tag == w("br"):
                self._break(child)
            elif tag == w("lastRenderedPageBreak"):
                # Where Word's last layout broke the page.
                self.page_break(rendered=True)
            elif tag == w("txbxContent"):
                self.content.text_boxes.append(child)
            elif tag == w("drawing"):
                self._drawing(child)
            elif tag in (w("pict"), w("object")):
                self._object(child)
            else:
                self.walk(child)

    def _text(self, t: etree._Element) -> None:
        text = t.text or ""
        self.parts.append(text)
        run = t.getparent()
        if run is not None and run.tag == _RUN and (visible := len(text) - text.count(" ")):
            self.content.runs.append((run, visible))

    def _break(self, br: etree._Element) -> None:
        if br.get(w("type")) == "page":
            self.page_break()
        else:
            self.parts.append("\n")

    def _drawing(self, drawing: etree._Element) -> None:
        self.content.text_boxes.extend(_text_boxes(drawing))
        for frame in drawing:
            if frame.tag in (f"{{{WP_NS}}}inline", f"{{{WP_NS}}}anchor") and _is_picture(frame):
                self.picture(_drawing_picture(frame))

    def _object(self, element: etree._Element) -> None:
        """A VML picture or embedded object: an equation object's LaTeX, else its picture and text boxes (and an
        embedded document, noted to be read after the paragraph)."""
        latex = self._equation_object(element) if element.tag == w("object") else ""
        if latex:
            self.parts.append(latex)
            self.equations.append(latex)
            return
        self._vml(element)
        ole = element.find(f"{{{OFFICE_NS}}}OLEObject")
        if ole is not None and (ole.get("ProgID") or "").startswith(EMBEDDED_DOCUMENTS):
            self.content.embedded.append(ole.get(f"{{{REL_NS}}}id") or "")

    def _equation_object(self, element: etree._Element) -> str:
        """An embedded Equation Editor object (`<o:OLEObject ProgID="Equation.3">`, kept by Word files converted
        from `.doc`) as `$…$`; '' for any other object, whose picture is read instead."""
        ole = element.find(f"{{{OFFICE_NS}}}OLEObject")
        if ole is None or self.equation is None or not (ole.get("ProgID") or "").startswith(EQUATION_OBJECTS):
            return ""
        latex = self.equation(ole.get(f"{{{REL_NS}}}id") or "")
        return f"${latex}$" if latex else ""

    def _vml(self, pict: etree._Element) -> None:
        self.content.text_boxes.extend(_text_boxes(pict))
        for shape in pict.iter(f"{{{VML_NS}}}shape"):
            image = shape.find(f"{{{VML_NS}}}imagedata")
            if image is None:
                continue
            alt = shape.get("alt") or image.get(f"{{{OFFICE_NS}}}title") or ""
            width, height = _vml_size(shape.get("style", ""))
            rel_id = image.get(f"{{{REL_NS}}}id") or ""
            self.picture(PictureInfo(alt_text=alt.strip(), width=width, height=height, rel_id=rel_id))


def _is_hidden_run(element: etree._Element) -> bool:
    """A run whose own properties say w:vanish is hidden text (a vanish in its character style is not looked up)."""
    return element.tag == w("r") and flag(element.find(f"{w('rPr')}/{w('vanish')}"))


def _text_boxes(element: etree._Element) -> list[etree._Element]:
    # A text box nested in another text box is read with its parent.
    boxes = [box for box in element.iter(w("txbxContent")) if not _inside_fallback(box, element)]
    return [box for box in boxes if not any(other is not box and box in other.iter() for other in boxes)]


def _inside_fallback(node: etree._Element, stop: etree._Element) -> bool:
    parent = node.getparent()
    while parent is not None and parent is not stop:
        if parent.tag == f"{{{MC_NS}}}Fallback":
            return True
        parent = parent.getparent()
    return False


def _is_picture(frame: etree._Element) -> bool:
    return any(data.get("uri") in _PICTURE_URIS for data in frame.iter(f"{{{A_NS}}}graphicData"))


def _drawing_picture(frame: etree._Element) -> PictureInfo:
    doc_pr = frame.find(f"{{{WP_NS}}}docPr")
    alt = ""
    if doc_pr is not None:
        alt = (doc_pr.get("descr") or doc_pr.get("title") or "").strip()
    extent = frame.find(f"{{{WP_NS}}}extent")
    blip = next(frame.iter(f"{{{A_NS}}}blip"), None)
    return PictureInfo(
        alt_text=alt,
        width=_emu_to_px(extent.get("cx") if extent is not None else None),
        height=_emu_to_px(extent.get("cy") if extent is not None else None),
        rel_id=(blip.get(f"{{{REL_NS}}}embed") or "") if blip is not None else "",
    )


def _emu_to_px(value: str | None) -> int | None:
    if value is None or not value.lstrip("-").isdigit():
        return None
    pixels = round(int(value) / EMU_PER_PIXEL)
    return pixels if pixels > 0 else None


def _vml_size(style: str) -> tuple[int | None, int | None]:
    sizes: dict[str, int] = {}
    for declaration in style.split(";"):
        name, _, value = declaration.partition(":")
        value = value.strip()
        if name.strip() in ("width", "height") and value.endswith("pt"):
            try:
                sizes[name.strip()] = round(float(value[:-2]) * 96 / 72)
            except ValueError:
                continue
    return sizes.get("width"), sizes.get("height")


def count_page_breaks(element: etree._Element) -> int:
    rendered = sum(1 for _ in element.iter(w("lastRenderedPageBreak")))
    return rendered + sum(1 for br in element.iter(w("br")) if br.get(w("type")) == "page")


def paragraph_content(
    paragraph: etree._Element,
    cite: Cite | None = None,
    *,
    code: bool = False,
    equation: Callable[[str], str | None] | None = None,
) -> ParagraphContent:
    """The paragraph's content; note references show the mark `cite` gives them (none without it), embedded
    equation objects the LaTeX `equation` reads from their part (an equation alone in its paragraph displayed,
    `$$…$$`). The spaces of a line of `code` are kept as written (its trailing ones dropped); other text has its
    whitespace collapsed."""
    collector = _Collector(cite, equation)
    collector.walk(paragraph)
    joined = "".join(collector.parts)
    if code:
        collector.content.text = verbatim(joined).strip("\n")
        return collector.content
    collector.content.text = "\n".join(" ".join(line.split()) for line in joined.split("\n")).strip()
    if collector.equations == [collector.content.text]:
        collector.content.text = f"${collector.content.text}$"
    return collector.content
