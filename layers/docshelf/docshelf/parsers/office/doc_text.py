"""The main text of a Word binary file as Word stores it, with its paragraph, cell and page marks: from the piece
table (Word 97-2003, and Word 6.0/95 files saved with fast save) or the contiguous text (other Word 6.0/95 files).

Word marks a paragraph's end with CR, a table cell's and a table row's end with BEL (a row ends with an empty cell
mark of its own), a page or section break with FF and a line break with VT; fields hold their instructions between
0x13 and 0x14 and their shown result between 0x14 and 0x15.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass

from docshelf.errors import CorruptDocumentError, UnsupportedFormatError
from docshelf.model import Block, Heading, Paragraph
from docshelf.tables import table_from_rows

WORD6_NFIB = range(101, 106)  # Word 6.0 (101) and Word 95 (104, 105)
WORD97_MIN_NFIB = 0xC1
WORD97 = "Word 97-2003"
FIB_COMPLEX = 0x0004
WORD_IDENTS = frozenset({0xA5EC, 0xA5DC, 0xA59B, 0xA59C})  # Word 97 and later, Word 6.0/95, Word for Windows 1.x/2.0
FIB_TABLE_1 = 0x0200
# Word 6.0/95 text is in the code page of the document's language (Far East editions wrote double-byte text).
_CODE_PAGES = {0x0411: "cp932", 0x0804: "cp936", 0x1004: "cp936", 0x0404: "cp950", 0x0C04: "cp950", 0x0412: "cp949"}
_FIELD = re.compile(r"\x13[^\x13\x14\x15]*(?:\x14([^\x13\x14\x15]*))?\x15")
_VERSIONS = {101: "Word 6.0", 104: "Word 95", 105: "Word 95"}


@dataclass(frozen=True, slots=True)
class WordText:
    version: str  # "Word 6.0", "Word 95" or "Word 97-2003"
    text: str  # the main document's characters, marks included


def word_version(fib: bytes) -> tuple[int, str]:
    n_fib = struct.unpack_from("<H", fib, 2)[0]
    if n_fib >= WORD97_MIN_NFIB:
        return n_fib, WORD97
    return n_fib, _VERSIONS.get(n_fib, f"Word for Windows 1.x/2.0 (nFib {n_fib})")


def main_text(word_document: bytes, table_streams: dict[str, bytes]) -> WordText:
    """The main document's text. Raises UnsupportedFormatError for versions before Word 6.0, CorruptDocumentError
    for a header or piece table that points outside the file."""
    if len(word_document) < 0x200:
        raise CorruptDocumentError("the WordDocument stream is too short for a Word file header")
    if struct.unpack_from("<H", word_document, 0)[0] not in WORD_IDENTS:
        raise CorruptDocumentError("the WordDocument stream does not start with a Word file header")
    n_fib, version = word_version(word_document)
    flags, lid = struct.unpack_from("<H", word_document, 0x0A)[0], struct.unpack_from("<H", word_document, 6)[0]
    if n_fib >= WORD97_MIN_NFIB:
        ccp_text = _u32(word_document, 0x4C)
        table = table_streams.get("1Table" if flags & FIB_TABLE_1 else "0Table")
        if table is None:
            raise CorruptDocumentError(f"{version} file without its table stream")
        clx = _slice(table, _u32(word_document, 0x1A2), _u32(word_document, 0x1A6))
        return WordText(version, _piece_text(clx, word_document, ccp_text, eight_bit=None)[:ccp_text])
    if n_fib not in WORD6_NFIB:
        raise UnsupportedFormatError(f"{version} documents are not supported (Word 6.0 and later are)")
    ccp_text = _u32(word_document, 0x34)
    encoding = _CODE_PAGES.get(lid, "cp1252")
    if flags & FIB_COMPLEX:  # fast-saved: the text is in pieces, listed in the WordDocument stream itself
        clx = _slice(word_document, _u32(word_document, 0x160), _u32(word_document, 0x164))
        return WordText(version, _piece_text(clx, word_document, ccp_text, eight_bit=encoding))
    start = _u32(word_document, 0x18)
    width = 1 if encoding == "cp1252" else 2  # at most two bytes a character
    raw = word_document[start : start + width * ccp_text]
    if start > len(word_document) or (width == 1 and len(raw) < ccp_text):
        raise CorruptDocumentError("the Word file header points past the end of its stream")
    return WordText(version, _decoded(raw, encoding, ccp_text))


def _piece_text(clx: bytes, word_document: bytes, ccp_text: int, *, eight_bit: str | None) -> str:
    """The text of the pieces covering the main document. `eight_bit`: Word 6.0/95's code page (every piece is
    8-bit there); None for Word 97, whose pieces say whether they are cp1252 or UTF-16."""
    offset = 0
    while offset < len(clx) and clx[offset] == 0x01:  # property modifiers before the piece table
        offset += 3 + struct.unpack_from("<H", clx, offset + 1)[0]
    if offset + 5 > len(clx) or clx[offset] != 0x02:
        raise CorruptDocumentError("the Word piece table was not found where the file header says")
    plc = _slice(clx, offset + 5, _u32(clx, offset + 1))
    pieces = (len(plc) - 4) // 12
    if pieces < 1:
        raise CorruptDocumentError("the Word piece table is empty")
    cps = struct.unpack_from(f"<{pieces + 1}I", plc, 0)
    parts: list[str] = []
    for index in range(pieces):
        start, end = cps[index], min(cps[index + 1], ccp_text)
        if end <= start:
            continue
        fc = _u32(plc, 4 * (pieces + 1) + 8 * index + 2)
        if eight_bit is not None:
            parts.append(_decoded(_slice(word_document, fc, end - start), eight_bit, end - start))
        elif fc & 0x40000000:
            parts.append(_slice(word_document, (fc & 0x3FFFFFFF) // 2, end - start).decode("cp1252", "replace"))
        else:
            parts.append(_slice(word_document, fc, 2 * (end - start)).decode("utf-16-le", "replace"))
    return "".join(parts)


def _decoded(raw: bytes, encoding: str, characters: int) -> str:
    """Word 6.0/95 bytes as text. A double-byte code page's characters may take two bytes each: the characters are
    counted, not the bytes, so the text is decoded and cut at `characters`."""
    return raw.decode(encoding, "replace")[:characters]


def without_fields(text: str) -> str:
    """Fields as the reader sees them: their results, without their instructions."""
    previous = None
    while previous != text:  # nested fields, innermost first
        previous, text = text, _FIELD.sub(lambda match: match.group(1) or "", text)
    return text.replace("\x13", "").replace("\x14", "").replace("\x15", "")


def _u32(data: bytes, offset: int) -> int:
    if offset + 4 > len(data):
        raise CorruptDocumentError("the Word file header is cut short")
    value: int = struct.unpack_from("<I", data, offset)[0]
    return value


def _slice(data: bytes, offset: int, length: int) -> bytes:
    if offset + length > len(data) or length < 0:
        raise CorruptDocumentError("the Word file header points past the end of its stream")
    return data[offset : offset + length]


_DROPPED = re.compile(r"[\x00-\x06\x08\x0e-\x1f]")  # picture, footnote and drawing anchors and other controls


def word_pages(text: str, headings: list[tuple[str, int]]) -> list[list[Block]]:
    """The main text's paragraphs and tables, page by page (at page and section breaks). `headings`: (text, level)
    of the document's headings in order (from its styles, as unword reads them), matched to its paragraphs in turn.

    A run of cell marks is a table: each cell ends with BEL and each row with one more. Without reading paragraph
    properties, a paragraph right after a row's end closes the table, so a first cell of several paragraphs
    starts with paragraphs of its own."""
    pages: list[list[Block]] = [[]]
    rows: list[list[str]] = []
    cells: list[str] = []
    pending: list[str] = []  # paragraphs of the cell being read
    wanted = list(headings)

    def close_table() -> None:
        if rows or cells:
            done = [*rows, cells] if cells else rows
            pages[-1].append(table_from_rows(done, page=len(pages)))
            rows.clear()
            cells.clear()

    def paragraph(raw: str) -> None:
        line = " ".join(raw.replace("\x0b", " ").split())
        if not line:
            return
        if wanted and " ".join(wanted[0][0].split()) == line:
            pages[-1].append(Heading(text=line, level=wanted.pop(0)[1], page=len(pages)))
        else:
            pages[-1].append(Paragraph(text=line, page=len(pages)))

    for piece, mark in re.findall(r"([^\r\x07\x0c]*)([\r\x07\x0c]|$)", _DROPPED.sub("", without_fields(text))):
        if mark == "\x07":
            if not piece and not pending and cells:  # the row's own end mark
                rows.append(cells[:])
                cells.clear()
            else:
                cells.append(" ".join(" ".join([*pending, piece]).replace("\x0b", " ").split()))
                pending.clear()
            continue
        if cells:  # a paragraph inside the row's next cell
            pending.append(piece)
            continue
        close_table()
        paragraph(piece)
        if mark == "\x0c":
            pages.append([])
    close_table()
    while len(pages) > 1 and not pages[-1]:
        pages.pop()
    return pages
