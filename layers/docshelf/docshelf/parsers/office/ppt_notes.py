"""Speaker notes of a PowerPoint 97-2003 `.ppt` as a PPTX's are read: the notes body's text alone.

`ppt2pptx` puts the text of every text box of a notes page in the converted notes body: the page's header and
footer (PowerPoint's header and footer placeholders; LibreOffice writes them as plain text boxes) became speaker
notes of every slide. The `.ppt` says which shape of a notes page is its body (an OEPlaceholderAtom placed as
NotesBody); the paragraphs of the other text boxes of the notes pages, where no body holds them too, are taken out
of the converted notes again.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from docshelf.parsers.office.ppt_placeholders import (
    A_NS,
    P_NS,
    RT_SP_CONTAINER,
    rewrite_slides,
    shape_placement,
    shape_text,
    shown_text,
)

if TYPE_CHECKING:
    from lxml import etree

RT_NOTES = 0x03F0  # a notes page, or the notes master
NOTES_BODY = 0x0C  # PlaceholderEnum
_NOTES_PART = re.compile(r"^ppt/notesSlides/notesSlide(\d+)\.xml$")


def notes_furniture(document: bytes) -> frozenset[str]:
    """The paragraphs (whitespace collapsed) of the notes pages' text boxes other than their bodies, less those a
    body holds; nothing when no notes page has a body placeholder (the shapes cannot then be told apart)."""
    from ppt2pptx.ppt import descendants, records

    body: set[str] = set()
    other: set[str] = set()
    bodies = 0
    for record in records(document):
        if record.type != RT_NOTES:
            continue
        for shape in descendants(record):
            if shape.type != RT_SP_CONTAINER:
                continue
            is_body = shape_placement(shape) == NOTES_BODY
            bodies += is_body
            (body if is_body else other).update(shape_text(shape))
    return frozenset(other - body - {"*"}) if bodies else frozenset()


def without_furniture(pptx: bytes, furniture: frozenset[str]) -> bytes:
    """The converted presentation with the paragraphs in `furniture` taken out of every notes body (an empty
    paragraph left where none remains)."""
    if not furniture:
        return pptx

    def rewrite(_: int, root: etree._Element) -> bool:
        changed = False
        for shape in root.iter(f"{{{P_NS}}}sp"):
            placeholder = shape.find(f"{{{P_NS}}}nvSpPr/{{{P_NS}}}nvPr/{{{P_NS}}}ph")
            body = shape.find(f"{{{P_NS}}}txBody")
            if placeholder is None or placeholder.get("type") != "body" or body is None:
                continue
            paragraphs = body.findall(f"{{{A_NS}}}p")
            dropped = [paragraph for paragraph in paragraphs if shown_text(paragraph) in furniture]
            for paragraph in dropped:
                body.remove(paragraph)
            if dropped and len(dropped) == len(paragraphs):
                body.append(body.makeelement(f"{{{A_NS}}}p", {}))
            changed = changed or bool(dropped)
        return changed

    return rewrite_slides(pptx, rewrite, _NOTES_PART)
