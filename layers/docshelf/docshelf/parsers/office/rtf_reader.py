"""An RTF reader: groups and destinations, code pages (\\ansicpg, font charsets), \\uN with \\ucN, tables.

A footnote leaves its mark `[^1]` where it is cited and becomes a paragraph `[^1]: text` right after the paragraph
(or table) citing it; footnotes count 1, 2, 3 and endnotes (\\ftnalt) i, ii, iii, Word's default formats. A text
box (a shape's {\\*\\shpinst … {\\shptxt …}}) gives its paragraphs after the paragraph holding the shape (after its
notes, as DOCX has them); the rest of the shape (its properties, pictures, and the {\\shprslt} copy for readers
without shapes) is not read.

A paragraph all of whose text is in a monospace font (\\fmodern in the font table, or a monospace family by name)
is a line of code, its spaces kept; consecutive ones make one code block. When most of the document is set in
monospace (a typewriter-style document), none of it is code.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field, replace

from docshelf.assets.collect import AssetCollector
from docshelf.model import Block, Heading, Paragraph
from docshelf.parsers.fonts import monospaced
from docshelf.parsers.formatted_headings import Look, formatted_headings, reads_formatting
from docshelf.parsers.office.code_blocks import CodeBlocks
from docshelf.parsers.office.docx_numbering import format_number
from docshelf.parsers.office.embedded import EQUATION_OBJECTS
from docshelf.parsers.office.mtef import ole1_native_data, ole_equation_latex
from docshelf.parsers.office.rtf_math import RtfMath
from docshelf.parsers.rtf_tokens import CONTROL_SYMBOLS, SYMBOLS, TOKEN
from docshelf.parsers.textcodec import code_page_codec
from docshelf.scripts import east_asian
from docshelf.structure import numbered_headings
from docshelf.tables import table_from_rows

CHARSET_CODEPAGES = {
    77: 10000, 128: 932, 129: 949, 130: 1361, 134: 936, 136: 950, 161: 1253, 162: 1254, 163: 1258,
    177: 1255, 178: 1256, 186: 1257, 204: 1251, 222: 874, 238: 1250, 255: 437,
}  # fmt: skip
SKIPPED_DESTINATIONS = frozenset(
    {
        "colortbl", "info", "pict", "header", "headerl", "headerr", "headerf", "footer", "footerl",
        "footerr", "footerf", "fldinst", "themedata", "colorschememapping", "datastore", "xmlnstbl", "listtable",
        "listoverridetable", "revtbl", "rsidtbl", "generator", "pntext", "pntxta", "pntxtb",
        "annotation", "atnid", "atnauthor", "xe", "tc", "tcn", "ftnsep", "ftnsepc", "aftnsep", "aftnsepc",
        "nonshppict", "shppict", "shprslt", "sp", "sn", "sv", "latentstyles", "userprops", "docvar", "template",
        "filetbl", "password", "fldtype", "objdata", "result", "blipuid", "bkmkstart", "bkmkend", "mmathPr", "pgdsctbl",
    }
)  # fmt: skip
# The picture formats read (\pngblip, \jpegblip); metafiles and device-dependent bitmaps have no renderer here.
PICTURE_KINDS = {"pngblip": "png", "jpegblip": "jpeg"}
MAX_PICTURE_HEX = 64 * 1024 * 1024  # hex digits of one picture kept (32 MB of image)
_NOT_HEX = re.compile(rb"[^0-9a-fA-F]")
# A page's running parts. One never holds another, so a part opened inside one means the first was never closed
# (LibreOffice 7 writes headers holding a picture one `}` short), and the reader closes it.
PAGE_PARTS = frozenset({"header", "headerl", "headerr", "headerf", "footer", "footerl", "footerr", "footerf"})
# A list label a reader sees as a number ("1.", "2)", "a.", "iv.", "一、"), not a bullet glyph ("·", "o", "§").
_NUMBER_LABEL = re.compile(r"\d|\w[.)、．）]")
_HEADING_STYLE = re.compile(r"^(?:heading|überschrift|titre|titolo|encabezado|見出し)\s*(\d)$", re.I)
MAX_TEXT = 200_000_000
_DEFAULT_HALF_POINTS = 24  # \fs24, 12 pt: what RTF takes where no \fs sets a size
_CJK_CODEPAGES = frozenset({932, 936, 949, 950, 1361})


@dataclass(slots=True)
class _State:
    destination: str = ""
    skip: bool = False
    uc: int = 1
    font: int | None = None
    in_table: bool = False
    style: int = 0
    outline: int | None = None
    list_level: int | None = None
    definition: int | None = None
    deleted: bool = False  # a tracked deletion (\\deleted): not shown
    endnote: bool = False
    bold: bool = False
    half_points: int = _DEFAULT_HALF_POINTS
    # The associated \ab and \afs: LibreOffice sets Chinese and Japanese text's bold and size there.
    associated_bold: bool = False
    associated_half_points: int = 0


@dataclass(slots=True)
class _Output:
    blocks: list[Block] = field(default_factory=list)
    text: list[str] = field(default_factory=list)


class RtfReader:
    def __init__(self, data: bytes, collector: AssetCollector | None = None) -> None:
        self.data = data
        self.collector = collector  # where the pictures' images go (None: pictures not read)
        self.picture = bytearray()  # the hex digits of the picture being read
        self.picture_bin = b""  # or its bytes, given by \bin
        self.picture_kind = ""
        self.cited_pictures: list[Block] = []  # the images of the paragraph being read
        self.codepage = 1252
        self.font_codepages: dict[int, int] = {}
        self.style_names: dict[int, list[str]] = {}
        self.title: list[str] = []
        self.body = _Output()
        self.notes = _Output()  # the text of the footnote being read; its paragraph waits in `cited_notes`
        self.cited_notes: list[Block] = []
        self.box = _Output()  # the text of the text box being read; its paragraphs wait in `cited_boxes`
        self.font_names: dict[int, list[str]] = {}
        self.fixed_pitch: set[int] = set()  # fonts of the font table in the \\fmodern family
        self.default_font: int | None = None
        self.paragraph_fonts = [0, 0]  # characters of the paragraph being read in other fonts, in monospace
        self.paragraph_set: Counter[tuple[bool, float]] = Counter()  # its characters by (bold, size in points)
        self.looks: dict[int, Look] = {}  # how each body paragraph is set, by its index in the body's blocks
        self.code = CodeBlocks()
        self.code_chars = self.text_chars = 0
        self.cited_boxes: list[Block] = []
        self.cited_count = {False: 0, True: 0}  # footnotes, endnotes
        self.list_label: list[str] = []
        self.pending = bytearray()
        self.skip_chars = 0
        self.cells: list[str] = []
        self.rows: list[list[str]] = []
        self.state = _State()
        self.stack: list[_State] = []
        self.ignorable_next = False
        self.part_depth = 0  # the depth of the header or footer group being read (its parent's state at -1), or 0
        self.math: RtfMath | None = None  # the equation being read (rtf_math.py)
        self.equations: set[str] = set()  # the equations of the paragraph being read, as written into its text
        self.object_class: list[str] = []  # the embedded object being read: its class (\\objclass)
        self.object_data = bytearray()  # and its data's hex digits (\\objdata)

    def run(self) -> list[Block]:
        pos, size = 0, len(self.data)
        while pos < size:
            match = TOKEN.match(self.data, pos)
            if match is None:
                pos += 1
                continue
            pos = match.end()
            word, argument, hex_byte, symbol, brace, text = match.groups()
            if hex_byte is not None:
                self._bytes(bytes([int(hex_byte, 16)]))
            elif text is not None:
                self._bytes(text)
            else:
                self._decode_pending()
                if word is not None:
                    number = int(argument) if argument is not None else None
                    if word == b"bin" and number:
                        pos = self._binary(pos, number)
                        continue
                    self._control(word.decode("ascii"), number)
                elif symbol is not None:
                    self._symbol(symbol.decode("latin-1"))
                elif brace == b"{":
                    self.stack.append(replace(self.state))
                elif brace == b"}":
                    self._close_group()
        self._decode_pending()
        self._end_paragraph()
        self._end_table()
        self._place_cited_notes()
        if self.code_chars * 2 > self.text_chars:  # mostly monospace: a typewriter-style document, not code
            return [prose for block in self.body.blocks for prose in _prose(block)]
        blocks = self.body.blocks
        styled = not reads_formatting(blocks)
        if not styled:  # headings typed bold or larger in the body style
            blocks = formatted_headings(blocks, self.looks)
        return numbered_headings(blocks, headings_are_styled=styled)  # `第1章 総則` typed in the body style

    def _binary(self, pos: int, size: int) -> int:
        """Past `size` bytes of \bin data at `pos`: a picture's bytes, else skipped."""
        if self.state.destination == "pict" and not self.state.skip:
            self.picture_bin = self.data[pos : pos + min(max(size, 0), MAX_PICTURE_HEX // 2)]
        return pos + max(size, 0)

    def document_title(self) -> str:
        """The last \\title (a \\upr pair stores the ANSI fallback first, the Unicode one last)."""
        titles = [" ".join(_join_surrogates(title).split()) for title in self.title]
        return next((title for title in reversed(titles) if title.strip("? ")), "")

    def _output(self) -> _Output:
        destination = self.state.destination
        return self.notes if destination == "footnote" else self.box if destination == "shptxt" else self.body

    def _bytes(self, raw: bytes) -> None:
        if self.state.destination == "pict" and not self.state.skip:
            if len(self.picture) < MAX_PICTURE_HEX:
                self.picture.extend(raw)
            return
        if self.state.destination == "objdata":
            if len(self.object_data) < MAX_PICTURE_HEX:
                self.object_data.extend(raw)
            return
        if self.skip_chars:
            dropped = min(self.skip_chars, len(raw))
            self.skip_chars -= dropped
            raw = raw[dropped:]
        if raw and not self.state.skip:
            self.pending.extend(raw)

    def _codepage(self) -> int:
        font = self.state.font
        return self.font_codepages.get(font, self.codepage) if font is not None else self.codepage

    def _decode_pending(self) -> None:
        if not self.pending:
            return
        raw = bytes(self.pending)
        self.pending.clear()
        codepage = self._codepage()
        self._emit(raw.decode(code_page_codec(codepage), errors="replace"))

    def _emit(self, text: str) -> None:
        state = self.state
        if self.math is not None:
            self.math.text(text)
            return
        if state.skip or state.deleted:
            return
        if state.destination == "fonttbl":
            if state.definition is not None:
                self.font_names.setdefault(state.definition, []).append(text)
            return
        if state.destination == "stylesheet":
            if state.definition is not None:
                self.style_names.setdefault(state.definition, []).append(text)
            return
        if state.destination == "title":
            self.title[-1] += text
            return
        if state.destination == "objclass":
            self.object_class.append(text)
            return
        if state.destination in ("info", "shpinst"):
            return
        if state.destination == "listtext":
            self.list_label.append(text)
            return
        output = self._output()
        if output is self.body and not state.in_table and text.strip():
            self.paragraph_fonts[self._monospace()] += len(text)
            self._count_look(text)
        if sum(len(part) for part in output.text) < MAX_TEXT:
            output.text.append(text)

    def _count_look(self, text: str) -> None:
        state, characters = self.state, len(text) - text.count(" ")
        if east_asian(text[0]):  # text is a character of a \u escape, or a run of one codepage's bytes
            half_points = max(state.half_points, state.associated_half_points)
            self.paragraph_set[state.bold or state.associated_bold, half_points / 2] += characters
        else:
            self.paragraph_set[state.bold, state.half_points / 2] += characters

    def _monospace(self) -> bool:
        """The current font is a monospace one for Latin text: \\fmodern (fixed pitch) or a monospace family by
        name, but not a CJK font (their fixed pitch is their script's, not code's)."""
        font = self.state.font if self.state.font is not None else self.default_font
        if font is None or self.font_codepages.get(font) in _CJK_CODEPAGES:
            return False
        return font in self.fixed_pitch or monospaced("".join(self.font_names.get(font, [])))

    def _control(self, word: str, number: int | None) -> None:
        if self.skip_chars and word != "u":
            self.skip_chars -= 1
            return
        if self.math is not None and word not in ("u", "uc"):
            self.ignorable_next = False
            self.math.control(word, number, len(self.stack))
            return
        if word == "mmath" and not self.state.skip:
            self.ignorable_next = False
            self.math = RtfMath(len(self.stack))
            return
        if not self._destination(word) and not self.state.skip:
            self._property(word, number)

    def _destination(self, word: str) -> bool:
        """Handle a group-opening destination word; True when the word was one."""
        state = self.state
        if self._object_destination(word):
            return True
        if self.ignorable_next:
            self.ignorable_next = False
            if word == "shppict":  # a picture as Word draws it; {\nonshppict} is the same for older readers
                return True
            if word not in ("footnote", "title", "ud", "shpinst"):
                state.skip = True
                return True
        if word == "pict" and not state.skip and self.collector is not None:
            state.destination = "pict"
            self.picture, self.picture_bin, self.picture_kind = bytearray(), b"", ""
            return True
        if state.destination == "pict" and word in PICTURE_KINDS:
            self.picture_kind = PICTURE_KINDS[word]
            return True
        if word in ("fonttbl", "stylesheet", "footnote", "info", "listtext", "shpinst"):
            state.destination = word
        elif word == "shptxt" and state.destination == "shpinst":
            state.destination = "shptxt"
        elif word == "title" and state.destination == "info":
            state.destination = "title"
            self.title.append("")
        elif word in SKIPPED_DESTINATIONS:
            if word in PAGE_PARTS:
                self._open_page_part()
            self.state.skip = True
        else:
            return False
        return True

    def _object_destination(self, word: str) -> bool:
        """An embedded object's group (skipped but for its class and data) and those two destinations in it."""
        state = self.state
        if state.destination == "object" and word in ("objclass", "objdata"):
            self.ignorable_next = False
            state.destination, state.skip = word, False
            return True
        if word == "object" and not state.skip:
            state.destination, state.skip = "object", True
            self.object_class, self.object_data = [], bytearray()
            return True
        return False

    def _property(self, word: str, number: int | None) -> None:  # noqa: C901, PLR0912
        state = self.state
        if word == "u" and number is not None:
            self._emit(chr(number + 65536 if number < 0 else number))
            self.skip_chars = state.uc
        elif word == "uc" and number is not None:
            state.uc = max(0, number)
        elif word == "ansicpg" and number:
            self.codepage = number
        elif word in ("f", "fcharset", "cpg", "fmodern", "deff"):
            self._font(word, number)
        elif word == "s" and number is not None:
            if state.destination == "stylesheet":
                state.definition = number
            else:
                state.style = number
        elif word in ("par", "sect"):
            self._paragraph_break()
        elif word == "pard":
            state.in_table, state.style, state.outline, state.list_level = False, 0, None, None
        elif word == "intbl":
            state.in_table = True
        elif word == "deleted":
            state.deleted = number != 0
        elif word in ("plain", "b", "fs", "ab", "afs"):
            self._look_property(word, number)
        elif word == "ftnalt":
            state.endnote = True
        elif word == "outlinelevel" and number is not None:
            state.outline = number
        elif word == "ilvl" and number is not None:
            state.list_level = number
        elif word == "ls" and state.list_level is None:
            state.list_level = 0
        elif word in ("cell", "nestcell", "row") and state.destination == "shptxt":
            self.box.text.append("\n")  # a table in a text box: a line a cell
        elif word in ("cell", "nestcell"):
            self._end_cell()
        elif word == "row":
            self._end_row()
        elif word in SYMBOLS:
            self._emit(SYMBOLS[word])

    def _look_property(self, word: str, number: int | None) -> None:
        state = self.state
        if word == "plain":
            state.deleted, state.bold, state.half_points = False, False, _DEFAULT_HALF_POINTS
            state.associated_bold, state.associated_half_points = False, 0
        elif word in ("b", "ab"):
            setattr(state, "bold" if word == "b" else "associated_bold", number != 0)
        elif number is not None and number > 0:
            setattr(state, "half_points" if word == "fs" else "associated_half_points", number)

    def _font(self, word: str, number: int | None) -> None:
        """A font's number, or a property of the font table's font being defined."""
        state = self.state
        if word == "deff" and number is not None:
            self.default_font = number
        elif word == "f" and number is not None:
            if state.destination == "fonttbl":
                state.definition = number
            else:
                state.font = number
        elif state.destination != "fonttbl" or state.definition is None:
            return
        elif word == "fmodern":
            self.fixed_pitch.add(state.definition)
        elif word == "fcharset" and number is not None and number in CHARSET_CODEPAGES:
            self.font_codepages[state.definition] = CHARSET_CODEPAGES[number]
        elif word == "cpg" and number:
            self.font_codepages[state.definition] = number

    def _symbol(self, symbol: str) -> None:
        if self.skip_chars:
            self.skip_chars -= 1
            return
        if symbol == "*":
            self.ignorable_next = True
        elif symbol in ("\n", "\r"):
            self._paragraph_break()
        elif symbol in CONTROL_SYMBOLS:
            self._emit(CONTROL_SYMBOLS[symbol])

    def _open_page_part(self) -> None:
        """Start a header or footer in the group just opened, closing the groups of one left open."""
        if self.part_depth and len(self.stack) > self.part_depth:
            del self.stack[self.part_depth :]  # the new part's parent is the unclosed part's
            self.state = replace(self.stack[-1])
        self.part_depth = len(self.stack)

    def _close_group(self) -> None:
        if len(self.stack) == self.part_depth:
            self.part_depth = 0
        written = ""
        if self.math is not None and len(self.stack) > self.math.depth:
            self.math.close(len(self.stack))
        elif self.math is not None:  # the {\\mmath} group itself: its LaTeX goes in the text where it stands
            written, self.math = self.math.latex(), None
        self.skip_chars = 0
        self.ignorable_next = False
        destination = self.state.destination
        closing = not self.stack or self.stack[-1].destination != destination
        written = written or (self._close_destination(destination) if closing else "")
        if self.stack:
            self.state = self.stack.pop()
        if written:  # in the text around the group, once its own state is gone
            self._emit(written)
            self.equations.add(written)

    def _close_destination(self, destination: str) -> str:
        """A destination's group closes: what it held goes where it belongs; what it writes into the text (an
        embedded equation) is returned."""
        if destination == "footnote":
            self._cite_note()
        elif destination == "shptxt":
            self._cite_box()
        elif destination == "listtext":
            self._list_label()
        elif destination == "pict":
            self._cite_picture()
        elif destination == "object":
            return self._object_equation()
        return ""

    def _object_equation(self) -> str:
        """An embedded Equation Editor object (`{\\object{\\*\\objclass Equation.3}{\\*\\objdata …}}`) as `$…$`."""
        if not "".join(self.object_class).strip().startswith(EQUATION_OBJECTS):
            return ""
        try:
            data = bytes.fromhex(_NOT_HEX.sub(b"", bytes(self.object_data)).decode("ascii"))
        except ValueError:  # an odd number of digits: cut short
            return ""
        latex = ole_equation_latex(ole1_native_data(data))
        return f"${latex}$" if latex else ""

    def _cite_note(self) -> None:
        """Close a footnote: its mark goes in the text citing it, its paragraph waits for that text's block."""
        endnote = self.state.endnote
        self.cited_count[endnote] += 1
        mark = f"[^{format_number(self.cited_count[endnote], 'lowerRoman' if endnote else 'decimal')}]"
        self.body.text.append(mark)
        text = _lines("".join(self.notes.text))
        self.notes.text.clear()
        if text:
            self.cited_notes.append(Paragraph(text=f"{mark}: {text}", page=1))

    def _cite_box(self) -> None:
        """Close a text box: its lines, each a paragraph, wait for the block holding the shape."""
        text = _lines("".join(self.box.text))
        self.box.text.clear()
        self.cited_boxes += [Paragraph(text=line, page=1) for line in text.split("\n") if line]

    def _cite_picture(self) -> None:
        """Close a picture: a PNG or JPEG waits as an image for the block holding it (a metafile is not read)."""
        hex_digits, self.picture = bytes(self.picture), bytearray()
        if not self.picture_kind or self.collector is None:
            return
        try:
            data = self.picture_bin or bytes.fromhex(_NOT_HEX.sub(b"", hex_digits).decode("ascii")[:MAX_PICTURE_HEX])
        except ValueError:  # an odd number of digits: cut short
            return
        image = self.collector.image_of(data, page=1)
        if image is not None:
            self.cited_pictures.append(image)

    def _place_cited_notes(self) -> None:
        self.body.blocks.extend(self.cited_pictures)
        self.body.blocks.extend(self.cited_notes)
        self.body.blocks.extend(self.cited_boxes)
        self.cited_pictures.clear()
        self.cited_notes.clear()
        self.cited_boxes.clear()

    def _list_label(self) -> None:
        """A {\\listtext} label: kept in front of the item when it is a number, dropped when it is a bullet glyph."""
        label = " ".join("".join(self.list_label).split())
        self.list_label.clear()
        if _NUMBER_LABEL.search(label):
            self._output().text.append(label + " ")

    def _paragraph_break(self) -> None:
        if self.state.skip or self.state.destination not in ("", "footnote", "shptxt"):
            return
        if self.state.in_table or self.state.destination in ("footnote", "shptxt"):  # a line of a cell, note or box
            self._output().text.append("\n")
            return
        self._end_table()
        self._end_paragraph()

    def _end_paragraph(self) -> None:
        raw = "".join(self.body.text)
        text = _lines(raw)
        self.body.text.clear()
        if text in self.equations and not text.startswith("$$"):  # an equation alone in its paragraph is displayed
            text = f"${text}$"
        self.equations.clear()
        other, monospace = self.paragraph_fonts
        self.paragraph_fonts = [0, 0]
        set_as, self.paragraph_set = self.paragraph_set, Counter()
        if not text:
            if self.state.destination == "" and self._monospace():  # an empty line inside a code block
                self.code.add(self.body.blocks, "", 1)
            if not self.state.in_table:  # a picture in a paragraph of its own
                self.body.blocks.extend(self.cited_pictures)
                self.cited_pictures.clear()
            return
        self.text_chars += other + monospace
        level = self._heading_level()
        if not level and monospace and not other:
            self.code_chars += monospace
            self.code.add(self.body.blocks, _join_surrogates(raw), 1, self.state.list_level)
            self._place_cited_notes()
            return
        if level and len(text) < 300:
            self.body.blocks.append(Heading(text=text.replace("\n", " "), level=level, page=1))
        else:
            look = Look.of(set_as)
            if self.state.list_level is None and look is not None:
                self.looks[len(self.body.blocks)] = look
            self.body.blocks.append(Paragraph(text=text, page=1, list_level=self.state.list_level))
        self._place_cited_notes()

    def _heading_level(self) -> int | None:
        name = "".join(self.style_names.get(self.state.style, [])).strip(" ;")
        match = _HEADING_STYLE.match(name)
        if match and self.state.style:
            return max(1, min(int(match.group(1)), 6))
        if name.lower() == "title" and self.state.style:
            return 1
        outline = self.state.outline
        return outline + 1 if outline is not None and 0 <= outline < 6 else None

    def _end_cell(self) -> None:
        text = _lines("".join(self.body.text))
        self.body.text.clear()
        self.cells.append(text)

    def _end_row(self) -> None:
        if self.body.text and "".join(self.body.text).strip():
            self._end_cell()
        self.body.text.clear()
        if self.cells:
            self.rows.append(self.cells)
        self.cells = []

    def _end_table(self) -> None:
        if self.cells:
            self._end_row()
        if self.rows and any(text for row in self.rows for text in row):
            self.body.blocks.append(table_from_rows(self.rows, page=1, header_rows=0))
            self._place_cited_notes()
        self.rows = []


def _prose(block: Block) -> list[Block]:
    """A code block as the paragraphs it would be without the monospace rule: a line each, spaces collapsed."""
    if isinstance(block, Paragraph) and block.code:
        return [replace(block, text=line, code=False) for line in _lines(block.text).split("\n") if line]
    return [block]


def _lines(text: str) -> str:
    """Text with surrogates joined, each line's whitespace collapsed, empty lines dropped."""
    joined = _join_surrogates(text)
    return "\n".join(" ".join(line.split()) for line in joined.split("\n") if line.strip())


def _join_surrogates(text: str) -> str:
    """\\uN escapes give UTF-16 code units; pairs become one character, lone halves are dropped."""
    if not any("\ud800" <= char <= "\udfff" for char in text):
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "ignore")
