"""The floating pictures of a Word 97-2003 file: a picture laid out beside or over the text is a shape, anchored
by a 0x08 character of the text. The table stream's PlcfSpa gives each anchor's position and shape id; its
OfficeArt drawing (at fcDggInfo) gives each shape's picture as an index into the blip store, whose entries (FBSE)
hold the image or point at it in the WordDocument stream. PNG, JPEG, DIB and TIFF blips are kept, as for inline
pictures (doc_pictures.py); header and footer shapes, and shapes that are no picture (text boxes, lines), are not.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator

from docshelf.parsers.office.doc_pictures import FBSE, blip_image, office_art_records

ANCHOR = "\x08"
FIB_LCB = 154  # where FibRgFcLcb97 starts in the WordDocument stream: (fc, lcb) pairs
FC_PLCSPA_MOM = FIB_LCB + 40 * 8  # the main document's shape anchors
FC_DGG_INFO = FIB_LCB + 50 * 8  # the OfficeArt drawing
SPA_BYTES = 26
_DGG_CONTAINER, _BSTORE, _DG_CONTAINER, _SPGR_CONTAINER, _SP_CONTAINER = 0xF000, 0xF001, 0xF002, 0xF003, 0xF004
_FSP, _FOPT = 0xF00A, 0xF00B
_PIB = 0x0104  # the shape's picture: its blip's place (from 1) in the blip store
_MAIN_DOCUMENT = 0  # a drawing's dgglbl: the main document's (1: the headers')
MAX_DEPTH = 8
MAX_SHAPES = 10_000


def floating_pictures(word_document: bytes, table: bytes, text: str) -> dict[int, bytes]:
    """The image bytes of each floating picture, by its anchor's position in the main document's text."""
    if ANCHOR not in text or len(word_document) < FC_DGG_INFO + 8:
        return {}
    anchors = _anchors(table, *struct.unpack_from("<II", word_document, FC_PLCSPA_MOM))
    anchors = {spid: cp for spid, cp in anchors.items() if cp < len(text) and text[cp] == ANCHOR}
    if not anchors:
        return {}
    fc, lcb = struct.unpack_from("<II", word_document, FC_DGG_INFO)
    drawing = table[fc : fc + lcb] if fc + lcb <= len(table) else b""
    store, pictures = _drawing(drawing)
    found: dict[int, bytes] = {}
    for spid, pib in pictures.items():
        cp = anchors.get(spid)
        if cp is None or not 0 < pib <= len(store):
            continue
        image = _stored_image(drawing, store[pib - 1], word_document)
        if image is not None:
            found[cp] = image
    return found


def _anchors(table: bytes, fc: int, lcb: int) -> dict[int, int]:
    """Shape id -> its anchor's character position, from the PlcfSpa."""
    count = (lcb - 4) // (4 + SPA_BYTES) if lcb >= 4 + 4 + SPA_BYTES else 0
    if not count or fc + lcb > len(table):
        return {}
    count = min(count, MAX_SHAPES)
    cps = struct.unpack_from(f"<{count}I", table, fc)
    ids = (struct.unpack_from("<I", table, fc + 4 * (count + 1) + SPA_BYTES * index)[0] for index in range(count))
    return {spid: cp for cp, spid in zip(cps, ids, strict=True)}


def _drawing(drawing: bytes) -> tuple[list[int], dict[int, int]]:
    """(the blip store's FBSE records' offsets, in order; shape id -> its picture's place in the store) of the main
    document's drawing. The drawing group's container is followed by each drawing, a byte saying whose before it."""
    store: list[int] = []
    pictures: dict[int, int] = {}
    at = 0
    for _, record, body, end in office_art_records(drawing, 0, len(drawing)):
        at = end
        if record == _DGG_CONTAINER:
            store = [start - 8 for _, kind, start, _ in _inner(drawing, body, end, _BSTORE) if kind == FBSE]
        break
    while at + 9 <= len(drawing):
        label, at = drawing[at], at + 1
        for _, record, body, end in office_art_records(drawing, at, len(drawing)):
            if record == _DG_CONTAINER and label == _MAIN_DOCUMENT:
                pictures.update(_shape_pictures(drawing, body, end, 0))
            at = end
            break
    return store, pictures


def _inner(data: bytes, body: int, end: int, container: int) -> Iterator[tuple[int, int, int, int]]:
    """The records inside the first `container` record among those from `body` to `end`."""
    for _, record, start, stop in office_art_records(data, body, end):
        if record == container:
            yield from office_art_records(data, start, stop)
            return


def _shape_pictures(data: bytes, body: int, end: int, depth: int) -> Iterator[tuple[int, int]]:
    """(shape id, picture's place in the blip store) of each shape with a picture, through groups."""
    for _, record, start, stop in office_art_records(data, body, end):
        if record in (_SPGR_CONTAINER, _DG_CONTAINER) and depth < MAX_DEPTH:
            yield from _shape_pictures(data, start, stop, depth + 1)
        elif record == _SP_CONTAINER:
            spid = pib = None
            for version_instance, inner, field, field_end in office_art_records(data, start, stop):
                if inner == _FSP and field + 4 <= field_end:
                    spid = struct.unpack_from("<I", data, field)[0]
                elif inner == _FOPT:
                    pib = _property(data, field, field_end, version_instance >> 4, _PIB)
            if spid is not None and pib is not None:
                yield spid, pib


def _property(data: bytes, at: int, end: int, count: int, wanted: int) -> int | None:
    for index in range(count):
        place = at + 6 * index
        if place + 6 > end:
            return None
        opid, value = struct.unpack_from("<HI", data, place)
        if opid & 0x3FFF == wanted:
            return int(value)
    return None


def _stored_image(drawing: bytes, fbse: int, word_document: bytes) -> bytes | None:
    """The image of the blip store entry at `fbse`: the blip inside it, or the one it points at in the WordDocument
    stream (Word keeps a floating picture's bytes there)."""
    _, _, body, end = next(office_art_records(drawing, fbse, len(drawing)), (0, 0, 0, 0))
    if body + 36 > end:
        return None
    size, _, delay = struct.unpack_from("<III", drawing, body + 20)
    inside = body + 36 + drawing[body + 33]  # after the entry's fields and its name
    if inside + 8 <= end:
        return blip_image(drawing, inside, end)
    if delay + 8 > len(word_document):
        return None
    return blip_image(word_document, delay, min(delay + size, len(word_document)))
