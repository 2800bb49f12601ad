"""Paragraph properties of a Word 97-2003 file, read for its paragraph and cell marks: which cell mark ends a table
row, which paragraph stands in a table cell, and which paragraph is a list item (its list and level).

Word keeps each paragraph's properties with its mark: the PlcBtePapx (table stream) lists the 512-byte PAPX pages
(FKPs, WordDocument stream), each page the byte ranges (file positions) of its paragraphs and their grpprl, a style
index then sprms (property, operand). A row's end is a cell mark whose paragraph carries sprmPFTtp; a very long
grpprl is kept in the Data stream (sprmPHugePapx).
"""

from __future__ import annotations

import bisect
import struct
from collections.abc import Iterator
from dataclasses import dataclass, field

from docshelf.parsers.office.doc_tables import CellShape, row_cells

SPRM_IN_TABLE = 0x2416  # sprmPFInTable
SPRM_TTP = 0x2417  # sprmPFTtp: this cell mark ends its row
SPRM_ITAP = 0x6649  # sprmPItap: table depth
SPRM_INNER_CELL = 0x244B  # sprmPFInnerTableCell: this paragraph mark ends a nested table's cell
SPRM_INNER_TTP = 0x244C  # sprmPFInnerTtp: the end of a nested table's row
SPRM_ILVL = 0x260A  # sprmPIlvl
SPRM_ILFO = 0x460B  # sprmPIlfo: the list (LFO index, 1-based; 0 none)
SPRM_OUTLINE_LEVEL = 0x2640  # sprmPOutLvl: 0-8 a heading's level less one, 9 body text
SPRM_HUGE_PAPX = 0x6646  # sprmPHugePapx: the grpprl is in the Data stream
SPRM_DEF_TABLE = 0xD608  # sprmTDefTable: a 2-byte operand size; the row's cells (doc_tables.row_cells)
SPRM_TABLE_HEADER = 0x3404  # sprmTTableHeader: the row repeats as the table's header
SPRM_CHG_TABS = 0xC615  # sprmPChgTabs: a size byte of 255 means two sized parts follow
_OPERAND_SIZES = {0: 1, 1: 1, 2: 2, 3: 4, 4: 2, 5: 2, 7: 3}  # by spra, the sprm's top 3 bits; 6 is variable
FC_PLCF_BTE_PAPX = 154 + 13 * 8  # fcPlcfBtePapx, lcbPlcfBtePapx in FibRgFcLcb97


@dataclass(frozen=True, slots=True)
class Mark:
    """The properties of a paragraph (or cell) mark that shape the text: all false or 0 for a plain paragraph."""

    in_table: bool = False
    row_end: bool = False
    list_id: int = 0  # ilfo: 0 for a paragraph of no list
    list_level: int = 0  # ilvl, 0-8
    code: bool = False  # its style is a code style
    cells: tuple[CellShape, ...] = ()  # a row end's: the row's cells, edges and merges
    header: bool = False  # a row end's: the row is a header row
    inner: str = ""  # "cell" or "row": the paragraph mark ends a nested table's cell or row
    heading: int = 0  # a heading's level (1-9), from its style or its own outline level
    style: int = 0  # its paragraph style's index (0: Normal)


PLAIN = Mark()


@dataclass(frozen=True, slots=True)
class ParagraphStyles:
    """What paragraph styles give their paragraphs (doc_lists.paragraph_styles reads them)."""

    lists: dict[int, tuple[int, int]] = field(default_factory=dict)  # (ilfo, ilvl) by style index
    code: frozenset[int] = frozenset()  # code styles (code_blocks), and styles based on one
    headings: dict[int, int] = field(default_factory=dict)  # heading level (1-9) by style index
    looks: dict[int, tuple[bool, int]] = field(default_factory=dict)  # (bold, size in half-points) by style index


@dataclass(frozen=True, slots=True)
class Piece:
    cp: int  # the first character's position in the file's text
    text: str  # the piece's characters, one a position (a character beyond the BMP as its two UTF-16 halves)
    fc: int  # the first character's byte position in the WordDocument stream
    width: int  # bytes a character: 1 (cp1252) or 2 (UTF-16)


class PieceIndex:
    """The text's pieces by character position, for where in the WordDocument stream a span of the text is."""

    def __init__(self, pieces: list[Piece]) -> None:
        self._pieces = sorted(pieces, key=lambda piece: piece.cp)
        self._starts = [piece.cp for piece in self._pieces]

    def spans(self, start: int, end: int) -> Iterator[tuple[Piece, int, int]]:
        """Each piece holding characters from `start` to `end`, with the first and end character it holds of them."""
        at = max(0, bisect.bisect_right(self._starts, start) - 1)
        while at < len(self._pieces) and self._pieces[at].cp < end:
            piece = self._pieces[at]
            at += 1
            first, last = max(start, piece.cp), min(end, piece.cp + len(piece.text))
            if first < last:
                yield piece, first, last

    def byte_of(self, cp: int) -> int | None:
        """The byte position of the character at `cp`, or None when no piece holds it."""
        found = next(self.spans(cp, cp + 1), None)
        return None if found is None else found[0].fc + (cp - found[0].cp) * found[0].width


def paragraph_marks(
    word_document: bytes,
    table: bytes,
    data: bytes,
    pieces: list[Piece],
    styles: ParagraphStyles | None = None,
) -> dict[int, Mark] | None:
    """The properties of every paragraph and cell mark that has some, by the mark's position in the text (a list
    paragraph's list from its style, unless it has its own; code from its style). None when the file's PAPX pages cannot
    be read. Each run of a PAPX page is one paragraph, its mark the character
    before the run's end."""
    runs = _papx_runs(word_document, table)
    if runs is None:
        return None
    spans = sorted(((piece.fc, piece.fc + piece.width * len(piece.text), piece) for piece in pieces), key=_first)
    starts = [span[0] for span in spans]
    placed: dict[tuple[int, int], Mark] = {}  # by PAPX page and offset
    parsed: dict[bytes, Mark] = {}  # by grpprl: pages repeat the same few
    marks: dict[int, Mark] = {}
    for end, page, papx in runs:
        mark = placed.get((page, papx))
        if mark is None:
            grpprl = _grpprl(word_document, page, papx)
            mark = parsed.get(grpprl)
            if mark is None:
                mark = parsed[grpprl] = _mark(grpprl, data, styles or ParagraphStyles())
            placed[page, papx] = mark
        if mark is PLAIN:
            continue
        index = bisect.bisect_right(starts, end - 1) - 1
        if index < 0 or end > spans[index][1]:
            continue
        piece = spans[index][2]
        at = (end - piece.fc) // piece.width - 1
        if piece.text[at] in "\r\x07":
            marks[piece.cp + at] = mark
    return marks


def _first(span: tuple[int, int, Piece]) -> int:
    return span[0]


def property_pages(word_document: bytes, table: bytes, fib_offset: int) -> list[int] | None:
    """The byte offsets of the 512-byte property pages (FKPs) a PlcBte lists (its fc and lcb at `fib_offset` of the
    FIB), or None when the PlcBte cannot be read."""
    if len(word_document) < fib_offset + 8:
        return None
    fc, size = struct.unpack_from("<II", word_document, fib_offset)
    count = (size - 4) // 8
    if count < 1 or fc + size > len(table):
        return None
    pages = struct.unpack_from(f"<{count}I", table, fc + 4 * (count + 1))
    return [(pn & 0x3FFFFF) * 512 for pn in pages]


def _papx_runs(word_document: bytes, table: bytes) -> list[tuple[int, int, int]] | None:
    """(end byte, page offset, PAPX offset in the page) of every paragraph run with properties."""
    pages = property_pages(word_document, table, FC_PLCF_BTE_PAPX)
    if pages is None:
        return None
    runs: list[tuple[int, int, int]] = []
    for at in pages:
        if at + 512 > len(word_document):
            return None
        crun = word_document[at + 511]
        if 4 * (crun + 1) + 13 * crun > 511:
            return None
        ends = struct.unpack_from(f"<{crun}I", word_document, at + 4)
        offsets = word_document[at + 4 * (crun + 1) : at + 4 * (crun + 1) + 13 * crun : 13]
        runs += [(end, at, 2 * offset) for end, offset in zip(ends, offsets, strict=True) if offset]
    return runs


def _grpprl(word_document: bytes, page: int, papx: int) -> bytes:
    """A PAPX's style index and sprms."""
    at = page + papx
    size = word_document[at]
    if size:
        return word_document[at + 1 : min(at + 2 * size, page + 511)]
    return word_document[at + 2 : min(at + 2 + 2 * word_document[at + 1], page + 511)]


def _mark(grpprl: bytes, data: bytes, styles: ParagraphStyles) -> Mark:
    found = sprms(grpprl[2:])  # after the style index
    huge = found.get(SPRM_HUGE_PAPX)
    if huge is not None and len(huge) == 4:
        fc = int.from_bytes(huge, "little")
        if fc + 2 <= len(data):
            found.update(sprms(data[fc + 2 : fc + 2 + int.from_bytes(data[fc : fc + 2], "little")]))
    in_table = _on(found, SPRM_IN_TABLE) or int.from_bytes(found.get(SPRM_ITAP, b""), "little") > 0
    istd = int.from_bytes(grpprl[:2], "little")
    list_id, list_level = styles.lists.get(istd, (0, 0))
    if SPRM_ILFO in found:  # the paragraph's own list, or none (0)
        list_id = int.from_bytes(found[SPRM_ILFO][:2], "little", signed=True)
    if found.get(SPRM_ILVL):
        list_level = min(8, found[SPRM_ILVL][0])
    heading = styles.headings.get(istd, 0)
    if found.get(SPRM_OUTLINE_LEVEL):
        heading = found[SPRM_OUTLINE_LEVEL][0] + 1 if found[SPRM_OUTLINE_LEVEL][0] < 9 else 0
    row_end = _on(found, SPRM_TTP)
    mark = Mark(
        in_table=in_table,
        row_end=row_end,
        list_id=max(0, list_id),
        list_level=list_level if list_id > 0 else 0,
        code=istd in styles.code,
        cells=row_cells(found.get(SPRM_DEF_TABLE, b"")) if row_end else (),
        header=row_end and _on(found, SPRM_TABLE_HEADER),
        inner="row" if _on(found, SPRM_INNER_TTP) else "cell" if _on(found, SPRM_INNER_CELL) else "",
        heading=heading,
        style=istd,
    )
    return PLAIN if mark == PLAIN else mark


def _on(found: dict[int, bytes], sprm: int) -> bool:
    """Whether a one-byte toggle sprm is set (present and not 0)."""
    return found.get(sprm, b"\0")[:1] != b"\0"


def sprms(grpprl: bytes) -> dict[int, bytes]:
    """The operands of a grpprl's sprms, by sprm (the last wins); a sprm cut short ends the list."""
    found: dict[int, bytes] = {}
    at = 0
    while at + 2 <= len(grpprl):
        sprm = grpprl[at] | grpprl[at + 1] << 8
        at += 2
        size = _OPERAND_SIZES.get(sprm >> 13)
        if size is None:  # variable: a size before the operand
            if sprm == SPRM_DEF_TABLE and at + 2 <= len(grpprl):
                size, at = grpprl[at] | grpprl[at + 1] << 8, at + 2
                size -= 1
            elif sprm == SPRM_CHG_TABS and at < len(grpprl) and grpprl[at] == 255:
                size = _chg_tabs_size(grpprl, at + 1)
                at += 1
            elif at < len(grpprl):
                size, at = grpprl[at], at + 1
            else:
                break
        if at + size > len(grpprl):
            break
        found[sprm] = grpprl[at : at + size]
        at += size
    return found


def _chg_tabs_size(grpprl: bytes, at: int) -> int:
    """sprmPChgTabs's operand after its 255 size byte: tabs deleted (and their close zones), then tabs added."""
    deleted = grpprl[at] if at < len(grpprl) else 0
    added_at = at + 1 + 4 * deleted
    added = grpprl[added_at] if added_at < len(grpprl) else 0
    return 1 + 4 * deleted + 1 + 3 * added
