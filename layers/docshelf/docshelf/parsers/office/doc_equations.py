"""The equations of a Word 97-2003 file. An embedded OLE object is an EMBED field whose separator (0x14, its run
setting sprmCFOle2) names the object's storage in the ObjectPool by sprmCPicLocation (`_` and that number); the
field's result is the object's picture character (0x01). An Equation Editor object keeps its equation in an
`Equation Native` stream, read as LaTeX (parsers/office/mtef.py). In the text the picture character becomes a
placeholder, one character long so that every position stays, and the blocks read from the text take the LaTeX in
its place: `$…$` within text, `$$…$$` alone in a paragraph (a displayed equation)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from docshelf.model import Block, Heading, Paragraph, Table
from docshelf.parsers.office.doc_pictures import PICTURE, special_character_values
from docshelf.parsers.office.doc_props import Piece, sprms
from docshelf.parsers.office.mtef import EQUATION_STREAM, equation_latex

SPRM_OLE2 = 0x080A  # sprmCFOle2: the character is an embedded OLE object
SPRM_PIC_LOCATION = 0x6A03  # for an OLE object, the number of its ObjectPool storage
FIELD_SEPARATOR, FIELD_END = "\x14", "\x15"
_PLACEHOLDERS = 0x100000  # Supplementary Private Use Area-B: never a Word document's own character


def object_storage(number: int) -> str:
    """The ObjectPool storage of an embedded object, as olefile names it."""
    return f"ObjectPool/_{number}/{EQUATION_STREAM}"


def equations(
    word_document: bytes, table: bytes, pieces: list[Piece], text: str, natives: Mapping[str, bytes]
) -> tuple[str, dict[str, str]]:
    """`text` with each equation object's character replaced by a placeholder, and the LaTeX of each placeholder."""
    if not natives or PICTURE not in text:
        return text, {}
    objects = special_character_values(word_document, table, pieces, text, _object_number, FIELD_SEPARATOR)
    characters = list(text)
    found: dict[str, str] = {}
    for separator, number in sorted(objects.items()):
        cp = text.find(PICTURE, separator, max(text.find(FIELD_END, separator), separator))
        native = natives.get(object_storage(number))
        latex = equation_latex(native) if native is not None and cp > separator else None
        if latex:
            placeholder = chr(_PLACEHOLDERS + len(found))
            characters[cp] = placeholder
            found[placeholder] = latex
    return "".join(characters), found


def _object_number(grpprl: bytes) -> int | None:
    found = sprms(grpprl)
    if found.get(SPRM_OLE2, b"\0")[:1] == b"\0" or len(found.get(SPRM_PIC_LOCATION, b"")) != 4:
        return None
    return int.from_bytes(found[SPRM_PIC_LOCATION], "little")


def placed_equations(blocks: list[Block], latex: Mapping[str, str]) -> list[Block]:
    """The blocks with each placeholder's equation in its place."""
    if not latex:
        return blocks
    return [_placed(block, latex) for block in blocks]


def _placed(block: Block, latex: Mapping[str, str]) -> Block:
    if isinstance(block, Paragraph | Heading):
        alone = block.text.strip()
        if isinstance(block, Paragraph) and alone in latex:
            return replace(block, text=f"$${latex[alone]}$$")
        return replace(block, text=_inline(block.text, latex))
    if isinstance(block, Table):
        cells = tuple(replace(cell, text=_inline(cell.text, latex)) for cell in block.cells)
        return replace(block, cells=cells)
    return block


def _inline(text: str, latex: Mapping[str, str]) -> str:
    if not any(character in latex for character in text):
        return text
    return "".join(f"${latex[character]}$" if character in latex else character for character in text)
