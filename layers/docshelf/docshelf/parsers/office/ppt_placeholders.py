"""Which text of a PowerPoint 97-2003 slide is its title, subtitle or furniture (date, footer, slide number).

`ppt2pptx` writes every placeholder of a `.ppt` as a plain text box, so the PPTX parser would see no title (the
document title fell back to the file name) and would keep the footer and slide number of every slide. The `.ppt`
itself says it: each shape's OfficeArt client data may hold an OEPlaceholderAtom (its placement: title, center
title, subtitle, date, slide number, footer…), and its client text box a TextHeaderAtom whose text type is the
title's (0), the center title's (6) or the subtitle's (5); the text is in the shape (TextCharsAtom, TextBytesAtom)
or in the slide's outline text in the document's SlideListWithText (OutlineTextRefAtom). Those placeholders are
marked in the converted slides (`<p:ph type="title"/>`…), matched by their text, so the PPTX parser reads them
as it reads PowerPoint's own.
"""

from __future__ import annotations

import io
import re
import struct
import zipfile
from typing import TYPE_CHECKING

from lxml import etree

from docshelf.parsers.xml_safety import safe_xml_parser

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from ppt2pptx.ppt import Record

RT_DOCUMENT, RT_SLIDE_LIST_WITH_TEXT, RT_SLIDE_PERSIST = 0x03E8, 0x0FF0, 0x03F3
RT_USER_EDIT = 0x0FF5
RT_TEXT_HEADER, RT_TEXT_CHARS, RT_TEXT_BYTES, RT_OUTLINE_TEXT_REF = 0x0F9F, 0x0FA0, 0x0FA8, 0x0F9E
RT_SP_CONTAINER, RT_CLIENT_DATA, RT_CLIENT_TEXTBOX, RT_PLACEHOLDER = 0xF004, 0xF011, 0xF00D, 0x0BC3
# PlaceholderEnum (placementId) and TextTypeEnum values, as PresentationML placeholder types.
_PLACEMENTS = {
    0x0D: "title",
    0x11: "title",
    0x0F: "ctrTitle",
    0x10: "subTitle",
    0x07: "dt",
    0x08: "sldNum",
    0x09: "ftr",
}
_TEXT_TYPES = {0: "title", 6: "ctrTitle", 5: "subTitle"}
P_NS = "http://schemas.openxmlformats.org/presentationml/2006/main"
A_NS = "http://schemas.openxmlformats.org/drawingml/2006/main"
_SLIDE_PART = re.compile(r"^ppt/slides/slide(\d+)\.xml$")


def slide_records(document: bytes, current_user: bytes) -> list[tuple[Record | None, list[tuple[int, str]]]]:
    """Per slide, in presentation order: its record (None when its persist reference leads nowhere) and its
    outline texts ((text type, text), in order)."""
    from ppt2pptx.ppt import persist_directory, records

    persist = persist_directory(document, current_user)
    container = _document_container(document, current_user, persist)
    if container is None:
        return []
    slides: list[tuple[Record | None, list[tuple[int, str]]]] = []
    for reference, outline in _slide_outlines(container):
        offset = persist.get(reference)
        slide = next(records(document, offset), None) if offset is not None and offset + 8 <= len(document) else None
        slides.append((slide, outline))
    return slides


def _document_container(document: bytes, current_user: bytes, persist: dict[int, int]) -> Record | None:
    from ppt2pptx.ppt import records

    if len(current_user) >= 20:
        edit_at = struct.unpack_from("<I", current_user, 16)[0]
        edit = next(records(document, edit_at), None) if 0 < edit_at <= len(document) - 8 else None
        if edit is not None and edit.type == RT_USER_EDIT and len(edit.payload) >= 20:
            offset = persist.get(struct.unpack_from("<I", edit.payload, 16)[0])
            found = (
                next(records(document, offset), None) if offset is not None and offset + 8 <= len(document) else None
            )
            if found is not None and found.type == RT_DOCUMENT:
                return found
    return next((record for record in records(document) if record.type == RT_DOCUMENT), None)


def _slide_outlines(container: Record) -> Iterator[tuple[int, list[tuple[int, str]]]]:
    """Each slide's persist reference, with its outline texts ((text type, text), in order)."""
    from ppt2pptx.ppt import records

    for child in records(container.payload):
        if child.type != RT_SLIDE_LIST_WITH_TEXT or child.instance != 0:
            continue
        reference: int | None = None
        outline: list[tuple[int, str]] = []
        text_type = 4
        for record in records(child.payload):
            if record.type == RT_SLIDE_PERSIST and len(record.payload) >= 4:
                if reference is not None:
                    yield reference, outline
                reference, outline = struct.unpack_from("<I", record.payload)[0], []
            elif record.type == RT_TEXT_HEADER and len(record.payload) >= 4:
                text_type = struct.unpack_from("<I", record.payload)[0]
            elif record.type in (RT_TEXT_CHARS, RT_TEXT_BYTES):
                outline.append((text_type, _text(record)))
        if reference is not None:
            yield reference, outline


def slide_placeholders(slide: Record, outline: list[tuple[int, str]]) -> list[tuple[str, str]]:
    """(text, PresentationML placeholder type) of each title, subtitle, date, footer and slide number shape of a
    slide (its record and outline texts, `slide_records`), the text with its whitespace collapsed."""
    from ppt2pptx.ppt import descendants, records

    found: list[tuple[str, str]] = []
    for shape in descendants(slide):
        if shape.type != RT_SP_CONTAINER:
            continue
        placement = shape_placement(shape)
        text_type, text = 4, ""
        for child in records(shape.payload):
            if child.type == RT_CLIENT_TEXTBOX:
                for record in records(child.payload):
                    if record.type == RT_TEXT_HEADER and len(record.payload) >= 4:
                        text_type = struct.unpack_from("<I", record.payload)[0]
                    elif record.type in (RT_TEXT_CHARS, RT_TEXT_BYTES):
                        text = _text(record)
                    elif record.type == RT_OUTLINE_TEXT_REF and len(record.payload) >= 4:
                        index = struct.unpack_from("<i", record.payload)[0]
                        text_type, text = outline[index] if 0 <= index < len(outline) else (text_type, text)
        kind = _PLACEMENTS.get(placement, "") if placement is not None else ""
        kind = kind or _TEXT_TYPES.get(text_type, "")
        if kind:
            found.append((text, kind))
    return found


def shape_placement(shape: Record) -> int | None:
    """The placement (PlaceholderEnum) of a shape's OEPlaceholderAtom, None for a shape that is no placeholder."""
    from ppt2pptx.ppt import descendants, records

    placement: int | None = None
    for child in records(shape.payload):
        if child.type == RT_CLIENT_DATA:
            atom = next((r for r in descendants(child) if r.type == RT_PLACEHOLDER and len(r.payload) >= 5), None)
            placement = atom.payload[4] if atom is not None else placement
    return placement


def _text(record: Record) -> str:
    return " ".join(characters(record).replace("\x0b", " ").split())


def characters(record: Record) -> str:
    """A TextCharsAtom's or TextBytesAtom's text, as stored (`\r` between paragraphs, `\x0b` a line break)."""
    raw: bytes = record.payload
    return raw.decode("utf-16-le", "replace") if record.type == RT_TEXT_CHARS else raw.decode("latin-1")


def shape_text(shape: Record) -> tuple[str, ...]:
    """The paragraphs of a shape's own text (its client text box), each with its whitespace collapsed."""
    from ppt2pptx.ppt import records

    paragraphs: list[str] = []
    for child in records(shape.payload):
        if child.type == RT_CLIENT_TEXTBOX:
            for record in records(child.payload):
                if record.type in (RT_TEXT_CHARS, RT_TEXT_BYTES):
                    lines = characters(record).replace("\x0b", " ").split("\r")
                    paragraphs += [" ".join(line.split()) for line in lines if line.strip()]
    return tuple(paragraphs)


def rewrite_slides(
    pptx: bytes, rewrite: Callable[[int, etree._Element], bool], parts: re.Pattern[str] = _SLIDE_PART
) -> bytes:
    """The presentation with each slide's XML (or each part `parts` matches, its number the first group) passed to
    `rewrite` (its number from 1, its root), which changes it in place and says whether it did; unchanged when no
    part changed."""
    changed: dict[str, bytes] = {}
    with zipfile.ZipFile(io.BytesIO(pptx)) as archive:
        for name in archive.namelist():
            match = parts.match(name)
            if match is None:
                continue
            root = etree.fromstring(archive.read(name), safe_xml_parser())
            if rewrite(int(match.group(1)), root):
                changed[name] = etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)
        if not changed:
            return pptx
        output = io.BytesIO()
        with zipfile.ZipFile(output, "w", zipfile.ZIP_DEFLATED) as rewritten:
            for item in archive.infolist():
                rewritten.writestr(item, changed.get(item.filename) or archive.read(item.filename))
    return output.getvalue()


def mark_slide(root: etree._Element, wanted: list[tuple[str, str]]) -> bool:
    """Marks a converted slide's placeholders (`<p:ph type=…/>` in each shape's nvPr): a text shape whose text is
    one of `wanted`'s takes its type (`wanted` is used up); a shape showing only a slide number or date field
    (ppt2pptx writes the footer's slide number so) is that placeholder. Whether any was marked."""
    marked = False
    for shape in root.iter(f"{{{P_NS}}}sp"):
        nv_pr = shape.find(f"{{{P_NS}}}nvSpPr/{{{P_NS}}}nvPr")
        body = shape.find(f"{{{P_NS}}}txBody")
        if nv_pr is None or body is None or nv_pr.find(f"{{{P_NS}}}ph") is not None:
            continue
        kind = _field_kind(body)
        if not kind:
            text = shown_text(body)
            index = next((at for at, (shown, _) in enumerate(wanted) if shown == text and text), None)
            kind = wanted.pop(index)[1] if index is not None else ""
        if kind:
            nv_pr.insert(0, etree.Element(f"{{{P_NS}}}ph", type=kind))
            marked = True
    return marked


def shown_text(element: etree._Element) -> str:
    """The text a converted shape (or its text body) shows, its whitespace collapsed."""
    return " ".join(" ".join(node.text or "" for node in element.iter(f"{{{A_NS}}}t")).split())


def _field_kind(body: etree._Element) -> str:
    """'sldNum' or 'dt' for a text body showing one slide-number or date field and nothing else."""
    fields = list(body.iter(f"{{{A_NS}}}fld"))
    if len(fields) != 1:
        return ""
    field_text = "".join(node.text or "" for node in fields[0].iter(f"{{{A_NS}}}t"))
    all_text = "".join(node.text or "" for node in body.iter(f"{{{A_NS}}}t"))
    if all_text.strip() != field_text.strip():
        return ""
    kind = str(fields[0].get("type", ""))
    return "sldNum" if kind == "slidenum" else "dt" if kind.startswith("datetime") else ""
