"""Numbered lists of a PowerPoint 97-2003 slide, which `ppt2pptx` writes as bullets (`•`).

A `.ppt` keeps a paragraph's auto-numbering outside its text properties: in the PowerPoint 2000 extension of the
shape (a StyleTextProp9Atom in the `___PPT9` binary tag of the shape's client data), one TextPFException9 for each
paragraph run of the shape's StyleTextPropAtom, holding whether the run is numbered and its scheme (`1.`, `a)`,
`(iv)`…) and first number. Those runs are mapped to the shape's paragraphs, and the converted shape's bullets of the
numbered ones become `a:buAutoNum`, which the PPTX parser counts. Only the shape's own text is read (the numbering of
text kept in the slide list's outline lives in the document's extension and is not); an entry with character or
special formatting of its own (masks this reader does not size) leaves its shape's bullets as they are.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING

from lxml import etree

from docshelf.parsers.office.ppt_placeholders import (
    A_NS,
    P_NS,
    RT_CLIENT_DATA,
    RT_CLIENT_TEXTBOX,
    RT_SP_CONTAINER,
    RT_TEXT_BYTES,
    RT_TEXT_CHARS,
    characters,
)

if TYPE_CHECKING:
    from ppt2pptx.ppt import Record

RT_STYLE_TEXT_PROP, RT_STYLE_TEXT_PROP9, RT_BINARY_TAG_DATA = 0x0FA1, 0x0FAC, 0x138B
# TextAutoNumberSchemeEnum, as DrawingML's ST_TextAutonumberScheme; other schemes keep their bullet.
SCHEMES = {
    0: "alphaLcPeriod",
    1: "alphaUcPeriod",
    2: "arabicParenR",
    3: "arabicPeriod",
    4: "romanLcParenBoth",
    5: "romanLcParenR",
    6: "romanLcPeriod",
    7: "romanUcPeriod",
    8: "alphaLcParenBoth",
    9: "alphaLcParenR",
    10: "alphaUcParenBoth",
    11: "alphaUcParenR",
    12: "arabicParenBoth",
    13: "arabicPlain",
    14: "romanUcParenBoth",
    15: "romanUcParenR",
}
# TextPFException fields present with each mask bit, in the order they are stored, and their sizes.
_PF_FIELDS = (
    (0x000F, 2), (0x0080, 2), (0x0010, 2), (0x0040, 2), (0x0020, 4), (0x0800, 2), (0x1000, 2), (0x2000, 2),
    (0x4000, 2), (0x0100, 2), (0x0400, 2), (0x8000, 2),
)  # fmt: skip
_TAB_STOPS, _PF_TAIL = 0x100000, (0x10000, 0xE0000, 0x200000)
_BLIP, _HAS_SCHEME, _SCHEME = 0x00800000, 0x01000000, 0x02000000

Numbering = tuple[str, int]  # scheme, first number


def slide_numbering(slide: Record) -> list[tuple[str, list[Numbering | None]]]:
    """(the shape's text as the converted shape shows it, each non-empty paragraph's numbering) for each shape of
    the slide with a numbered paragraph."""
    from ppt2pptx.ppt import descendants

    found = []
    for shape in descendants(slide):
        if shape.type == RT_SP_CONTAINER:
            numbered = _shape_numbering(shape)
            if numbered is not None and any(numbering for _, numbering in numbered):
                text = " ".join(paragraph for paragraph, _ in numbered)
                found.append((text, [numbering for _, numbering in numbered]))
    return found


def _shape_numbering(shape: Record) -> list[tuple[str, Numbering | None]] | None:
    """The shape's non-empty paragraphs (their whitespace collapsed), each with its numbering; None when its records
    cannot say."""
    text, style, nine = _text_records(shape)
    if not (text and style and nine):
        return None
    runs, entries = _paragraph_runs(style, len(text)), _entries(nine)
    if entries is None:
        return None
    paragraphs, start = [], 0
    for paragraph in text.split("\r"):
        run = next((at for at, (first, end) in enumerate(runs) if first <= start < end), None)
        numbering = entries[run] if run is not None and run < len(entries) else None
        shown = " ".join(paragraph.replace("\x0b", " ").split())
        if shown:
            paragraphs.append((shown, numbering))
        start += len(paragraph) + 1
    return paragraphs


def _text_records(shape: Record) -> tuple[str, bytes, bytes]:
    """The shape's text, its StyleTextPropAtom and its StyleTextProp9Atom (empty where it has none)."""
    from ppt2pptx.ppt import descendants, records

    text, style, nine = "", b"", b""
    for child in records(shape.payload):
        if child.type == RT_CLIENT_TEXTBOX:
            for record in records(child.payload):
                if record.type in (RT_TEXT_CHARS, RT_TEXT_BYTES):
                    text = characters(record)
                elif record.type == RT_STYLE_TEXT_PROP:
                    style = record.payload
        elif child.type == RT_CLIENT_DATA:
            blobs = (blob for blob in descendants(child) if blob.type == RT_BINARY_TAG_DATA)
            atoms = (r.payload for blob in blobs for r in records(blob.payload) if r.type == RT_STYLE_TEXT_PROP9)
            nine = nine or next(atoms, b"")
    return text, style, nine


def _paragraph_runs(payload: bytes, length: int) -> list[tuple[int, int]]:
    """The character ranges of a StyleTextPropAtom's paragraph runs (their properties skipped by their masks)."""
    runs: list[tuple[int, int]] = []
    position = handled = 0
    while position + 10 <= len(payload) and handled < length + 1:
        count, _level, mask = struct.unpack_from("<IhI", payload, position)
        position += 10
        position += sum(size for bits, size in _PF_FIELDS if mask & bits)
        if mask & _TAB_STOPS and position + 2 <= len(payload):
            position += 2 + 4 * struct.unpack_from("<H", payload, position)[0]
        position += sum(2 for bits in _PF_TAIL if mask & bits)
        if not count:
            break
        runs.append((handled, handled + count))
        handled += count
    return runs


def _entries(payload: bytes) -> list[Numbering | None] | None:
    """Each StyleTextProp9 entry's numbering (None where the run is not numbered); None for an entry whose
    character or special formatting has fields (this reader does not size them)."""
    entries: list[Numbering | None] = []
    position = 0
    while position + 12 <= len(payload):
        mask = struct.unpack_from("<I", payload, position)[0]
        position += 4 + (2 if mask & _BLIP else 0)
        numbered, scheme, first = False, 3, 1
        if mask & _HAS_SCHEME and position + 2 <= len(payload):
            numbered = struct.unpack_from("<H", payload, position)[0] != 0
            position += 2
        if mask & _SCHEME and position + 4 <= len(payload):
            scheme, first = struct.unpack_from("<Hh", payload, position)
            position += 4
        if position + 8 > len(payload) or any(struct.unpack_from("<II", payload, position)):
            return None
        position += 8
        entries.append((SCHEMES[scheme], first) if numbered and scheme in SCHEMES else None)
    return entries


def number_slide(root: etree._Element, numbered: list[tuple[str, list[Numbering | None]]]) -> bool:
    """The converted slide's bullets numbered where the `.ppt` numbers them: in each text shape whose text is a
    numbered shape's (`slide_numbering`; used up), each non-empty paragraph with a bullet character takes its
    paragraph's numbering. Whether any did."""
    changed = False
    wanted = list(numbered)
    for shape in root.iter(f"{{{P_NS}}}sp"):
        body = shape.find(f"{{{P_NS}}}txBody")
        paragraphs = [p for p in body.iter(f"{{{A_NS}}}p") if _paragraph_text(p)] if body is not None else []
        text = " ".join(_paragraph_text(paragraph) for paragraph in paragraphs)
        index = next((at for at, (shown, _) in enumerate(wanted) if shown == text and text), None)
        if index is None:
            continue
        numberings = iter(wanted.pop(index)[1])
        for paragraph in paragraphs:
            numbering = next(numberings, None)
            p_pr = paragraph.find(f"{{{A_NS}}}pPr")
            bullet = p_pr.find(f"{{{A_NS}}}buChar") if p_pr is not None else None
            if numbering is None or p_pr is None or bullet is None:
                continue
            auto = etree.Element(f"{{{A_NS}}}buAutoNum", type=numbering[0])
            if numbering[1] != 1:
                auto.set("startAt", str(numbering[1]))
            p_pr.replace(bullet, auto)
            changed = True
    return changed


def _paragraph_text(paragraph: etree._Element) -> str:
    """A converted paragraph's text, its runs joined as written and its whitespace collapsed."""
    return " ".join("".join(node.text or "" for node in paragraph.iter(f"{{{A_NS}}}t")).split())
