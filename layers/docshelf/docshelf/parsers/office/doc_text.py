"""The main text of a Word binary file as Word stores it, with its paragraph, cell and page marks: from the piece
table (Word 97-2003, and Word 6.0/95 files saved with fast save) or the contiguous text (other Word 6.0/95 files).

Word marks a paragraph's end with CR, a table cell's and a table row's end with BEL (a row ends with an empty cell
mark of its own), a page or section break with FF and a line break with VT; fields hold their instructions between
0x13 and 0x14 and their shown result between 0x14 and 0x15.
"""

from __future__ import annotations

import bisect
import re
import struct
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial

from docshelf.assets.collect import AssetCollector
from docshelf.errors import CorruptDocumentError, UnsupportedFormatError
from docshelf.model import Block, Heading, Paragraph
from docshelf.parsers.formatted_headings import formatted_headings, reads_formatting
from docshelf.parsers.office.code_blocks import CodeBlocks
from docshelf.parsers.office.doc_equations import equations
from docshelf.parsers.office.doc_lists import list_numbering, paragraph_styles
from docshelf.parsers.office.doc_looks import TextLooks
from docshelf.parsers.office.doc_pictures import PICTURE, inline_pictures
from docshelf.parsers.office.doc_props import PLAIN, Mark, Piece, paragraph_marks
from docshelf.parsers.office.doc_shapes import ANCHOR, floating_pictures
from docshelf.parsers.office.doc_stories import Story, cited_stories, story_lengths
from docshelf.parsers.office.doc_tables import CellShape, word_table
from docshelf.parsers.office.docx_numbering import Numbering, format_number
from docshelf.structure import numbered_headings
from docshelf.tables import block_text

WORD6_NFIB = range(101, 106)  # Word 6.0 (101) and Word 95 (104, 105)
WORD97_MIN_NFIB = 0xC1
WORD97 = "Word 97-2003"
FIB_COMPLEX = 0x0004
WORD_IDENTS = frozenset({0xA5EC, 0xA5DC, 0xA59B, 0xA59C})  # Word 97 and later, Word 6.0/95, Word for Windows 1.x/2.0
FIB_TABLE_1 = 0x0200
# Word 6.0/95 text is in the code page of the document's language (Far East editions wrote double-byte text).
_CODE_PAGES = {0x0411: "cp932", 0x0804: "cp936", 0x1004: "cp936", 0x0404: "cp950", 0x0C04: "cp950", 0x0412: "cp949"}
_FIELD = re.compile(r"\x13[^\x13\x14\x15]*(?:\x14([^\x13\x14\x15]*))?\x15")
_FIELD_MARKS = re.compile(r"[\x13\x14\x15]")
_OUTSIDE_BMP = re.compile("[\U00010000-\U0010ffff]")
_HALVES = re.compile("[\ud800-\udfff]")
_VERSIONS = {101: "Word 6.0", 104: "Word 95", 105: "Word 95"}


@dataclass(frozen=True, slots=True)
class WordText:
    version: str  # "Word 6.0", "Word 95" or "Word 97-2003"
    text: str  # the main document's characters, marks included
    marks: dict[int, Mark] | None = None  # the properties of the marks that have some, by position in the file
    stories: dict[int, list[Story]] = field(default_factory=dict)  # notes and text boxes by citing position
    lists: Numbering | None = None  # the list definitions, for the list paragraphs' labels
    looks: Callable[[], TextLooks | None] | None = None  # how its characters are set: read when headings are typed
    pictures: dict[int, bytes] = field(default_factory=dict)  # pictures' images by their character's position
    equations: dict[str, str] = field(default_factory=dict)  # LaTeX by the placeholder in the text (doc_equations.py)


def word_version(fib: bytes) -> tuple[int, str]:
    n_fib = struct.unpack_from("<H", fib, 2)[0]
    if n_fib >= WORD97_MIN_NFIB:
        return n_fib, WORD97
    return n_fib, _VERSIONS.get(n_fib, f"Word for Windows 1.x/2.0 (nFib {n_fib})")


def main_text(word_document: bytes, streams: dict[str, bytes]) -> WordText:
    """The main document's text, with its marks' properties for a Word 97 file (`streams`: the table streams
    and the Data stream the file has, by name, and its equation objects' streams by path, doc_equations.py).
    Raises UnsupportedFormatError for versions before Word 6.0, CorruptDocumentError for a header or piece table
    that points outside the file."""
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
        pieces = _pieces(clx, word_document, sum(story_lengths(word_document)), eight_bit=None)
        data = streams.get("Data", b"")
        styles = paragraph_styles(word_document, table)
        marks = paragraph_marks(word_document, table, data, pieces, styles)
        text = "".join(piece.text for piece in pieces)
        stories = cited_stories(word_document, table, text)
        looks = partial(TextLooks.read, word_document, table, pieces, styles)
        pictures = inline_pictures(word_document, table, data, pieces, text[:ccp_text])
        pictures |= floating_pictures(word_document, table, text[:ccp_text])
        lists = list_numbering(word_document, table)
        main, latex = equations(word_document, table, pieces, text[:ccp_text], streams)
        return WordText(version, main, marks, stories, lists, looks, pictures, latex)
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
            text = _slice(word_document, fc, 2 * (end - start)).decode("utf-16-le", "surrogatepass")
            if len(text) < end - start:  # characters beyond the BMP: a position each half, as Word counts them
                text = _OUTSIDE_BMP.sub(_surrogates, text)
            parts.append(Piece(start, text, fc, 2))
    return parts


def _pictured(raw: str) -> bool:
    """Whether the characters hold an inline picture or a shape's anchor (a floating picture, or a text box)."""
    return PICTURE in raw or ANCHOR in raw


def _surrogates(match: re.Match[str]) -> str:
    code = ord(match.group()) - 0x10000
    return chr(0xD800 + (code >> 10)) + chr(0xDC00 + (code & 0x3FF))


def _paired(text: str) -> str:
    """Text whose characters beyond the BMP were kept as UTF-16 halves, whole again (a lone half is U+FFFD)."""
    if _HALVES.search(text) is None:
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


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
    return _FIELD_MARKS.sub("\x00", text)


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


def word_pages(
    word: WordText, headings: list[tuple[str, int]], collector: AssetCollector | None = None
) -> list[list[Block]]:
    """The main text's paragraphs and tables, page by page (at page and section breaks), with the notes and text
    boxes it cites. `headings`: (text, level) of the document's headings in order (from its styles, as unword
    reads them), matched to its paragraphs in turn.

    A run of cell marks is a table: each cell ends with BEL, and each row with one more, whose paragraph
    properties say it ends the row (fTtp); a paragraph of a cell (fInTable) before its cell mark joins that cell.
    Without the properties, an empty cell mark right after a cell ends the row (once the row has as many cells as
    the table's first), and a paragraph right after a row's end closes the table. Nothing read is dropped: a cell
    left open when its table closes is its row's last.

    A note's reference leaves its mark in the text (`[^1]`, endnotes `[^i]`, numbered in citation order as DOCX
    notes are) and the note follows the block citing it as a paragraph `[^1]: text`; a text box's paragraphs
    follow the block anchoring it. Notes and boxes the text does not cite or anchor follow the text. An inline
    picture of a paragraph follows it (its image into `collector`)."""
    reader = _Reader(headings, word.marks, word.stories, word.lists or Numbering.of({}, {}))
    reader.pictures, reader.collector = word.pictures, collector
    reader.read(word.text, 0)
    reader.finish()
    pages = reader.pages
    while len(pages) > 1 and not pages[-1]:
        pages.pop()
    return _with_unstyled_headings(pages, reader.spans, word.looks)


def _with_unstyled_headings(
    pages: list[list[Block]], spans: dict[int, tuple[int, int, int]], read_looks: Callable[[], TextLooks | None] | None
) -> list[list[Block]]:
    """The pages with headings typed bold or larger in the body style (when the file has no headings of its own
    and its character properties could be read) and numbered lines (`1.2 Scope`, `第1条`) as headings, as a DOCX
    file's. `spans`: each body paragraph's (first, end, style) by the block's id."""
    blocks = [block for page in pages for block in page]
    styled = not reads_formatting(blocks)
    looks = read_looks() if not styled and read_looks is not None else None
    if looks is not None:
        found = {at: looks.look(*spans[id(block)]) for at, block in enumerate(blocks) if id(block) in spans}
        blocks = formatted_headings(blocks, {at: look for at, look in found.items() if look is not None})
    blocks = numbered_headings(blocks, headings_are_styled=styled)  # `第1条（目的） この規則は…`: two blocks
    regrouped: list[list[Block]] = [[] for _ in pages]
    for block in blocks:
        regrouped[min(max(block.page, 1), len(pages)) - 1].append(block)
    return regrouped


_NOTE_FORMATS = {"footnote": "decimal", "endnote": "lowerRoman"}


class _Reader:
    def __init__(
        self,
        headings: list[tuple[str, int]],
        marks: dict[int, Mark] | None,
        stories: dict[int, list[Story]],
        lists: Numbering,
        *,
        page: int = 1,
    ) -> None:
        self.pages: list[list[Block]] = [[]]
        self.first_page = page
        self.rows: list[list[str]] = []
        self.shapes: list[tuple[CellShape, ...]] = []  # each row's cells as its row end's properties give them
        self.header_rows = 0  # the table's leading rows marked as header rows
        self.cells: list[str] = []
        self.pending: list[str] = []  # paragraphs of the cell being read
        self.inner_cells: list[str] = []  # the nested table's row being read in that cell
        self.inner_start = 0  # the first of `pending` in the nested table's cell being read
        self.width = 0  # without the marks' properties: the cells of the table's first row
        self.wanted = [(" ".join(_DROPPED.sub("", text).split()), level) for text, level in headings]
        self.marks = marks
        self.lists = lists
        self.code = CodeBlocks()
        self.stories = dict(stories)
        self.cited = sorted(stories)
        self.queued: list[Block] = []  # the notes cited by the block being read
        self.boxes: list[Block] = []  # the blocks of the text boxes it anchors
        self.counts = {"footnote": 0, "endnote": 0}
        self.spans: dict[int, tuple[int, int, int]] = {}  # each body paragraph's characters and style, by its id
        self.pictures: dict[int, bytes] = {}  # inline pictures by position, placed after their paragraphs
        self.collector: AssetCollector | None = None
        self.table_pictures: list[Block] = []  # the pictures of the table being read's cells

    @property
    def page(self) -> int:
        return self.first_page + len(self.pages) - 1

    def read(self, text: str, start: int) -> None:
        """`text`'s blocks; `start`: its first character's position in the file."""
        marks = self.marks
        for found in _SEGMENTS.finditer(blanked_fields(text)):
            raw, mark = found.group(1), found.group(2)
            plain = piece = _paired(_DROPPED.sub("", raw))
            if self.stories and raw:
                cited = self._cite(raw, start + found.start(1))
                if cited is not raw:
                    piece = _paired(_DROPPED.sub("", cited))
            props = marks.get(start + found.start(2), PLAIN) if marks is not None and mark != "\x0c" else None
            if props is not None and props.list_id:  # Word counts an empty item too, but shows nothing
                label = self.lists.next_label(str(props.list_id), props.list_level)
                piece = f"{label} {piece}" if label and piece.strip() else piece
            if mark == "\x07" or (props.in_table if props is not None else self.in_row()):
                if _pictured(raw):  # a cell's pictures follow its table
                    self.table_pictures += self.pictures_of(raw, start + found.start(1))
                if mark == "\x07":
                    self.cell_mark(piece, props)
                else:
                    self.cell_paragraph(piece, props)
            elif props is not None and props.code:  # a line of code (its line breaks kept), or an empty one
                self.close_table()
                self.code.add(self.pages[-1], piece.replace("\x0b", "\n"), self.page)
                self._flush()
            else:
                self.close_table()
                level = props.list_level if props is not None and props.list_id else None
                span = (start + found.start(1), start + found.start(2), props.style if props is not None else 0)
                self.paragraph(piece, plain, level, heading=props.heading if props is not None else 0, span=span)
                if _pictured(raw):
                    self.pages[-1] += self.pictures_of(raw, start + found.start(1))
                if mark == "\x0c" and start == 0:
                    self.pages.append([])

    def finish(self) -> None:
        self.close_table()
        for cp in sorted(self.stories):
            for story in self.stories.pop(cp):
                self._take(story)
        self._flush()

    def in_row(self) -> bool:
        return bool(self.cells or self.pending)

    def cell_paragraph(self, piece: str, props: Mark | None) -> None:
        """A paragraph of the cell being read; in a nested table, its cells' paragraphs become one line a row, the
        cells apart by ` | ` (as DOCX's nested tables read)."""
        if props is None or not props.inner:
            self.pending.append(piece)
        elif props.inner == "cell":
            self.inner_cells.append(_cell_text(self.pending[self.inner_start :], piece))
            del self.pending[self.inner_start :]
        else:
            self.close_inner_row()

    def close_inner_row(self) -> None:
        if self.inner_cells:
            self.pending.append(" | ".join(self.inner_cells))
            self.inner_cells.clear()
        self.inner_start = len(self.pending)

    def cell_mark(self, piece: str, props: Mark | None) -> None:
        self.close_inner_row()
        self.inner_start = 0
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
        self.close_row(props)
        if self.rows and not self.width:
            self.width = len(self.rows[0])

    def close_row(self, props: Mark | None = None) -> None:
        self.close_inner_row()
        self.inner_start = 0
        if self.pending:
            self.cells.append(_cell_text(self.pending, ""))
            self.pending.clear()
        if self.cells:
            if props is not None and props.header and self.header_rows == len(self.rows):
                self.header_rows += 1
            self.rows.append(self.cells[:])
            self.shapes.append(props.cells if props is not None else ())
            self.cells.clear()

    def close_table(self) -> None:
        self.close_row()
        if self.rows:
            table = word_table(self.rows, self.shapes, page=self.page, header_rows=max(1, self.header_rows))
            self.pages[-1].append(table)
            self.rows.clear()
            self.shapes.clear()
            self._flush()
        self.pages[-1] += self.table_pictures
        self.table_pictures = []
        self.width = 0
        self.header_rows = 0

    def paragraph(
        self,
        raw: str,
        plain: str,
        list_level: int | None = None,
        *,
        heading: int = 0,
        span: tuple[int, int, int] | None = None,
    ) -> None:
        """A paragraph, or a heading: unword's next one when the text is its, else one by its style (`heading`:
        the level its style or outline level gives, 0 for none). `span`: where its characters are, and its style."""
        line = " ".join(raw.replace("\x0b", " ").split())
        if line:
            plain_line = line if plain is raw else " ".join(plain.replace("\x0b", " ").split())
            if self.wanted and self.wanted[0][0] == plain_line:
                self.pages[-1].append(Heading(text=line, level=self.wanted.pop(0)[1], page=self.page))
            elif heading:
                self.pages[-1].append(Heading(text=line, level=heading, page=self.page))
            else:
                self.pages[-1].append(Paragraph(text=line, page=self.page, list_level=list_level))
                if span is not None and list_level is None:
                    self.spans[id(self.pages[-1][-1])] = span
        self._flush()

    def pictures_of(self, raw: str, start: int) -> list[Block]:
        """The images of the pictures among `raw`'s characters (from position `start`): inline, or anchored shapes."""
        if self.collector is None:
            return []
        found: list[Block] = []
        for at, character in enumerate(raw):
            image = self.pictures.get(start + at) if character in (PICTURE, ANCHOR) else None
            block = self.collector.image_of(image, page=self.page) if image is not None else None
            found += [block] if block is not None else []
        return found

    def _cite(self, raw: str, start: int) -> str:
        """`raw` (the characters from position `start`) with the marks of the notes it cites; the notes and text
        boxes it cites or anchors are queued. A note's reference character (or a box's anchor) gives way to its
        mark; a custom reference mark stays, the mark after it."""
        first = bisect.bisect_left(self.cited, start)
        last = bisect.bisect_left(self.cited, start + len(raw))
        if first == last:
            return raw
        parts: list[str] = []
        done = 0
        for cp in self.cited[first:last]:
            at = cp - start
            marks = "".join(self._take(story) for story in self.stories.pop(cp, []))
            parts += [raw[done:at], marks if raw[at] in "\x02\x08" else raw[at] + marks]
            done = at + 1
        parts.append(raw[done:])
        return "".join(parts)

    def _take(self, story: Story) -> str:
        """Queues a note or a box's blocks; a note's mark."""
        sub = _Reader([], self.marks, {}, self.lists, page=self.page)
        sub.read(story.text, story.cp)
        sub.close_table()
        blocks = [block for page in sub.pages for block in page]
        if story.kind == "box":
            self.boxes += blocks
            return ""
        self.counts[story.kind] += 1
        mark = f"[^{format_number(self.counts[story.kind], _NOTE_FORMATS[story.kind])}]"
        text = "\n".join(block_text(block) for block in blocks)
        self.queued.append(Paragraph(text=f"{mark}: {text}", page=self.page))
        return mark

    def _flush(self) -> None:
        """The notes cited by the block just read, then the text boxes it anchors (as DOCX has them)."""
        for block in [*self.queued, *self.boxes]:
            self.pages[-1].append(replace(block, page=self.page))
        self.queued.clear()
        self.boxes.clear()


def _cell_text(paragraphs: list[str], last: str) -> str:
    return " ".join(" ".join([*paragraphs, last]).replace("\x0b", " ").split())
