"""The inline pictures of a Word 97-2003 file: each is a special character (0x01) of the text whose character run
sets sprmCPicLocation, the position of its PICF in the Data stream. After the PICF's header (and, for
MM_SHAPEFILE, a name) come OfficeArt records: the picture's shape, then an FBSE whose embedded blip holds the
image's bytes. PNG, JPEG, DIB and TIFF blips are kept; metafiles (WMF, EMF, PICT) are drawings no image library
here renders. Floating pictures (anchored by 0x08, their shapes in the table stream's drawing) are read by
doc_shapes.py.
"""

from __future__ import annotations

import bisect
import struct
from collections.abc import Callable, Iterator

from docshelf.parsers.office.doc_looks import character_runs
from docshelf.parsers.office.doc_props import Piece, PieceIndex, sprms

SPRM_PIC_LOCATION = 0x6A03  # sprmCPicLocation: the PICF's offset in the Data stream
SPRM_SPECIAL = 0x0855  # sprmCFSpec: the run's characters are special (a picture, a note reference…)
PICTURE = "\x01"
MM_SHAPE, MM_SHAPEFILE = 0x0064, 0x0066
_CONTAINER = 0xF
FBSE = 0xF007
# Blip record types -> the image kind (an odd instance has two 16-byte UIDs before the data, an even one one)
_BLIPS = {0xF01D: "jpeg", 0xF02A: "jpeg", 0xF01E: "png", 0xF01F: "dib", 0xF029: "tiff"}
MAX_DEPTH = 8
BMP_FILE_HEADER = 14


def inline_pictures(
    word_document: bytes, table: bytes, data: bytes, pieces: list[Piece], text: str
) -> dict[int, bytes]:
    """The image bytes of each inline picture, by its character's position in the text."""
    if not data:
        return {}
    locations = special_character_values(word_document, table, pieces, text, _location)
    found = {cp: picture_bytes(data, offset) for cp, offset in locations.items()}
    return {cp: image for cp, image in found.items() if image is not None}


def special_character_values(
    word_document: bytes,
    table: bytes,
    pieces: list[Piece],
    text: str,
    value_of: Callable[[bytes], int | None],
    special: str = PICTURE,
) -> dict[int, int]:
    """What `value_of` reads from the character properties (grpprl) of each `special` character of `text` (0x01: a
    picture; 0x14: a field's separator, an embedded object's), by the character's position; characters it gives
    None for are left out."""
    positions = [at for at, character in enumerate(text) if character == special]
    if not positions:
        return {}
    runs = character_runs(word_document, table, value_of)
    if not runs:
        return {}
    starts = [start for start, _, _ in runs]
    index = PieceIndex(pieces)
    found: dict[int, int] = {}
    for cp in positions:
        fc = index.byte_of(cp)
        if fc is None:
            continue
        at = bisect.bisect_right(starts, fc) - 1
        if at >= 0 and fc < runs[at][1]:
            found[cp] = runs[at][2]
    return found


def _location(grpprl: bytes) -> int | None:
    found = sprms(grpprl)
    if found.get(SPRM_SPECIAL, b"\0")[:1] == b"\0" or len(found.get(SPRM_PIC_LOCATION, b"")) != 4:
        return None
    return int.from_bytes(found[SPRM_PIC_LOCATION], "little")


def picture_bytes(data: bytes, offset: int) -> bytes | None:
    """The image of the PICF at `offset` of the Data stream, as a file an image library opens, or None."""
    if offset + 0x44 > len(data):
        return None
    size, header = struct.unpack_from("<IH", data, offset)
    kind = struct.unpack_from("<H", data, offset + 6)[0]
    if kind not in (MM_SHAPE, MM_SHAPEFILE) or header < 0x44:
        return None
    end = min(offset + size, len(data))
    at = offset + header
    if kind == MM_SHAPEFILE and at < end:
        at += 1 + data[at]  # the picture's name
    return blip_image(data, at, end)


def blip_image(data: bytes, at: int, end: int) -> bytes | None:
    """The image of the first bitmap blip among the OfficeArt records from `at` to `end`, or None."""
    return _blip(data, at, end, 0)


def office_art_records(data: bytes, at: int, end: int) -> Iterator[tuple[int, int, int, int]]:
    """(version and instance, type, body start, body end) of each OfficeArt record from `at` to `end`."""
    while at + 8 <= end:
        version_instance, record, length = struct.unpack_from("<HHI", data, at)
        body = at + 8
        yield version_instance, record, body, min(body + length, end)
        at = body + length


def _blip(data: bytes, at: int, end: int, depth: int) -> bytes | None:
    """The first image blip among the OfficeArt records from `at` to `end`."""
    for version_instance, record, body, after in office_art_records(data, at, end):
        if version_instance & 0xF == _CONTAINER and depth < MAX_DEPTH:
            found = _blip(data, body, after, depth + 1)
        elif record == FBSE and body + 36 <= after and depth < MAX_DEPTH:
            found = _blip(data, body + 36 + data[body + 33], after, depth + 1)  # after the FBSE and its name
        elif record in _BLIPS:
            found = _image(data[body + 16 * (2 if version_instance >> 4 & 1 else 1) + 1 : after], _BLIPS[record])
        else:
            found = None
        if found is not None:
            return found
    return None


def _image(blip: bytes, kind: str) -> bytes | None:
    if not blip:
        return None
    if kind != "dib":
        return blip
    if len(blip) < 40:
        return None
    # A DIB is a BMP file without its file header: the header says where the pixels start.
    header_size, _, _, _, bits = struct.unpack_from("<IiiHH", blip, 0)
    colours = struct.unpack_from("<I", blip, 32)[0] or (1 << bits if bits <= 8 else 0)
    pixels = BMP_FILE_HEADER + header_size + 4 * colours
    return b"BM" + struct.pack("<IHHI", BMP_FILE_HEADER + len(blip), 0, 0, pixels) + blip
