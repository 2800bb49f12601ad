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
from docshelf.parsers.office.doc_props import PLAIN, Mark, Piece, paragraph_marks
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
_FIELD_MARKS = {0x13: 0, 0x14: 0, 0x15: 0}
_VERSIONS = {101: "Word 6.0", 104: "Word 95", 105: "Word 95"}


@dataclass(frozen=True, slots=True)
class WordText:
    version: str  # "Word 6.0", "Word 95" or "Word 97-2003"
    text: str  # the main document's characters, marks included
    marks: dict[int, Mark] | None = None  # the properties of the marks that have some, by position in `text`


def word_version(fib: bytes) -> tuple[int, str]:
    n_fib = struct.unpack_from("<H", fib, 2)[0]
    if n_fib >= WORD97_MIN_NFIB:
        return n_fib, WORD97
    return n_fib, _VERSIONS.get(n_fib, f"Word for Windows 1.x/2.0 (nFib {n_fib})")


def main_text(word_document: bytes, streams: dict[str, bytes]) -> WordText:
    """The main document's text, with its marks' properties for a Word 97 file (`streams`: the table streams
    and the Data stream the file has, by name). Raises UnsupportedFormatError for versions before Word 6.0,
    CorruptDocumentError for a header or piece table that points outside the file."""
    if len(word_document) < 0x200:
        raise CorruptDocumentError("the WordDocument stream is too short for a Word file header")
    if struct.unpack_from("<H", word_document, 0)[0] not in WORD_IDENTS:
        raise CorruptDocumentError("the WordDocument stream does not start with a Word file header")
    n_fib, version = word_version(word_document)
    flags, lid = struct.unpack_from("<H", word_document, 0x0A)[0], struct.unpack_from("<H", word_document, 6)[0]
    if n_fib >= WORD97_MIN_NFIB:
        ccp_text = _u32(word_document, 0x4C)
        table = streams.get("1Table" if flags & FIB_TABLE_1 else "0Table")
        if table is None:
            raise CorruptDocumentError(f"{version} file without its table stream")
        clx = _slice(table, _u32(word_document, 0x1A2), _u32(word_document, 0x1A6))
        pieces = _pieces(clx, word_document, ccp_text, eight_bit=None)
        marks = paragraph_marks(word_document, table, streams.get("Data", b""), pieces)
        return WordText(version, "".join(piece.text for piece in pieces)[:ccp_text], marks)
    if n_fib not in WORD6_NFIB:
        raise UnsupportedFormatError(f"{version} documents are not supported (Word 6.0 and later are)")
    ccp_text = _u32(word_document, 0x34)
    encoding = _CODE_PAGES.get(lid, "cp1252")
    if flags & FIB_COMPLEX:  # fast-saved: the text is in pieces, listed in the WordDocument stream itself
        clx = _slice(word_document, _u32(word_document, 0x160), _u32(word_document, 0x164))
        pieces = _pieces(clx, word_document, ccp_text, eight_bit=encoding)
        return WordText(version, "".join(piece.text for piece in pieces))
    start = _u32(word_document, 0x18)
    width = 1 if encoding == "cp1252" else 2  # at most two bytes a character
    raw = word_document[start : start + width * ccp_text]
    if start > len(word_document) or (width == 1 and len(raw) < ccp_text):
        raise CorruptDocumentError("the Word file header points past the end of its stream")
    return WordText(version, _decoded(raw, encoding, ccp_text))


def _pieces(clx: bytes, word_document: bytes, ccp_text: int, *, eight_bit: str | None) -> list[Piece]:
    """The pieces covering the main document, in text order. `eight_bit`: Word 6.0/95's code page (every piece is
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
    parts: list[Piece] = []
    for index in range(pieces):
        start, end = cps[index], min(cps[index + 1], ccp_text)
        if end <= start:
            continue
        fc = _u32(plc, 4 * (pieces + 1) + 8 * index + 2)
        if eight_bit is not None:
            text = _decoded(_slice(word_document, fc, end - start), eight_bit, end - start)
            parts.append(Piece(start, text, fc, 1))
        elif fc & 0x40000000:
            fc = (fc & 0x3FFFFFFF) // 2
            parts.append(Piece(start, _slice(word_document, fc, end - start).decode("cp1252", "replace"), fc, 1))
        else:
            text = _slice(word_document, fc, 2 * (end - start)).decode("utf-16-le", "replace")
            parts.append(Piece(start, text, fc, 2))
    return parts


def _decoded(raw: bytes, encoding: str, characters: int) -> str:
    """Word 6.0/95 bytes as text. A double-byte code page's characters may take two bytes each: the characters are
    counted, not the bytes, so the text is decoded and cut at `characters`."""
    return raw.decode(encoding, "replace")[:characters]


def blanked_fields(text: str) -> str:
    """Fields as the reader sees them, their results, with their instructions and field marks blanked (NUL) in
    place: the text keeps its length, so a mark keeps its position."""
    previous = None
    while previous != text:  # nested fields, innermost first
        previous, text = text, _FIELD.sub(_blanked_field, text)
    return text.translate(_FIELD_MARKS)


def _blanked_field(match: re.Match[str]) -> str:
    if match.group(1) is None:
        return "\x00" * len(match.group())
    return "\x00" * (match.start(1) - match.start()) + match.group(1) + "\x00"


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
_SEGMENTS = re.compile(r"([^\r\x07\x0c]*)([\r\x07\x0c]|$)")


def word_pages(text: str, headings: list[tuple[str, int]], marks: dict[int, Mark] | None = None) -> list[list[Block]]:
    """The main text's paragraphs and tables, page by page (at page and section breaks). `headings`: (text, level)
    of the document's headings in order (from its styles, as unword reads them), matched to its paragraphs in turn.
    `marks`: the properties of the paragraph and cell marks, by position in `text` (None when not read).

    A run of cell marks is a table: each cell ends with BEL, and each row with one more, whose paragraph
    properties say it ends the row (fTtp); a paragraph of a cell (fInTable) before its cell mark joins that cell.
    Without the properties, an empty cell mark right after a cell ends the row (once the row has as many cells as
    the table's first), and a paragraph right after a row's end closes the table. Nothing read is dropped: a cell
    left open when its table closes is its row's last."""
    pages = _Pages(headings)
    for found in _SEGMENTS.finditer(blanked_fields(text)):
        piece, mark = _DROPPED.sub("", found.group(1)), found.group(2)
        props = marks.get(found.start(2), PLAIN) if marks is not None and mark != "\x0c" else None
        if mark == "\x07":
            pages.cell_mark(piece, props)
        elif props.in_table if props is not None else pages.in_row():
            pages.pending.append(piece)  # a paragraph of the cell being read
        else:
            pages.close_table()
            pages.paragraph(piece)
            if mark == "\x0c":
                pages.pages.append([])
    pages.close_table()
    while len(pages.pages) > 1 and not pages.pages[-1]:
        pages.pages.pop()
    return pages.pages


class _Pages:
    def __init__(self, headings: list[tuple[str, int]]) -> None:
        self.pages: list[list[Block]] = [[]]
        self.rows: list[list[str]] = []
        self.cells: list[str] = []
        self.pending: list[str] = []  # paragraphs of the cell being read
        self.width = 0  # without the marks' properties: the cells of the table's first row
        self.wanted = list(headings)

    def in_row(self) -> bool:
        return bool(self.cells or self.pending)

    def cell_mark(self, piece: str, props: Mark | None) -> None:
        if props is not None:
            row_end = props.row_end
        else:
            row_end = not piece and not self.pending and bool(self.cells) and len(self.cells) >= self.width
        if not row_end:
            self.cells.append(_cell_text(self.pending, piece))
            self.pending.clear()
            return
        if piece:
            self.pending.append(piece)
        self.close_row()
        if self.rows and not self.width:
            self.width = len(self.rows[0])

    def close_row(self) -> None:
        if self.pending:
            self.cells.append(_cell_text(self.pending, ""))
            self.pending.clear()
        if self.cells:
            self.rows.append(self.cells[:])
            self.cells.clear()

    def close_table(self) -> None:
        self.close_row()
        if self.rows:
            self.pages[-1].append(table_from_rows(self.rows, page=len(self.pages)))
            self.rows.clear()
        self.width = 0

    def paragraph(self, raw: str) -> None:
        line = " ".join(raw.replace("\x0b", " ").split())
        if not line:
            return
        page = len(self.pages)
        if self.wanted and " ".join(self.wanted[0][0].split()) == line:
            self.pages[-1].append(Heading(text=line, level=self.wanted.pop(0)[1], page=page))
        else:
            self.pages[-1].append(Paragraph(text=line, page=page))


def _cell_text(paragraphs: list[str], last: str) -> str:
    return " ".join(" ".join([*paragraphs, last]).replace("\x0b", " ").split())
